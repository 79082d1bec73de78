"""Tests for dkw_core/keywords/newtexts.py: the batched path for new texts gives the keywords one
text at a time gives, on a slice of every built-in corpus (the shipped statistics: no
preparation), and its stages (neighbour cache, pluggable ranking, long texts) behave."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import archives_present

from dkw_core import extract_keywords
from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel
from dkw_core.keywords.newtexts import discriminative, new_texts, rank_new_texts
from dkw_core.keywords.units import NeighbourCache, neighbour_cache

ARCHIVE = {"20ng": "20news-bydate.tar.gz", "r8": "reuters21578.tar.gz", "r52": "reuters21578.tar.gz",
           "webkb": "webkb-data.tar.gz"}
SLICE = 8  # the first test texts of each corpus, one long text (tagged in pieces), an empty one, one without a noun


def _slice(dataset: str) -> list[str]:
    from dkw_core.corpora import load_corpus

    test = [d.text for d in load_corpus(dataset).split("test")[:300]]
    long = [t for t in test if len(t) > 5_500]
    return [*test[:SLICE], *(sorted(long, key=len)[:1]), "", "and then, quickly."]


def _one_at_a_time(model, texts: list[str], metric: str, protocol: str) -> list[list[str]]:
    out = []
    for t in texts:
        model.__dict__.pop("_neighbour_cache", None)  # today's path: each text searched on its own
        try:
            out.append([kw.word for kw in model.keywords_for_text(t, metric=metric, k=90, top=10, protocol=protocol)])
        except InputError:
            out.append([])
    return out


@pytest.mark.parametrize("dataset", ["20ng", "r8", "r52", "webkb"])
def test_a_batch_gives_the_keywords_of_one_text_at_a_time_on_every_corpus(dataset):
    if not archives_present(ARCHIVE[dataset]):
        pytest.skip(f"{ARCHIVE[dataset]} not in DKW_ARCHIVES")
    from dkw_core.keywords.shipped import load_shipped

    texts = _slice(dataset)
    model = load_shipped(dataset)
    runs = [("label-free-top1", "lo-own")]
    if dataset == "r8":
        runs += [("label-free-posterior", "ig"), ("label-free", "rf")]
    for protocol, metric in runs:
        want = _one_at_a_time(model, texts, metric, protocol)
        model.__dict__.pop("_neighbour_cache", None)
        got = extract_keywords(texts, corpus=dataset, metric=metric, protocol=protocol, about=1.0)
        assert [[kw.word for kw in kws] for kws in got] == want, (dataset, protocol)
        assert got[-2] == [] and got[-1] == [] and all(got[:-2])
    # the scores too, and the same again from the cache (every unit now seen)
    batch = rank_new_texts(model, texts, discriminative(metric="lo-own", k=90, top=10))
    for t, kws in zip(texts[:3], batch):
        model.__dict__.pop("_neighbour_cache", None)
        one = model.keywords_for_text(t, metric="lo-own", k=90, top=10)
        assert [(k.word, k.score, k.tf, k.provenance) for k in kws] == [(k.word, k.score, k.tf, k.provenance) for k in one]


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


def test_the_neighbour_cache_searches_each_unit_once(model):
    model.__dict__.pop("_neighbour_cache", None)
    texts = [("a", "The rocket left the planet for the moon."), ("b", "The rocket and the moon.")]
    first = new_texts(model, texts, protocol="label-free")
    cache = neighbour_cache(model)
    searched = cache.searched
    assert searched == len({tuple(p) for t in first for p in [t.units.phrases] for p in p})  # distinct phrases
    again = new_texts(model, texts, protocol="label-free")
    assert cache.searched == searched and cache.hits > 0  # nothing searched twice
    for a, b in zip(first, again):
        assert a.units.phrases == b.units.phrases
        np.testing.assert_array_equal(a.units.idx, b.units.idx)
        np.testing.assert_array_equal(a.units.sims, b.units.sims)


def test_the_neighbour_cache_is_bounded(topic_vectors):
    cache = NeighbourCache(topic_vectors, None, 3, size=2)
    units = [cache.units(w) for w in ("team", "game", "player", "goal")]
    found = cache.lookup(units)
    assert len(found) == 4 and len(cache._rows) == 2
    assert set(cache._rows) == set(units[2:])  # the oldest went first


def test_a_ranking_is_a_function_of_the_per_text_artefacts(model):
    seen = []

    def own_phrases(_model, text):
        seen.append(text)
        return [] if text.units is None else [type("K", (), {"word": p})() for p in text.units.phrases[:2]]

    out = rank_new_texts(model, ["The rocket left the planet.", ""], own_phrases, protocol="label-free-posterior")
    assert [[k.word for k in kws] for kws in out] == [["rocket", "planet"], []]
    assert seen[0].posterior is not None and seen[0].posterior.shape == (len(model.categories),)
    assert seen[1].problem == "the document is empty" and seen[0].phrases["rocket"] == 1


def test_rank_texts_matches_keywords_for_text(model):
    texts = ["The rocket left the planet for the moon.", "", "The coach of the team watched the game."]
    idx = model.rank_texts(texts, metric="rf", k=3, top=3)
    assert (idx[1] == -1).all()
    for t, row in zip(texts, idx):
        if t:
            assert [model.vocabulary[i] for i in row if i >= 0] == \
                [kw.word for kw in model.keywords_for_text(t, metric="rf", k=3, top=3)]


def test_extract_keywords_refuses_a_list_with_a_non_text():
    with pytest.raises(InputError, match="text 1 is a int"):
        extract_keywords(["a text", 3])  # type: ignore[list-item]
