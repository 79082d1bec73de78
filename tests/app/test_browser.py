"""Real browser: ``streamlit run app.py`` on a free 127.0.0.1 port, driven through Debian's
Chromium.

* ``test_prepare_pick_example_and_see_keywords`` (every test run): prepares a
  2-documents-per-category slice of 20 Newsgroups from the Home page, reads the paper's example
  document's keyword table, brings its own hostile text and highlights a keyword's phrases in
  it (the payload stays text), opens the Categories and Metrics pages. Its screenshots go to a
  temporary folder.
* ``test_refresh_readme_screenshots`` (opt-in: ``DKW_SCREENSHOTS=1``, or
  ``scripts/refresh_screenshots.py``, which also prepares what it needs): the README's
  screenshots in ``docs/screenshots/`` — Home, Documents with the example's keywords, Categories,
  Metrics and the judge page — on the **full** 20 Newsgroups statistics of ``DKW_DATA_DIR``
  (a slice's keywords misrepresent the method). Preparing full 20ng takes about 5 minutes on two
  cores, so it never runs by default.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from dkw_core.types import DEFAULT_METRIC
from tests.support.browser import ROOT, browser_page, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.corpus]

EXAMPLE = "20ng/test/comp.graphics/38758"
ARCHIVE = "20news-bydate.tar.gz"
DOC_SHOTS = ROOT / "docs" / "screenshots"
REFRESH = os.environ.get("DKW_SCREENSHOTS") == "1"


def _data_dir_at_import() -> Path:
    from dkw_core.config import data_dir

    return data_dir()


DATA = _data_dir_at_import()  # DKW_DATA_DIR before the tests' fixtures point it at a tmp folder
PAYLOAD = ("The graphics card renders 3D images <script>window.__pwned=1</script> with <b>bold</b> shading, "
           "**markdown** and [a link](http://evil.example) for the video game.")


def archives() -> Path:
    """The absolute archives folder (a relative DKW_ARCHIVES resolved), or skip."""
    from dkw_core.config import archives_dir

    folder = archives_dir()
    if not (folder / ARCHIVE).is_file():
        pytest.skip(f"{ARCHIVE} not found in {folder} (DKW_ARCHIVES)")
    return folder


def shoot(page, folder: Path, name: str, *, at=None) -> Path:
    """A small PNG of the 1000 x 900 viewport, scrolled to the top or to ``at``."""
    path = folder / f"{name}.png"
    page.evaluate("document.querySelector('[data-testid=stMain]')?.scrollTo(0, 0); window.scrollTo(0, 0)")
    if at is not None:
        at.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    page.screenshot(path=str(path))
    assert path.stat().st_size < 200_000, f"{path} is larger than 200 KB"
    return path


def test_prepare_pick_example_and_see_keywords(tmp_path):
    only_20ng = tmp_path / "archives"
    only_20ng.mkdir()
    (only_20ng / ARCHIVE).symlink_to(archives() / ARCHIVE)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_ARCHIVES": str(only_20ng), "DKW_SAMPLE_PER_CATEGORY": "2",
           "DKW_N_PROCESS": "1"}
    with streamlit_server("app.py", env=env) as url, browser_page(viewport=(1000, 900)) as page:
        page.goto(url)
        wait_idle(page, timeout=120_000)
        button = page.get_by_role("button", name="Prepare 20ng")
        button.click()
        wait_idle(page)
        page.get_by_text("running on the server").wait_for()  # a job of the server, not of this page
        page.goto(f"{url}/Metrics")  # leaving the page used to stop the preparation
        page.get_by_text("running on the server").wait_for(timeout=120_000)  # shown here too
        browser = page.context.browser
        page.close()  # and so did closing the tab
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.set_default_timeout(60_000)
        page.goto(url)
        wait_idle(page, timeout=120_000)
        running = page.get_by_text("running on the server")
        prepared = page.get_by_text("Prepared: tagged")
        assert running.count() or prepared.count(), "the preparation was lost when its page was left"
        prepared.wait_for(timeout=300_000)  # finished without a second click
        assert page.get_by_role("button", name="Prepare 20ng").count() == 0
        shoot(page, shots, "home")

        page.goto(f"{url}/Documents")
        wait_idle(page, timeout=120_000)
        search = page.get_by_label("Search by document id or text")
        search.fill(EXAMPLE)
        search.press("Enter")
        wait_idle(page)
        page.get_by_text(EXAMPLE, exact=True).first.wait_for()
        page.get_by_text("protocol label-aware · K=90 · N=10").wait_for()
        table = page.locator("[data-testid='stTable'] table")
        table.wait_for()
        header = [h.strip() for h in table.locator("thead th").all_inner_texts() if h.strip() != "rank"]
        # the one default metric (docs/method.md §9): the document's keyphrases, its category's words beside them (§13)
        assert [h for h in header if h] == [DEFAULT_METRIC, f"{DEFAULT_METRIC}: category words"], header
        rows = table.locator("tbody tr")
        assert rows.count() == 10
        assert all(w.strip() for w in rows.nth(0).locator("td").all_inner_texts())
        # the document body is shown as text: a code block, or escaped with its own keyphrases marked (§13)
        body = page.locator("[data-testid='stCode'], pre.dkw-document").first
        assert "Subject" in body.inner_text()
        shoot(page, shots, "documents")

        page.goto(f"{url}/Metrics")
        wait_idle(page, timeout=120_000)
        page.get_by_role("tab", name="Your runs").click()  # the run form has its own tab
        page.get_by_role("button", name="Run evaluation").click()
        wait_idle(page, timeout=180_000)
        page.get_by_text("your runs (results store)").click()  # chart the run just stored
        wait_idle(page)
        page.get_by_role("tab", name="Per metric").click()
        chart = page.locator("[data-testid='stPlotlyChart']").first
        chart.wait_for()
        from playwright.sync_api import expect

        expect(chart).to_contain_text("F1 per metric", timeout=60_000)  # Plotly draws its SVG after the element
        shoot(page, shots, "metrics", at=chart)

        # the Categories page on the slice: a bar chart of comp.graphics's words
        page.goto(f"{url}/Categories")
        wait_idle(page, timeout=120_000)
        page.locator("[data-testid='stVegaLiteChart'] svg.marks").first.wait_for()
        page.get_by_text("statistics from the training split", exact=False).first.wait_for()
        shoot(page, shots, "categories")

        # a hostile text of one's own: keywords weighted with its predicted category, and the
        # phrases behind a keyword marked in the text, which stays text
        page.goto(f"{url}/Documents")
        wait_idle(page, timeout=120_000)
        page.get_by_text("your own text", exact=True).click()
        wait_idle(page)
        box = page.get_by_label("Paste a text")
        box.fill(PAYLOAD)
        box.press("Control+Enter")
        wait_idle(page, timeout=120_000)
        page.get_by_text("weighted as", exact=False).first.wait_for()
        pick_keyword(page)
        doc = page.locator("pre.dkw-document")
        doc.wait_for()
        assert doc.inner_text() == PAYLOAD  # every character shown as written
        assert doc.locator("mark").count() >= 1
        assert doc.locator(":not(mark)").count() == 0  # no element of the payload exists
        assert page.evaluate("() => window.__pwned") is None
        assert page.locator("a[href='http://evil.example']").count() == 0


def test_home_gives_keywords_of_a_pasted_text_without_preparing(tmp_path):
    """A newcomer pastes a text on Home of a fresh data folder and gets its keywords at once:
    nothing is prepared (the Prepare button is still offered, no tagging cache is written)."""
    import dkw_core

    if not hasattr(dkw_core, "extract_keywords"):
        pytest.skip("dkw_core.extract_keywords (shipped statistics, branch h5-instant) is not in this tree")
    only_20ng = tmp_path / "archives"
    only_20ng.mkdir()
    (only_20ng / ARCHIVE).symlink_to(archives() / ARCHIVE)
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_ARCHIVES": str(only_20ng), "DKW_N_PROCESS": "1"}
    with streamlit_server("app.py", env=env) as url, browser_page(viewport=(1000, 900)) as page:
        page.goto(url)
        wait_idle(page, timeout=120_000)
        page.get_by_label("Paste a text").fill(PAYLOAD)
        page.get_by_role("button", name="Get keywords").click()
        wait_idle(page, timeout=120_000)
        answer = page.get_by_text("Keywords: ", exact=False).first
        answer.wait_for()
        words = answer.inner_text().split(": ", 1)[1].split(", ")
        assert len(words) >= 3 and all(w.strip() for w in words), words
        assert page.evaluate("() => window.__pwned") is None
        assert page.get_by_role("button", name="Prepare 20ng").count() == 1  # still not prepared
    assert not list(tmp_path.glob("cache/*/tagged/*"))  # nothing was tagged


def _tag_chunks(data: Path) -> tuple[int, int]:
    """(chunk files, documents in them) of an unfinished tagging of 20ng in ``data``."""
    from dkw_core.cache import read_pickle

    chunks = sorted(data.glob("cache/*/tagged/20ng__*.parts/*.pkl"))
    return len(chunks), sum(len(read_pickle(c) or {}) for c in chunks)


def test_a_killed_server_resumes_the_preparation_without_tagging_again(tmp_path):
    """Prepare on a slice, SIGKILL the server once the first chunk of tagged documents is on
    disk, start it again: Prepare resumes from those documents ("resuming: N of M documents
    already tagged"), tags only the others, and finishes."""
    import re
    import signal
    import time

    import psutil

    from dkw_core.cache import read_pickle

    only_20ng = tmp_path / "archives"
    only_20ng.mkdir()
    (only_20ng / ARCHIVE).symlink_to(archives() / ARCHIVE)
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_ARCHIVES": str(only_20ng), "DKW_SAMPLE_PER_CATEGORY": "12",
           "DKW_N_PROCESS": "1"}
    with streamlit_server("app.py", env=env) as url, browser_page(viewport=(1000, 900)) as page:
        page.goto(url)
        wait_idle(page, timeout=120_000)
        page.get_by_role("button", name="Prepare 20ng").click()
        wait_idle(page)
        page.get_by_text("running on the server").wait_for()
        deadline = time.monotonic() + 600
        while _tag_chunks(tmp_path)[0] == 0:  # the first 200 documents are tagged and kept
            assert time.monotonic() < deadline, "no tagged chunk was written"
            page.wait_for_timeout(500)
        port = int(url.rsplit(":", 1)[1])
        server = next(p for p in psutil.Process().children(recursive=True)
                      if "streamlit_main" in " ".join(p.cmdline()) and str(port) in p.cmdline())
        server.send_signal(signal.SIGKILL)  # no clean-up of any kind
        server.wait(10)
    _chunks, kept = _tag_chunks(tmp_path)
    assert kept >= 200
    assert not list(tmp_path.glob("cache/*/tagged/20ng__*.pkl"))  # tagging had not finished

    with streamlit_server("app.py", env=env) as url, browser_page(viewport=(1000, 900)) as page:
        page.goto(url)
        wait_idle(page, timeout=120_000)
        page.get_by_text(f"its {kept:,} tagged documents are kept").wait_for()  # said before the click
        page.get_by_role("button", name="Prepare 20ng").click()
        wait_idle(page)
        resuming = page.get_by_text(re.compile(r"resuming: [\d,]+ documents already tagged"))
        resuming.first.wait_for(timeout=300_000)
        said = re.search(r"resuming: ([\d,]+) documents already tagged by the run that stopped; ([\d,]+) of ([\d,]+)",
                         resuming.first.inner_text())
        told, before, total = (int(x.replace(",", "")) for x in said.groups())
        assert told == before == kept  # the number the page gave before the click; only the rest is tagged
        page.get_by_text("Prepared: tagged").wait_for(timeout=600_000)
        shoot(page, tmp_path, "resumed")
    final = next(iter(tmp_path.glob("cache/*/tagged/20ng__*.pkl")))
    assert len(read_pickle(final)) == total
    assert not list(tmp_path.glob("cache/*/tagged/20ng__*.parts/*.pkl"))  # the chunks were folded in


