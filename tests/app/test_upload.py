"""AppTest: a user corpus uploaded on Home (real library, no fakes) is validated, stored under
DKW_DATA_DIR and then offered on the Documents page like a built-in corpus."""
from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.app.conftest import page
from tests.support.markdown import shown

CSV = ("text,label\n" + "".join(f"\"The rocket {i} reached orbit around the planet.\",space\n" for i in range(4))
       + "".join(f"\"The team {i} won the game in the league.\",sport\n" for i in range(3))).encode()


class FakeUpload:
    def __init__(self, name: str, data: bytes) -> None:
        self.name, self._data = name, data

    def getvalue(self) -> bytes:
        return self._data


@pytest.fixture
def uploading(monkeypatch, tmp_path):
    """Make the page's file_uploader return the given file (AppTest cannot pick files)."""
    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path / "no-archives"))
    chosen: dict[str, FakeUpload | None] = {"file": None}
    real = st.file_uploader

    def fake(label, *args, **kwargs):
        real(label, *args, **kwargs)
        return chosen["file"]

    monkeypatch.setattr(st, "file_uploader", fake)
    return chosen


def submit(at: AppTest, name: str) -> AppTest:
    at.text_input(key="upload_name").input(name)
    next(b for b in at.button if b.label == "Import corpus").click()
    return at.run()


def test_upload_csv_then_documents_page_offers_it(uploading):
    uploading["file"] = FakeUpload("news.csv", CSV)
    at = AppTest.from_file(page("app.py"), default_timeout=60).run()
    assert not at.exception
    at = submit(at, "my-news")
    assert not at.exception, at.exception
    success = " ".join(shown(s.value) for s in at.success)
    assert "Imported my-news: 7 documents (5 train / 2 test), 2 categories" in success
    assert "stratified split" in success
    names = list(at.dataframe[0].value["corpus"])
    assert "my-news" in names

    docs = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=60).run()
    assert not docs.exception
    assert docs.selectbox(key="doc_corpus").options == ["my-news"]  # no built-in archive here
    assert docs.selectbox(key="doc_id").value.startswith("my-news/")


@pytest.mark.parametrize("filename,data,message", [
    ("bad.csv", b"text,label\nalone,a\nx,b\ny,b\n", "category 'a' has a single document"),
    ("bad.csv", b"text,label\ncaf\xe9,a\n", "not valid UTF-8"),
])
def test_bad_upload_is_one_error_line(uploading, filename, data, message):
    uploading["file"] = FakeUpload(filename, data)
    at = AppTest.from_file(page("app.py"), default_timeout=60).run()
    at = submit(at, "broken")
    assert not at.exception
    assert len(at.error) == 1 and message in shown(at.error[0].value) and "\n" not in at.error[0].value
    assert not at.success


def test_upload_size_limit(uploading, monkeypatch):
    monkeypatch.setenv("DKW_MAX_UPLOAD_MB", "0.0001")
    uploading["file"] = FakeUpload("big.csv", CSV * 20)
    at = AppTest.from_file(page("app.py"), default_timeout=60).run()
    at = submit(at, "big")
    assert [shown(e.value) for e in at.error] == [
        f"big.csv: {len(CSV * 20) / 1e6:.1f} MB is above the upload limit of 0.0001 MB (DKW_MAX_UPLOAD_MB)."]


def test_failed_upload_leaves_no_file_and_keeps_the_previous_corpus(uploading, tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    uploading["file"] = FakeUpload("news.csv", CSV)
    at = submit(AppTest.from_file(page("app.py"), default_timeout=60).run(), "mine")
    assert not at.exception and at.success
    folder = tmp_path / "data" / "corpora"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    clash = b"text,label,split,id\none,a,train,x/y\ntwo,a,train,x%2Fy\nthree,a,test,z\n"
    uploading["file"] = FakeUpload("clash.csv", clash)
    at = submit(AppTest.from_file(page("app.py"), default_timeout=60).run(), "other")
    assert len(at.error) == 1 and "duplicate id" in at.error[0].value and not at.success
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # no orphan .csv, nothing changed


def _uploaders():
    from dkw_app import keyword_views, widgets

    keyword_views.own_text_input()
    widgets.upload_corpus()


@pytest.mark.parametrize(("env", "text_mb", "corpus_mb"),
                         [({}, 10, 50), ({"DKW_MAX_TEXT_MB": "2.5", "DKW_MAX_UPLOAD_MB": "120"}, 3, 120)])
def test_each_uploader_states_its_own_limit(monkeypatch, env, text_mb, corpus_mb):
    for name in ("DKW_MAX_TEXT_MB", "DKW_MAX_UPLOAD_MB"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    at = AppTest.from_function(_uploaders, default_timeout=30).run()
    assert not at.exception
    limits = {u.proto.label: u.proto.max_upload_size_mb for u in at.get("file_uploader")}
    assert limits == {"…or a UTF-8 text file": text_mb, "CSV or zip": corpus_mb}  # never Streamlit's 200
    text_help = next(u.proto.help for u in at.get("file_uploader") if u.proto.label.endswith("text file"))
    assert f"{env.get('DKW_MAX_TEXT_MB', '10')} MB" in text_help
