"""pages/6_Categories.py through AppTest with the fake backend: a category's words as a bar
chart with scores and their quality, why they are there (a scatter), the method switched
between dkw's metrics and the peers, two categories side by side, provenance and a
formula-safe CSV."""
from __future__ import annotations

import io
import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from dkw_app import category_view
from dkw_core.types import DEFAULT_METRIC, DEFAULT_TOP
from tests.app.conftest import finish_jobs, page
from tests.app.fakes import FakeBackend, FakeModel, make_corpus, tokens
from tests.support import vega


def run_page() -> AppTest:
    return AppTest.from_file(page("pages/6_Categories.py"), default_timeout=30).run()


def open_why(at: AppTest) -> AppTest:
    """Open the "Why these words" tab: its scatter is computed and drawn only while open."""
    at.session_state["cat_tab"] = "Why these words"
    return at.run()


def figures(at: AppTest, kind: str) -> list[dict]:
    """The page's charts of ``kind``, in page order: "bar", the scores (Vega-Lite specs: the page's
    first charts), or "scatter", why the words are there (Plotly figures)."""
    if kind == "bar":
        return vega.specs(at)
    figs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    return [f for f in figs if f["data"][0]["type"] == kind]


def charts(at: AppTest) -> list[str]:
    """The kinds of the page's charts, in page order."""
    return ["bar"] * len(figures(at, "bar")) + ["scatter"] * len(figures(at, "scatter"))


def direct_quality(category: str, words: list[str]):
    from dkw_core.quality import list_quality

    docs = make_corpus().documents
    train = [d for d in docs if d.split == "train"]
    return list_quality({category: words}, [tokens(d.text) for d in docs if d.split == "test"],
                        [tokens(d.text) for d in train], [d.label for d in train])


def expected(category: str, metric: str, top: int) -> list[str]:
    docs = [d.text for d in make_corpus().documents if d.split == "train" and d.label == category]
    return FakeModel.expected(" ".join(docs), metric, top)


