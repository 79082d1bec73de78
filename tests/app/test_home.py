from __future__ import annotations

import threading

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from tests.app.conftest import finish_jobs, page
from tests.app.fakes import UNTRUSTED, FakeBackend
from tests.support.markdown import shown


def run_home() -> AppTest:
    at = AppTest.from_file(page("app.py"), default_timeout=30)
    return at.run()


def captions(at: AppTest) -> list[str]:
    return [c.value.replace("\\", "") for c in at.caption]


def test_home_lists_corpora_models_and_links(monkeypatch):
    FakeBackend(monkeypatch, prepared=True)
    at = run_home()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["corpus"]) == ["20ng", "r8"]
    texts = [t.value for t in at.text]
    assert "fake tagger" in texts
    assert any("GloVe" in t for t in texts)
    assert any("Prepared" in c for c in captions(at))
    assert any("r8.tar.gz" in w.value.replace("\\", "") for w in at.warning)  # unavailable archive named


def test_home_starts_with_what_dkw_does_keywords_at_once_and_three_next_steps(monkeypatch):
    """The top of Home: one sentence, a text box answering at once (no preparation, the text
    shown back as plain text only), and three links — not the list of every page twice."""
    fake = FakeBackend(monkeypatch, prepared=False)
    at = run_home()
    assert not at.exception
    assert "set a text apart" in at.markdown[0].value
    links = [e.proto.page for e in at.get("page_link")]
    assert links == ["Documents", "Metrics", "Study_admin"]
    at.text_area(key="instant_text").input(UNTRUSTED)
    at.button[0].click().run()  # the form's "Get keywords"
    assert not at.exception
    assert fake.instant_texts == [UNTRUSTED] and fake.prepare_calls == 0
    answer = next(t.value for t in at.text if t.value.startswith("Keywords: "))
    assert answer.startswith("Keywords: <script>alert, <b>html</b>, ")  # plain text, in the answer's order


def test_home_leaves_a_text_from_outside_the_corpus_its_own_phrases_unless_about_is_moved(monkeypatch):
    """The slider at its default asks for the default rule (about None): a text that fits the corpus
    poorly gets its own phrases (about 0) and the page says so; a value the reader chose is kept and
    the notice says it blends (docs/method.md §13)."""
    fake = FakeBackend(monkeypatch, prepared=False)
    at = run_home()
    at.text_area(key="instant_text").input("the volcano erupted at dawn")
    at.button[0].click().run()
    assert not at.exception and fake.instant_abouts == [None]
    notice = next(shown(w.value) for w in at.warning if "poorly" in w.value)
    assert "fits 20ng poorly" in notice and "its own phrases" in notice and "(about = 0)" in notice
    assert any("about = 0:" in c for c in captions(at))
    at.slider(key="instant_about").set_value(0.7)
    at.button[0].click().run()
    assert not at.exception and fake.instant_abouts == [None, 0.7]
    notice = next(shown(w.value) for w in at.warning if "poorly" in w.value)
    assert "about = 0.7 you chose" in notice and "(about = 0)" not in notice


def test_home_refuses_in_one_line_when_the_shipped_statistics_do_not_fit_the_vectors(monkeypatch):
    """Other vectors (DKW_VECTORS): the box says why in one red line and prepares nothing, instead
    of tagging a whole corpus while the page stays busy for minutes."""
    fake = FakeBackend(monkeypatch, prepared=False)
    fake.instant_refusal = "the shipped statistics belong to the default vectors"
    at = run_home()
    at.text_area(key="instant_text").input("a text about space")
    at.button[0].click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["the shipped statistics belong to the default vectors"]
    assert fake.instant_texts == [] and fake.prepare_calls == 0
    assert not any(t.value.startswith("Keywords: ") for t in at.text)


def test_home_says_paste_a_text_first(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=True)
    at = run_home()
    at.button[0].click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Paste a text first."] and fake.instant_texts == []


def test_home_has_no_none_cell_and_one_line_for_a_corpus_that_cannot_be_had(monkeypatch):
    FakeBackend(monkeypatch, prepared=True)
    infos = {"20ng": {"name": "20ng", "train": 2, "test": 3, "categories": 2, "available": True,
                      "archive": "20ng.tar.gz", "description": "news"},
             "7sectors": {"name": "7sectors", "train": None, "test": None, "categories": 7, "available": False,
                          "archive": "7sectors.tar.gz", "url": None, "description": None},
             "mine": {"name": "mine", "train": 5, "test": None, "categories": 2, "available": True,
                      "archive": None, "description": "your corpus"}}
    from dkw_app import corpora_models

    monkeypatch.setattr(corpora_models, "list_corpora", lambda: list(infos))
    monkeypatch.setattr(corpora_models, "dataset_info", lambda name: infos[name])
    at = run_home()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["corpus"]) == ["20ng", "mine"]
    cells = [v for column in table.columns for v in table[column]]
    assert not any(v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA or str(v) in ("None", "nan")
                   for v in cells)
    assert list(table["test"]) == ["3", "unknown"]
    assert not [w for w in at.warning if "7sectors" in w.value]  # no warning box for what cannot be had
    assert len([c for c in captions(at) if "7sectors" in c]) == 1  # one line
    assert not [b for b in at.button if "7sectors" in (b.key or "")]


