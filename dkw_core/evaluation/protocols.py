"""The two evaluation protocols (docs/method.md §3) and the labelled record every F1 carries.

* ``label-aware`` — the paper's protocol: every document, test documents included, is
  weighted with its own gold category. Reproduces the paper's numbers; it writes the test
  label into the test document's keyword vector, so it is not a deployable score.
* ``label-free`` — the deployable protocol: test documents are weighted without their label
  (maximum of the metric over categories, computed inside ``KeywordModel.rank``), all
  statistics from the training split only. Training documents are ranked the same way so
  train and test vectors come from one distribution.

:func:`evaluate_model` never reads the test labels before the predictions are made: the
test vectors come from ``model.rank("test", ...)`` (label-free does not read labels there)
and ``model.labels("test")`` is only read to score.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .. import config
from ..errors import InputError
from ..types import (  # one definition of the protocols, re-exported here
    POSTERIOR_PROTOCOLS,
    PROTOCOLS,
    check_protocol,
)
from .classifiers import CLASSIFIER_LABELS, CLASSIFIERS, DEFAULT_CLASSIFIER, Scores, fit_predict, score_predictions
from .names import BASELINE_KINDS, METHOD_NAMES

KINDS: tuple[str, ...] = ("method", "baseline-tfidf", "baseline-bow", "search", "extractor")
#: How a run kind is named to a reader where it stands beside keyword methods (one definition).
KIND_LABELS: dict[str, str] = {kind: METHOD_NAMES[kind] for kind in BASELINE_KINDS}  # names.py: one definition
#: Fixed settings of the method that a stored number depends on beyond its RunConfig; they
#: enter every run's settings hash. Change a value here when the method changes.
METHOD_SETTINGS: dict = {
    "cv_statistics": "fold-local",  # Algorithm 2's CV counts statistics on each fold's training part
    "max_phrase_len": 5,            # candidate phrases of at most 5 tokens (paper §3.1)
    "vocabulary": "wordfreq top 20000 ∩ vectors",
    "document_vector": "normalised sum of keyword vectors",
}


def dkw_version() -> str:
    """The dkw version recorded with every stored run."""
    from ..version import __version__

    return __version__


def check_classifier(classifier: str) -> str:
    if classifier not in CLASSIFIERS:
        raise InputError(f"unknown classifier {classifier!r}; choose one of {', '.join(CLASSIFIERS)}")
    return classifier


@dataclass
class RunConfig:
    """Everything that identifies one evaluation run; its hash keys the results store."""

    dataset: str
    corpus_key: str
    vectors: str
    protocol: str
    metric: str
    k: int
    top: int
    classifier: str = DEFAULT_CLASSIFIER
    split: str = "test"
    kind: str = "method"
    sample: int | None = None  # documents per category per split (corpus.head(N)); None = full corpus
    options: dict = field(default_factory=dict)  # e.g. neighbours, search grids and seed

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InputError(f"unknown run kind {self.kind!r}; one of {', '.join(KINDS)}")
        if self.protocol not in PROTOCOLS and self.protocol != "none":
            check_protocol(self.protocol)
        check_classifier(self.classifier)

    def settings_hash(self) -> str:
        """Hash of every method-relevant setting: this configuration plus the fixed settings of
        the method (:data:`METHOD_SETTINGS`; under label-free-posterior also the posterior
        classifier's, ``keywords/posterior.py``). Independent of the dkw version."""
        method = dict(METHOD_SETTINGS)
        if config.prepare_tagger() == "fast":  # a corpus tagged by the fast tagger (spaCy-tagged runs keep their hash)
            from ..fasttagger import model_id

            method["tagger"] = f"fast-{model_id()}"  # its weights: retrained ones tag otherwise
        if self.protocol in POSTERIOR_PROTOCOLS:  # the posterior classifier's settings and fold scheme
            from ..keywords.posterior import FOLD_SCHEME, SETTINGS

            method["posterior"] = {**SETTINGS, "algorithm_2": FOLD_SCHEME}
        blob = json.dumps({"run": asdict(self), "method": method}, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def config_hash(self, version: str | None = None) -> str:
        """Key of the run in the results store: the settings hash under a dkw version (default:
        this one), so a run stored by another version is never reused as a cache hit."""
        blob = f"{version or dkw_version()}|{self.settings_hash()}"
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def label(self) -> str:
        """Human label every printed F1 carries: protocol, split, vectors, K, N, metric, classifier."""
        clf = CLASSIFIER_LABELS.get(self.classifier, self.classifier)
        if self.kind == "baseline-tfidf":
            what = "tf-idf (sublinear) on the full text, no vectors"
        elif self.kind == "baseline-bow":
            what = f"bag-of-words keyword sets, N={self.top}, metric={self.metric}, no vectors"
        elif self.kind == "extractor":
            what = (f"{self.metric} keywords ({self.options.get('method_kind', 'extractor')}, "
                    f"{self.options.get('reads', 'reads ?')}), N={self.top}, vectors={self.vectors}")
        else:
            what = f"vectors={self.vectors}, K={self.k}, N={self.top}, metric={self.metric}"
            if self.options.get("neighbours"):
                what += f", neighbours={self.options['neighbours']}"
        proto = (self.protocol if self.protocol != "none" else
                 "unknown what the keywords read" if self.kind == "extractor" else "no keyword weighting")
        sample = f", sample={self.sample}/category" if self.sample else ""
        if not standard(self.options):  # a variant stored by an older dkw (docs/results/20ng.json holds one)
            what += f", {run_variant(self.options, neighbours=False)}"
        return f"[{proto}] {self.dataset} {self.split} split{sample}, {what}, classifier={clf}"


@dataclass
class RunResult:
    """Scores of one run (fractions in [0, 1]) with its configuration and timings."""

    config: RunConfig
    scores: Scores
    seconds: dict[str, float] = field(default_factory=dict)
    cached: bool = False
    details: dict = field(default_factory=dict)  # e.g. search trace
    key: RunConfig | None = None  # the configuration the run is looked up by, when it differs from ``config``
                                  # (a search run is keyed by its grid, stored with the chosen K/metric/N)

    @property
    def micro_f1(self) -> float:
        return self.scores.micro_f1

    @property
    def macro_f1(self) -> float:
        return self.scores.macro_f1

    def summary(self) -> dict:
        """The documented JSON keys (F1 as percentages) plus the labelling fields."""
        c = self.config
        return {
            "micro_f1": round(100 * self.scores.micro_f1, 2),
            "macro_f1": round(100 * self.scores.macro_f1, 2),
            "protocol": c.protocol,
            "dataset": c.dataset,
            "metric": c.metric,
            "k": c.k,
            "top": c.top,
            "classifier": c.classifier,
            "split": c.split,
            "vectors": c.vectors,
            "neighbours": c.options.get("neighbours", "cosine"),
            "kind": c.kind,
            "sample": c.sample,
            "label": c.label(),
            "cached": self.cached,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
        }


def document_vectors(model, split: str, *, metric: str, k: int, top: int, protocol: str) -> np.ndarray:
    """Keyword-sum document vectors of a split (paper §4.2.1), ranked under ``protocol``."""
    idx = model.rank(split, metric=metric, k=k, top=top, protocol=protocol)
    return np.asarray(model.document_vectors(idx))


def evaluate_model(model, *, metric: str, k: int, top: int, protocol: str, classifier: str = DEFAULT_CLASSIFIER
                   ) -> tuple[Scores, dict[str, float], np.ndarray]:
    """Train ``classifier`` on the training split's document vectors, score the test split; both
    splits are ranked under ``protocol``. Returns (scores, timings in seconds, test predictions).
    The test labels are read only after the predictions exist."""
    return evaluate_tops(model, metric=metric, k=k, tops=[top], protocol=protocol, classifier=classifier)[int(top)]


STANDARD = "standard"
"""The variant of a run without non-default evaluation options."""


def run_variant(options: Any, *, neighbours: bool = True) -> str:
    """A run's non-default evaluation options as one short label (:data:`STANDARD` when none),
    so that variants (another neighbours spec; hypothesis decoding and label-aware training
    documents, which older dkw versions stored: docs/results/20ng.json holds one) are tabled and
    charted apart, never mixed. The one wording the app's charts and the Markdown report share;
    ``neighbours=False`` leaves the neighbours spec out (where the table names it with the vectors)."""
    if not isinstance(options, dict):
        return STANDARD
    parts = []
    if options.get("decoding"):
        parts.append(f"decoding {options['decoding']}")
    if options.get("train_protocol"):
        parts.append(f"training documents {options['train_protocol']}")
    if neighbours and options.get("neighbours"):
        parts.append(f"neighbours {options['neighbours']}")
    return ", ".join(parts) or STANDARD


def standard(options: Any) -> bool:
    """Whether a stored run is no variant (:func:`run_variant`; a neighbours spec aside): the one
    test every comparison, verdict and reference table applies before it pairs runs."""
    return run_variant(options, neighbours=False) == STANDARD


def evaluate_tops(model, *, metric: str, k: int, tops, protocol: str, classifier: str = DEFAULT_CLASSIFIER
                  ) -> dict[int, tuple[Scores, dict[str, float], np.ndarray]]:
    """:func:`evaluate_model` for several N at one (metric, K): the training and test splits are
    ranked once with ``top = max(tops)`` and every N takes the first N keywords of that ranking
    (the same keywords as ranking with ``top = N``)."""
    check_protocol(protocol)
    check_classifier(classifier)
    tops = sorted({int(n) for n in tops})
    if not tops or tops[0] < 1:
        raise InputError("N must be a positive number of keywords")
    t0 = time.perf_counter()
    idx_train = model.rank("train", metric=metric, k=k, top=tops[-1], protocol=protocol)
    idx_test = model.rank("test", metric=metric, k=k, top=tops[-1], protocol=protocol)
    ranked = time.perf_counter() - t0
    out = {}
    for n in tops:
        t1 = time.perf_counter()
        X_train = np.asarray(model.document_vectors(np.ascontiguousarray(idx_train[:, :n])))
        X_test = np.asarray(model.document_vectors(np.ascontiguousarray(idx_test[:, :n])))
        y_pred = fit_predict(X_train, model.labels("train"), X_test, classifier=classifier)
        scores = score_predictions(model.labels("test"), y_pred, list(model.categories))
        out[n] = (scores, {"keywords": ranked / len(tops), "classify": time.perf_counter() - t1}, y_pred)
    return out
