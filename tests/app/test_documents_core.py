"""The Documents page on the real library: a 2-per-category slice of 20 Newsgroups, prepared
from the page, shows for the paper's example document exactly the keywords that
``KeywordModel.keywords`` returns."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dkw_app import corpora_models
from dkw_core.keywords import KeywordModel
from dkw_core.types import DEFAULT_ABOUT, DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP
from tests.app.conftest import finish_jobs, page

pytestmark = pytest.mark.corpus
EXAMPLE = "20ng/test/comp.graphics/38758"


def test_prepare_then_keywords_of_the_paper_example(monkeypatch, slice_20ng, tmp_path):
    monkeypatch.setenv("DKW_ARCHIVES", str(slice_20ng))
    monkeypatch.setenv("DKW_SAMPLE_PER_CATEGORY", "2")
    monkeypatch.setenv("DKW_N_PROCESS", "1")
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=120).run()
    assert not at.exception
    assert at.selectbox(key="doc_id").value == EXAMPLE
    assert not at.table  # not prepared yet: no keyword table, no error
    at.button(key="doc_prepare").click().run()
    assert not at.exception
    finish_jobs(timeout=600)  # the preparation runs in the server's background jobs
    at.multiselect(key="kw_metrics").set_value(["rf", "tf-idf"])
    at.number_input(key="kw_top").set_value(5).run()
    assert not at.exception
    shown = at.table[0].value

    corpus = corpora_models.open_corpus("20ng", sample=2)
    assert corpus.key == corpora_models.corpus_key("20ng", 2)  # Home's cheap check names this cache
    assert KeywordModel.is_prepared(corpora_models.corpus_key("20ng", 2), corpora_models.vectors_name(), k_max=DEFAULT_K)
    model = KeywordModel.prepare(corpus, corpora_models.load_vectors(), k_max=DEFAULT_K)  # disk cache hit
    for metric in ("rf", "tf-idf"):  # the default: the document's keyphrases, its category's words beside them
        expected = [kw.word for kw in model.keywords(EXAMPLE, metric=metric, k=90, top=5, protocol="label-aware",
                                                     about=DEFAULT_ABOUT)]
        assert list(shown[metric]) == expected
        paper = [kw.word for kw in model.keywords(EXAMPLE, metric=metric, k=90, top=5, protocol="label-aware")]
        assert list(shown[f"{metric}: category words"]) == paper

    at.radio(key="kw_protocol").set_value("label-free").run()
    at.slider(key="kw_about").set_value(1.0).run()  # the paper's words, one control away
    assert not at.exception
    free = [kw.word for kw in model.keywords(EXAMPLE, metric="rf", k=90, top=5, protocol="label-free")]
    assert list(at.table[0].value.columns) == ["rf", "tf-idf"]
    assert list(at.table[0].value["rf"]) == free


def test_own_text_without_any_archive_gets_the_keywords_of_the_one_request_path(monkeypatch, tmp_path):
    """No corpus archive at all (a fresh clone): the Documents page's text box answers a new text
    from 20ng's shipped statistics, with exactly the keywords Home, the CLI and the library give
    (``extract_keywords``), and says so."""
    from dkw_core import extract_keywords

    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path / "no-archives"))
    text = "The new graphics card renders 3D images at a high resolution with its video memory."
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=120).run()
    assert not at.exception
    assert at.selectbox(key="doc_corpus").value == "20ng"
    at.text_area(key="own_text").input(text).run()
    assert not at.exception and not at.error
    shown = [w.replace("\\", "") for w in at.table[0].value[DEFAULT_METRIC] if w]
    assert shown == [kw.word for kw in extract_keywords(text, corpus="20ng")] and len(shown) == DEFAULT_TOP
    assert any("(shipped statistics)" in c.value for c in at.caption)
