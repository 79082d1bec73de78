"""dkw_core/validation.py: one check per numeric option, shared by the CLI, the library and the pages."""
from __future__ import annotations

import pytest

from dkw_core.errors import InputError
from dkw_core.neighbours import check_neighbours
from dkw_core.validation import (
    MAX_K,
    MAX_TOP,
    check_count,
    check_k,
    check_k_max,
    check_seed,
    check_top,
)


@pytest.mark.parametrize("call,message", [
    (lambda: check_top(-1), "N must be between 1 and"),
    (lambda: check_top(0), "N must be between 1 and"),
    (lambda: check_top(MAX_TOP + 1), "N must be between 1 and"),
    (lambda: check_top(True), "N must be an integer"),
    (lambda: check_top(2.5), "N must be an integer"),
    (lambda: check_k(0), "K must be between 1 and"),
    (lambda: check_k(1_000_000_000), f"K must be between 1 and {MAX_K}"),
    (lambda: check_k(91, 90, why="the prepared k_max"), "(the prepared k_max), got 91"),
    (lambda: check_k(90, 65, vocabulary="vec-x"), "cropped vocabulary of vec-x), got 90 (the default K"),
    (lambda: check_k_max(19_999, 19_682, vectors="vec-y"), "K and k_max must be between 1 and 19682"),
    (lambda: check_neighbours("abtt-d9999", dim=50), "D of abtt-d9999 must be between 0 and 49"),
    (lambda: check_neighbours("csls-k99999"), "CSLS neighbourhood k of csls-k99999"),
    (lambda: check_neighbours("csls-k70", vocabulary_size=65), "must be between 1 and 64"),
    (lambda: check_seed(-1), "--seed must be between 0 and"),
    (lambda: check_count("--cv-folds", 1, 2, 100), "--cv-folds must be between 2 and 100, got 1"),
])
def test_out_of_range_values_are_refused_in_one_line(call, message):
    with pytest.raises(InputError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_values_in_range_come_back_as_ints():
    assert check_top(10) == 10 and check_k(90, 90) == 90 and check_k_max(65, 65) == 65
    assert check_neighbours("abtt-d3", dim=50) == "abtt-d3" and check_neighbours("csls") == "csls-k10"
    assert check_count("x", 0, 0) == 0 and check_seed(0) == 0
