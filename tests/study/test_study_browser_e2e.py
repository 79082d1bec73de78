"""The whole study through the UI, in Debian's Chromium, as its organiser and three judges
would run it: ``python -m dkw_app.serve`` (``make run``) in ``DKW_MODE=study`` on a tiny CSV
corpus (two categories, one test article each).

* The organiser logs in, creates a study from the CSV file's path comparing YAKE (built in)
  with keywords imported from a CSV file (Create tab, in the background), and invites three
  judges.
* Each judge opens her link, reads the instructions and judges every article she is given;
  the second one reloads the page in the middle of an article and finds her answers again.
* The results page shows Table 7 with the same statistics as ``study analyze --json``.
"""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, ROOT, choose, require_chromium, wait_idle
from tests.support.serve import served

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

PASSWORD = "e2e-admin-password"
JUDGES = ("ann", "bob", "cyd")
OPTIONS = ("Relevant", "Partially", "Irrelevant")


TEXTS = {
    "space": ("The shuttle launch was delayed by a fuel leak; engineers inspected the orbiter and the launch pad.",
              "A telescope in orbit observed a distant galaxy and astronomers measured its redshift."),
    "hockey": ("The goalie stopped forty shots and the team won the playoff game after a tense final period.",
               "Our defenceman scored twice on the power play and the coach praised the power play unit."),
}


def tiny_corpus(path) -> None:
    """Two categories, one training and one test article each (columns text,label,split)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["text", "label", "split"])
        for label, (train, test) in TEXTS.items():
            out.writerow([train, label, "train"])
            out.writerow([test, label, "test"])


def imported_csv(path, corpus) -> None:
    """'my-extractor': every document's three longest words, best first."""
    from dkw_core.corpora import load_corpus

    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["doc_id", "method", "keywords"])
        for doc in load_corpus(str(corpus)).documents:
            words = sorted({w.strip(".,;").lower() for w in doc.text.split()}, key=lambda w: (-len(w), w))[:3]
            out.writerow([doc.id, "my-extractor", ";".join(words)])