def test_home_prepare_runs_in_the_background_with_progress_and_time_left(monkeypatch):
    """Prepare starts a job of the server: the page shows it running (progress, Cancel), a page
    run later (another page, another visitor) still finds it, and when it ends the corpus is prepared."""
    fake = FakeBackend(monkeypatch, prepared=False)
    fake.prepare_gate = threading.Event()
    at = run_home()
    assert not at.exception
    buttons = [b for b in at.button if b.key == "prepare_20ng"]
    assert buttons, "an unprepared corpus must offer a Prepare button"
    assert any("minutes" in c for c in captions(at))  # the cost is said before the click
    buttons[0].click().run()
    assert not at.exception
    from dkw_app import jobs
    from dkw_app.widgets import prepare_job_key

    job = jobs.get(prepare_job_key("20ng", None, 90))
    assert job is not None and job.running
    again = run_home()  # a new visit of Home while it runs
    assert not again.exception
    assert [b.key for b in again.button if b.key.startswith("cancel_")] == [f"cancel_{job.key}"]
    assert not [b for b in again.button if b.key == "prepare_20ng"]
    bar = again.get("progress")[0]
    assert "tagging" in bar.proto.text and bar.proto.value == 50
    assert any("running on the server" in t.value for t in again.text)
    fake.prepare_gate.set()
    finish_jobs()
    assert fake.prepare_calls == 1
    done = run_home()
    assert any("Prepared" in c for c in captions(done))
    assert not [b for b in done.button if b.key == "prepare_20ng"]


def test_home_cancel_stops_the_preparation_and_says_so(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=False)
    fake.prepare_gate = threading.Event()
    at = run_home()
    next(b for b in at.button if b.key == "prepare_20ng").click().run()
    next(b for b in at.button if b.key.startswith("cancel_")).click().run()
    assert not at.exception
    fake.prepare_gate.set()
    from dkw_app import jobs
    from dkw_app.widgets import prepare_job_key

    job = jobs.get(prepare_job_key("20ng", None, 90))
    job.thread.join(10)
    assert job.state == "cancelled"
    at = run_home()
    assert not at.exception
    note = next(w.value.replace("\\", "") for w in at.warning if "Preparing 20ng" in w.value.replace("\\", ""))
    assert "cancelled by a visitor" in note and "Prepare resumes" in note
    assert any(b.key == "prepare_20ng" for b in at.button)  # offered again
    next(b for b in at.button if b.key.startswith("dismiss_")).click().run()
    assert not [w for w in at.warning if "Preparing 20ng" in w.value.replace("\\", "")]


def test_home_checks_preparation_by_keys_without_loading(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=True)
    monkeypatch.setenv("DKW_SAMPLE_PER_CATEGORY", "2")
    at = run_home()
    assert not at.exception
    assert fake.prepared_checks == [("20ng-head2", "fake-vectors", 90)]  # r8's archive is missing
    assert fake.opened == []  # no corpus parsed, no vectors loaded just to show the status


def test_home_is_called_home_and_names_the_archives_folder(monkeypatch):
    FakeBackend(monkeypatch, prepared=True)
    at = run_home()
    assert not at.exception
    assert "/fake/archives" in [c.value for c in at.code]  # the folder searched, as plain text
    warning = next(w.value.replace("\\", "") for w in at.warning if "r8" in w.value)
    assert "not found in /fake/archives" in warning
    from dkw_app.widgets import PAGES

    assert PAGES[0][3] == "Home" and PAGES[0][4] == ""  # the default page of st.navigation


def test_home_download_button_downloads_with_progress(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=True)
    at = run_home()
    assert not at.exception
    assert [b.key for b in at.button if b.key.startswith("download_")] == ["download_r8"]
    next(b for b in at.button if b.key == "download_r8").click().run()
    assert not at.exception
    assert fake.downloads == ["r8"]
    assert not [b for b in at.button if b.key == "download_r8"]  # r8 now present
    assert not any("r8.tar.gz" in w.value.replace("\\", "") for w in at.warning)


def test_home_download_failure_is_one_line(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=True)
    fake.download_error = "r8: could not download r8.tar.gz into /fake/archives: HTTP 404"
    at = run_home()
    next(b for b in at.button if b.key == "download_r8").click().run()
    assert not at.exception
    assert [shown(e.value) for e in at.error] == [fake.download_error]
    assert any(b.key == "download_r8" for b in at.button)  # still offered