def pick_keyword(page, index: int = 1) -> None:
    """Choose an option of the 'Highlight the phrases behind a keyword' selectbox."""
    open_select(page, "Highlight the phrases behind a keyword")
    page.get_by_role("option").nth(index).click()
    wait_idle(page)


def shoot_categories(page, folder: Path) -> Path:
    """The Categories page with two categories, once both lists' quality is measured, in a
    1280 x 1720 window: the lists' quality and their scores (the open tab; why their words are
    there is the next tab). Saved with 64 colours (charts have few), so the PNG stays under 200 KB."""
    from PIL import Image

    page.locator("[data-testid='stMetric']").nth(3).wait_for(timeout=300_000)  # the second list's NPMI
    wait_idle(page, timeout=300_000)
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 1720})
    try:
        page.evaluate("document.activeElement && document.activeElement.blur();"
                      "document.querySelector('[data-testid=stMain]')?.scrollTo(0, 0)")
        page.mouse.move(1270, 10)
        page.wait_for_timeout(2500)  # the charts draw their SVG after the element
        path = folder / "categories.png"
        page.screenshot(path=str(path))
        with Image.open(path) as shot:
            small = shot.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        small.save(path, optimize=True)
    finally:
        page.set_viewport_size(size)
    assert path.stat().st_size < 200_000, f"{path} is larger than 200 KB"
    return path


