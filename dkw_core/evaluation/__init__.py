"""Evaluation of discriminative keywords (paper §4, docs/method.md §1 steps 7–8 and §3).

Sub-modules:

* :mod:`.classifiers`   scikit-learn classifiers on document vectors, micro/macro F1, per-category scores
* :mod:`.protocols`     the evaluation protocols, the labelled F1 record (:class:`RunConfig`,
  :class:`RunResult`), :func:`evaluate_model`, a run's variant label
* :mod:`.search`        Algorithm 2 (successive filtering of (K, metric, N) setups)
* :mod:`.experiments`   end-to-end runs (load, prepare, evaluate, store): :func:`load_experiment`,
  :func:`run_method`, :func:`run_search`, :func:`run_tfidf`, :func:`run_bow`
* :mod:`.baselines`     tf-idf + LinearSVC on the full text, bag-of-words keyword sets
* :mod:`.results`       SQLAlchemy results store (cache of runs) + ``load_runs`` reader for the app
* :mod:`.significance`  Wilcoxon signed-rank and sign tests between metrics (paper appendix D)
* :mod:`.leakcheck`     share of predictions that follow a wrong label written into each test document
* :mod:`.reference`     the reference results shipped in ``docs/results/``
* :mod:`.names`         the display names of the methods compared (the tf-idf keyword metric vs the
  tf-idf + LinearSVC classifier)
* :mod:`.verdict`       one corpus and protocol in one paragraph: best metric, F1 with CI, against
  the runner-up and the tf-idf + LinearSVC classifier with CI and Holm p
* :mod:`.estimator`     scikit-learn transformer :class:`DiscriminativeKeywordVectorizer`
* :mod:`.report`        Markdown tables of stored runs

The command line is :mod:`dkw_core.cli.evaluation`; every other name is imported from its
sub-module. The package's one name, the estimator, is loaded on first use (it pulls in
scikit-learn). Nothing here imports streamlit.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .estimator import DiscriminativeKeywordVectorizer

__all__ = ["DiscriminativeKeywordVectorizer"]


def __getattr__(name: str) -> Any:
    if name == "DiscriminativeKeywordVectorizer":
        return import_module(".estimator", __name__).DiscriminativeKeywordVectorizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
