from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import page
from tests.app.fakes import FakeBackend


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
    assert any("r8.tar.gz" in w.value for w in at.warning)  # unavailable archive named


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
