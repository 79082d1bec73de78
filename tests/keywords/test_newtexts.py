"""Tests for dkw_core/keywords/newtexts.py: the batched path for new texts gives the keywords one
text at a time gives — the paper's words (about 1) and the keyphrases at the default about, fit
and about included — on a slice of every built-in corpus (the shipped statistics: no
preparation), and its stages (neighbour cache, pluggable ranking, long texts) behave."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import archives_present, one_text, one_text_keywords

from dkw_core import extract_keywords
from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel
from dkw_core.keywords.fit import CorpusFit
from dkw_core.keywords.newtexts import new_texts, text_keywords
from dkw_core.keywords.units import NeighbourCache, neighbour_cache
from dkw_core.types import DEFAULT_ABOUT

ARCHIVE = {"20ng": "20news-bydate.tar.gz", "r8": "reuters21578.tar.gz", "r52": "reuters21578.tar.gz",
           "webkb": "webkb-data.tar.gz"}
SLICE = 8  # the first test texts of each corpus, one long text (tagged in pieces), an empty one, one without a noun


OUT_OF_CORPUS = {  # a text each corpus's fit calls out of the corpus (P below 0.60, far from every category)
    "r8": "The gardener planted tulips and roses in the flower bed; the soil needs compost, and the seedlings "
          "need water and sunlight every morning.",
    "webkb": "The professor and the graduate student work on the research project for the course on volcanoes.",
    "r52": "Lava flowed from the volcano and the ash cloud covered the village near the crater. Geologists "
           "measured the eruption and the magma beneath the mountain.",
    "20ng": "Lava flowed from the volcano and the ash cloud covered the village near the crater. Geologists "
            "measured the eruption and the magma beneath the mountain.",
}


def _slice(dataset: str, n: int = SLICE, *extra: str) -> list[str]:
    from dkw_core.corpora import load_corpus

    test = [d.text for d in load_corpus(dataset).split("test")[:300]]
    long = [t for t in test if len(t) > 5_500]
    return [*test[:n], *(sorted(long, key=len)[:1]), *extra, "", "and then, quickly."]


def _one_at_a_time(model, texts: list[str], metric: str, protocol: str) -> list[list[str]]:
    out = []
    for t in texts:
        model.__dict__.pop("_neighbour_cache", None)  # today's path: each text searched on its own
        try:
            out.append([kw.word for kw in one_text_keywords(model, t, metric=metric, k=90, top=10, protocol=protocol)])
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
    batch = [f.keywords["lo-own"] for f in text_keywords(model, [(str(i), t) for i, t in enumerate(texts)],
                                                          metrics=["lo-own"], k=90, top=10, about=1.0)]
    for t, kws in zip(texts[:3], batch):
        model.__dict__.pop("_neighbour_cache", None)
        one = one_text_keywords(model, t, metric="lo-own", k=90, top=10)
        assert [(k.word, k.score, k.tf, k.provenance) for k in kws] == [(k.word, k.score, k.tf, k.provenance) for k in one]


def _same_answer(one, got, where) -> None:
    """``got`` (a batched KeywordList) is ``one`` (extract_keywords of the text alone): words and
    scores, about, fit, weighting and category words."""
    assert [k.word for k in got] == [k.word for k in one], where
    assert np.allclose([k.score for k in got], [k.score for k in one]), where
    assert [k.tf for k in got] == [k.tf for k in one], where
    assert got.about == one.about, where
    f, g = one.fit, got.fit
    assert (g.nearest, g.out_of_corpus) == (f.nearest, f.out_of_corpus), where
    assert np.isclose(g.p, f.p) and np.isclose(g.similarity, f.similarity), where
    w, v = one.weighting, got.weighting
    assert (v.category, v.runner_up) == (w.category, w.runner_up), where
    assert np.isclose(v.probability, w.probability) and np.isclose(v.runner_up_probability, w.runner_up_probability)
    assert [k.word for k in got.category_words] == [k.word for k in one.category_words], where
    assert np.allclose([k.score for k in got.category_words], [k.score for k in one.category_words]), where
    assert got.describe() == one.describe(), where


@pytest.mark.parametrize("dataset", ["20ng", "r8", "r52", "webkb"])
def test_batched_keyphrases_at_the_default_about_equal_one_text_at_a_time_on_every_corpus(dataset):
    """``extract_keywords(list)`` at the default about (keyphrases, docs/method.md §13) and at
    about 0 is ``extract_keywords(text)`` text by text: a text out of the corpus gets about 0
    from both, and an explicit about is kept."""
    if not archives_present(ARCHIVE[dataset]):
        pytest.skip(f"{ARCHIVE[dataset]} not in DKW_ARCHIVES")
    outside = OUT_OF_CORPUS[dataset]
    texts = _slice(dataset, 15, outside)
    for about, chosen in ((None, texts), (0.0, [*texts[:3], outside, ""])):
        got = extract_keywords(chosen, corpus=dataset, about=about)
        assert len(got) == len(chosen)
        for i, (t, kws) in enumerate(zip(chosen, got)):
            try:
                one = extract_keywords(t, corpus=dataset, about=about)
            except InputError:  # empty, no noun: an empty list in a batch
                assert kws == [], (dataset, about, i)
                continue
            _same_answer(one, kws, (dataset, about, i))
        last = got[chosen.index(outside)]
        assert last.fit.out_of_corpus and last.about == 0.0 and last.category_words, (dataset, about)
        assert got[-1] == [] and (about is not None or all(got[:-2]))
        if about is None:  # the slice's own texts fit, most of them: the default about
            assert [kws.about for kws in got[:-2]].count(DEFAULT_ABOUT) >= 8, (dataset, [k.about for k in got[:-2]])
    assert {kws.about for kws in got[:-1]} == {0.0}  # about 0 asked: no text moved


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


def test_new_texts_hold_what_the_ranking_reads(model):
    out = new_texts(model, [("a", "The rocket left the planet."), ("b", "")], protocol="label-free-posterior")
    assert out[0].posterior is not None and out[0].posterior.shape == (len(model.categories),)
    assert out[0].phrases["rocket"] == 1 and out[0].units is not None
    assert out[1].problem == "the document is empty" and out[1].units is None


def test_rank_texts_gives_the_keywords_of_one_text(model):
    texts = ["The rocket left the planet for the moon.", "", "The coach of the team watched the game."]
    idx = model.rank_texts(texts, metric="rf", k=3, top=3)
    assert (idx[1] == -1).all()
    for t, row in zip(texts, idx):
        if t:
            assert [model.vocabulary[i] for i in row if i >= 0] == \
                [kw.word for kw in one_text_keywords(model, t, metric="rf", k=3, top=3)]


def test_extract_keywords_refuses_a_list_with_a_non_text():
    with pytest.raises(InputError, match="text 1 is a int"):
        extract_keywords(["a text", 3])  # type: ignore[list-item]


TOPIC_TEXT = "The rocket left the planet for the moon while the coach of the team watched the game in the league."


def _in_a_batch(model, about, protocol="label-free-top1"):
    """TOPIC_TEXT ranked second in a batch of three (its keywords, its TextKeywords)."""
    items = [("x", "The moon and the planet."), ("t", TOPIC_TEXT), ("y", "The team won the game.")]
    found = list(text_keywords(model, items, metrics=["rf"], k=3, top=4, protocol=protocol, about=about))[1]
    return found.keywords["rf"], found


def test_the_batched_keyphrases_follow_about(model):
    """A text's keyphrases in a batch are its keyphrases alone at every about it is given, and
    those lists differ (a ranking that ignored about would fail here)."""
    lists = {}
    for about in (0.0, 0.5, 1.0):
        got, found = _in_a_batch(model, about)
        want = one_text_keywords(model, TOPIC_TEXT, k=3, top=4, about=about)
        assert [(k.word, k.tf) for k in got] == [(k.word, k.tf) for k in want], about
        assert np.allclose([k.score for k in got], [k.score for k in want])
        assert found.about == about and (found.fit is not None) == (about < 1.0)  # the paper's words need no fit
        if about < 1.0:
            assert [k.word for k in found.category_words["rf"]] == \
                [k.word for k in one_text_keywords(model, TOPIC_TEXT, k=3, top=4, about=1.0)]
        lists[about] = [k.word for k in got]
    assert lists[0.0] != lists[1.0] and lists[0.5] != lists[1.0]
    for protocol in ("label-free", "label-free-posterior"):  # the other weightings, as text_label gives them
        got, _ = _in_a_batch(model, 0.5, protocol)
        want = one_text_keywords(model, TOPIC_TEXT, k=3, top=4, about=0.5, protocol=protocol)
        assert [(k.word, k.tf) for k in got] == [(k.word, k.tf) for k in want], protocol
        assert np.allclose([k.score for k in got], [k.score for k in want]), protocol


def test_about_none_follows_the_fit_and_an_asked_about_wins(model, monkeypatch):
    """``about=None``: the default about, 0 for a text its fit calls out of the corpus; an about
    given is kept whatever the fit says."""
    def ranked(about):
        got, found = _in_a_batch(model, about)
        return [k.word for k in got], found.about

    one = one_text(model, TOPIC_TEXT, k=3, top=4, about=None)
    assert ranked(None) == ([k.word for k in one.keywords["rf"]], one.about)
    assert one.about == (0.0 if one.fit.out_of_corpus else DEFAULT_ABOUT)
    outside = CorpusFit(p=0.3, similarity=0.1, nearest=model.categories[0], out_of_corpus=True)
    monkeypatch.setattr(type(model), "corpus_fit", lambda self, units, posterior, artefacts=None: outside)
    words, about = ranked(None)
    assert about == 0.0 and words == [k.word for k in one_text_keywords(model, TOPIC_TEXT, k=3, top=4, about=0.0)]
    assert ranked(0.7)[1] == 0.7 and ranked(1.0) == ([k.word for k in one_text_keywords(
        model, TOPIC_TEXT, k=3, top=4, about=1.0)], 1.0)


DOORS = [OUT_OF_CORPUS["20ng"],
         "The new graphics card renders polygons faster, but the driver crashes when the window is resized.",
         "The goalie stopped the puck twice in overtime and the fans cheered the playoff win.", "", "and then, quickly."]


@pytest.mark.parametrize("about", [None, 0.0, 1.0])
def test_one_text_a_batch_and_the_cli_give_the_same_keywords(tmp_path, capsys, about):
    """The doors of the one path of new texts agree, on the shipped statistics (nothing to
    prepare): ``extract_keywords(text)``, ``extract_keywords(list)`` and ``keywords --texts``
    (two metrics at once) give each text the same words and scores, about, fit and weighting;
    a text without keywords is an error alone, ``[]`` in a list and a record with its problem."""
    import json

    from dkw_core.cli import main

    src = tmp_path / "texts.jsonl"
    src.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n" for i, t in enumerate(DOORS)))
    argv = ["keywords", "--texts", str(src), "--metric", "rf", "--metric", "lo-own"]
    assert main(argv + ([] if about is None else ["--about", str(about)])) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in records] == [f"t{i}" for i in range(len(DOORS))]
    for m in ("rf", "lo-own"):
        batch = extract_keywords(DOORS, metric=m, about=about)
        for text, rec, kws in zip(DOORS, records, batch):
            try:
                one = extract_keywords(text, metric=m, about=about)
            except InputError as exc:
                assert kws == [] and rec["keywords"][m] == [] and rec["problem"] in str(exc)
                continue
            assert [k.word for k in one] == [k.word for k in kws] == rec["keywords"][m], (m, text)
            assert [k.score for k in one] == [k.score for k in kws], (m, text)
            assert (rec["weighted_as"], rec["p"]) == (one.weighting.category, round(one.weighting.probability, 4))
            if about != 1.0:
                assert one.about == kws.about == rec["about"] and rec["out_of_corpus"] == one.fit.out_of_corpus
                assert [k.word for k in one.category_words] == [k.word for k in kws.category_words]
    if about is None:  # the volcano is out of 20ng: its own words by default, from every door
        assert records[0]["about"] == 0.0 and records[0]["out_of_corpus"] and records[1]["about"] == DEFAULT_ABOUT
    if about == 1.0:
        assert "about" not in records[0]


def test_an_about_control_at_the_default_asks_for_the_default_rule():
    """Home's and Documents' slider: at the default it leaves the choice to the default rule (a
    text out of the corpus gets 0), any other value is asked for as it is."""
    from dkw_core.keywords.newtexts import about_asked

    assert about_asked(DEFAULT_ABOUT) is None
    assert about_asked(0.0) == 0.0 and about_asked(1.0) == 1.0 and about_asked(0.7) == 0.7


def test_a_long_texts_pieces_are_tagged_in_small_batches_and_short_texts_in_large_ones():
    # spaCy's memory grows with a batch's characters: 64 pieces of 5,000 characters took a 1 MB
    # text's tagging to 1.2 GB (8 pieces: 0.2 GB)
    from dkw_core.keywords.newtexts import PIPE_BATCH, pipe_batch, tag_counts
    from dkw_core.longtext import CHUNK_CHARS

    assert pipe_batch(["x" * CHUNK_CHARS] * 100) <= 10
    assert pipe_batch(["a short news story of some seven hundred characters " * 14] * 100) == PIPE_BATCH

    seen = []

    class Spy:
        def tag_pieces(self, parts, *, n_process=1, batch_size=32):
            seen.append(batch_size)
            return iter([(["word"], ["N"]) for _ in parts])

    tag_counts(["word. " * 200_000], n_process=1, tagger=Spy())
    assert seen and seen[0] <= 10


def test_a_batchs_phrase_vectors_are_those_of_one_text_at_a_time(model):
    """A batch composes its distinct units once for every text's corpus fit: each text's phrase
    vectors equal what the model composes for that text alone, bit for bit."""
    from dkw_core.keywords.newtexts import text_artefacts

    texts = [("a", "The rocket left the planet for the moon."), ("b", "The coach of the team watched the game."),
             ("c", "The rocket and the team."), ("d", "")]
    for new in new_texts(model, texts, protocol="label-free-posterior", phrase_vectors=True):
        if new.units is None:
            continue
        assert "phrase_vectors" in new.extra
        got = text_artefacts(model, new).phrase_vectors
        want = model.text_artefacts(new.units).phrase_vectors
        assert got.tobytes() == want.tobytes() and got.shape == want.shape
