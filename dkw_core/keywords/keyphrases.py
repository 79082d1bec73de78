"""What the keyphrases of a text share (docs/method.md §13): the ``about`` parameter, which
phrases may be listed, and the phrase vectors a text's corpus fit reads.

A text's keyphrases — a new text's (:mod:`.newtexts`) and a corpus document's
(:meth:`~.model.KeywordModel.keywords` below about 1) — are its own whole noun phrases ranked by
:func:`~.relevance.text_keyphrases` under ONE parameter, ``about``: 0 = about this text, 1 = about
its category. ``about = 1`` is the paper's list exactly (the metric's latent words, no phrases);
below it the latent words fill a list the text's phrases cannot. A phrase or latent word is
listed only if it looks like one (:func:`is_keyphrase`: a letter or digit, bounded length).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..phrases import MAX_PHRASE_LEN
from .ranking import Keyword
from .units import DocUnits

LATENT_CANDIDATES = 20
"""Latent words computed beside the phrases (they fill a list the text's phrases cannot)."""
MAX_KEYPHRASE_TOKENS = MAX_PHRASE_LEN
"""Tokens of a phrase shown as a keyphrase (step 1's longest candidate)."""
MAX_KEYPHRASE_CHARS = 60
"""Characters of a phrase shown as a keyphrase."""


def check_about(about: float | str) -> float:
    """``about`` in [0, 1] (0 = about this text, 1 = about its category), else one line."""
    try:
        value = float(about)
    except (TypeError, ValueError):
        raise InputError(f"about must be a number between 0 and 1, not {about!r}") from None
    if not 0.0 <= value <= 1.0 or value != value:
        raise InputError(f"about must be between 0 (about this text) and 1 (about its category), not {about!r}")
    return value


@dataclass(frozen=True)
class TextArtefacts:
    """What a text's corpus fit reads of it (:mod:`.fit`): its units (phrases, counts, nearest
    words), each phrase's vector, and the unit-length vectors of the vocabulary."""

    units: DocUnits
    phrase_vectors: np.ndarray   # phrases x dim, unit length
    word_matrix: np.ndarray      # vocabulary x dim, unit length

    @property
    def centroid(self) -> np.ndarray:
        """The document's vector: the count-weighted sum of its phrase vectors, normalised."""
        v = (self.units.counts[:, None] * self.phrase_vectors).sum(axis=0)
        n = float(np.linalg.norm(v))
        return v / n if n else v


def phrase_vectors(vectors, phrases: list[str]) -> np.ndarray:
    """Unit-length vectors of phrases by Algorithm 1 (the same as step 3 searches with)."""
    return vectors.compose([vectors.units(p.split(" ")) for p in phrases])


def is_keyphrase(phrase: str) -> bool:
    """Whether a phrase may be shown as a keyphrase: each of its tokens holds a letter or a
    digit (not ``=``, ``。``, nor ``plotting packages =``), at most :data:`MAX_KEYPHRASE_TOKENS`
    tokens and :data:`MAX_KEYPHRASE_CHARS` characters (an unsegmented run of 821 CJK characters
    is one "token" but no keyphrase). Which phrases steps 1–3 read is unchanged; this only says
    which may be listed."""
    tokens = phrase.split()
    return (0 < len(tokens) <= MAX_KEYPHRASE_TOKENS and len(phrase) <= MAX_KEYPHRASE_CHARS
            and all(any(c.isalnum() for c in t) for t in tokens))


def is_own_phrase(kw: Keyword) -> bool:
    """Whether a keyword is one of the text's own phrases (else a latent word that joined)."""
    return (len(kw.provenance) == 1 and kw.provenance[0].similarity == 1.0
            and " ".join(kw.provenance[0].phrase.lower().split()) == " ".join(kw.word.lower().split()))

