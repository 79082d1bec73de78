"""One document's keywords from its units (dkw_core/keywords/units.py)."""
from __future__ import annotations

import numpy as np

from dkw_core.keywords.ranking import Provenance
from dkw_core.keywords.units import DocUnits, keywords_from_units


def _by_hand(units: DocUnits, k: int, top: int, vocabulary: list[str], score) -> list[tuple]:
    """Each listed word and the phrases behind it, looked up one word at a time."""
    idx, sims = units.idx[:, :k], units.sims[:, :k]
    cols = np.unique(idx)
    tf = np.array([units.counts[np.nonzero(idx == w)[0]].sum() for w in cols], dtype=np.float64)
    s = score(cols, tf)
    out = []
    for j in np.lexsort((cols, -s))[:top]:
        rows, pos = np.nonzero(idx == cols[j])
        prov = sorted((Provenance(units.phrases[r], float(sims[r, p]), int(units.counts[r])) for r, p in zip(rows, pos)),
                      key=lambda pr: (-pr.similarity, pr.phrase))
        out.append((vocabulary[cols[j]], float(s[j]), int(tf[j]), tuple(prov)))
    return out


def test_the_listed_words_and_the_phrases_behind_each_are_those_looked_up_word_by_word():
    rng = np.random.default_rng(3)
    vocabulary = [f"w{i}" for i in range(40)]
    for _trial in range(30):
        n, k_max = int(rng.integers(1, 9)), 6
        idx = np.stack([rng.choice(40, k_max, replace=False) for _ in range(n)])
        sims = rng.choice(np.array([0.9, 0.8, 0.5], dtype=np.float32), (n, k_max))  # ties of similarity
        units = DocUnits([f"phrase {i}" for i in range(n)], rng.integers(1, 4, n).astype(np.float32), idx, sims)
        weights = rng.choice([0.5, 1.0, 2.0], 40)  # ties of score: the lower column first
        def score(cols, tf, weights=weights):
            return weights[cols] * tf
        k, top = int(rng.integers(1, k_max + 1)), int(rng.integers(1, 25))
        got = keywords_from_units(units, k=k, top=top, vocabulary=vocabulary, score=score)
        assert [(kw.word, kw.score, kw.tf, kw.provenance) for kw in got] == _by_hand(units, k, top, vocabulary, score)
        plain = keywords_from_units(units, k=k, top=top, vocabulary=vocabulary, score=score, provenance=False)
        assert [(kw.word, kw.score, kw.tf, kw.provenance) for kw in plain] == \
            [(w, s, t, ()) for w, s, t, _p in _by_hand(units, k, top, vocabulary, score)]
