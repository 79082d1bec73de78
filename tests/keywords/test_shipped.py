"""Shipped training statistics (``dkw_core/shipped/``): what they hold equals a fresh
preparation, and a new text is answered from them with no corpus archive and no preparation."""
import json

import numpy as np
import pytest
from conftest import needs_20ng, one_text

from dkw_core.keywords.compact import CompactPosterior
from dkw_core.keywords.posterior import CategoryPosterior
from dkw_core.keywords.shipped import (
    SHIPPED_DIR,
    load_shipped,
    posterior_path,
    read_meta,
    read_stats,
    stats_path,
    vocabulary_hash,
)
from dkw_core.types import DEFAULT_K
from tests.support.scripts import load_script

TEXT = ("My new graphics card renders 3D scenes at a higher resolution, but the video driver crashes when "
        "the monitor switches display modes.")


def test_compact_posterior_with_every_coefficient_equals_the_fitted_one():
    texts = [f"{w} {w} match score {i}" for i, w in enumerate(["team", "goal", "coach", "league"] * 3)] + \
            [f"{w} orbit launch {i}" for i, w in enumerate(["rocket", "moon", "planet", "star"] * 3)] + \
            [f"{w} dose patient {i}" for i, w in enumerate(["doctor", "drug", "nurse", "clinic"] * 3)]
    labels = np.repeat([0, 1, 2], 12)
    fitted = CategoryPosterior(3).fit(texts, labels)
    compact = CompactPosterior.from_arrays(CompactPosterior.from_fitted(fitted, texts).arrays())
    new = ["the coach and the team", "a rocket to the moon", "the nurse gave a drug", "nothing known here"]
    np.testing.assert_allclose(compact.predict(new), fitted.predict(new), rtol=0, atol=1e-12)
    pruned = CompactPosterior.from_fitted(fitted, texts, keep=60, bits=8)
    assert (pruned.predict(new[:3]).argmax(axis=1) == fitted.predict(new[:3]).argmax(axis=1)).all()


@pytest.fixture(scope="module")
def slice_model():
    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel

    return KeywordModel.prepare(load_corpus("20ng").head(2), k_max=DEFAULT_K)


@needs_20ng
def test_shipped_statistics_equal_a_fresh_preparation_on_a_slice(slice_model, tmp_path):
    from dkw_core.keywords import KeywordModel

    report = load_script("ship_stats").ship(slice_model, "20ng", folder=tmp_path, keep=None)  # scripts/ship_stats.py
    assert report["stats_bytes"] < 2_000_000 and report["posterior_bytes"] < 2_000_000
    meta, categories, shipped = read_stats(stats_path("20ng", DEFAULT_K, tmp_path))
    fresh = KeywordModel.prepare(slice_model.corpus, k_max=DEFAULT_K, cache=False)
    expected = fresh.category_stats(DEFAULT_K)
    assert categories == fresh.categories and meta["corpus_key"] == "20ng-head2" and meta["k"] == DEFAULT_K
    assert meta["vocabulary_hash"] == vocabulary_hash(fresh.vocabulary)
    for field in ("doc_freq", "term_freq", "n_docs", "own_freq"):
        assert np.array_equal(getattr(shipped, field), getattr(expected, field)), field
    # a new text: the same keywords and scores from the shipped files as from the prepared slice
    model = load_shipped("20ng", folder=tmp_path)
    for metric in ("ig", "tf-rf", "lo-own"):
        got = one_text(model, TEXT, metric=metric, k=DEFAULT_K, top=10)
        want = one_text(fresh, TEXT, metric=metric, k=DEFAULT_K, top=10)
        assert [kw.word for kw in got.keywords[metric]] == [kw.word for kw in want.keywords[metric]]
        np.testing.assert_allclose([kw.score for kw in got.keywords[metric]],
                                   [kw.score for kw in want.keywords[metric]], rtol=1e-9)
        assert got.weighting.category == want.weighting.category


def test_the_shipped_files_belong_to_the_full_corpora_and_the_default_vectors():
    from dkw_core.vectors import load_vectors

    crop = vocabulary_hash(load_vectors().cropped_words)
    manifest = json.loads((SHIPPED_DIR / "manifest.json").read_text())
    assert set(manifest) >= {"20ng"}
    for name in manifest:
        meta = read_meta(stats_path(name, DEFAULT_K))
        assert meta is not None and meta["corpus_key"] == name and meta["k"] == DEFAULT_K, name
        assert meta["vectors"] == "glove-6b-50d" and meta["vocabulary_hash"] == crop and meta["neighbours"] == "cosine"
        stats = read_stats(stats_path(name, DEFAULT_K))[2]
        assert stats.own_freq is not None and stats.own_freq.sum() > 0, name  # lo-own answers new texts
        for path in (stats_path(name, DEFAULT_K), posterior_path(name)):
            assert path.stat().st_size < 2_000_000, path  # the repository's size rule
    _, categories, stats = read_stats(stats_path("20ng", DEFAULT_K))
    assert len(categories) == 20 and stats.n_docs.sum() == 11314  # 20ng's published training split