def nav(page, title: str) -> None:
    """Go to a page through the sidebar's navigation."""
    page.locator("[data-testid='stSidebarNav'] a").filter(has_text=title).first.click()
    wait_idle(page, timeout=300_000)


def open_select(page, label: str) -> None:
    """Open a selectbox by its label (its help button carries the label too, so not get_by_label)."""
    box = page.locator(f"[data-testid='stSelectbox'] input[aria-label='{label}']").last
    for _attempt in range(4):  # a click landing while the page re-renders opens nothing: try again
        wait_idle(page)
        box.click()
        try:
            page.get_by_role("option").first.wait_for(timeout=10_000)
            return
        except Exception:  # noqa: BLE001 - playwright's TimeoutError
            page.keyboard.press("Escape")
    page.get_by_role("option").first.wait_for()


def _full_20ng_ready() -> Path:
    """DKW_DATA_DIR when full 20ng is prepared there (the refresh never prepares it itself)."""
    from dkw_core.corpora import corpus_key
    from dkw_core.keywords import KeywordModel
    from dkw_core.vectors import vectors_name

    os.environ["DKW_DATA_DIR"] = str(DATA)  # the fixture's tmp folder is undone after the test
    if not KeywordModel.is_prepared(corpus_key("20ng"), vectors_name()):
        pytest.skip(f"full 20ng is not prepared in {DATA}: run scripts/refresh_screenshots.py "
                    "(or python -m dkw_core prepare --dataset 20ng) first")
    return DATA


