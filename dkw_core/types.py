"""The few types and defaults every step shares: progress callbacks, protocols, default K and N.

One definition each, imported by the library, the command line, the evaluation and the app.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ProtocolInfo:
    """One protocol as every reader names it: the CLI's help, the evaluation's labels and the
    app's selectors all read :data:`PROTOCOL_INFO` (docs/method.md §3)."""

    name: str
    short: str           # a few words: "paper's protocol", "deployable, predicted category"
    help: str            # one sentence for selectors and ``--help``
    reads_labels: bool   # weights a document with its own gold category
    posterior: bool      # weights with the tf-idf classifier's category posterior

    @property
    def label(self) -> str:
        """``name (short: help)``: how an evaluation run names its protocol."""
        return f"{self.name} ({self.short}: {self.help})"


PROTOCOL_INFO: dict[str, ProtocolInfo] = {p.name: p for p in (
    ProtocolInfo("label-aware", "paper's protocol",
                 "every document, test documents included, weighted with its own gold category", True, False),
    ProtocolInfo("label-free", "deployable",
                 "no label read, a word's score is its maximum over categories", False, False),
    ProtocolInfo("label-free-posterior", "deployable",
                 "no label read, words weighted by the category posterior of a tf-idf classifier fitted on "
                 "the training split", False, True),
    ProtocolInfo("label-free-top1", "deployable",
                 "no label read, words weighted with the most probable category of a tf-idf classifier fitted "
                 "on the training split", False, True),
)}
"""Every protocol's name, short label, help and whether it reads labels: one table."""
assert tuple(PROTOCOL_INFO) == PROTOCOLS

POSTERIOR_PROTOCOLS: tuple[str, ...] = tuple(p for p, info in PROTOCOL_INFO.items() if info.posterior)
"""The label-free protocols that weight a document with the category posterior (docs/method.md §3)."""
NEW_TEXT_PROTOCOLS: tuple[str, ...] = tuple(p for p, info in PROTOCOL_INFO.items() if not info.reads_labels)
"""Protocols a new text (no gold category) can be weighted with."""
DEFAULT_PROTOCOL: Protocol = "label-aware"
"""The default for corpus documents in every command and page: the paper's protocol, always labelled as such."""
NEW_TEXT_PROTOCOL: Protocol = "label-free-top1"
"""The default for a new text (the app's text box and file, ``--text-file``, ``--texts``, the
estimator): the paper's weighting with the category a tf-idf classifier predicts — it reads no
label and gives the words of the text's topic (docs/method.md §3, "New texts")."""
UNKNOWN_PROTOCOL = "unknown"
"""The protocol recorded for keywords computed elsewhere (imported): whether their extractor read
labels is unknown to dkw."""
METHOD_SLOTS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
"""A study's method labels in order; a study uses the first 2..26 (the real names are in the
study database's ``study_method`` table)."""

DEFAULT_CORPUS = "20ng"
"""The corpus whose statistics score a new text when none is named (``extract_keywords``,
``keywords --text-file``, the Home page's text box); its statistics ship with dkw."""
DEFAULT_METRIC = "lo-own"
"""The word-weighting metric of every interface (CLI, pages — the Categories page and the text
boxes first —, estimator, ``extract_keywords``): lo-own, the latent and own-word log-odds
(docs/method.md §11, not a paper metric), chosen from the generated quality table
(``docs/results/quality/quality.json``): on all four corpora its category words are far more
coherent and exclusive than ig's (the former default) and its micro-F1 at N = 10 under
label-free-top1 (K 90) is within 0.24 points of the best metric's (docs/method.md §9). The paper's
metrics are one option away: ``--metric ig`` (best F1 of the reference results), ``--metric rf``
(the paper's human study)."""
DEFAULT_ABOUT = 0.4
"""Where every interface's keywords sit between "about this text" (0: the document's own
keyphrases ranked by their closeness to it) and "about its category" (1: the paper's
discriminative words, exactly): the keyphrase method of docs/method.md §13. 0.4 is the largest
value whose keywords still picked out their document among its category's as well as YAKE's did,
chosen on R8's training split (``scripts/keyphrase_measures.py --choose``) under the former
automaton-span ranking. Under the whole-noun-phrase ranking the development part of the gold
keyphrase sets prefers 0.2 and the category measures prefer more (docs/keyphrases.md); 0.4 is
kept until one rule covering both questions chooses again. ``--about 1`` (``about=1``) gives the
paper's keywords."""
DEFAULT_K = 90
"""Nearest words per phrase (the paper's K = 90 of the human study; K 90 is what the reference
results choose for ig on 20ng); also the prepared k_max."""
DEFAULT_TOP = 10
"""Keywords per document (the paper's N = 10)."""
CROP_SIZE = 20_000
"""The most words a vector model's cropped vocabulary keeps (:class:`dkw_core.vectors.Vectors`)."""
MAX_TOP = 1000
"""The most keywords per document anything asks for (N); the pages offer up to 100."""


def reads_labels(protocol: str) -> bool:
    """Whether a protocol weights a document with its own gold label (only the paper's does)."""
    return PROTOCOL_INFO[check_protocol(protocol)].reads_labels


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


def time_left(elapsed: float, fraction: float) -> float | None:
    """Seconds still to go at the pace so far (``elapsed`` seconds for ``fraction`` of the work);
    ``None`` until there is a pace to go by (1 % done)."""
    if fraction < 0.01 or elapsed <= 0:
        return None
    return elapsed * (1.0 - min(fraction, 1.0)) / fraction


class Pace:
    """Time left of a piece of work reporting ``progress(fraction, message)``, at its pace since
    the fraction first moved: what comes before (loading a corpus, vectors, a tagger) reports no
    fraction and would make the first estimates far too long."""

    def __init__(self) -> None:
        self._start: tuple[float, float] | None = None

    def mark(self, now: float, fraction: float) -> None:
        """Record a progress report (``now`` in seconds of any clock)."""
        if self._start is None and fraction > 0:
            self._start = (now, fraction)

    def left(self, now: float, fraction: float) -> float | None:
        """Seconds still to go, or ``None`` while there is no pace to go by."""
        if self._start is None:
            return None
        began, first = self._start
        return time_left(now - began, (fraction - first) / (1.0 - first)) if first < 1.0 else None


def describe_time_left(seconds: float | None) -> str:
    """``"~3 min left"``, ``"~40 s left"`` (rounded to what a reader needs), or ``""`` when unknown."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"~{max(10, round(seconds / 10) * 10):.0f} s left"
    if seconds < 3600:
        return f"~{round(seconds / 60):.0f} min left"
    return f"~{seconds / 3600:.1f} h left"
