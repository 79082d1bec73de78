"""One document at a time, with provenance: its phrases, their nearest words, its keywords.

Used for a corpus document whose text is cached in a prepared model and for a new text,
which is tagged and searched on the spot.
"""
from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..longtext import check_size, count_phrases
from ..neighbours import searcher
from ..vectors import Vectors
from .ranking import Keyword, Provenance, order_scores

CACHE_UNITS = 100_000
"""Distinct phrase units whose nearest words a :class:`NeighbourCache` keeps (about 72 MB at K = 90)."""


class NeighbourCache:
    """The ``k_max`` nearest words of phrase units already searched, for one vectors model and
    neighbours spec (kept on the model); oldest entries dropped past ``size`` units."""

    def __init__(self, vectors, neighbours: str | None, k_max: int, size: int = CACHE_UNITS) -> None:
        self.vectors, self.neighbours, self.k_max, self.size = vectors, neighbours, int(k_max), int(size)
        self._rows: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._units: dict[str, tuple[int, ...]] = {}
        self.searched = self.hits = 0

    def units(self, phrase: str) -> tuple[int, ...]:
        u = self._units.get(phrase)
        if u is None:
            if len(self._units) >= 4 * self.size:
                self._units.clear()
            u = self._units[phrase] = self.vectors.units(phrase.split(" "))
        return u

    def lookup(self, units: Sequence[tuple[int, ...]]) -> dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]]:
        """Nearest words of every unit tuple: the unseen ones in one search."""
        unique = list(dict.fromkeys(units))
        todo = [u for u in unique if u not in self._rows]
        self.hits += len(unique) - len(todo)
        if todo:
            idx, sims = searcher(self.vectors, self.neighbours).nearest(self.vectors.compose(todo), self.k_max,
                                                                        row_exact=True)
            self.searched += len(todo)
            for r, u in enumerate(todo):  # copies: an evicted row frees its memory
                self._rows[u] = (idx[r].copy(), sims[r].copy())
        found = {u: self._rows[u] for u in unique}
        while len(self._rows) > self.size:
            self._rows.popitem(last=False)
        return found


def neighbour_cache(model) -> NeighbourCache:
    """The model's :class:`NeighbourCache` (one per model, made on first use)."""
    cache = model.__dict__.get("_neighbour_cache")
    if cache is None:
        cache = model.__dict__["_neighbour_cache"] = NeighbourCache(model.vectors, getattr(model, "neighbours", None),
                                                                    model.k_max)
    return cache


@dataclass(frozen=True)
class DocUnits:
    """One document's phrases with their counts and each phrase's nearest words."""

    phrases: list[str]
    counts: np.ndarray      # occurrences per phrase
    idx: np.ndarray         # phrases x k_max nearest word ids
    sims: np.ndarray        # their retrieval scores (cosine unless the neighbours spec says otherwise)


def text_units(vectors: Vectors, name: str, text: str, k_max: int, progress=None, *,
               neighbours: str | None = None, cache: NeighbourCache | None = None) -> DocUnits:
    """Tag a new text and find the ``k_max`` nearest words of each of its phrases. The text is
    tagged in pieces and only its phrase counts are kept (bounded memory for long texts,
    :mod:`dkw_core.longtext`); past ``DKW_MAX_TEXT_MB`` it is refused before any work."""
    if not text or not text.strip():
        raise InputError(f"{name}: the document is empty")
    check_size(len(text.encode("utf-8", "surrogatepass")), name)
    return counted_units(vectors, name, text, count_phrases(text, progress=progress), k_max, neighbours, cache)


def counted_units(vectors: Vectors, name: str, text: str, counts: Counter, k_max: int,
                  neighbours: str | None = None, cache: NeighbourCache | None = None) -> DocUnits:
    if not counts:
        raise_unusable(name, text)
    phrases = list(counts)
    units = [cache.units(p) if cache is not None else vectors.units(p.split(" ")) for p in phrases]
    keep = [i for i, u in enumerate(units) if u]
    if not keep:
        raise InputError(f"{name}: none of its {len(phrases)} candidate phrases has a word known to {vectors.name}")
    if cache is not None and cache.k_max >= k_max:
        rows = cache.lookup([units[i] for i in keep])
        idx = np.stack([rows[units[i]][0][:k_max] for i in keep]).astype(np.int64)
        sims = np.stack([rows[units[i]][1][:k_max] for i in keep])
    else:
        idx, sims = searcher(vectors, neighbours).nearest(vectors.compose([units[i] for i in keep]), k_max,
                                                          row_exact=True)
    return DocUnits([phrases[i] for i in keep], np.array([counts[phrases[i]] for i in keep], dtype=np.float32),
                    idx.astype(np.int64), sims)


def keywords_from_units(units: DocUnits, *, k: int, top: int, vocabulary: list[str],
                        score: Callable[[np.ndarray, np.ndarray], np.ndarray],
                        provenance: bool = True) -> list[Keyword]:
    """The top keywords of one document; ``score(cols, tf)`` weights its candidate words.
    ``provenance=False`` leaves out the phrases behind each keyword (a batch export's words)."""
    idx, sims = units.idx[:, :k], units.sims[:, :k]
    cols, inv = np.unique(idx.ravel(), return_inverse=True)
    tf = np.bincount(inv, weights=np.repeat(units.counts, k))
    s = score(cols, tf)
    best = order_scores(cols, s, top)
    if not provenance:
        return [Keyword(vocabulary[w], float(x), int(t)) for w, x, t in zip(cols[best].tolist(), s[best].tolist(),
                                                                             tf[best].tolist())]
    # every listed word's (phrase, neighbour rank) entries at once, grouped by word in row-major order
    rank = np.full(len(cols), len(best), dtype=np.intp)
    rank[best] = np.arange(len(best))
    entry_rank = rank[inv.ravel()]  # per entry of idx (row-major): its word's place in the list
    hits = np.flatnonzero(entry_rank < len(best))
    hits = hits[np.argsort(entry_rank[hits], kind="stable")]
    ends = np.cumsum(np.bincount(entry_rank[hits], minlength=len(best))).tolist()
    rows, pos = np.divmod(hits, k)
    hit_sims = sims[rows, pos].tolist()
    phrases, counts, rows = units.phrases, units.counts.tolist(), rows.tolist()
    out, start = [], 0
    for w, x, t, end in zip(cols[best].tolist(), s[best].tolist(), tf[best].tolist(), ends):
        prov = sorted((Provenance(phrases[r], sim, int(counts[r])) for r, sim in zip(rows[start:end], hit_sims[start:end])),
                      key=lambda pr: (-pr.similarity, pr.phrase))
        out.append(Keyword(vocabulary[w], x, int(t), tuple(prov)))
        start = end
    return out


def raise_unusable(name: str, text: str):
    """A document without candidate phrases: empty, or no nouns."""
    if not text or not text.strip():
        raise InputError(f"{name}: the document is empty")
    raise InputError(f"{name}: no candidate noun phrases (the tagger found no nouns)")