def _judge_code(db_url: str) -> str:
    """A one-article-per-category study of 20ng's test split (the paper's methods) and a judge's code."""
    from dkw_core.db import make_engine
    from dkw_core.study import providers
    from dkw_core.study import service as S
    from dkw_core.study.models import init_db

    engine = make_engine(db_url, default_file="unused.sqlite")
    init_db(engine)
    docs, cats, provider = providers.source("20ng")
    sid = S.create_study(engine, documents=docs, categories=cats, provider=provider,
                         config=S.StudyConfig(name="20ng keyword study", corpus="20ng", articles_per_category=1,
                                              judges_per_article=1, seed=38758))
    jid, code = S.invite_judge(engine, sid, name="reader")
    S.acknowledge_instructions(engine, jid)
    engine.dispose()
    return code


@pytest.mark.skipif(not REFRESH, reason="opt-in: DKW_SCREENSHOTS=1 or scripts/refresh_screenshots.py")
@pytest.mark.timeout(1800)
def test_refresh_readme_screenshots(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(DATA))
    data = _full_20ng_ready()
    only_20ng = tmp_path / "archives"
    only_20ng.mkdir()
    (only_20ng / ARCHIVE).symlink_to(archives() / ARCHIVE)
    db = f"sqlite:///{tmp_path / 'study.sqlite'}"
    code = _judge_code(db)
    env = {"DKW_DATA_DIR": str(data), "DKW_ARCHIVES": str(only_20ng), "DKW_N_PROCESS": "1", "DKW_STUDY_DB": db}
    os.environ.pop("DKW_SAMPLE_PER_CATEGORY", None)
    shots = DOC_SHOTS
    with streamlit_server("app.py", env=env) as url, browser_page(viewport=(1280, 900)) as page:
        page.goto(url)
        wait_idle(page, timeout=120_000)
        page.get_by_text("Prepared: tagged").first.wait_for()
        shoot(page, shots, "home")

        # through the sidebar: a direct URL such as /Documents opens the page outside st.navigation
        nav(page, "Documents")
        page.get_by_text("protocol label-aware · K=90 · N=10").wait_for(timeout=300_000)
        assert page.get_by_text(EXAMPLE, exact=True).count() >= 1  # the example is the default document
        assert "slice" not in page.locator("[data-testid='stMain']").inner_text()
        pick_keyword(page)
        page.locator("pre.dkw-document mark").first.wait_for()
        shoot(page, shots, "documents", at=page.get_by_role("heading", name=EXAMPLE))

        nav(page, "Categories")
        page.locator("[data-testid='stVegaLiteChart'] svg.marks").first.wait_for(timeout=300_000)
        open_select(page, "Compare with")
        page.get_by_role("option", name="sci.space", exact=True).click()
        wait_idle(page, timeout=300_000)
        page.locator("[data-testid='stVegaLiteChart'] svg.marks").nth(1).wait_for(timeout=120_000)
        page.get_by_text("Shared and distinct words").wait_for()
        shoot_categories(page, shots)

        nav(page, "Metrics")
        shoot(page, shots, "metrics")

        page.goto(f"{url}/Judge?code={code}")
        wait_idle(page, timeout=300_000)
        page.locator("[class*='st-key-kw-']").first.wait_for(timeout=120_000)
        page.locator("[data-testid='stRadio']").first.wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
        page.locator("[data-testid='stCode']").first.wait_for(timeout=120_000)  # the article, as plain text
        shoot(page, shots, "judge")
