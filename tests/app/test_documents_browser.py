"""The Documents page in a real browser (Debian Chromium): a registered third-party extractor
(YAKE!) chosen in the sidebar is a column of the keyword table beside dkw's metric. A small
uploaded corpus and a tiny vector model keep the preparation to seconds."""
from __future__ import annotations

import csv
import io
import urllib.parse

import numpy as np
import pytest

from dkw_core.types import DEFAULT_METRIC
from tests.support.browser import browser_page, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NAME = "mini"
SPORT = ["team", "game", "player", "coach", "league", "ball", "goal", "season"]
SPACE = ["rocket", "orbit", "planet", "moon", "mission", "launch", "star", "earth"]
TEXTS = {
    ("train", "sport"): ["The team won the game after the coach changed the player.",
                         "A new season of the league starts with a goal.",
                         "The player kicked the ball and the team celebrated."],
    ("train", "space"): ["The rocket reached orbit around the planet.", "A launch of the mission to the moon.",
                         "The star and the earth seen from orbit."],
    ("test", "sport"): ["The coach praised the team and the league before the season."],
    ("test", "space"): ["The mission put a rocket near the moon after the launch."],
}


def _csv() -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["id", "text", "label", "split"])
    n = 0
    for (split, label), texts in TEXTS.items():
        for text in texts:
            n += 1
            writer.writerow([n, text, label, split])
    return buffer.getvalue().encode("utf-8")


def _vectors(path):
    """Sport words on one axis, space words on another, 200 frequent English words around them."""
    from wordfreq import top_n_list

    rng = np.random.default_rng(3)
    words = SPORT + SPACE
    others = [w for w in top_n_list("en", 400)[100:] if w.isalpha() and w not in words][:200]
    lines = [f"{len(words) + len(others)} 8"]
    for i, word in enumerate(words):
        v = np.zeros(8)
        v[i // 8], v[2 + i % 6] = 3.0, 1.0 + 0.1 * i
        lines.append(word + " " + " ".join(f"{x:.5f}" for x in v + rng.normal(0, 0.01, 8)))
    lines += [word + " " + " ".join(f"{x:.5f}" for x in rng.normal(0, 1, 8)) for word in others]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_yake_column_stands_beside_dkws_metric_on_the_documents_page(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "archives").mkdir()
    monkeypatch.setenv("DKW_DATA_DIR", str(data))
    from dkw_core.corpora import load_corpus, uploads

    uploads.import_corpus(NAME, _csv(), "mini.csv")
    doc = next(d for d in load_corpus(NAME).documents if d.split == "test" and d.label == "space")
    env = {"DKW_DATA_DIR": str(data), "DKW_ARCHIVES": str(tmp_path / "archives"),
           "DKW_VECTORS": str(_vectors(tmp_path / "tiny.txt")), "DKW_N_PROCESS": "1",
           "DKW_REFERENCE_DIR": str(tmp_path / "reference")}
    with streamlit_server("app.py", env=env) as base, browser_page() as page:
        page.goto(base)
        wait_idle(page, timeout=120_000)
        page.get_by_role("button", name=f"Prepare {NAME}").click()
        wait_idle(page, timeout=120_000)
        page.get_by_text("Prepared: tagged").first.wait_for(timeout=240_000)
        page.goto(f"{base}/Documents?doc={urllib.parse.quote(doc.id, safe='')}")
        wait_idle(page, timeout=120_000)
        table = page.locator("[data-testid='stTable'] table")
        table.wait_for()
        methods = page.get_by_role("combobox", name="Other methods (columns)")
        methods.click()
        page.get_by_role("option", name="yake", exact=True).click()
        page.keyboard.press("Escape")
        wait_idle(page, timeout=120_000)
        page.get_by_text("yake: YAKE!", exact=False).first.wait_for()  # what it is and that it reads no label
        header = [h.strip() for h in table.locator("thead th").all_inner_texts()]
        assert [h for h in header if h and h != "rank"] == [DEFAULT_METRIC, f"{DEFAULT_METRIC}: category words", "yake"], header
        column = header.index("yake")
        first = table.locator("tbody tr").first.locator("th, td").nth(column).inner_text().strip()
        assert first and first in doc.text.lower()  # YAKE's best keyword, a word of the document itself
