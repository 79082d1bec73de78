from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import page
from tests.app.fakes import FakeBackend
from tests.support.markdown import shown


def run_home() -> AppTest:
    at = AppTest.from_file(page("app.py"), default_timeout=30)
    return at.run()


def test_home_lists_corpora_models_and_links(monkeypatch):
    FakeBackend(monkeypatch, prepared=True)
    at = run_home()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["name"]) == ["20ng", "r8"]
    texts = [t.value for t in at.text]
    assert "fake tagger" in texts
    assert any("GloVe" in t for t in texts)
    assert any("Prepared" in s.value for s in at.success)
    assert any("r8.tar.gz" in w.value.replace("\\", "") for w in at.warning)  # unavailable archive named


def test_home_prepare_button_prepares_with_progress(monkeypatch):
    fake = FakeBackend(monkeypatch, prepared=False)
    at = run_home()
    assert not at.exception
    buttons = [b for b in at.button if b.key == "prepare_20ng"]
    assert buttons, "an unprepared corpus must offer a Prepare button"
    assert fake.prepare_calls == 0
    buttons[0].click().run()
    assert not at.exception
    assert fake.prepare_calls == 1
    assert any("Prepared" in s.value for s in at.success)
    assert not [b for b in at.button if b.key == "prepare_20ng"]


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
