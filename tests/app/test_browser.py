"""Real browser: ``streamlit run app.py`` on a free 127.0.0.1 port, driven through Debian's
Chromium. Prepares a 2-documents-per-category slice of 20 Newsgroups from the Home page,
picks the paper's example document 20ng/test/comp.graphics/38758 and reads its keyword
table; saves a small PNG of each page into a temporary folder, or into docs/screenshots/ (the
ones the README shows) when ``DKW_SCREENSHOTS=1``."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.browser import ROOT, browser_page, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.corpus]

EXAMPLE = "20ng/test/comp.graphics/38758"
ARCHIVE = "20news-bydate.tar.gz"
DOC_SHOTS = ROOT / "docs" / "screenshots"


def shots_folder(tmp_path: Path) -> Path:
    """``docs/screenshots`` with ``DKW_SCREENSHOTS=1`` (refresh the docs), else a tmp folder,
    so that a plain test run leaves the working tree clean."""
    folder = DOC_SHOTS if os.environ.get("DKW_SCREENSHOTS") == "1" else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
    shots = shots_folder(tmp_path)
    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_ARCHIVES": str(only_20ng), "DKW_SAMPLE_PER_CATEGORY": "2",
           "DKW_N_PROCESS": "1"}
    with streamlit_server("app.py", env=env) as url, browser_page(viewport=(1000, 900)) as page:
        page.goto(url)
        wait_idle(page, timeout=120_000)
        button = page.get_by_role("button", name="Prepare 20ng")
        button.click()
        wait_idle(page, timeout=180_000)
        page.get_by_text("Prepared: tagged").wait_for()
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
        assert [h for h in header if h][:3] == ["rf", "tds", "ig"], header
        rows = table.locator("tbody tr")
        assert rows.count() == 10
        assert all(w.strip() for w in rows.nth(0).locator("td").all_inner_texts())
        # the document body is shown as plain text in a code block
        assert "Subject" in page.locator("[data-testid='stCode']").first.inner_text()
        shoot(page, shots, "documents")

        page.goto(f"{url}/Metrics")
        wait_idle(page, timeout=120_000)
        page.get_by_text("Run a missing evaluation").wait_for()
        page.get_by_role("button", name="Run evaluation").click()
        wait_idle(page, timeout=180_000)
        chart = page.locator("[data-testid='stPlotlyChart']").first
        chart.wait_for()
        shoot(page, shots, "metrics", at=page.get_by_text("F1 per metric", exact=True))