def test_a_new_text_needs_no_archive_and_no_preparation(tmp_path, monkeypatch, capsys):
    from dkw_core import extract_keywords
    from dkw_core.cli import main

    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path / "no-archives"))
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    f = tmp_path / "card.txt"
    f.write_text(TEXT)
    assert main(["keywords", "--text-file", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dataset"] == "20ng" and out["source"] == "shipped statistics" and out["protocol"] == "label-free-top1"
    from dkw_core.types import DEFAULT_METRIC as default

    assert list(out["keywords"]) == [default] and out["k"] == 90 and out["top"] == 10
    assert len(out["scores"][default]) == 10  # keyphrases: MMR picks the order, the score is the blend
    assert out["weighted_as"].startswith("comp.")
    assert main(["keywords", "--text-file", str(f), "--json", "--about", "1"]) == 0  # the paper's words
    paper = json.loads(capsys.readouterr().out)["scores"][default]
    assert len(paper) == 10 and paper == sorted(paper, reverse=True)
    kws = extract_keywords(TEXT)
    assert [kw.word for kw in kws] == out["keywords"][default]
    assert [kw.score for kw in kws] == out["scores"][default]
    assert not (tmp_path / "data" / "cache" / "v3" / "models").exists()  # nothing was prepared


def test_only_new_texts_at_the_shipped_settings_read_the_shipped_statistics():
    from dkw_core.keywords.request import KeywordRequest, uses_shipped

    assert uses_shipped(KeywordRequest(text="a new text"))  # 20ng, K 90, cosine, default vectors
    assert uses_shipped(KeywordRequest(dataset="r8"))  # new texts of a batch file
    for other in ({"k": 50}, {"sample": 2}, {"neighbours": "csls-k10"}, {"doc": "20ng/test/comp.graphics/38758"},
                  {"split": "test"}, {"dataset": "webkb4"}):
        assert not uses_shipped(KeywordRequest(**{"text": "a new text", **other})), other


def test_the_shipped_statistics_are_a_source_the_model_reads():
    """The shipped statistics are not a model: a KeywordModel of new texts reads them
    (composition). What needs the corpus's documents or another K says, in one line, to prepare
    the corpus; the statistics and the posterior are the shipped ones."""
    from dkw_core.errors import InputError
    from dkw_core.keywords import KeywordModel
    from dkw_core.keywords.shipped import ShippedStatistics

    model = load_shipped("20ng")
    assert type(model) is KeywordModel and isinstance(model.statistics, ShippedStatistics)
    assert model.source == "shipped statistics" and model.k_max == DEFAULT_K and model.corpus.name == "20ng"
    assert model.category_stats() is model.statistics.category_stats(DEFAULT_K)
    assert model.posterior_model() is model.statistics.posterior_model()
    corpus_only = [lambda: model.keywords("20ng/test/sci.space/1", metric="rf"), lambda: model.rank("test", metric="rf"),
                   lambda: model.term_counts("test"), lambda: model.posteriors("test"), lambda: model.doc_ids(),
                   lambda: model.labels(), lambda: model.category_keywords("sci.space", metric="rf")]
    for call in corpus_only:
        with pytest.raises(InputError, match="score new texts only; corpus documents need the prepared corpus"):
            call()
    with pytest.raises(InputError, match="are for K = 90; another K needs the prepared corpus"):
        model.category_stats(50)


def test_the_meta_of_a_shipped_file_is_read_once_and_again_when_the_file_changes(tmp_path, monkeypatch):
    """Every new text asks whether shipped statistics answer it: the file's meta is read once per
    version of the file (a rewritten file is read again), and a caller's copy can be changed."""
    import json
    import os

    import dkw_core.keywords.shipped as shipped

    path = tmp_path / "stats.npz"
    np.savez(path, meta=json.dumps({"format": shipped.FORMAT, "corpus_key": "one"}))
    opened = []
    real_load = np.load
    monkeypatch.setattr(shipped.np, "load", lambda p, *a, **kw: (opened.append(p), real_load(p, *a, **kw))[1])
    first = read_meta(path)
    assert first == {"format": shipped.FORMAT, "corpus_key": "one"}
    first["corpus_key"] = "changed by a caller"
    assert read_meta(path)["corpus_key"] == "one" and len(opened) == 1
    np.savez(path, meta=json.dumps({"format": shipped.FORMAT, "corpus_key": "two, longer"}))
    os.utime(path, ns=(1, 1))  # another version even within the clock's resolution
    assert read_meta(path)["corpus_key"] == "two, longer" and len(opened) == 2
    assert read_meta(tmp_path / "missing.npz") is None
