"""The few warnings dkw expects from scikit-learn and SciPy, silenced by category and message
(never every warning): anything else a library says still reaches the user and the tests.

* ``ConvergenceWarning`` — liblinear stops at ``max_iter`` on tiny or degenerate samples (tests,
  Algorithm 2's smallest subsamples); the fit is used as it is, as scikit-learn does.
* "The least populated class in y has only …" — stratified k-fold with a category smaller than
  the number of folds (R52 has categories with one training document); those documents are
  still assigned to folds.
* "Variables are collinear" — LDA on a few keyword vectors.
* "Sample size too small for normal approximation" and "Exact p-value calculation does not work
  if there are ties/zeros" — SciPy's Wilcoxon on a handful of paired runs; dkw reports the
  normal approximation's z beside the exact p.
"""
from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["fit_warnings_expected", "wilcoxon_warnings_expected"]

_FIT_MESSAGES = (r"The least populated class in y has only", r"Variables are collinear")
_WILCOXON_MESSAGES = (r"Sample size too small for normal approximation", r"Exact p-value calculation does not work")


@contextmanager
def fit_warnings_expected() -> Iterator[None]:
    """Silence scikit-learn's convergence, small-class and collinearity warnings inside the block."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        for message in _FIT_MESSAGES:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        yield


@contextmanager
def wilcoxon_warnings_expected() -> Iterator[None]:
    """Silence SciPy's small-sample and ties warnings of the Wilcoxon test inside the block."""
    with warnings.catch_warnings():
        for message in _WILCOXON_MESSAGES:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        yield
