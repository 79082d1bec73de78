"""One participant link open on two devices, in Debian's Chromium (two browser contexts, as two
devices are: no shared cookie or session). A submits; B, which still shows the same article,
submits changed answers and is told the article was already submitted from another device; the
database holds A's answers only, and B goes on to her next article on her own click."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import ANSWERS, Answer, Draft, Judgement, init_db
from dkw_core.study.participants import PlatformSettings, set_platform
from tests.support.browser import browser_page, choose, streamlit_server, wait_idle

from .fakes import category_provider, make_docs

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VALUE = {label: value for value, label in ANSWERS.items()}


def _answer_all(page, answer: str) -> None:
    boxes = page.locator("[class*='st-key-kw-']")
    boxes.first.wait_for()
    for i in range(boxes.count()):
        for radio in range(2):
            choose(page, boxes.nth(i).locator("[data-testid='stRadio']").nth(radio), answer)
    expect(page.get_by_role("button", name="Submit", exact=True)).to_be_enabled(timeout=120_000)


def test_a_second_device_submitting_the_same_article_is_told_and_stores_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'devices.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    cats = ["c1", "c2", "c3", "c4"]
    sid = S.create_study(engine, documents=make_docs(cats), categories=cats, provider=category_provider,
                         config=S.StudyConfig(name="devices", corpus="fake", keywords_per_method=2,
                                              articles_per_category=1, categories_per_batch=4,
                                              judges_per_article=1, seed=5))
    set_platform(engine, sid, PlatformSettings("PROLIFIC_PID", "DONE-7"))
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": "devices-admin-password"}
    with browser_page() as a, streamlit_server("app.py", env=env) as base:
        device_b = a.context.browser.new_context(viewport={"width": 1280, "height": 900})
        b = device_b.new_page()
        b.set_default_timeout(60_000)
        link = f"{base}/Judge?study={sid}&PROLIFIC_PID=p-two-devices"
        a.goto(link)
        wait_idle(a)
        a.get_by_role("button", name="I have read the instructions — start").click()
        wait_idle(a)
        b.goto(link)  # the same participant on her second device: the same article
        wait_idle(b)
        _answer_all(a, "Relevant")
        _answer_all(b, "Irrelevant")  # B changes every answer (each one a draft while A has not submitted)
        with Session(engine) as s:
            (held,) = s.scalars(select(Judgement.id)).all()
        a.get_by_role("button", name="Submit", exact=True).click()
        a.get_by_text("Saved. Here is your next article.").wait_for()
        wait_idle(a)
        with Session(engine) as s:
            after_a = sorted(s.execute(select(Answer.keyword_id, Answer.question, Answer.value)).all())
            reserved = s.scalar(select(func.count(Judgement.id)))

        b.get_by_role("button", name="Submit", exact=True).click()
        b.get_by_text("already submitted from another device").wait_for()
        wait_idle(b)
        text = b.inner_text("[data-testid='stMain']")
        assert "Not saved: this article was already submitted from another device or window; your answers here " \
               "were not stored." in text, text
        assert b.locator("[class*='st-key-kw-']").count() == 0  # no next article in its place
        with Session(engine) as s:
            assert sorted(s.execute(select(Answer.keyword_id, Answer.question, Answer.value)).all()) == after_a
            assert {j for (j,) in s.execute(select(Answer.judgement_id)).all()} == {held}
            assert s.scalar(select(func.count(Judgement.id))) == reserved  # none reserved behind her back
            assert s.scalar(select(func.count(Draft.id)).where(Draft.judgement_id == held)) == 0
        assert {value for _k, _q, value in after_a} == {VALUE["Relevant"]} and len(after_a) >= 8

        b.get_by_role("button", name="Continue to the next article").click()
        wait_idle(b)
        b.locator("[class*='st-key-kw-']").first.wait_for()  # her next article, on her click
        assert "already submitted" not in b.inner_text("[data-testid='stMain']")
        device_b.close()
    engine.dispose()
