"""How much a candidate keyphrase is what its text is about, from the text itself
(docs/keyphrases.md, docs/method.md §13).

A pure function of a text's :class:`~.candidates.Candidate` list: no vectors, no corpus. Each
candidate ``x`` scores

    R(x) = (1 + ln count) · specificity · 1 / (1 + POSITION · first) · (1 + LENGTH · [two words or more])
           · (1 + SPREAD · spread)

* **count**: how often the whole phrase occurs in the text;
* **specificity**: the mean over its words of ``max(0, (ZIPF − zipf(w)) / ZIPF)``, ``zipf(w)`` the
  word's general-English frequency on the Zipf scale (``wordfreq.zipf_frequency``; 0 for a word it
  does not know, which is the most specific): "the" ≈ 0, "bleaching" ≈ 0.6;
* **first**: where it first occurs, as a fraction of the text's words (0 = its first word);
* **spread**: last occurrence − first, as a fraction of the text's words;
* **two words or more**: a phrase of several words names a thing more precisely than its head.

The parameters were chosen on the development parts only (Inspec's first 500 documents,
SemEval2017's first 120, 500N-KPCrowd's four training folds); each step's gain is in
docs/keyphrases.md ("What we tried"). :func:`blend` mixes R with dkw's discriminative score D
under the one ``about`` parameter; :func:`top_candidates` lists the best.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

from .candidates import Candidate, stemmed, zipf
from .ranking import Keyword, Provenance

ZIPF = 7.0
"""Zipf frequency at and above which a word is not specific at all (7 is "the", "of")."""
POSITION = 1.0
"""Weight of the first position: a phrase at the very start scores (1 + POSITION) times one at the end."""
LENGTH = 0.5
"""Bonus of a phrase of two words or more over one word."""
SPREAD = 0.0
"""Weight of the spread (0: it did not help on the development parts, docs/keyphrases.md)."""


@lru_cache(maxsize=200_000)
def specificity(word: str) -> float:
    """How specific a (lower-cased) word is to any one text: 0 for the commonest English words,
    1 for a word ``wordfreq`` does not know."""
    return max(0.0, (ZIPF - zipf(word)) / ZIPF)


def _mean(values: list[float]) -> float:
    """``float(np.mean(values))`` bit for bit, without numpy's per-call cost on a phrase's few
    words: numpy sums fewer than 8 values one after the other (its pairwise sum starts at 8)."""
    return sum(values) / len(values) if len(values) < 8 else float(np.mean(values))


def relevance(cands: Sequence[Candidate], *, position: float = POSITION, length: float = LENGTH,
              spread: float = SPREAD) -> np.ndarray:
    """R of each candidate (see the module), in the candidates' order; non-negative."""
    out = np.empty(len(cands), dtype=np.float64)
    for i, c in enumerate(cands):
        spec = _mean([specificity(w) for w in c.words])
        first = c.positions[0] / c.n_words
        extent = (c.positions[-1] - c.positions[0]) / c.n_words
        out[i] = ((1.0 + math.log(c.count)) * spec / (1.0 + position * first)
                  * (1.0 + length * (len(c.words) > 1)) * (1.0 + spread * extent))
    return out


def blend(rel: np.ndarray, discrimination: np.ndarray | None, about: float) -> np.ndarray:
    """``(1 − about) · R / max R + about · D``: R scaled to [0, 1] by the text's best candidate,
    D (dkw's discriminative score, in [0, 1]) as it is; without D, R scaled."""
    top = float(rel.max(initial=0.0))
    r = rel / top if top > 0 else np.zeros_like(rel)
    if discrimination is None or about <= 0.0:
        return r
    return (1.0 - about) * r + about * np.asarray(discrimination, dtype=np.float64)


def top_candidates(cands: Sequence[Candidate], top: int, *, discrimination: np.ndarray | None = None,
                   about: float = 0.0) -> list[tuple[Candidate, float]]:
    """The ``top`` best candidates by :func:`blend` of :func:`relevance`, best first (ties: the
    earlier in the text), with their scores; of candidates with the same stemmed words
    (:func:`~.candidates.stemmed`: "system" and "systems") only the best is listed."""
    if not cands or top <= 0:
        return []
    score = blend(relevance(cands), discrimination, about)
    out: list[tuple[Candidate, float]] = []
    seen: set[tuple[str, ...]] = set()
    for i in np.argsort(-score, kind="stable"):
        key = stemmed(cands[int(i)].key)
        if key in seen:
            continue
        seen.add(key)
        out.append((cands[int(i)], float(score[int(i)])))
        if len(out) == top:
            break
    return out


def discrimination(cands: Sequence[Candidate], word_scores: np.ndarray, word_index: Mapping[str, int]) -> np.ndarray:
    """D of each candidate in [0, 1]: the mean score of its words that the vocabulary holds
    (``word_scores``: one per vocabulary word, the category's row of dkw's metric), divided by
    the text's best; 0 for a candidate none of whose words has a vector (it stays eligible by R)."""
    raw = np.zeros(len(cands), dtype=np.float64)
    ids = [[word_index[w] for w in c.words if w in word_index] for c in cands]
    found = word_scores[[j for row in ids for j in row]].tolist()  # one gather for the text
    start = 0
    for i, row in enumerate(ids):
        if row:
            raw[i] = _mean(found[start:start + len(row)])
            start += len(row)
    top = float(raw.max(initial=0.0))
    return np.clip(raw / top, 0.0, 1.0) if top > 0 else raw


def text_keyphrases(text: str, tokens: Sequence[str], tags: str, *, top: int, about: float,
                    word_scores: np.ndarray | None, word_index: Mapping[str, int],
                    latent: Sequence[Keyword] = ()) -> list[Keyword]:
    """A new text's keyphrases, best first (docs/method.md §13): its candidates
    (:func:`~.candidates.candidates` of its tokens and coarse tags; of a news post, only those
    in its body, :func:`~.candidates.body_spans`) by :func:`top_candidates` at ``about``, D from
    ``word_scores`` (the weighting's row of dkw's metric). Each is listed in the text's casing,
    with itself as its provenance (similarity 1, its count). ``latent``, the text's latent
    words, fill a list its candidates cannot (never one with a listed phrase's stem). A candidate
    longer than :data:`~.keyphrases.MAX_KEYPHRASE_CHARS` characters (an unsegmented run of CJK
    characters is one "word") is never listed."""
    from .candidates import body_spans, candidates
    from .keyphrases import MAX_KEYPHRASE_CHARS, is_keyphrase

    cands = [c for c in candidates(text, tokens, tags, within=body_spans(text))
             if len(c.text) <= MAX_KEYPHRASE_CHARS]
    disc = discrimination(cands, word_scores, word_index) if about > 0 and word_scores is not None else None
    out = [Keyword(c.text, s, c.count, (Provenance(c.text, 1.0, c.count),))
           for c, s in top_candidates(cands, top, discrimination=disc, about=about)]
    taken = {stemmed(kw.word) for kw in out}
    out += [kw for kw in latent if stemmed(kw.word) not in taken and is_keyphrase(kw.word)][:top - len(out)]
    return out
