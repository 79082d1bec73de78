"""Display fidelity in a real browser (Debian Chromium): every stored string — keywords,
categories, judge names, study and corpus names, method names — is shown on the judge, admin
and results pages exactly as stored: an HTML entity stays an entity, markdown stays literal,
HTML tags are text, and no link, emphasis or script is created from them. (Document ids
appear only in the admin's tables, which Streamlit draws as plain cell text.)"""
from __future__ import annotations

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import Study, init_db
from tests.support.browser import appears, browser_page, streamlit_server, wait_idle

from .fakes import Doc

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

EVIL = "http://evil.example/"
KEYWORDS = ["&lt;b&gt;", "**bold**", "<b>tag</b>", f"[link]({EVIL}k)", ":red[red]", "_under_", "a & b &amp; c"]
CATEGORIES = ["*cat*one*", "<i>cat2</i>"]
JUDGE = f"[ann]({EVIL}j) &amp; <em>x</em>"
INVITED = "**bob** <u>u</u> &lt;"
STUDY = "<script>window.__pwned=1</script> &lt;s&gt; **study**"
CORPUS = "# corpus &copy; `c`"
METHOD_A = "tf-rf <b>A</b>"
METHOD_B = f"[B]({EVIL}m)"
PASSWORD = "fidelity-password-1"


def _provider(spec, doc_ids, top, protocol="label-aware"):
    words = KEYWORDS[:4] if spec == METHOD_A else KEYWORDS[3:]
    return {d: list(words) for d in doc_ids}


def _assert_no_markup_from_data(page) -> None:
    links = page.evaluate(f"() => [...document.querySelectorAll(\"a[href^='{EVIL}']\")].map(a => a.parentElement.outerHTML)")
    assert not links, links
    assert page.evaluate("() => window.__pwned === undefined")
    for tag in ("b", "strong", "i", "u", "em", "script", "h1"):  # no element made from the stored strings
        for text in page.locator(f"{tag}").all_inner_texts():
            assert text.strip() not in ("tag", "cat2", "x", "u", "A", "bold", "study", "under", "corpus © `c`"), (tag, text)
    assert page.locator("[data-testid='stMain'] [class*='red']").filter(has_text="red").count() == 0


def test_stored_strings_are_shown_exactly_on_judge_admin_and_results_pages(tmp_path):
    url = f"sqlite:///{tmp_path / 'fidelity.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    docs = [Doc(id=f"[d{i}]({EVIL}d) <b>{i}</b>", text=f"Text *{i}* <b>x</b>", label=c, split="test")
            for i, c in enumerate(CATEGORIES)]
    sid = S.create_study(engine, documents=docs, categories=CATEGORIES, provider=_provider,
                         config=S.StudyConfig(name=STUDY, corpus="fake", method_a=METHOD_A, method_b=METHOD_B,
                                              keywords_per_method=4, articles_per_category=1,
                                              categories_per_batch=2, judges_per_article=1, seed=1))
    with Session(engine) as s:
        s.execute(update(Study).where(Study.id == sid).values(corpus=CORPUS))
        s.commit()
    _jid, code = S.invite_judge(engine, sid, name=JUDGE)
    engine.dispose()
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": PASSWORD}
    with browser_page() as page, streamlit_server("app.py", env=env) as base:
        # judge: instructions name the corpus, then the article's keywords and categories
        page.goto(f"{base}/Judge?code={code}")
        wait_idle(page)
        body = page.inner_text("[data-testid='stMain']")
        assert f"Judge: {JUDGE}" in body
        assert f"Corpus: {CORPUS}\n" in body
        page.get_by_role("button", name="I have read the instructions — start").click()
        wait_idle(page)
        page.locator("[class*='st-key-kw-']").first.wait_for()
        wait_idle(page)
        shown = page.evaluate("""() => [...document.querySelectorAll('[class*="st-key-kw-"]')].map(
            box => box.querySelector('[data-testid="stText"]').innerText)""")
        assert sorted(shown) == sorted(KEYWORDS)
        body = page.inner_text("[data-testid='stMain']")
        for cat in CATEGORIES:
            assert cat in body
        own = page.inner_text("[class*='st-key-own_category']")
        assert own in (f"▶ {CATEGORIES[0]}  ← this article", f"▶ {CATEGORIES[1]}  ← this article")
        _assert_no_markup_from_data(page)

        # admin: method names in the sidebar, an invited judge's name
        page.goto(f"{base}/Study_admin")
        wait_idle(page)
        page.get_by_label("Admin password or token").fill(PASSWORD)
        page.keyboard.press("Enter")
        wait_idle(page)
        page.get_by_role("tab", name="Judges").wait_for()
        # the sidebar's study summary is drawn after the tabs in the same run: wait for it, then for the run's end
        page.locator("[data-testid='stSidebar']").get_by_text(f"A = {METHOD_A}", exact=False).first.wait_for()
        wait_idle(page)
        sidebar = page.inner_text("[data-testid='stSidebar']")
        assert f"A = {METHOD_A} (label-aware)\nB = {METHOD_B} (label-aware)" in sidebar
        page.get_by_role("tab", name="Judges").click()
        page.get_by_label("Judge name or pseudonym").fill(INVITED)
        page.get_by_label("Judge name or pseudonym").press("Tab")
        wait_idle(page)
        page.get_by_role("button", name="Invite judge").click()
        wait_idle(page)
        page.get_by_text("Link for").wait_for()
        assert f"Link for {INVITED}:\n" in page.inner_text("[data-testid='stMain']")
        _assert_no_markup_from_data(page)

        # results: study, corpus and method names in the caption
        page.goto(f"{base}/Study_results")
        wait_idle(page)
        if appears(page.get_by_label("Admin password or token")):
            page.get_by_label("Admin password or token").fill(PASSWORD)
            page.keyboard.press("Enter")
            wait_idle(page)
        page.get_by_text("No submitted answers yet").wait_for()
        body = page.inner_text("[data-testid='stMain']")
        assert f"Study {STUDY} (open): corpus {CORPUS} (test split" in body
        assert f"A = {METHOD_A} (label-aware protocol), B = {METHOD_B} (label-aware protocol)" in body
        _assert_no_markup_from_data(page)
