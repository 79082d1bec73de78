"""Leak check: does a protocol's prediction follow a label written into the test documents?

Every test document gets a random *wrong* category (uniform over the categories other than its
gold one, seeded). Under the label-aware protocol (the paper's) its keywords are ranked with
that wrong category, exactly as the paper ranks them with the gold one; the classifier,
trained as in :func:`~dkw_core.evaluation.protocols.evaluate_model` on the training split,
then predicts. The share of predictions equal to the injected wrong category measures how
much of the label-aware F1 is the label read back: a representation that carried only the
text would follow a random wrong label about as often as chance.

Beside it: the same share for the label-free protocol (its test vectors never read a label,
so it can only follow the wrong label by coincidence), the **expected share without a leak**
and the chance level. A classifier that ignores the injected label is right on the gold
category ``accuracy`` % of the time and otherwise spread over the C − 1 other categories, of
which the injected one is a uniform draw: it lands on the injected label about
``(100 − accuracy) / (C − 1)`` % of the time (:func:`expected_no_leak`, with the label-free
accuracy, since that representation reads no label). "No leak" means a share near that
level, not near chance ``100 / C`` (a uniformly random prediction). Figures are percentages of
the test documents. See docs/method.md (evaluation protocols).
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
    follow_wrong_label_free: float    # same share for label-free vectors (no label read)
    chance: float                     # 100 / categories
    expected_no_leak: float           # (100 - label-free accuracy) / (categories - 1)
    gold_label_aware: float           # % still predicted as the gold category despite the wrong label
    gold_label_free: float            # label-free accuracy (% predicted as gold)
    categories: int
    test_documents: int
    classifier: str = DEFAULT_CLASSIFIER
    vectors: str = ""
    sample: int | None = None
    seed: int = 0

    def to_dict(self) -> dict:
        out = asdict(self)
        for key in ("follow_wrong_label_aware", "follow_wrong_label_free", "chance", "expected_no_leak",
                    "gold_label_aware", "gold_label_free"):
            out[key] = round(float(out[key]), 2)
        out["label"] = (f"{self.dataset} test split{f', sample={self.sample}/category' if self.sample else ''}, "
                        f"vectors={self.vectors}, K={self.k}, N={self.top}, metric={self.metric}, "
                        f"classifier={self.classifier}: random wrong category injected into every test document")
        return out


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
               dataset: str | None = None, sample: int | None = None) -> LeakCheck:
    """Run the leak check on a prepared ``KeywordModel`` (see the module docstring)."""
    from .classifiers import check_evaluable

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
    # label-free: no label read for any test document
    X_tr = document_vectors(model, "train", metric=metric, k=k, top=top, protocol="label-free")
    X_te = document_vectors(model, "test", metric=metric, k=k, top=top, protocol="label-free")
    pred_free = fit_predict(X_tr, y_train, X_te, classifier=classifier)
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
        seed=int(seed),
    )
