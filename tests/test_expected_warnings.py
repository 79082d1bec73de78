"""Tests for dkw_core/expected_warnings.py: the expected scikit-learn and SciPy warnings are
silenced, every other warning still gets through."""
from __future__ import annotations

import warnings

import pytest
from sklearn.exceptions import ConvergenceWarning

from dkw_core.expected_warnings import fit_warnings_expected, wilcoxon_warnings_expected


def test_expected_fit_warnings_are_silenced():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with fit_warnings_expected():
            warnings.warn("Liblinear failed to converge", ConvergenceWarning, stacklevel=1)
            warnings.warn("The least populated class in y has only 1 members, which is less than n_splits=5.",
                          UserWarning, stacklevel=1)
    assert seen == []


@pytest.mark.parametrize("manager", [fit_warnings_expected, wilcoxon_warnings_expected])
@pytest.mark.parametrize("category", [UserWarning, DeprecationWarning, RuntimeWarning])
def test_other_warnings_get_through(manager, category):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with manager():
            warnings.warn("something else", category, stacklevel=1)
    assert [w.category for w in seen] == [category]


def test_wilcoxon_small_sample_note_is_silenced():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with wilcoxon_warnings_expected():
            warnings.warn("Sample size too small for normal approximation.", UserWarning, stacklevel=1)
    assert seen == []