def test_home_says_what_an_interrupted_preparation_left(monkeypatch):
    """After a killed server there is no job any more: Home still says that the tagged documents
    were kept and that Prepare resumes from them."""
    fake = FakeBackend(monkeypatch, prepared=False)
    fake.interrupted["20ng"] = 400
    at = run_home()
    assert not at.exception
    assert any("its 400 tagged documents are kept, and Prepare resumes from them (nothing starts by itself after a "
               "server restart)" in c for c in captions(at))


def test_an_override_in_a_keyword_or_category_reverses_no_word_of_the_answer(monkeypatch):
    """A keyword "evil\u202e" reversed the rest of the "Keywords:" line; a category holding one
    reversed the weighting line, the category-words line and the not-in-the-corpus notice. Each
    value is isolated: the page's words stay outside every override (the bidi algorithm's
    explicit levels)."""
    from types import SimpleNamespace

    from dkw_app import keywords_door
    from dkw_core.keywords.posterior import weighting_of
    from tests.app.fakes import FakeKeyword, FakeKeywordList
    from tests.support.bidi import base_text

    rlo = "\u202e"
    FakeBackend(monkeypatch, prepared=False)

    def answer(request):
        found = FakeKeywordList([FakeKeyword(f"evil{rlo}", 2.0, 1), FakeKeyword("orbit", 1.0, 1)])
        found.weighting = weighting_of([0.93, 0.07], [f"sci{rlo}", "comp"])
        found.category_words = [FakeKeyword(f"moon{rlo}", 1.0, 1), FakeKeyword("launch", 0.5, 1)]
        found.fit = SimpleNamespace(out_of_corpus=True, nearest=f"sci{rlo}", distance=0.33, p=0.45)
        found.about = 0.0
        return found

    monkeypatch.setattr(keywords_door, "keyword_list", answer)
    at = run_home()
    at.text_area(key="instant_text").input("the volcano erupted")
    at.button[0].click().run()
    assert not at.exception
    lines = [base_text(t.value) for t in at.text if t.value.startswith(("Keywords: ", "The category's"))]
    assert lines == ["Keywords: , orbit", "The category's discriminative words of : , launch"]
    (weighting,) = [base_text(m.value) for m in at.markdown if "weighted as" in m.value]
    assert weighting == "**weighted as , P = 0.93**"
    (notice,) = [base_text(w.value) for w in at.warning if "poorly" in w.value]
    assert notice.startswith("This text fits 20ng poorly: the nearest category is  at distance 0.33, the "
                             "classifier's P is 0.45. Its keywords are its own phrases")


def test_an_override_in_a_zip_entry_name_reverses_no_word_of_the_upload_report(monkeypatch):
    """The upload report listed the zip entries it left out inside one escaped sentence: an entry
    "../evil\u202e" reversed the entries after it, and a corpus name holding one the counts of
    the "Imported …" line. Each value is isolated: the page's words stay outside every override."""
    from tests.support.bidi import base_text

    rlo = "\u202e"
    FakeBackend(monkeypatch, prepared=False)
    at = AppTest.from_file(page("app.py"), default_timeout=30)
    at.session_state["upload_report"] = {
        "name": f"news{rlo}", "documents": 12, "train": 8, "test": 4, "categories": 2, "split": "split as given",
        "skipped": [f"../evil{rlo}.txt", "../other.txt"]}
    at.run()
    assert not at.exception
    (imported,) = [shown(base_text(s.value)) for s in at.success if "Imported" in s.value]
    assert imported == "Imported : 12 documents (8 train / 4 test), 2 categories; split as given."
    (left_out,) = [shown(base_text(w.value)) for w in at.warning if "Left out" in w.value]
    assert left_out == "Left out 2 zip entries whose path leads outside the folder: , ../other.txt"


def test_one_pasted_text_decides_once_whether_the_shipped_statistics_answer_it(monkeypatch):
    """The box's refusal (other vectors) and the answer read one decision of the text's request:
    "shipped statistics?" was decided twice per pasted text (``instant_refusal``, then
    ``model_for`` inside ``extract_keywords``), two ``shipped_available`` calls; now one."""
    from dkw_app import keywords_door
    from dkw_core.keywords import shipped

    refusal, keyword_list = keywords_door.instant_refusal, keywords_door.keyword_list
    fake = FakeBackend(monkeypatch, prepared=False)
    monkeypatch.setattr(keywords_door, "instant_refusal", refusal)  # the real door, over the fake model path
    monkeypatch.setattr(keywords_door, "keyword_list", keyword_list)
    decisions: list[str] = []
    monkeypatch.setattr(shipped, "shipped_available", lambda corpus, **_: decisions.append(corpus) or True)
    monkeypatch.setattr(shipped, "load_shipped", lambda corpus, **_: fake._shipped_model(corpus))
    at = run_home()
    at.text_area(key="instant_text").input("orbit shuttle launch space station")
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert fake.shipped_loads == ["20ng"] and fake.prepare_calls == 0
    assert any(t.value.startswith("Keywords: ") for t in at.text)
    assert decisions == ["20ng"]  # one decision per pasted text
