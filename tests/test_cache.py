"""dkw_core/cache.py in a read-only data folder: answers come from what is cached (or are
computed), one notice says nothing could be saved, and no traceback is ever shown."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from dkw_core.cli import main
from tests.support.readonly import read_only

TEXTS = {("train", "sport"): "The team won the game after the coach changed the player.",
         ("train", "space"): "The rocket reached orbit around the planet.",
         ("test", "sport"): "The coach praised the team and the league.",
         ("test", "space"): "The mission put a rocket near the moon."}


@pytest.fixture
def corpus(tmp_path) -> Path:
    root = tmp_path / "mini"
    for (split, label), text in TEXTS.items():
        (root / split / label).mkdir(parents=True)
        (root / split / label / "0.txt").write_text(text)
    return root


def _keywords(corpus: Path, capsys, *extra: str):
    code = main(["keywords", "--dataset", str(corpus), "--doc", "mini/test/space/0.txt", "--metric", "rf",
                 "--k", "10", "--top", "4", "--json", *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out)["keywords"]["rf"] if code == 0 else None), err


def test_read_only_data_folder_answers_from_the_cache_and_says_nothing_is_saved(corpus, tmp_path, monkeypatch,
                                                                                  capsys):
    from dkw_core import cache

    data = tmp_path / "data"
    monkeypatch.setenv("DKW_DATA_DIR", str(data))
    code, cached, _ = _keywords(corpus, capsys)
    assert code == 0
    monkeypatch.setattr(cache, "_TOLD_UNSAVED", set())
    folders = [data, *[p for p in data.rglob("*") if p.is_dir()]]
    with read_only(*folders):
        code, again, err = _keywords(corpus, capsys)  # prepared: read from the cache
        assert code == 0 and again == cached and "Traceback" not in err
        code, other, err = _keywords(corpus, capsys, "--neighbours", "csls-k10")  # not cached: computed, not kept
        assert code == 0 and other and "Traceback" not in err
        notices = [line for line in err.splitlines() if line.startswith("notice:")]
        assert len(notices) == 1 and str(data) in notices[0] and "nothing could be saved" in notices[0]


def test_data_folder_that_cannot_be_created_is_one_line(corpus, tmp_path, monkeypatch, capsys):
    parent = tmp_path / "locked"
    parent.mkdir()
    monkeypatch.setenv("DKW_DATA_DIR", str(parent / "data"))
    with read_only(parent):
        code, _, err = _keywords(corpus, capsys)
    assert code == 2 and err.count("\n") == 1 and str(parent / "data") in err and "Traceback" not in err
    assert "cannot be created" in err


def test_documents_page_in_a_read_only_data_folder_prepares_and_says_nothing_is_saved(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from dkw_core import cache
    from dkw_core.corpora.uploads import import_corpus
    from tests.app.conftest import finish_jobs, page
    from tests.support.appcache import clear_app_caches

    data = tmp_path / "data"
    monkeypatch.setenv("DKW_DATA_DIR", str(data))
    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path / "no-archives"))
    rows = "".join(f"\"{text}\",{label},{split}\n" for (split, label), text in TEXTS.items())
    import_corpus("mine", ("text,label,split\n" + rows).encode(), "mine.csv")
    import dkw_core.vectors as vectors_module

    vectors_module.load_vectors()  # the default GloVe converted once, before the folder turns read-only
    monkeypatch.setattr(cache, "_TOLD_UNSAVED", set())
    clear_app_caches()
    with read_only(data, *[p for p in data.rglob("*") if p.is_dir()]):
        at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=120).run()
        assert not at.exception
        at.button(key="doc_prepare").click().run()
        assert not at.exception, [e.value for e in at.exception]
        finish_jobs(timeout=600)  # the preparation runs in the server's background jobs
        at.run()
        assert any("nothing could be saved" in w.value for w in at.warning)
        assert at.table  # the keywords are shown, computed in memory
    clear_app_caches()
