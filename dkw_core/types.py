"""The few types and defaults every step shares: progress callbacks, protocols, default K and N.

One definition each, imported by the library, the command line, the evaluation and the app.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Literal, get_args

from .errors import InputError

Progress = Callable[[float, str], None]
"""``progress(fraction, message)``: called with a fraction in [0, 1] while long work runs."""

Protocol = Literal["label-aware", "label-free", "label-free-posterior", "label-free-top1"]
"""How a document's words are weighted (docs/method.md §3):

``label-aware``           the paper's protocol: each document is weighted with its gold category;
``label-free``            deployable: a word's score is its maximum over categories;
``label-free-posterior``  deployable: a word's score is Σ_c P(c | d) · metric(w, c), with P(c | d)
                          from a calibrated tf-idf classifier fitted on the training split;
``label-free-top1``       deployable: the same posterior's most probable category stands in for
                          the gold one (the paper's weighting with a predicted category).

The label-free protocols never read the labels of the documents being weighted.
"""
PROTOCOLS: tuple[str, ...] = get_args(Protocol)
POSTERIOR_PROTOCOLS: tuple[str, ...] = ("label-free-posterior", "label-free-top1")
"""The label-free protocols that weight a document with the category posterior (docs/method.md §3)."""
DEFAULT_PROTOCOL: Protocol = "label-aware"
"""The default of every command and page: the paper's protocol, always labelled as such."""

DEFAULT_K = 90
"""Nearest words per phrase (the paper's K = 90 of the human study); also the prepared k_max."""
DEFAULT_TOP = 10
"""Keywords per document (the paper's N = 10)."""


def reads_labels(protocol: str) -> bool:
    """Whether a protocol weights a document with its own gold label (only the paper's does)."""
    return check_protocol(protocol) == "label-aware"


def check_protocol(protocol: str) -> Protocol:
    if protocol not in PROTOCOLS:
        raise InputError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return protocol  # type: ignore[return-value]


def report(progress: Progress | None, fraction: float, message: str) -> None:
    """Call ``progress`` (if any) with the fraction clamped to [0, 1]."""
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)), message)


def scaled(progress: Progress | None, lo: float, hi: float) -> Progress | None:
    """A progress callback for a sub-task that maps its [0, 1] onto [lo, hi] of ``progress``."""
    if progress is None:
        return None
    return lambda f, msg: progress(lo + (hi - lo) * min(max(f, 0.0), 1.0), msg)
