from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dkw_app import corpora_models, keywords_door
from dkw_core.types import DEFAULT_K, DEFAULT_METRIC
from tests.app.conftest import finish_jobs, page
from tests.app.fakes import UNTRUSTED, FakeBackend, FakeModel, make_corpus

EXAMPLE = "20ng/test/comp.graphics/38758"


def run_docs() -> AppTest:
    return AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30).run()


def keyword_tables(at: AppTest) -> list:
    """The keyword tables (st.table; provenance tables are st.dataframe)."""
    return [t.value for t in at.table]


def table(at: AppTest):
    (frame,) = keyword_tables(at)
    return frame


def test_widgets_present_and_example_document_selected(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_docs()
    assert not at.exception
    keys = {w.key for w in [*at.selectbox, *at.text_input, *at.multiselect, *at.number_input, *at.radio]}
    assert {"doc_corpus", "doc_split", "doc_category", "doc_query", "doc_id",
            "kw_metrics", "kw_k", "kw_top", "kw_protocol"} <= keys
    assert at.selectbox(key="doc_id").value == EXAMPLE
    assert at.code[0].value == make_corpus().get(EXAMPLE).text


def test_keyword_table_has_metrics_side_by_side(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_docs()
    at.multiselect(key="kw_metrics").set_value(["rf", "tds"])
    at.number_input(key="kw_top").set_value(3).run()
    assert not at.exception
    frame = table(at)
    text = make_corpus().get(EXAMPLE).text
    # the default (about below 1): each metric's keyphrases, its category's words beside them
    assert list(frame.columns) == ["rf", "rf: category words", "tds", "tds: category words"]
    assert list(frame["rf"]) == FakeModel.expected(text, "rf", 3)
    assert list(frame["tds"]) == FakeModel.expected(text, "tds", 3)
    assert list(frame.index) == [1, 2, 3]
    # one provenance expander per keyword and metric, named by its keyword
    labels = [e.label for e in at.expander if " — score " in e.label]
    assert [lab.split(" — ")[0] for lab in labels] == [*frame["rf"], *frame["tds"]]
    assert labels[0] == f"{frame['rf'][1]} — score 3, tf 1"


def test_selecting_another_document_changes_the_table(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_docs()
    before = table(at)
    at.selectbox(key="doc_category").set_value("sci.space").run()
    assert not at.exception
    after = table(at)
    assert at.selectbox(key="doc_id").value == "20ng/test/sci.space/3"
    assert not before.equals(after)
    metric = after.columns[0]
    # rows past the document's keyword count are padded with ""
    assert [w for w in after[metric] if w] == FakeModel.expected(
        make_corpus().get("20ng/test/sci.space/3").text, metric, len(after))


def test_search_by_text_and_by_id(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_docs()
    at.text_input(key="doc_query").input("script").run()
    assert at.selectbox(key="doc_id").options == ["20ng/test/comp.graphics/38759"]
    at.text_input(key="doc_query").input("20ng/train/sci.space/2").run()
    assert not at.exception
    assert at.selectbox(key="doc_split").value == "train"
    assert at.selectbox(key="doc_id").value == "20ng/train/sci.space/2"


def test_untrusted_document_shown_verbatim(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_docs()
    at.selectbox(key="doc_id").set_value("20ng/test/comp.graphics/38759").run()
    assert not at.exception
    assert at.code[0].value == UNTRUSTED
    assert all("<script>" not in m.value for m in at.markdown)
    assert len(at.get("html")) == 0


def test_unprepared_corpus_offers_preparation_without_error(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=False)
    at = run_docs()
    assert not at.exception
    assert not keyword_tables(at)
    assert any("not prepared" in i.value for i in at.info)
    at.button(key="doc_prepare").click().run()
    assert not at.exception
    finish_jobs()  # the preparation runs in the server's background jobs
    at.run()
    assert fake.prepare_calls == 1
    assert list(table(at).columns)


def test_missing_corpus_offers_download_where_it_is_needed(monkeypatch):
    """A link to a document of a corpus not downloaded yet shows the folder and a Download button."""
    fake = FakeBackend(monkeypatch)
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30)
    at.query_params["doc"] = "r8/test/earn/1"
    at.run()
    assert not at.exception
    assert any("r8.tar.gz not found in /fake/archives" in w.value.replace("\\", "") for w in at.warning)
    next(b for b in at.button if b.key == "download_r8").click().run()
    assert not at.exception and fake.downloads == ["r8"]


def test_whole_split_download(monkeypatch):
    """The Documents page offers the keywords of every document of the split as one file."""
    fake = FakeBackend(monkeypatch)
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30).run()
    assert not at.exception
    assert not at.get("download_button") or all(b.proto.label != "Download test keywords (CSV)"
                                                for b in at.get("download_button"))
    assert fake.split_calls == []  # nothing computed before the click
    next(b for b in at.button if b.key == "split_compute").click().run()
    assert not at.exception
    assert len(fake.split_calls) == 1
    split, metrics, k, top, protocol, fmt = fake.split_calls[0]
    assert split == "test" and fmt == "csv" and protocol == "label-aware"
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download test keywords (CSV)" in labels


def test_neighbours_choice_prepares_and_uses_its_own_model(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=False)
    at = run_docs()
    assert at.selectbox(key="kw_neighbours").value == "cosine"
    at.selectbox(key="kw_neighbours").set_value("csls-k10").run()
    assert not at.exception
    assert fake.neighbours_checked[-1] == "csls-k10"
    assert any("found by csls-k10" in i.value.replace("\\", "") for i in at.info)
    at.button(key="doc_prepare").click().run()
    assert not at.exception
    finish_jobs()
    at.run()
    assert fake.prepared_neighbours == ["csls-k10"]
    assert any("nearest words by csls-k10" in c.value for c in at.caption)
    assert list(table(at).columns)


def test_keywords_and_category_show_exactly_as_stored(monkeypatch):
    """Keywords and the category are drawn as text: markup, entities and URLs stay inert."""
    tricky = ["**bold**", "&lt;b&gt;", "[x](http://evil.example)"]
    monkeypatch.setattr(FakeModel, "expected", staticmethod(lambda text, metric, top: tricky[:top]))
    FakeBackend(monkeypatch)
    at = run_docs()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert all(word in texts for word in tricky)  # inside each provenance expander, as plain text
    from dkw_app.untrusted import md

    labels = [e.label.split(" — ")[0] for e in at.expander if " — score " in e.label]
    assert labels[:3] == [md(w) for w in tricky]  # named, but inert: escaped markdown

    cells = list(table(at).iloc[:3, 0])
    assert cells == [md(w) for w in tricky] and all(c != w for c, w in zip(cells, tricky))
    assert any(t.startswith("category comp.graphics") for t in texts)


def html_bodies(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


def test_choosing_a_keyword_highlights_its_phrases_in_the_escaped_document(monkeypatch):
    FakeBackend(monkeypatch)
    at = run_docs()
    at.multiselect(key="kw_metrics").set_value(["rf"]).run()  # the fake puts "script" among rf's top 10
    at.selectbox(key="doc_id").set_value("20ng/test/comp.graphics/38759").run()
    assert not at.exception and html_bodies(at) == []  # plain text until a keyword is chosen
    choice = at.selectbox(key="doc_highlight")
    assert choice.value == "— none —" and "rf: script" in choice.options
    choice.set_value("rf: script").run()
    assert not at.exception
    (body,) = html_bodies(at)
    assert "&lt;" in body and "<script" not in body and "<b>" not in body and "<img" not in body
    assert body.count("<mark") == 2  # "<script>" and "</script>": the phrase "script" twice, as text
    assert "](http" in body and "**bold**" in body  # markdown left as written, never rendered
    assert not at.code  # the highlighted copy replaces the plain one
    for payload in ("<b>html</b>", "[a link](http://evil.example)"):
        assert __import__("html").escape(payload) in body
    at.selectbox(key="doc_highlight").set_value("— none —").run()
    assert html_bodies(at) == [] and at.code[0].value == UNTRUSTED


def run_own_text(monkeypatch, text: str, **choices) -> AppTest:
    FakeBackend(monkeypatch)
    FakeModel.text_calls = []
    at = run_docs()
    at.radio(key="doc_source").set_value("your own text").run()
    for key, value in choices.items():
        at.radio(key=key).set_value(value).run()
    at.text_area(key="own_text").input(text).run()
    assert not at.exception
    return at


def test_own_text_defaults_to_label_free_top1_and_names_the_category(monkeypatch):
    at = run_own_text(monkeypatch, "video graphics card resolution")
    assert at.radio(key="kw_text_protocol").value == "label-free-top1"
    assert "label-aware" not in at.radio(key="kw_text_protocol").options
    assert {c["protocol"] for c in FakeModel.text_calls} == {"label-free-top1"}
    assert any("weighted as comp.graphics, P = 0.93" in m.value.replace("\\", "") for m in at.markdown)
    (frame,) = keyword_tables(at)
    assert all(w.replace("\\", "").startswith("graphics-") for w in frame.iloc[:, 0] if w)
    assert not any("unsure" in w.value for w in at.warning), [w.value for w in at.warning]


def test_own_text_label_free_stays_selectable(monkeypatch):
    at = run_own_text(monkeypatch, "video graphics card", kw_text_protocol="label-free")
    assert {c["protocol"] for c in FakeModel.text_calls} == {"label-free"}
    assert not any("weighted as" in m.value for m in at.markdown)
    (frame,) = keyword_tables(at)
    assert not any(w.replace("\\", "").startswith(("graphics-", "space-")) for w in frame.iloc[:, 0])


def test_unsure_posterior_shows_the_two_likely_categories_one_above_the_other(monkeypatch):
    at = run_own_text(monkeypatch, "unsure orbit video card")
    assert any("unsure" in w.value for w in at.warning)
    first, second = keyword_tables(at)
    # both tables in the keywords column, neither in a column of its own (side by side, two
    # tables of four metrics cut words off at 1280 px)
    assert [len(col.table) for col in at.columns if len(col.table)] == [2]
    assert all(w.replace("\\", "").startswith("graphics-") for w in first.iloc[:, 0] if w)
    assert all(w.replace("\\", "").startswith("space-") for w in second.iloc[:, 0] if w)
    labels = {c["label"] for c in FakeModel.text_calls}
    assert {"comp.graphics", "sci.space"} <= labels
    shown = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert "weighted as comp.graphics, P = 0.41" in shown and "weighted as sci.space, P = 0.38" in shown


def test_own_text_is_highlighted_escaped(monkeypatch):
    at = run_own_text(monkeypatch, "A <script>alert(1)</script> graphics card")
    at.selectbox(key="own_highlight").set_value(next(o for o in at.selectbox(key="own_highlight").options
                                                      if o.endswith("script"))).run()
    (body,) = html_bodies(at)
    assert "&lt;<mark" in body and "<script" not in body


def test_a_hostile_document_id_from_a_shared_link_is_shown_as_text(monkeypatch):
    """An uploaded corpus's id in a ``?doc=`` link: the header reads as the id and renders no
    image, link, math or emphasis (the id was markdown: ``![i](https:evil…)`` fetched an image)."""
    from tests.app.fakes import hostile_corpus
    from tests.support.markdown import live_markup, shown

    fake = FakeBackend(monkeypatch)
    fake.corpus = hostile_corpus()
    for doc in [d for d in fake.corpus.documents if d.split == "test"]:
        at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30)
        at.query_params["doc"] = doc.id
        at.run()
        assert not at.exception
        header = at.subheader[0].value
        assert shown(header) == doc.id and live_markup(header) == [], (doc.id, header)
        markdown = [e.value for e in [*at.caption, *at.markdown, *at.info, *at.warning, *at.error]]
        markdown += [e.label for e in at.expander]
        from_corpus = [m for m in markdown if any(w in shown(m) for w in ("evil", "LaTeX", "material"))]
        assert [m for m in from_corpus if live_markup(m)] == []


def test_own_text_on_an_unprepared_corpus_is_answered_from_its_shipped_statistics(monkeypatch):
    """No Prepare button for a new text when the corpus's statistics ship with dkw: the text box
    answers at once, and says where the statistics came from."""
    fake = FakeBackend(monkeypatch, prepared=False)
    fake.shipped = {"20ng"}
    FakeModel.text_calls = []
    at = run_docs()
    at.radio(key="doc_source").set_value("your own text").run()
    at.text_area(key="own_text").input("video graphics card resolution").run()
    assert not at.exception
    assert fake.prepare_calls == 0 and fake.shipped_loads == ["20ng"]
    assert not any("not prepared" in i.value for i in at.info)
    assert {c["protocol"] for c in FakeModel.text_calls} == {"label-free-top1"}
    (frame,) = keyword_tables(at)
    # the one default metric: the text's keyphrases, its category's words beside them
    assert list(frame.columns) == [DEFAULT_METRIC, f"{DEFAULT_METRIC}: category words"]
    assert any("(shipped statistics)" in c.value for c in at.caption)


def test_own_text_of_a_built_in_corpus_without_its_archive_is_answered_from_shipped_statistics(monkeypatch):
    """No archive at all: the text box still answers a new text for a built-in corpus whose
    statistics ship with dkw (as Home, the CLI and the library do), never opening the corpus, and
    says the source; settings the shipped statistics cannot answer name the archive they need."""
    fake = FakeBackend(monkeypatch, prepared=False)
    fake.available = set()
    monkeypatch.setattr(keywords_door, "shipped_answers",  # shipped for 20ng at the default K only
                        lambda name, *, sample=None, k=DEFAULT_K, neighbours="cosine":
                        name == "20ng" and k == DEFAULT_K and neighbours == "cosine")
    FakeModel.text_calls = []
    at = run_docs()
    assert not at.exception
    assert at.radio(key="doc_source").options == ["your own text"] and at.radio(key="doc_source").value == "your own text"
    assert at.selectbox(key="doc_corpus").options == ["20ng"]  # r8 ships nothing here
    assert any("(shipped statistics)" in i.value for i in at.info)
    at.text_area(key="own_text").input("video graphics card resolution").run()
    assert not at.exception and not at.error
    assert fake.shipped_loads == ["20ng"] and "corpus" not in fake.opened and fake.prepare_calls == 0
    assert {c["protocol"] for c in FakeModel.text_calls} == {"label-free-top1"}
    (frame,) = keyword_tables(at)
    assert list(frame.columns) == [DEFAULT_METRIC, f"{DEFAULT_METRIC}: category words"]
    assert any("(shipped statistics)" in c.value for c in at.caption)
    at.number_input(key="kw_k").set_value(30).run()  # the shipped statistics do not answer another K
    assert not at.exception and not keyword_tables(at)
    assert any("shipped statistics answer at K = 90" in i.value and "so its archive" in i.value for i in at.info)
    assert any("20ng.tar.gz not found" in w.value.replace("\\", "") for w in at.warning)  # with its Download button
    assert "corpus" not in fake.opened and fake.prepare_calls == 0


def test_the_page_opens_on_a_prepared_corpus_and_counts_only_downloadable_ones_as_not_downloaded(monkeypatch):
    """20ng unprepared, r8 prepared: the page opens on r8, not on the corpus it would have to
    prepare first. 7sectors (not distributed) is not "not downloaded yet": it gets its own line."""
    fake = FakeBackend(monkeypatch, prepared={"r8"})
    fake.available = {"20ng", "r8"}
    names = ["20ng", "r8", "webkb", "7sectors"]
    monkeypatch.setattr(corpora_models, "list_corpora", lambda: names)
    at = run_docs()
    assert not at.exception
    assert at.selectbox(key="doc_corpus").value == "r8"
    assert [e.label for e in at.expander if "not downloaded" in e.label] == ["Corpora not downloaded yet (1)"]
    notes = [c.value.replace("\\", "") for c in at.caption if "Not distributed" in c.value]
    assert len(notes) == 1 and "7sectors (put 7sectors.tar.gz into /fake/archives)" in notes[0]


RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


def test_an_unclosed_override_in_a_category_leaves_the_page_words_of_its_line_in_order(monkeypatch):
    """A category "sport\u202e" read "category sport · niart tilps · sretcarahc 745" (the
    override, unclosed, reversed the rest of the line): the category is isolated, so the page's
    own words of the line stay outside every override (the bidi algorithm's explicit levels)."""
    from dkw_core.corpora import Corpus, Document
    from tests.support.bidi import base_text

    fake = FakeBackend(monkeypatch)
    doc = Document(f"20ng/test/sport{RLO}/1", "the team won the game", f"sport{RLO}", "test")
    fake.corpus = Corpus("20ng", [*make_corpus().documents, doc])
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30)
    at.query_params["doc"] = doc.id
    at.run()
    assert not at.exception
    (line,) = [t.value for t in at.text if t.value.startswith("category ")]
    assert RLO in line  # the category as stored
    assert base_text(line) == f"category  · split test · {len(doc.text)} characters"


def test_an_override_in_a_likely_category_reverses_no_word_of_the_page(monkeypatch):
    """Your own text weighted with a category holding an unclosed U+202E: the "weighted as …, P =
    0.41" line, the unsure warning and each table's heading keep their words in order."""
    from tests.support.bidi import base_text

    monkeypatch.setattr(FakeModel, "categories", [f"comp.graphics{RLO}", f"sci.space{RLO}"])
    at = run_own_text(monkeypatch, "unsure orbit video card")
    (warning,) = [w.value for w in at.warning if "unsure" in w.value]  # markdown: the values md() made
    assert base_text(warning) == ("The classifier is unsure — weighted as , P = 0.41 (unsure: , P = 0.38). "
                                  "The keywords under each of the two most probable categories, one above the other.")
    headings = [base_text(m.value) for m in at.markdown if "weighted as" in m.value]
    assert headings == ["**weighted as , P = 0.41**", "**weighted as , P = 0.38**"]


def test_a_document_is_shown_with_its_leading_and_trailing_line_breaks(monkeypatch):
    """``st.code`` drops one leading and one trailing line break: a document ending in one lost it."""
    from dkw_core.corpora import Corpus, Document

    fake = FakeBackend(monkeypatch)
    doc = Document("20ng/test/sci.space/7", "\nthe moon lander\n", "sci.space", "test")
    fake.corpus = Corpus("20ng", [*make_corpus().documents, doc])
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30)
    at.query_params["doc"] = doc.id
    at.run()
    assert not at.exception
    assert [c.value for c in at.code] == [doc.text]
