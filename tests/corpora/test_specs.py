"""Tests for dkw_core/corpora/specs.py: one CorpusSpec per built-in corpus, read by the registry,
the downloader and the ``download`` command."""
from __future__ import annotations

from dataclasses import replace

import pytest

from dkw_core.cli import build_parser
from dkw_core.corpora import CORPORA, dataset_info, list_datasets
from dkw_core.corpora.download import DOWNLOADABLE, archive_for
from dkw_core.corpora.specs import corpus_spec
from dkw_core.errors import CorpusError


def test_every_builtin_corpus_has_one_spec_read_by_the_registry(tmp_path):
    assert list_datasets() == list(CORPORA)
    for name, spec in CORPORA.items():
        info = dataset_info(name, archives=tmp_path)
        assert (info["train"], info["test"], info["categories"]) == (spec.train, spec.test, spec.categories)
        assert info["archive"] == spec.archive.archive and info["url"] == spec.url
        assert info["available"] is False


def test_published_counts():
    assert [(CORPORA[n].train, CORPORA[n].test, CORPORA[n].categories) for n in ("20ng", "r52", "r8")] == [
        (11314, 7532, 20), (6532, 2568, 52), (5485, 2189, 8)]
    webkb, webkb4 = CORPORA["webkb"], CORPORA["webkb4"]
    assert webkb.train + webkb.test == 8282 and webkb.test == pytest.approx(8282 / 3, abs=4)
    assert webkb4.train + webkb4.test == 4199 and webkb4.categories == 4


def test_shared_archives_and_downloads():
    assert CORPORA["r52"].archive is CORPORA["r8"].archive
    assert CORPORA["webkb"].archive is CORPORA["webkb4"].archive
    assert DOWNLOADABLE == ("20ng", "r52", "r8", "webkb", "webkb4")
    assert archive_for("r8") is CORPORA["r8"].archive
    with pytest.raises(CorpusError, match="cannot be downloaded"):
        archive_for("7sectors")
    # the corpus's own page is its url; scikit-learn's mirror is tried first but is not the page
    assert CORPORA["20ng"].url == "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz"
    assert CORPORA["20ng"].archive.sources[0].mirror and CORPORA["7sectors"].url is None


def test_download_command_offers_the_downloadable_corpora():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert sub.choices["download"]._actions[1].choices == sorted(DOWNLOADABLE) + ["all"]


def test_unknown_name_is_one_line():
    with pytest.raises(CorpusError, match=r"unknown dataset 'nope'; built-in datasets: 20ng, r52"):
        corpus_spec("nope")


def test_a_spec_change_reaches_the_registry(monkeypatch, tmp_path):
    monkeypatch.setitem(CORPORA, "r8", replace(CORPORA["r8"], description="changed"))
    assert dataset_info("r8", archives=tmp_path)["description"] == "changed"
