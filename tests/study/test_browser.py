"""Real browser (Debian Chromium): admin creates a small study, a judge opens her link, finds the
submit button disabled, answers every question, submits; answers are in the database and the
judge page's HTML names no method. Uses the built-in demo corpus (DKW_STUDY_FAKE_KEYWORDS=1)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study.models import Answer, Judgement, Study
from tests.support.browser import browser_page, choose, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

METHOD_A, METHOD_B = "tf-rf", "latent-5word-knn90-rf"


def _open_keywords(url: str) -> int:
    engine = make_engine(url, default_file="unused.sqlite")
    try:
        with Session(engine) as s:
            judgement = s.scalars(select(Judgement).where(Judgement.submitted_at.is_(None))).one()
            return len(judgement.article.keywords)
    finally:
        engine.dispose()


def test_admin_creates_study_judge_answers_everything_and_submits(tmp_path):
    url = f"sqlite:///{tmp_path / 'browser.sqlite'}"
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": "pw-123-pw-123",
           "DKW_STUDY_FAKE_KEYWORDS": "1"}
    with browser_page() as page, streamlit_server("app.py", env=env) as base:
        # --- admin: log in, create a small study, invite a judge
        page.goto(f"{base}/Study_admin")
        wait_idle(page)
        page.get_by_label("Admin password").fill("pw-123-pw-123")
        page.keyboard.press("Enter")
        wait_idle(page)
        page.locator("[data-testid='stSelectbox']").filter(has_text="Corpus").click()
        page.get_by_role("option", name="demo-tiny").click()
        for label, value in (("Keywords per method", "3"), ("Articles per category", "1"),
                             ("Categories per batch", "2"), ("Seed (0 = draw one and record it)", "11")):
            box = page.get_by_label(label)
            box.fill(value)
            box.press("Tab")
        page.get_by_role("button", name="Create study").click()
        wait_idle(page)
        page.get_by_text("Study 1 is ready").first.wait_for(timeout=60_000)  # created in the background
        wait_idle(page)
        page.get_by_role("tab", name="Judges").click()
        page.get_by_label("Judge name or pseudonym").fill("ann")
        page.get_by_label("Judge name or pseudonym").press("Tab")
        wait_idle(page)
        page.get_by_role("button", name="Invite judge").click()
        wait_idle(page)
        link = page.locator("[data-testid='stCode']").filter(has_text="/Judge?code=").first.inner_text().strip()
        assert re.search(r"/Judge\?code=[A-Za-z0-9_-]{20,}$", link), link

        # --- judge: open the link, read the instructions, answer everything
        page.goto(link)
        wait_idle(page)
        page.get_by_role("button", name=re.compile("I have read the instructions")).click()
        wait_idle(page)
        submit = page.get_by_role("button", name="Submit", exact=True)
        submit.wait_for()
        wait_idle(page)
        n_groups = 2 * _open_keywords(url)  # two questions per keyword of the reserved article
        assert n_groups >= 2
        groups = page.locator("[data-testid='stRadio']")
        for _ in range(100):  # the page may still be streaming its elements
            if groups.count() == n_groups:
                break
            page.wait_for_timeout(200)
        assert groups.count() == n_groups
        assert submit.is_disabled()
        html = page.content()
        assert METHOD_A not in html and METHOD_B not in html and "latent" not in html
        for i in range(n_groups):
            answer = ("Relevant", "Partially", "Irrelevant", "Do not know")[i % 4]
            choose(page, page.locator("[data-testid='stRadio']").nth(i), answer)
            if i < n_groups - 1:
                assert page.get_by_role("button", name="Submit", exact=True).is_disabled()
        expect(page.get_by_role("button", name="Submit", exact=True)).to_be_enabled()  # polls until the rerun ends
        assert METHOD_A not in page.content() and METHOD_B not in page.content()
        page.get_by_role("button", name="Submit", exact=True).click()
        wait_idle(page)
        page.get_by_text("Saved. Here is your next article.").wait_for()

    engine = make_engine(url, default_file="unused.sqlite")
    with Session(engine) as s:
        assert s.scalar(select(func.count(Study.id))) == 1
        done = s.scalars(select(Judgement).where(Judgement.submitted_at.is_not(None))).all()
        assert len(done) == 1
        values = s.scalars(select(Answer.value).where(Answer.judgement_id == done[0].id)).all()
    engine.dispose()
    assert len(values) == n_groups
    assert sorted(set(values)) == sorted({(3, 2, 1, 0)[i % 4] for i in range(n_groups)})


def test_a_reupload_on_the_admin_page_shows_exactly_the_file_s_methods(tmp_path):
    """In Chromium: good.jsonl (4 methods), other.jsonl (3), good.jsonl again: "Imported methods
    to compare" holds the four again, all chosen."""
    import json
    import os

    from dkw_core.study.demo import demo_corpus

    docs = [d.id for d in demo_corpus().documents]
    files = {}
    for name, methods in (("good.jsonl", ["kb-a", "kb-b", "kb-c", "kb-d"]), ("other.jsonl", ["kb-a", "kb-b", "llm-x"])):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(json.dumps({"doc_id": d, "method": m, "keywords": [f"{m}-w", "other"]})
                                         for m in methods for d in docs))
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": f"sqlite:///{tmp_path / 'b.sqlite'}",
           "DKW_ADMIN_PASSWORD": "pw-123-pw-123", "DKW_STUDY_FAKE_KEYWORDS": "1"}
    with browser_page() as page, streamlit_server("app.py", env=env) as base:
        page.goto(f"{base}/Study_admin")
        wait_idle(page)
        page.get_by_label("Admin password").fill("pw-123-pw-123")
        page.keyboard.press("Enter")
        wait_idle(page)
        page.locator("[data-testid='stSelectbox']").filter(has_text="Corpus").click()
        page.get_by_role("option", name="demo-tiny").click()
        wait_idle(page)
        chosen = []
        for name in ("good.jsonl", "other.jsonl", "good.jsonl"):
            page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(files[name]))
            wait_idle(page)
            picker = page.locator("[data-testid='stMultiSelect']").filter(has_text="Imported methods to compare")
            expect(picker).to_have_count(1, timeout=60_000)  # the previous upload's widget may linger a moment
            expect(picker.locator("[data-tag] span[title]")).to_have_count(4 if name == "good.jsonl" else 3)
            chosen.append(picker.locator("[data-tag] span[title]").all_inner_texts())
        if os.environ.get("DKW_SCREENSHOT"):
            picker.scroll_into_view_if_needed()
            page.screenshot(path=os.environ["DKW_SCREENSHOT"], full_page=True)
    assert chosen == [["kb-a", "kb-b", "kb-c", "kb-d"], ["kb-a", "kb-b", "llm-x"], ["kb-a", "kb-b", "kb-c", "kb-d"]]
