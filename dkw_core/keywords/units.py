"""One document at a time, with provenance: its phrases, their nearest words, its keywords.

Used for a corpus document whose text is cached in a prepared model and for a new text,
which is tagged and searched on the spot.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..longtext import check_size, count_phrases
from ..neighbours import searcher
from ..phrases import TaggedDoc
from ..vectors import Vectors
from .ranking import Keyword, Provenance, order_scores


@dataclass(frozen=True)
class DocUnits:
    """One document's phrases with their counts and each phrase's nearest words."""

    phrases: list[str]
    counts: np.ndarray      # occurrences per phrase
    idx: np.ndarray         # phrases x k_max nearest word ids
    sims: np.ndarray        # their retrieval scores (cosine unless the neighbours spec says otherwise)


def text_units(vectors: Vectors, name: str, text: str, k_max: int, progress=None, *,
               neighbours: str | None = None) -> DocUnits:
    """Tag a new text and find the ``k_max`` nearest words of each of its phrases. The text is
    tagged in pieces and only its phrase counts are kept (bounded memory for long texts,
    :mod:`dkw_core.longtext`); past ``DKW_MAX_TEXT_MB`` it is refused before any work."""
    if not text or not text.strip():
        raise InputError(f"{name}: the document is empty")
    check_size(len(text.encode("utf-8", "surrogatepass")), name)
    return counted_units(vectors, name, text, count_phrases(text, progress=progress), k_max, neighbours)


def tagged_units(vectors: Vectors, name: str, text: str, tagged: TaggedDoc, k_max: int,
                 neighbours: str | None = None) -> DocUnits:
    return counted_units(vectors, name, text, Counter(tagged.phrases()), k_max, neighbours)


def counted_units(vectors: Vectors, name: str, text: str, counts: Counter, k_max: int,
                  neighbours: str | None = None) -> DocUnits:
    if not counts:
        raise_unusable(name, text)
    phrases = list(counts)
    units = [vectors.units(p.split(" ")) for p in phrases]
    keep = [i for i, u in enumerate(units) if u]
    if not keep:
        raise InputError(f"{name}: none of its {len(phrases)} candidate phrases has a word known to {vectors.name}")
    idx, sims = searcher(vectors, neighbours).nearest(vectors.compose([units[i] for i in keep]), k_max)
    return DocUnits([phrases[i] for i in keep], np.array([counts[phrases[i]] for i in keep], dtype=np.float32),
                    idx.astype(np.int64), sims)


def keywords_from_units(units: DocUnits, *, k: int, top: int, vocabulary: list[str],
                        score: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> list[Keyword]:
    """The top keywords of one document; ``score(cols, tf)`` weights its candidate words."""
    idx, sims = units.idx[:, :k], units.sims[:, :k]
    cols, inv = np.unique(idx.ravel(), return_inverse=True)
    tf = np.bincount(inv, weights=np.repeat(units.counts, k))
    s = score(cols, tf)
    out = []
    for j in order_scores(cols, s, top):
        w = cols[j]
        rows, pos = np.nonzero(idx == w)
        prov = sorted((Provenance(units.phrases[r], float(sims[r, p]), int(units.counts[r])) for r, p in zip(rows, pos)),
                      key=lambda pr: (-pr.similarity, pr.phrase))
        out.append(Keyword(vocabulary[w], float(s[j]), int(tf[j]), tuple(prov)))
    return out


def raise_unusable(name: str, text: str):
    """A document without candidate phrases: empty, or no nouns."""
    if not text or not text.strip():
        raise InputError(f"{name}: the document is empty")
    raise InputError(f"{name}: no candidate noun phrases (the tagger found no nouns)")