def test_a_category_shows_its_words_as_a_bar_chart_with_scores(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_page()
    assert not at.exception
    assert at.selectbox(key="cat_category").value == "comp.graphics"
    at.selectbox(key="cat_metric").set_value("rf").run()
    at.number_input(key="cat_top").set_value(4).run()
    assert not at.exception
    (fig,) = figures(at, "bar")
    rows = fig["data"]["values"]
    assert fig["layer"][0]["mark"]["type"] == "bar" and fig["encoding"]["y"]["field"] == "label"
    assert fig["encoding"]["y"]["sort"] is None  # the list's order: best word on top
    assert [r["label"] for r in rows] == expected("comp.graphics", "rf", 4)
    assert [r["score_text"] for r in rows] == [f"{s:.3g}" for s in (4.0, 3.0, 2.0, 1.0)]
    table = at.dataframe[0].value
    assert list(table["word"]) == expected("comp.graphics", "rf", 4)
    assert list(table["phrases"]) == [f"{w} phrase (1)" for w in table["word"]]
    assert any("statistics from the training split" in c.value for c in at.caption)


def test_two_categories_side_by_side_with_shared_and_distinct_words(monkeypatch):
    from dkw_core.corpora import Corpus, Document

    fake = FakeBackend(monkeypatch)
    fake.corpus = Corpus("20ng", [*make_corpus().documents, Document(
        "20ng/train/sci.space/9", "video frames of the orbit", "sci.space", "train")])
    at = open_why(run_page())
    at.selectbox(key="cat_other").set_value("sci.space").run()
    assert not at.exception
    assert len(figures(at, "bar")) == len(figures(at, "scatter")) == 2
    table = at.dataframe[0].value
    assert set(table["category"]) == {"comp.graphics", "sci.space"}
    # the page's defaults: the one default metric and N
    a = FakeModel.expected("video playback resolution frames graphics card", DEFAULT_METRIC, DEFAULT_TOP)
    b = FakeModel.expected("orbit shuttle launch space station video frames of the orbit", DEFAULT_METRIC,
                           DEFAULT_TOP)
    only_a, shared, only_b = (t.value.split("\n") for t in at.text[-3:])
    assert shared == [w for w in a if w in b] == ["frames", "video"]
    assert only_a == [w for w in a if w not in b] and only_b == [w for w in b if w not in a]


def test_csv_download_is_the_one_csv_writer_formulas_neutralised_and_controls_escaped(monkeypatch):
    """The page's "Download words (CSV)" goes through dkw_core.csvsafe like every CSV dkw hands
    out (it had a copy of its own that left ESC, BEL and U+202E raw in the category column)."""
    import streamlit as st

    from dkw_core.corpora import Corpus, Document
    from tests.test_csvsafe import _formula_cells

    hostile = "=cmd()\x1b[2J\x07\u202eevil"
    fake = FakeBackend(monkeypatch)
    fake.corpus = Corpus("20ng", [*make_corpus().documents, Document(
        "20ng/train/x/9", "video frames of the orbit", hostile, "train")])
    monkeypatch.setattr(FakeModel, "categories", ["comp.graphics", "sci.space", hostile])
    handed_out: dict[str, bytes] = {}
    real = st.download_button

    def record(label, data=None, *args, **kwargs):
        handed_out[kwargs.get("key") or label] = data
        return real(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", record)
    at = run_page()
    at.selectbox(key="cat_category").set_value(hostile).run()
    assert not at.exception
    (button,) = [b for b in at.get("download_button")]
    assert "Download words (CSV)" in button.proto.label
    text = handed_out["cat_csv"].decode("utf-8")
    assert not any(c in text for c in "\x1b\x07\u202e")  # no raw ESC, BEL or bidi override
    assert "'=cmd()\\x1b[2J\\x07\\u202eevil" in text and not _formula_cells(text)
    out = pd.read_csv(io.BytesIO(handed_out["cat_csv"]), keep_default_na=False)
    assert set(out["category"]) == {"'=cmd()\\x1b[2J\\x07\\u202eevil"}
    assert list(out["rank"]) == list(range(1, len(out) + 1))  # numbers stay numbers


def test_unprepared_corpus_offers_preparation(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=False)
    at = run_page()
    assert not at.exception and not charts(at)
    at.button(key="cat_prepare").click().run()
    assert not at.exception
    finish_jobs()  # the preparation runs in the server's background jobs
    at.run()
    assert not at.exception and fake.prepare_calls == 1 and charts(at)


def test_hostile_category_names_create_no_link_in_the_chart_or_the_headings(monkeypatch):
    """A category named ``<a href=…>`` was a live link in the chart's title, and
    ``http://…``, ``www.…`` in the "Only <category>" headings became links (GFM autolinks
    fire on the text after markdown escapes are resolved)."""
    from tests.app.fakes import hostile_corpus
    from tests.support import hostile
    from tests.support.markdown import live_markup, shown

    fake = FakeBackend(monkeypatch)
    fake.corpus = hostile_corpus()
    monkeypatch.setattr(FakeModel, "categories", list(hostile.CATEGORIES))
    at = open_why(run_page())
    first, other = hostile.CATEGORIES[0], hostile.CATEGORIES[1]
    at.selectbox(key="cat_category").set_value(first).run()
    at.selectbox(key="cat_other").set_value(other).run()
    assert not at.exception
    titles = [f["layout"]["title"]["text"] for f in figures(at, "scatter")]
    assert len(titles) == 2 and all("<" not in t for t in titles), titles  # Plotly reads "<a …>" as a link
    assert titles[0].startswith("&lt;a href=") and "clickme&lt;/a&gt;" in titles[0]
    bars = figures(at, "bar")  # Vega-Lite draws text as text and its tooltip escapes: the name as it is
    for bar, category in zip(bars, [first, other]):  # in lines of half the width (a long one cut, "…")
        drawn = "".join(bar["title"]["text"]).removesuffix("…").replace(" ", "")
        assert drawn[:40] == f"{category}: top 10 words by".replace(" ", "")[:40]  # as typed, its spaces aside
        assert all(len(line) <= category_view.TITLE_WIDTH // 2 for line in bar["title"]["text"])
    headings = [m.value for m in at.markdown if "Only" in m.value]
    assert [shown(h) for h in headings] == [f"**Only {first}**", f"**Only {other}**"]
    assert [live_markup(h.strip("*")) for h in headings] == [[], []]
    for fig in bars:  # untrusted text only as data, never as a field or an expression of the spec
        assert {f["field"] for f in fig["encoding"]["tooltip"]} <= set(fig["data"]["values"][0])
        assert "Expr" not in json.dumps({k: v for k, v in fig.items() if k != "data"})
    for fig in figures(at, "scatter"):  # the scatter's axis titles and hovers name no category unescaped
        assert "<" not in json.dumps(fig["layout"]["xaxis"]) + json.dumps(fig["layout"]["yaxis"])
        assert all("<" not in str(d) for t in fig["data"] for d in t.get("customdata", []))


def test_the_list_and_its_quality_come_first_then_why_its_words_are_there(monkeypatch):
    """The quality of the list (NPMI with its reference and window, exclusivity, absent share)
    stands above its bar chart, and a scatter of each word's count in the category against
    elsewhere, the list's words labelled, is one tab away (computed only once opened)."""
    FakeBackend(monkeypatch)
    at = run_page()
    at.selectbox(key="cat_metric").set_value("rf").run()
    assert not at.exception
    assert [t.label for t in at.tabs] == ["Scores", "Why these words"]
    assert charts(at) == ["bar"]
    words = expected("comp.graphics", "rf", DEFAULT_TOP)
    want = direct_quality("comp.graphics", words)
    shown = {m.label: m.value for m in at.metric}
    assert shown == {"NPMI": f"{want.npmi:+.3f}", "exclusivity": f"{want.exclusivity:.3f}",
                     "absent": f"{want.absent_share:.0%}"}
    assert any("boolean sliding window of 10 words" in c.value and "test split" in c.value for c in at.caption)
    open_why(at)
    assert charts(at) == ["bar", "scatter"]  # the list first, then why
    (fig,) = figures(at, "scatter")
    listed = next(t for t in fig["data"] if t["name"].startswith("top "))
    assert listed["text"] == words == [a["text"] for a in fig["layout"]["annotations"]]  # labelled
    assert fig["layout"]["xaxis"]["type"] == fig["layout"]["yaxis"]["type"] == "log"


def test_switching_the_method_to_a_peer_changes_the_list_and_its_quality(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_page()
    at.selectbox(key="cat_metric").set_value("rf").run()
    at.number_input(key="cat_top").set_value(3).run()
    before = list(at.dataframe[0].value["word"])
    quality_before = {m.label: m.value for m in at.metric}
    assert not at.number_input(key="cat_k").proto.disabled
    at.selectbox(key="cat_metric").set_value("fightin-words").run()
    assert not at.exception
    own = sorted(set(tokens("video playback resolution frames graphics card")), reverse=True)[:3]
    table = at.dataframe[0].value
    assert list(table["word"]) == own != before
    assert "phrases" not in table.columns  # own words: no phrase provenance
    want = direct_quality("comp.graphics", own)
    shown = {m.label: m.value for m in at.metric}
    assert shown == {"NPMI": f"{want.npmi:+.3f}", "exclusivity": f"{want.exclusivity:.3f}",
                     "absent": f"{want.absent_share:.0%}"} != quality_before
    assert at.number_input(key="cat_k").proto.disabled  # K means nothing to a peer
    from dkw_app.untrusted import md

    assert any(md("Fightin' Words (own words)") in c.value and "own words of the training split" in c.value
               for c in at.caption)
    (fig,) = figures(at, "bar")
    assert "Fightin' Words" in " ".join(fig["title"]["text"])


def test_a_corpus_without_a_test_split_shows_its_lists_and_one_line_for_their_coherence(monkeypatch):
    """NPMI is measured over the test split: without one, the quality says so in one line and the
    list, its scores and the scatter are shown all the same."""
    from dkw_core.corpora import Corpus

    fake = FakeBackend(monkeypatch)
    fake.corpus = Corpus("20ng", [d for d in make_corpus().documents if d.split == "train"])
    at = open_why(run_page())
    assert not at.exception
    assert [e.value for e in at.error] == ["no reference texts to measure coherence on"]
    assert not at.metric
    assert len(figures(at, "bar")) == len(figures(at, "scatter")) == 1


def test_the_page_opens_on_a_prepared_corpus(monkeypatch):
    """20ng unprepared beside a prepared r8: the page opens on r8 and shows its words at once."""
    fake = FakeBackend(monkeypatch, prepared={"r8"})
    fake.available = {"20ng", "r8"}
    at = run_page()
    assert not at.exception
    assert at.selectbox(key="cat_corpus").value == "r8"
    assert figures(at, "bar")  # its words at once, no Prepare step first
