"""One validation of every numeric option: K, k_max, N (top), sample sizes, folds, seeds, process
counts (the neighbours spec and its parameter: :func:`dkw_core.neighbours.check_neighbours`).

The command line calls these from its argparse ``type=`` functions and its post-parse check
(:mod:`dkw_core.cli.options`), so every sub-command refuses a bad value before loading anything;
the library's entry points (``KeywordModel.keywords``, ``newtexts.text_keywords``, ``rank``,
``rank_texts``, ``category_keywords``, ``prepare``, the estimator) call them too, so the app's
pages get the same one-line :class:`~dkw_core.errors.InputError`. Pure functions: no I/O.

Limits known before anything is loaded: K and k_max at most :data:`MAX_K` (the cropped
vocabulary never holds more words), N at most :data:`MAX_TOP`. Limits known once the vectors
are loaded (before any tagging): K and k_max at most the cropped vocabulary's size, the
all-but-the-top D below the vectors' dimension, the CSLS k below the vocabulary's size.
"""
from __future__ import annotations

import numbers

from .errors import InputError
from .terminal import control_char
from .types import CROP_SIZE, DEFAULT_K, MAX_TOP

__all__ = ["MAX_K", "MAX_TOP", "MAX_SEED", "MAX_PROCESSES", "MAX_INVITE", "check_count", "check_k", "check_top",
           "check_k_max", "check_seed", "check_name"]

MAX_K = CROP_SIZE
"""The largest K (and k_max) any vector model allows: the cropped vocabulary's size limit."""
MAX_SEED = 2**31 - 1
"""Seeds are 0 … 2³¹ − 1 (NumPy refuses negative seeds; the study database stores 32-bit integers)."""
MAX_PROCESSES = 256
"""The most tagging processes ``--n-process`` may ask for."""
MAX_INVITE = 1000
"""The most judges ``study invite --count`` creates at once."""


def _integer(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise InputError(f"{name} must be an integer, got {value!r}")
    return int(value)


def check_count(name: str, value, lo: int = 1, hi: int | None = None, *, why: str = "") -> int:
    """``value`` as an int in ``[lo, hi]`` (no upper bound when ``hi`` is None), else one line
    naming the option, its range (and ``why`` the upper bound) and the value given."""
    n = _integer(name, value)
    if n < lo or (hi is not None and n > hi):
        if hi is None:
            raise InputError(f"{name} must be at least {lo}, got {n}")
        reason = f" ({why})" if why else ""
        raise InputError(f"{name} must be between {lo} and {hi}{reason}, got {n}")
    return n


def check_k(k, k_max: int = MAX_K, *, why: str = "", vocabulary: str | None = None) -> int:
    """K between 1 and ``k_max``. ``why`` names the upper bound (``"the prepared k_max"``);
    ``vocabulary`` names the vectors when the bound is their cropped vocabulary's size, and a K
    that is only the default says so (a vector file with fewer words than the default K)."""
    if vocabulary is not None:
        why = f"the words in the cropped vocabulary of {vocabulary}"
    elif not why and k_max == MAX_K:
        why = "the most words a cropped vocabulary holds"
    n = _integer("K", k)
    if not 1 <= n <= k_max:
        default = f" (the default K; give a K of {k_max} or less)" if n == DEFAULT_K and n > k_max else ""
        raise InputError(f"K must be between 1 and {k_max} ({why}), got {n}{default}")
    return n


def check_k_max(k_max, vocabulary_size: int | None = None, *, vectors: str = "") -> int:
    """k_max (neighbours prepared per phrase) between 1 and :data:`MAX_K`, and, once the vectors
    are loaded, their cropped vocabulary's size (``vocabulary_size``) — checked before tagging."""
    n = _integer("k_max", k_max)
    hi = MAX_K if vocabulary_size is None else min(MAX_K, vocabulary_size)
    if not 1 <= n <= hi:
        why = ("the most words a cropped vocabulary holds" if vocabulary_size is None
               else f"the words in the cropped vocabulary of {vectors or 'the vectors'}")
        raise InputError(f"K and k_max must be between 1 and {hi} ({why}), got {n}")
    return n


def check_top(top) -> int:
    """N, the keywords per document: 1 … :data:`MAX_TOP`."""
    return check_count("N", top, 1, MAX_TOP, why="keywords per document")


def check_seed(seed, name: str = "--seed") -> int:
    return check_count(name, seed, 0, MAX_SEED)


def check_name(what: str, value: str) -> str:
    """``value``, a name dkw stores and prints (a study's, a judge's, a method's), refused in one
    line when it holds a control character (:data:`dkw_core.terminal.CONTROL`: NUL, a tab, a line
    break, ESC, a bidi override, ...), which would forge or split a row of tab-separated output or
    drive the terminal that prints it."""
    bad = control_char(value)
    if bad is not None:
        raise InputError(f"{what} {value!r} holds a control character ({bad}); a name is one line of plain text")
    return value
