"""A whole crowd study in Debian's Chromium: participants arrive by a platform link with their
id, one fails the attention check, one answers too fast, one passes; each is shown the
completion code; the results page applies the rules fixed in advance and states its verdict.
Screenshots of the admin (Rules & quality), judge and results pages go to docs/screenshots/."""
from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect
from sqlalchemy import select
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import Judgement, Participant, init_db
from dkw_core.study.participants import PlatformSettings, set_platform
from dkw_core.study.settings import ExclusionRules
from tests.support.browser import ROOT, appears, browser_page, choose, streamlit_server, wait_idle

from .fakes import category_provider, make_docs

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PASSWORD = "crowd-admin-password"
SHOTS = ROOT / "docs" / "screenshots"
CODE = "C0MPLETE"
DONE_URL = "https://app.prolific.com/submissions/complete?cc=C0MPLETE"


def _open_judgement(engine, pid):
    with Session(engine) as s:
        judge = s.scalars(select(Participant.judge_id).where(Participant.participant_id == pid)).one()
        j = s.scalars(select(Judgement).where(Judgement.judge_id == judge, Judgement.submitted_at.is_(None))).one()
        return j.id, [kw.word for kw in j.article.keywords if kw.intruder]


def _judge(page, engine, base, pid, *, intruder_answer, backdate, shot=None):
    page.goto(f"{base}/Judge?study=1&PROLIFIC_PID={pid}")
    wait_idle(page)
    page.get_by_role("button", name="I have read the instructions — start").click()
    wait_idle(page)
    boxes = page.locator("[class*='st-key-kw-']")
    boxes.first.wait_for()
    judgement, (planted,) = _open_judgement(engine, pid)
    for i in range(boxes.count()):
        box = boxes.nth(i)
        word = box.locator("[data-testid='stText']").first.inner_text().strip()
        answer = intruder_answer if word == planted else "Relevant"
        for radio in range(2):
            choose(page, box.locator("[data-testid='stRadio']").nth(radio), answer)
    if shot:
        page.screenshot(path=str(SHOTS / shot), full_page=True)
    submit = page.get_by_role("button", name="Submit", exact=True)
    expect(submit).to_be_enabled(timeout=120_000)  # polls until the last answer's rerun has ended
    if backdate:  # the participant took her time: the clock of her reservation says 20 minutes
        # Only once every answer is saved: the page's widget token is derived from assigned_at, so
        # moving it under a rerun still in flight made that rerun refuse the last answer as stale.
        with Session(engine) as s:
            held = s.get(Judgement, judgement)
            held.assigned_at = held.assigned_at - timedelta(minutes=20)
            s.commit()
        # The page acts on the article (and token) it showed, so the moved clock makes its Submit
        # stale; she comes back to her link, as on a second visit, and her saved answers are restored.
        page.goto(f"{base}/Judge?study=1&PROLIFIC_PID={pid}")
        wait_idle(page)
        start = page.get_by_role("button", name="I have read the instructions — start")
        submit = page.get_by_role("button", name="Submit", exact=True)
        assert appears(start.or_(submit))  # drawn: the instructions again, or her article
        if start.count():
            start.click()
            wait_idle(page)
        expect(submit).to_be_enabled(timeout=120_000)
    submit.click()
    page.get_by_text("Your completion code").wait_for()
    wait_idle(page)
    page.locator(".st-key-completion_code").get_by_text(CODE, exact=True).wait_for()
    assert page.get_by_role("link", name="Return to the platform to complete").get_attribute("href") == DONE_URL
    return planted


def test_a_crowd_study_from_platform_links_to_a_verdict_with_the_rules_applied(tmp_path):
    url = f"sqlite:///{tmp_path / 'crowd.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    cats = ["c1", "c2", "c3", "c4"]
    sid = S.create_study(engine, documents=make_docs(cats), categories=cats, provider=category_provider,
                         config=S.StudyConfig(name="crowd", corpus="fake", keywords_per_method=2,
                                              articles_per_category=1, categories_per_batch=4,
                                              judges_per_article=3, seed=5, attention_share=1.0,
                                              rules=ExclusionRules(max_failed_checks=0, min_seconds_per_article=300,
                                                                   min_articles=1)))
    set_platform(engine, sid, PlatformSettings("PROLIFIC_PID", CODE, DONE_URL, 1))
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": PASSWORD}
    with browser_page(viewport=(1280, 1000)) as page, streamlit_server("app.py", env=env) as base:
        _judge(page, engine, base, "careless01", intruder_answer="Relevant", backdate=True)
        _judge(page, engine, base, "speedy02", intruder_answer="Irrelevant", backdate=False)
        _judge(page, engine, base, "careful03", intruder_answer="Irrelevant", backdate=True, shot="crowd-judge.png")
        page.screenshot(path=str(SHOTS / "crowd-completion.png"))
        # the same id again (another device): back to her finished work, the code again, no new judge
        page.goto(f"{base}/Judge?study=1&PROLIFIC_PID=careful03")
        page.get_by_text("Your completion code").wait_for()
        page.goto(f"{base}/Judge?study=1")  # a link without the id: one line
        page.get_by_text("this study link has no participant id").wait_for()

        page.goto(f"{base}/Study_admin")
        page.get_by_label("Admin password or token").fill(PASSWORD)
        page.get_by_label("Admin password or token").press("Enter")
        wait_idle(page)
        page.get_by_role("tab", name="Rules & quality").click()
        wait_idle(page)
        page.get_by_text("Locked since the first judgement").wait_for()
        page.screenshot(path=str(SHOTS / "crowd-admin.png"), full_page=True)

        page.goto(f"{base}/Study_results")  # a new page load: a new session, the password again
        page.get_by_label("Admin password or token").fill(PASSWORD)
        page.get_by_label("Admin password or token").press("Enter")
        wait_idle(page)
        page.get_by_role("heading", name="Verdict").wait_for()
        page.get_by_text("judgements removed").wait_for()  # the rules' table, drawn
        wait_idle(page)
        text = page.inner_text("body")
        page.screenshot(path=str(SHOTS / "crowd-results.png"), full_page=True)
    with Session(engine) as s:
        assert len(s.scalars(select(Participant)).all()) == 3
    assert "topic: " in text and "category: " in text  # a verdict per question
    assert text.index("Verdict") < text.index("Inter-rater agreement")  # the answer first, then the charts
    assert ("2 judgement(s) excluded in all (1 by rule 'failed attention checks'; 1 by rule 'time per article "
            "below the floor')") in text  # no judge under two rules: no caveat
    assert "3 judgement(s) carried an attention check" in text
    engine.dispose()
