"""Leak check: does a protocol's prediction follow a label written into the test documents?

Every test document gets a random *wrong* category (uniform over the categories other than its
gold one, seeded). Under the label-aware protocol (the paper's) its keywords are ranked with
that wrong category, exactly as the paper ranks them with the gold one; the classifier,
trained as in :func:`~dkw_core.evaluation.protocols.evaluate_model` on the training split,
then predicts. The share of predictions equal to the injected wrong category measures how
much of the label-aware F1 is the label read back: a representation that carried only the
text would follow a random wrong label about as often as chance.

Beside it: the same share for a deployable protocol (``protocol``: label-free by default, or
the protocol whose choice is checked — label-free-top1, label-free-posterior): its test
vectors are ranked with the same wrong labels handed in, which it must not read, so it can only
follow the wrong label by coincidence. The ``…_label_free`` fields hold that protocol's figures
(its name in ``protocol``). Then the **expected share without a leak**
and the chance level. A classifier that ignores the injected label is right on the gold
category ``accuracy`` % of the time and otherwise spread over the C − 1 other categories, of
which the injected one is a uniform draw: it lands on the injected label about
``(100 − accuracy) / (C − 1)`` % of the time (:func:`expected_no_leak`, with the label-free
accuracy, since that representation reads no label). "No leak" means a share near that
level, not near chance ``100 / C`` (a uniformly random prediction). Figures are percentages of
the test documents. :func:`verdict` says it in one line, :data:`PLAIN_COLUMNS` names the
columns for a reader. See docs/method.md (evaluation protocols).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..errors import InputError
from .classifiers import DEFAULT_CLASSIFIER, fit_predict
from .protocols import check_classifier, document_vectors


@dataclass
class LeakCheck:
    dataset: str
    metric: str
    k: int
    top: int
    follow_wrong_label_aware: float   # % of test documents predicted as the injected wrong category
    follow_wrong_label_free: float    # same share for the deployable protocol's vectors (no label read)
    chance: float                     # 100 / categories
    expected_no_leak: float           # (100 - label-free accuracy) / (categories - 1)
    gold_label_aware: float           # % still predicted as the gold category despite the wrong label
    gold_label_free: float            # the deployable protocol's accuracy (% predicted as gold)
    categories: int
    test_documents: int
    classifier: str = DEFAULT_CLASSIFIER
    vectors: str = ""
    sample: int | None = None
    seed: int = 0
    protocol: str = "label-free"      # the deployable protocol of the ``…_label_free`` fields

    def to_dict(self) -> dict:
        out = asdict(self)
        for key in ("follow_wrong_label_aware", "follow_wrong_label_free", "chance", "expected_no_leak",
                    "gold_label_aware", "gold_label_free"):
            out[key] = round(float(out[key]), 2)
        out["label"] = (f"{self.dataset} test split{f', sample={self.sample}/category' if self.sample else ''}, "
                        f"vectors={self.vectors}, K={self.k}, N={self.top}, metric={self.metric}, "
                        f"classifier={self.classifier}: random wrong category injected into every test document; "
                        f"label-aware against {self.protocol}")
        out["verdict"] = verdict(out)
        return out


#: The leak check's fields as a reader's column names (percent of the test documents).
PLAIN_COLUMNS: dict[str, str] = {
    "dataset": "corpus", "setup": "setup checked", "metric": "metric", "k": "K", "top": "N",
    "protocol": "deployable protocol",
    "follow_wrong_label_aware": "follows the wrong label, label-aware (%)",
    "follow_wrong_label_free": "follows the wrong label, deployable protocol (%)",
    "expected_no_leak": "expected without a leak (%)", "chance": "chance (%)",
    "gold_label_aware": "still right, label-aware (%)", "gold_label_free": "right, deployable protocol (%)",
    "verdict": "verdict", "source": "source",
}
#: A share reads as a leak when a one-sided binomial test puts it above the expected level at
#: this p (over the check's test documents); without their count, when it lies more than
#: :data:`NO_LEAK_MARGIN` points above.
LEAK_ALPHA = 0.01
NO_LEAK_MARGIN = 1.0


def above_expected(share: float, expected: float, documents: int | None) -> bool:
    """Whether ``share`` (percent of ``documents``) lies above the ``expected`` percent by more
    than chance: ``scipy.stats.binomtest`` one-sided at :data:`LEAK_ALPHA` (a tiny test split
    wanders a few points by chance), or :data:`NO_LEAK_MARGIN` points without the count."""
    if not documents:
        return share > expected + NO_LEAK_MARGIN
    from scipy.stats import binomtest

    hits = int(round(share * documents / 100))
    p = min(1.0, max(0.0, expected / 100))
    return bool(binomtest(hits, int(documents), p, alternative="greater").pvalue < LEAK_ALPHA)


def verdict(check: dict) -> str:
    """One line on a leak check's figures: whether the label-aware protocol follows the injected
    wrong label and whether the deployable protocol stays at the level expected without a leak
    (:func:`above_expected`)."""
    protocol = check.get("protocol") or "label-free"
    level = check.get("expected_no_leak")
    if level is None or level != level:  # older checks without it: chance is the only level at hand
        level = check["chance"]
    expected = float(level)
    n = check.get("test_documents")
    documents = int(n) if n is not None and n == n else None
    aware, free = float(check["follow_wrong_label_aware"]), float(check["follow_wrong_label_free"])
    aware_text = (f"label-aware follows the wrong label on {aware:.1f} % of the documents (leak: it reads the label)"
                  if above_expected(aware, expected, documents) else f"label-aware {aware:.1f} %, no leak")
    free_text = (f"{protocol} {free:.1f} % against {expected:.1f} % expected: LEAK"
                 if above_expected(free, expected, documents)
                 else f"{protocol} {free:.1f} % against {expected:.1f} % expected without a leak: no leak")
    return f"{aware_text}; {free_text}"


def plain_table(checks):
    """Leak checks (rows as :meth:`LeakCheck.to_dict` or a reference file gives them) as a
    DataFrame with :data:`PLAIN_COLUMNS` and a verdict per row; rows of files written before
    the deployable protocol was recorded read ``label-free`` (what they ran)."""
    import pandas as pd

    frame = pd.DataFrame(checks).copy()
    if frame.empty:
        return pd.DataFrame(columns=list(PLAIN_COLUMNS.values()))
    if "protocol" not in frame.columns:
        frame["protocol"] = "label-free"
    frame["protocol"] = frame["protocol"].fillna("label-free")
    frame["verdict"] = [verdict(r) for r in frame.to_dict(orient="records")]
    cols = [c for c in PLAIN_COLUMNS if c in frame.columns]
    return frame[cols].rename(columns=PLAIN_COLUMNS)


def expected_no_leak(accuracy: float, categories: int) -> float:
    """Percent of test documents a classifier that ignores the injected wrong label still
    predicts as that label: ``(100 − accuracy) / (C − 1)`` (``accuracy`` in percent)."""
    if categories < 2:
        raise InputError("a leak check needs at least two categories")
    return (100.0 - float(accuracy)) / (categories - 1)


def wrong_labels(gold: np.ndarray, n_categories: int, *, seed: int = 0) -> np.ndarray:
    """A category different from ``gold[i]`` for every i, uniform over the other categories."""
    if n_categories < 2:
        raise InputError("a leak check needs at least two categories")
    rng = np.random.default_rng(seed)
    shift = rng.integers(1, n_categories, size=len(gold))
    return (np.asarray(gold) + shift) % n_categories


def leak_check(model, *, metric: str, k: int, top: int, classifier: str = DEFAULT_CLASSIFIER, seed: int = 0,
               dataset: str | None = None, sample: int | None = None, protocol: str = "label-free") -> LeakCheck:
    """Run the leak check on a prepared ``KeywordModel`` (see the module docstring): label-aware
    against the deployable ``protocol`` (one that reads no label)."""
    from ..types import reads_labels
    from .classifiers import check_evaluable

    if reads_labels(protocol):
        raise InputError(f"the leak check compares the label-aware protocol with a deployable one, not {protocol}")

    check_evaluable(model.categories, dataset or "the corpus")
    from ..metrics import get_metric

    get_metric(metric)
    check_classifier(classifier)
    if top < 1:
        raise InputError(f"N must be at least 1, got {top}")
    n_cat = len(model.categories)
    n_test = len(model.doc_ids("test"))
    if n_test == 0:
        raise InputError("the corpus has no test documents to check")
    y_train = model.labels("train")
    gold = model.labels("test")
    wrong = wrong_labels(gold, n_cat, seed=seed)
    # label-aware: training documents with their gold labels, test documents with the wrong one
    X_tr = document_vectors(model, "train", metric=metric, k=k, top=top, protocol="label-aware")
    idx = model.rank("test", metric=metric, k=k, top=top, protocol="label-aware", labels=wrong)
    pred_aware = fit_predict(X_tr, y_train, np.asarray(model.document_vectors(idx)), classifier=classifier)
    # the deployable protocol: handed the same wrong labels, which it must not read
    X_tr = document_vectors(model, "train", metric=metric, k=k, top=top, protocol=protocol)
    idx = model.rank("test", metric=metric, k=k, top=top, protocol=protocol, labels=wrong)
    pred_free = fit_predict(X_tr, y_train, np.asarray(model.document_vectors(idx)), classifier=classifier)
    vectors = getattr(getattr(model, "vectors", None), "name", "")
    corpus = getattr(model, "corpus", None)
    return LeakCheck(
        dataset=str(dataset or getattr(corpus, "name", "?")), metric=metric, k=int(k), top=int(top),
        follow_wrong_label_aware=100 * float(np.mean(pred_aware == wrong)),
        follow_wrong_label_free=100 * float(np.mean(pred_free == wrong)),
        chance=100 / n_cat,
        expected_no_leak=expected_no_leak(100 * float(np.mean(pred_free == gold)), n_cat),
        gold_label_aware=100 * float(np.mean(pred_aware == gold)),
        gold_label_free=100 * float(np.mean(pred_free == gold)),
        categories=n_cat, test_documents=n_test, classifier=classifier, vectors=str(vectors), sample=sample,
        seed=int(seed), protocol=protocol,
    )
