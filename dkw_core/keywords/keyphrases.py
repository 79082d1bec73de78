"""Keyphrases of the text itself, ranked by how discriminative they are (docs/method.md §13).

The paper's keywords are latent words: the words nearest a document's phrases that its
category's metric scores highest. They answer "which category is this?" well and "what is
this text about?" badly (the paper's §4.6: "more related to the category, but not so relevant
to the exact document"). This method returns the document's **own candidate phrases** (step 1,
the noun phrases the provenance view highlights); latent words join only where the text has too
few phrases for N. Every phrase ``x`` gets two scores in [0, 1]:

* **about the text**, L(x): the cosine between x's vector and the document's vector (the
  count-weighted, normalised sum of its phrase vectors) — KeyBERT's relevance to the document
  (Grootendorst 2020, ``keybert.KeyBERT.extract_keywords``), on the paper's word vectors;
* **about the category**, D(x): half the similarity-weighted mean score of the phrase's
  :data:`NEIGHBOURHOOD` nearest words (how discriminative its latent neighbourhood is), half the
  mean score of its own words, divided by the best score of the text's latent words. The scores
  are the category's row (label-aware: the gold category; label-free-top1: the predicted one),
  the posterior-weighted rows, or the maximum over categories (plain label-free).

and is ranked by the blend ``(1 − about) · L + about · D`` under ONE parameter, ``about``:
0 = about this text, 1 = about its category. ``about = 1`` is the paper's list exactly
(the metric's latent words, no phrases, no re-ranking). Near-duplicates are removed by maximal
marginal relevance as KeyBERT does (``keybert._mmr``: each next keyword maximises
``(1 − diversity) · score − diversity · max cosine to the keywords already chosen``) among the
:data:`MMR_CANDIDATES` best by score, in memory linear in the number of phrases. A phrase is
listed only if it looks like one (:func:`is_keyphrase`: a letter or digit, bounded length).

Everything here is a function of one text's artefacts — its phrases and counts, their vectors,
their nearest words and a row of word scores — so it composes with any path that computes
those (one text, a corpus document, or a batch of texts).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..phrases import MAX_PHRASE_LEN
from .ranking import Keyword, Provenance
from .units import DocUnits

DEFAULT_DIVERSITY = 0.5
"""MMR's diversity (KeyBERT's name and scale; 0 keeps the order, 1 maximises spread), chosen on
the training split (docs/method.md §13)."""
NEIGHBOURHOOD = 10
"""Nearest words of a phrase whose scores say how discriminative its latent neighbourhood is."""
LATENT_CANDIDATES = 20
"""Latent words computed beside the phrases (they fill a list the text's phrases cannot)."""
MMR_CANDIDATES = 20_000
"""Phrases MMR chooses among: the best by score (docs/method.md §13). Above the phrase count of
the corpora's documents (20 Newsgroups' longest, 160 KB, has 14,121; 99 % of its documents
fewer than 450), so their lists are unchanged; it bounds the MMR of a long text (a 5 MB text has
some 124,000 distinct phrases)."""
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
    """What the ranking reads of one text: its units (phrases, counts, nearest words), each
    phrase's vector, and the unit-length vectors of the vocabulary."""

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


def mmr(scores: np.ndarray, vecs: np.ndarray, top: int, diversity: float, *,
        candidates: int = MMR_CANDIDATES) -> list[int]:
    """Maximal marginal relevance (KeyBERT's ``_mmr``): the best candidate first, then each
    next one maximising ``(1 − diversity) · score − diversity · max cosine to those chosen``.
    ``vecs`` are unit length; ties go to the lower index. Only the ``candidates`` best by score
    take part (:data:`MMR_CANDIDATES`; ties at the cut go to the lower index), and no candidate
    x candidate matrix is made: each choice costs one product of the pool with the chosen
    vector, so memory is linear in the number of candidates and time O(pool · top)."""
    n = len(scores)
    if n == 0 or top <= 0:
        return []
    pool = np.arange(n) if n <= candidates else np.sort(np.argsort(-scores, kind="stable")[:candidates])
    s, v = scores[pool], vecs[pool]
    chosen = [int(np.argmax(s))]
    redundancy = v @ v[chosen[0]]  # each candidate's max cosine to those chosen, kept up to date
    left = np.ones(len(pool), dtype=bool)
    left[chosen[0]] = False
    while left.any() and len(chosen) < top:
        value = np.where(left, (1 - diversity) * s - diversity * redundancy, -np.inf)
        best = int(np.argmax(value))  # the first maximum: ties go to the lower index
        chosen.append(best)
        left[best] = False
        np.maximum(redundancy, v @ v[best], out=redundancy)
    return [int(pool[c]) for c in chosen]


def is_keyphrase(phrase: str) -> bool:
    """Whether a phrase may be shown as a keyphrase: each of its tokens holds a letter or a
    digit (not ``=``, ``。``, nor ``plotting packages =``), at most :data:`MAX_KEYPHRASE_TOKENS`
    tokens and :data:`MAX_KEYPHRASE_CHARS` characters (an unsegmented run of 821 CJK characters
    is one "token" but no keyphrase). Which phrases steps 1–3 read is unchanged; this only says
    which may be listed."""
    tokens = phrase.split()
    return (0 < len(tokens) <= MAX_KEYPHRASE_TOKENS and len(phrase) <= MAX_KEYPHRASE_CHARS
            and all(any(c.isalnum() for c in t) for t in tokens))


def merged_phrases(units: DocUnits) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The text's phrases that may be keyphrases (:func:`is_keyphrase`) lower-cased, one entry
    per spelling (``Nippon Steel`` and ``nippon steel`` are one keyphrase): (phrases, summed
    counts, index of each one's first row)."""
    first: dict[str, int] = {}
    counts: dict[str, float] = {}
    for i, p in enumerate(units.phrases):
        key = " ".join(p.lower().split())
        if not is_keyphrase(key):
            continue
        first.setdefault(key, i)
        counts[key] = counts.get(key, 0.0) + float(units.counts[i])
    names = list(first)
    return names, np.array([counts[n] for n in names]), np.array([first[n] for n in names], dtype=np.int64)


def phrase_discrimination(art: TextArtefacts, word_scores: np.ndarray, rows: np.ndarray, phrases: list[str],
                          word_index: Mapping[str, int], neighbourhood: int) -> np.ndarray:
    """D of each phrase: half the similarity-weighted mean score of its ``neighbourhood``
    nearest words (its latent neighbourhood), half the mean score of its own words that the
    vocabulary holds (0 without any)."""
    idx = art.units.idx[rows, :neighbourhood]
    sims = np.clip(art.units.sims[rows, :neighbourhood].astype(np.float64), 0.0, None)
    weight = sims.sum(axis=1)
    latent = (sims * word_scores[idx]).sum(axis=1) / np.where(weight > 0, weight, 1.0)
    own = np.array([np.mean(word_scores[ids]) if ids else 0.0
                    for ids in ([word_index[w] for w in p.split() if w in word_index] for p in phrases)])
    return 0.5 * latent + 0.5 * own


def rank_keyphrases(art: TextArtefacts, word_scores: np.ndarray, latent: list[Keyword], vocabulary: list[str], *,
                    top: int, about: float, diversity: float = DEFAULT_DIVERSITY,
                    neighbourhood: int = NEIGHBOURHOOD, word_index: Mapping[str, int] | None = None) -> list[Keyword]:
    """The text's keyphrases (docs/method.md §13), best first.

    ``word_scores``: one score per vocabulary word (the category's metric row, or the maximum
    or posterior mix of the rows); ``latent``: the paper's keywords of the same text, best first,
    returned as they are when ``about`` is 1, and filling the list when the text has fewer than
    ``top`` phrases. Each phrase x scores ``(1 − about) · L(x) + about · D(x)`` with L its cosine
    to the document's vector (clipped at 0) and D (:func:`phrase_discrimination`) divided by the
    best score of the text's latent words (clipped to [0, 1]); MMR (:func:`mmr`) picks the list.
    Only phrases and latent words that :func:`is_keyphrase` accepts are listed.
    ``word_index``: each vocabulary word's position, when the caller keeps it (building it costs
    more than ranking a short text)."""
    about = check_about(about)
    if about >= 1.0:
        return list(latent[:top])
    if word_index is None:
        word_index = {w: i for i, w in enumerate(vocabulary)}
    phrases, counts, rows = merged_phrases(art.units)
    vecs = np.asarray(art.phrase_vectors[rows], dtype=np.float64)
    local = np.clip(vecs @ art.centroid.astype(np.float64), 0.0, 1.0)
    disc = phrase_discrimination(art, word_scores, rows, phrases, word_index, neighbourhood)
    best = max([float(word_scores[word_index[kw.word]]) for kw in latent[:1]] + [float(disc.max(initial=0.0))])
    disc = np.clip(disc / best, 0.0, 1.0) if best > 0 else np.zeros_like(disc)
    score = (1.0 - about) * local + about * disc
    out = []
    for j in mmr(score, vecs, top, diversity):
        c = int(counts[j])
        out.append(Keyword(phrases[j], float(score[j]), c, (Provenance(art.units.phrases[rows[j]], 1.0, c),)))
    taken = {kw.word for kw in out}
    out += [kw for kw in latent if kw.word not in taken and is_keyphrase(kw.word)][:top - len(out)]  # fill a short list
    return out


def is_own_phrase(kw: Keyword) -> bool:
    """Whether a keyword is one of the text's own phrases (else a latent word that joined)."""
    return (len(kw.provenance) == 1 and kw.provenance[0].similarity == 1.0
            and " ".join(kw.provenance[0].phrase.lower().split()) == " ".join(kw.word.lower().split()))

