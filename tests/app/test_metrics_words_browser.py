"""Real browser, 1280 px: the Metrics page's Words tab from the shipped quality table (no corpus
needed): the answer is on screen, and neither the chart's title lines nor the table's columns are
cut off."""
from __future__ import annotations

import pytest

from dkw_core.evaluation.wordlists import CATEGORY_LIST_KINDS, load_quality, method_kind_of
from tests.support.browser import browser_page, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser]


def test_the_words_tab_fits_1280_px(tmp_path):
    with streamlit_server("app.py", env={"DKW_DATA_DIR": str(tmp_path)}) as url, \
            browser_page(viewport=(1280, 2400)) as page:
        page.goto(url + "/Metrics")
        wait_idle(page)
        page.get_by_role("tab", name="Words").click()
        wait_idle(page)
        panel = page.get_by_role("tabpanel").filter(has_text="the most coherent category words")
        panel.wait_for()
        # the answer first: the front sentence where the document measures are shipped, else the one line
        # saying they were not measured on this corpus, with the command that measures them
        answer = panel.get_by_text("no other beats on both topic").or_(panel.get_by_text("were not measured on"))
        assert answer.first.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        chart = panel.locator(".js-plotly-plot").first
        chart.wait_for()
        box = chart.bounding_box()
        title = panel.locator(".gtitle").first.bounding_box()  # both of its lines
        assert box and title and title["x"] + title["width"] <= box["x"] + box["width"]
        grid = panel.get_by_test_id("stDataFrame").last  # the category words' table (the document keywords' first)
        grid_box = grid.bounding_box()
        assert grid_box and grid_box["x"] + grid_box["width"] <= box["x"] + box["width"] + 1
        shown = page.evaluate("""el => { const c = el.querySelector('[data-testid="data-grid-canvas"]') ||
                                         el.querySelector('canvas');
                                         return c ? c.scrollWidth <= el.clientWidth + 1 : null; }""",
                              grid.element_handle())
        assert shown is not False  # the grid's columns fit its box: no horizontal scroll
        rows = load_quality().of("20ng")  # the page's first corpus; extractors have no category lists
        methods = len(rows[rows["words"].map(method_kind_of).isin(CATEGORY_LIST_KINDS)])
        assert grid_box["height"] >= 35 * (methods + 1)  # every method's row in view, no inner scroll
