"""The sample-size planner read as an organiser reads it, in Debian's Chromium: a study fixed at 3
judges per article with attention checks, one simulated judge the rules exclude; the planner's
section of the Study admin page (Rules & quality) says how many answers its pilot used, plans at
the study's 3 judges, shows every power with its Monte Carlo error under plain column names, and
nothing in its table is cut off. The screenshot goes to docs/screenshots/study-planner.png."""
from __future__ import annotations

import pytest
from sqlalchemy import text

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import init_db
from dkw_core.study.planner import PLAIN_COLUMNS
from dkw_core.study.settings import ExclusionRules
from dkw_core.study.simulate import simulate
from tests.support.browser import ROOT, browser_page, streamlit_server, wait_idle

from .fakes import category_provider, make_docs

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PASSWORD = "planner-admin-password"
SHOT = ROOT / "docs" / "screenshots" / "study-planner.png"


def _pilot(engine) -> int:
    """Five simulated judges on 12 articles x 3 judges; judge 1 answers 'Relevant' to everything,
    the planted intruders included, so the rule on failed attention checks excludes her."""
    cats = ["c1", "c2", "c3", "c4", "c5", "c6"]
    sid = S.create_study(engine, documents=make_docs(cats, per_split=4), categories=cats,
                         provider=category_provider,
                         config=S.StudyConfig(name="planner", corpus="fake", keywords_per_method=5,
                                              articles_per_category=2, categories_per_batch=6,
                                              judges_per_article=3, seed=7, attention_share=0.5,
                                              rules=ExclusionRules(max_failed_checks=0)))
    with engine.connect() as c:
        intruders = set(c.execute(text("SELECT id FROM study_keyword WHERE intruder")).scalars())

    def answer(judge, kw, q, rng):
        if judge == 0:
            return 3
        if kw in intruders:
            return 1
        if rng.random() < 0.05:
            return 0
        return max(1, min(3, (kw % 3) + 1 + rng.choice((-1, 0, 0, 1))))

    simulate(engine, sid, judges=5, answer_fn=answer)
    return sid


def test_the_planner_section_reads_plainly_at_the_study_s_judges_and_nothing_is_cut_off(tmp_path):
    url = f"sqlite:///{tmp_path / 'planner.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    _pilot(engine)
    engine.dispose()
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": PASSWORD}
    with browser_page(viewport=(1280, 1000)) as page, streamlit_server("app.py", env=env) as base:
        page.goto(f"{base}/Study_admin")
        page.get_by_label("Admin password or token").fill(PASSWORD)
        page.get_by_label("Admin password or token").press("Enter")
        wait_idle(page)
        page.get_by_role("tab", name="Rules & quality").click()
        wait_idle(page)
        assert page.get_by_role("textbox", name="Judges per article").input_value() == "3"
        page.get_by_role("button", name="Plan", exact=True).click()
        wait_idle(page, timeout=120_000)
        table = page.locator("[data-testid='stTable']").filter(has_text=PLAIN_COLUMNS["power_sign"])
        table.wait_for()
        heads = table.locator("th").all_inner_texts()
        assert [h.strip() for h in heads if h.strip()] == list(PLAIN_COLUMNS.values())
        cells = table.locator("td")
        for i in range(cells.count()):  # every cell shows its whole text: nothing cut off
            assert cells.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth + 1"), cells.nth(i).inner_text()
        body = page.inner_text("body")
        page.set_viewport_size({"width": 1280, "height": 3000})  # the whole tab in view: clip in page pixels
        page.wait_for_timeout(500)
        page.get_by_role("heading", name="Sample size (planner)").scroll_into_view_if_needed()
        top = page.get_by_role("heading", name="Sample size (planner)").bounding_box()
        last = page.get_by_text("Model: a rating is a latent score").bounding_box()
        assert top and last
        page.screenshot(path=str(SHOT), clip={"x": top["x"] - 24, "y": max(0, top["y"] - 16),
                                              "width": 1280 - top["x"] + 24,
                                              "height": last["y"] + last["height"] - top["y"] + 32})
    assert "answers used. Left out, as the analysis leaves them out:" in body
    assert "answers of 1 judge the exclusion rules exclude and" in body and "answers to attention checks" in body
    assert "significance level 0.05 (two methods, one comparison)" in body and " % ± " in body
    assert "× 1 judges" not in body and "art.means" not in body and "rated d" not in body
    assert SHOT.stat().st_size < 300_000