def pick(page, label: str, option: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_idle(page)


def number(page, label: str, value: int) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    wait_idle(page)


def answer(page, radios, start: int, stop: int, judge: int) -> None:
    for i in range(start, stop):
        choose(page, radios.nth(i), OPTIONS[(i + judge) % 3])


def questions(page) -> int:
    """The article's number of questions, once all its radios are drawn."""
    caption = page.get_by_text(re.compile(r"\d+ of \d+ answers given")).first
    caption.wait_for()
    total = int(re.search(r"of (\d+) answers", caption.inner_text()).group(1))
    for _ in range(100):
        if page.locator("[data-testid='stRadio']").count() == total:
            return total
        page.wait_for_timeout(100)
    raise AssertionError(f"{total} questions announced, {page.locator('[data-testid=stRadio]').count()} drawn")


def judge_everything(page, link: str, judge: int, *, reload_mid_article: bool) -> int:
    page.goto(link)
    wait_idle(page)
    page.get_by_role("button", name="I have read the instructions — start").click()
    wait_idle(page)
    articles = 0
    while True:
        finished = page.get_by_text("nothing left for you to judge")
        finished.or_(page.get_by_text(re.compile(r"^0 of \d+ answers given"))).first.wait_for()
        if finished.count():
            return articles
        radios = page.locator("[data-testid='stRadio']")
        n = questions(page)
        if reload_mid_article and articles == 0:
            answer(page, radios, 0, n // 2, judge)
            page.reload()
            wait_idle(page)
            assert questions(page) == n
            checked = page.locator("[data-testid='stRadio'] input:checked")
            assert checked.count() == n // 2, "answers given before the reload are back"
            assert page.get_by_text("Not answered yet").count() == n - n // 2
            answer(page, radios, n // 2, n, judge)
        else:
            answer(page, radios, 0, n, judge)
        page.get_by_role("button", name="Submit", exact=True).click()
        wait_idle(page)
        page.get_by_text("Saved.").first.wait_for()
        scrolled = page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop")
        assert scrolled < 50, f"after Submit the page is at {scrolled}px, not the next article's top"
        articles += 1


def test_an_organiser_and_three_judges_run_a_study_with_an_imported_method(tmp_path):
    require_chromium()
    from playwright.sync_api import sync_playwright

    corpus = tmp_path / "tiny.csv"
    tiny_corpus(corpus)
    keywords = tmp_path / "my-extractor.csv"
    imported_csv(keywords, corpus)
    db = f"sqlite:///{tmp_path / 'study.sqlite'}"
    env = {"DKW_MODE": "study", "DKW_ADMIN_PASSWORD": PASSWORD, "DKW_STUDY_DB": db}
    with served(tmp_path, env) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        admin = browser.new_page(viewport={"width": 1280, "height": 900})
        admin.set_default_timeout(60_000)
        admin.goto(f"{url}/Study_admin")
        wait_idle(admin)
        box = admin.get_by_label("Admin password or token")
        box.fill(PASSWORD)
        box.press("Enter")
        wait_idle(admin)
        admin.get_by_role("tab", name="Create").wait_for()
        # create: the CSV corpus by its path, YAKE against imported keywords, 1 keyword per method
        admin.get_by_text("A folder or CSV file on the server").click()
        wait_idle(admin)
        path = admin.get_by_label("Folder (<split>/<category>/<file>) or .csv (text,label[,split]) on the server")
        path.fill(str(corpus))
        path.press("Enter")
        wait_idle(admin)
        methods = admin.get_by_role("combobox", name="Built-in methods")
        methods.click()
        for _ in range(2):  # drop the paper's two default methods
            methods.press("Backspace")
            wait_idle(admin)
        methods.click()
        admin.get_by_role("option", name="yake", exact=True).click()
        wait_idle(admin)
        admin.keyboard.press("Escape")
        admin.locator("[data-testid='stFileUploader'] input[type=file]").set_input_files(str(keywords))
        wait_idle(admin)
        admin.get_by_text("my-extractor: 4 documents").wait_for()
        for label in ("Keywords per method", "Articles per category"):  # one keyword count for every method
            number(admin, label, 1)
        number(admin, "Seed (0 = draw one and record it)", 11)
        admin.get_by_text("2 method(s): A = yake, C = my-extractor".replace(", C", ", B")).wait_for()
        admin.get_by_role("button", name="Create study").click()
        admin.get_by_text("Study 1 is ready").first.wait_for(timeout=60_000)
        wait_idle(admin)
        # invite three judges
        admin.get_by_role("tab", name="Judges").click()
        wait_idle(admin)
        links = []
        for name in JUDGES:
            field = admin.get_by_label("Judge name or pseudonym")
            field.fill(name)
            field.press("Enter")
            wait_idle(admin)
            admin.get_by_role("button", name="Invite judge").click()
            wait_idle(admin)
            admin.get_by_text(f"Link for {name}:").wait_for()
            assert admin.get_by_label("Judge name or pseudonym").input_value() == ""
            links.append(admin.locator("[data-testid='stCode']").last.inner_text().strip())
        assert all("/Judge?code=" in link for link in links) and len(set(links)) == 3

        # the judges, one after another, each in her own browser context
        for j, link in enumerate(links):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.set_default_timeout(60_000)
            try:
                done = judge_everything(page, link, j, reload_mid_article=(j == 1))
            except Exception:
                page.screenshot(path=str(tmp_path / f"judge-{j}-failed.png"), full_page=True)
                raise
            assert done == 2, f"judge {JUDGES[j]} judged {done} of the 2 articles"
            context.close()

        # the results page, reached through the navigation the organiser now sees
        admin.get_by_role("link", name="Study results").click()
        wait_idle(admin)
        table = admin.locator(".st-key-tbl_significance table")
        table.wait_for()
        header = [h.strip() for h in table.locator("thead th").all_inner_texts()]
        rows = [[c.strip() for c in r.locator("td, th").all_inner_texts()] for r in table.locator("tbody tr").all()]
        browser.close()

    out = subprocess.run([sys.executable, "-m", "dkw_core", "study", "analyze", "--db", db, "--study", "1", "--json"],
                         cwd=ROOT, env={**os.environ, "DKW_DATA_DIR": str(tmp_path)}, capture_output=True,
                         text=True, check=True)
    result = json.loads(out.stdout)
    assert result["counts"]["judgements"] == 6 and result["counts"]["judges"] == 3
    assert [m["name"] for m in result["study"]["methods"]] == ["yake", "my-extractor"]
    expected = [r for r in result["significance"] if r["level"] == result["significance"][0]["level"]]
    assert len(expected) == 2  # 2 questions x 1 pair of methods
    assert len(rows) == len(expected)

    def fmt(v):
        return "" if v is None else (f"{v:.4g}" if isinstance(v, float) else str(v))

    columns = {"pairs": "pairs", "wilcoxon_p_two_sided": "Wilcoxon p", "sign_M": "sign M",
               "sign_p_two_sided": "sign p2", "direction": "direction", "method_x": "x", "method_y": "y"}
    for row, want in zip(rows, expected):
        cells = dict(zip(header[-len(row):], row))
        for key, label in columns.items():
            assert cells[label] == fmt(want[key]), (label, cells, want)
