"""The one definition of how the methods compared on the Metrics page, in the reference
results, the report and the verdict are named for a reader.

Two things called "tf-idf" must never be confused: the tf-idf *keyword metric* (a weighting of
step 4, one metric among the 13 of :data:`dkw_core.metrics.METRICS`, whose keyword vectors feed
the classifier) and the tf-idf + LinearSVC *classifier* on the documents' full text (the
baseline a reader would use instead, run kind ``baseline-tfidf``, :mod:`.baselines`). Every
table keeps the internal ids (``tf-idf``, ``baseline-tfidf``, ``baseline-bow``, the metric
names) and shows :func:`method_name`.
"""
from __future__ import annotations

#: Run kinds of the two bag-of-words baselines (:mod:`.baselines`), the ids they carry in the
#: per-document comparison tables beside the metric names.
TFIDF_CLASSIFIER = "baseline-tfidf"
BOW_KEYWORDS = "baseline-bow"
BASELINE_KINDS: tuple[str, ...] = (TFIDF_CLASSIFIER, BOW_KEYWORDS)

#: Display names of the ids that a bare id would let a reader misread.
METHOD_NAMES: dict[str, str] = {
    "tf-idf": "tf-idf (keyword metric)",
    TFIDF_CLASSIFIER: "tf-idf + LinearSVC (classifier)",
    BOW_KEYWORDS: "bag-of-words keywords + LinearSVC (classifier)",
}


def method_name(method: str) -> str:
    """How a metric or baseline id reads for a reader (the id itself when unambiguous)."""
    return METHOD_NAMES.get(str(method), str(method))


def is_baseline(method: str) -> bool:
    """Whether ``method`` is one of the bag-of-words baselines rather than a keyword metric."""
    return str(method) in BASELINE_KINDS
