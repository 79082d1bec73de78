"""The Categories page's pure builders (dkw_app/category_view.py): the scatter of why a list's
words are there (log axes, the list's words labelled and marked, the score in every hover,
untrusted text escaped), the quality figures and the words table."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd
import pytest

from dkw_app import category_view
from dkw_core.keywords.category_methods import CategoryTerms, TermPoint

EVIL = '<a href="http://evil.example">x</a>'


def terms(category: str = "comp.graphics", unit: str = "documents") -> CategoryTerms:
    return CategoryTerms(category, "rf", unit, 100.0, 900.0, (
        TermPoint("graphics", 2.5, 40, 10, 1), TermPoint(EVIL, 2.0, 12, 0, 2),
        TermPoint("the", 0.1, 95, 850, 0), TermPoint("image", 0.0, 30, 60, 0)))


def test_the_scatter_draws_in_category_against_elsewhere_on_log_axes_with_the_list_marked():
    fig = category_view.scatter_chart(terms(), title="comp.graphics: why these words", label="rf").to_plotly_json()
    layout = fig["layout"]
    assert layout["xaxis"]["type"] == layout["yaxis"]["type"] == "log"
    background, listed = fig["data"][0], fig["data"][1]
    escaped = ["graphics", '&lt;a href="http://evil.example"…']  # cut to LABEL_WIDTH (30), then escaped
    assert listed["text"] == escaped
    labels = layout["annotations"]  # each listed point labelled (escaped), a line to it
    assert [a["text"] for a in labels] == escaped and all(a["showarrow"] for a in labels)
    assert [10 ** a[c] for a in labels for c in "xy"] == pytest.approx([10, 40, category_view.ZERO_AT, 12])
    assert listed["marker"]["size"] > background["marker"]["size"]  # the list's words stand out
    assert listed["marker"]["color"] != background["marker"]["color"]
    assert list(listed["y"]) == [40, 12] and list(background["y"]) == [95, 30]
    # a word never seen elsewhere sits at the axis's "0" tick, not off the log scale
    assert listed["x"][1] == category_view.ZERO_AT
    ticks = dict(zip(layout["xaxis"]["tickvals"], layout["xaxis"]["ticktext"]))
    assert ticks[category_view.ZERO_AT] == "0" and ticks[100] == "100"
    assert math.log10(category_view.ZERO_AT) > layout["xaxis"]["range"][0]  # the 0 tick is inside the axis
    assert math.log10(850) < layout["xaxis"]["range"][1]
    # the score (and rank, counts) in every hover
    for trace in (listed, background):
        assert "score %{customdata[1]" in trace["hovertemplate"]
    assert [row[1] for row in listed["customdata"]] == [2.5, 2.0]
    assert listed["customdata"][1][0] == "&lt;a href=\"http://evil.example\"&gt;x&lt;/a&gt;"  # whole, in the hover
    # the dashed line of equal shares: in = elsewhere x 100 / 900
    line = fig["data"][2]
    assert line["mode"] == "lines" and math.isclose(line["y"][-1] / line["x"][-1], 100 / 900)


def test_labels_of_a_dense_cluster_are_placed_apart():
    """Ten words at nearly one place: their labels do not overlap each other."""
    points = [(400 + i, 200 + i) for i in range(10)]
    widths = [60] * 10
    offsets = category_view._place_labels(points, widths, (700, 370))
    boxes = [(x + ax - 30, y + ay - 8, x + ax + 30, y + ay + 8) for (x, y), (ax, ay) in zip(points, offsets)]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (a, b)


def test_the_scatter_escapes_the_category_and_names_the_counts():
    fig = category_view.scatter_chart(terms(EVIL, "occurrences"), title=f"{EVIL}: why these words",
                                      label="<b>m</b>").to_plotly_json()
    assert "<a" not in fig["layout"]["title"]["text"] and fig["layout"]["title"]["text"].startswith("&lt;a href")
    assert "<b>m" not in fig["data"][1]["name"] and "<b>m" not in fig["data"][1]["hovertemplate"]
    assert "occurrences" in fig["layout"]["xaxis"]["title"]["text"]
    assert "occurrences" in fig["layout"]["yaxis"]["title"]["text"]


def test_quality_figures_are_short_and_state_reference_and_window():
    quality = SimpleNamespace(npmi=-0.2451, exclusivity=0.6512, absent_share=0.12, topn=10, window=10,
                              reference="the test split's word tokens")
    figs = category_view.quality_figures(quality)
    assert [(label, value) for label, value, _ in figs] == [("NPMI", "-0.245"), ("exclusivity", "0.651"),
                                                            ("absent", "12%")]
    assert "window of 10 words" in figs[0][2] and "test split" in figs[0][2]
    unscored = SimpleNamespace(npmi=math.nan, exclusivity=math.nan, absent_share=1.0, topn=10, window=10,
                               reference="r")
    assert [v for _, v, _ in category_view.quality_figures(unscored)] == ["—", "—", "100%"]
    assert category_view.quality_figures(None) == []
    note = category_view.quality_note(quality)
    assert "c_npmi over the test split's word tokens, boolean sliding window of 10 words, top 10 words" in note


def test_the_words_table_holds_the_list_only_with_shares_of_the_totals():
    frame = category_view.words_frame(terms(), phrases={"graphics": (("graphics card", 7),)}, k=90)
    assert list(frame["word"]) == ["graphics", EVIL]
    assert list(frame["share_%"]) == [40.0, 12.0] and list(frame["elsewhere_%"]) == [1.1, 0.0]
    assert list(frame["phrases"]) == ["graphics card (7)", ""]
    assert frame.attrs == {"metric": "rf", "k": 90, "unit": "documents"}


def test_log_ticks_are_1_2_5_only_where_the_axis_has_room():
    """A narrow axis (two lists side by side) over three decades gets 1, 10, 100, 1,000 only:
    with 1, 2, 5 its labels tilted and ran into the axis title."""
    wide = category_view._log_axis([20, 9000], "x", 730, 60)
    narrow = category_view._log_axis([20, 9000], "x", 320, 60)
    assert wide["ticktext"] == ["10", "20", "50", "100", "200", "500", "1,000", "2,000", "5,000"]
    assert narrow["ticktext"] == ["10", "100", "1,000"]
    assert category_view._log_axis([0.5, 40], "y", 370, 28)["ticktext"][:3] == ["0", "1", "2"]  # a zero: the 0 tick


def _label_and_hover_of_a_long_word(word: str) -> tuple:
    frame = category_view.words_frame(CategoryTerms("c", "rf", "documents", 10.0, 90.0, (
        TermPoint(word, 2.0, 5, 1, 1), TermPoint("short", 1.0, 4, 2, 2))))
    bar = category_view.bar_chart(frame, title="c")
    scatter = category_view.scatter_chart(CategoryTerms("c", "rf", "documents", 10.0, 90.0, (
        TermPoint(word, 2.0, 5, 1, 1), TermPoint("short", 1.0, 4, 2, 2))), title="c", label="rf").to_plotly_json()
    return bar, scatter


def test_a_50000_character_word_is_cut_in_every_label_and_whole_in_its_hover():
    """One very long word (a hostile corpus's) must not take the chart's width: every label of it
    (bar label, scatter point, annotation) is cut to LABEL_WIDTH characters; the hover holds all of
    it. The bars are Vega-Lite (text as text, the tooltip escapes): the word as it is; the scatter
    is Plotly: escaped, in lines."""
    from dkw_app.untrusted import HOVER_LINE, LABEL_WIDTH

    word = "<b>" + "x" * 50_000
    bar, scatter = _label_and_hover_of_a_long_word(word)
    rows = bar["data"]["values"]
    assert bar["encoding"]["y"]["field"] == "label" and bar["encoding"]["y"]["sort"] is None  # best on top
    assert rows[0]["label"] == "<b>" + "x" * (LABEL_WIDTH - 4) + "…" and len(rows[0]["label"]) == LABEL_WIDTH
    assert rows[0]["word"] == word and {"field": "word", "title": "word"} in bar["encoding"]["tooltip"]
    listed = scatter["data"][1]
    labels = [*listed["text"], *(a["text"] for a in scatter["layout"]["annotations"])]
    assert all(len(t.replace("&lt;", "<").replace("&gt;", ">")) <= LABEL_WIDTH for t in labels)
    lines = listed["customdata"][0][0].split("<br>")
    assert "".join(lines) == "&lt;b&gt;" + "x" * 50_000  # the whole word, escaped
    assert max(len(line) for line in lines) <= HOVER_LINE + len("&lt;b&gt;")


def test_the_bars_are_a_valid_vega_lite_spec_with_room_for_each_score():
    """The bars are the page's first chart, in Vega-Lite (BENCHMARKS.md): a spec the schema of the
    Vega-Lite Streamlit bundles refuses would draw nothing."""
    import jsonschema
    from altair.vegalite.v6.schema import load_schema

    frame = category_view.words_frame(CategoryTerms("c", "rf", "documents", 10.0, 90.0, (
        TermPoint("alpha", 2.0, 5, 1, 1), TermPoint("beta", 1.0, 4, 2, 2))))
    bar = category_view.bar_chart(frame, title="c: top 2", color="#f58518", label="rf")
    jsonschema.validate(bar, load_schema())
    assert [r["score_text"] for r in bar["data"]["values"]] == ["2", "1"]
    assert bar["encoding"]["x"]["scale"]["domain"][1] > 2.0  # the best word's score beside its bar, not cut
    assert bar["layer"][0]["mark"]["color"] == "#f58518" and bar["encoding"]["x"]["title"] == ["rf (training split)"]


def test_two_long_words_cut_alike_stay_two_bars():
    frame = category_view.words_frame(CategoryTerms("c", "rf", "documents", 10.0, 90.0, (
        TermPoint("a" * 40 + "1", 2.0, 5, 1, 1), TermPoint("a" * 40 + "2", 1.0, 4, 2, 2))))
    labels = [r["label"] for r in category_view.bar_chart(frame, title="c")["data"]["values"]]
    assert len(set(labels)) == 2 and labels[1] == labels[0] + " (2)"


def test_two_charts_side_by_side_get_titles_in_lines_that_fit_half_the_width():
    """Vega cuts a title wider than its chart with "…": side by side, the second category's title
    lost its method ("comp.os.ms-windows.misc: top 10 words by Fightin' …", Chromium at 1024 px).
    Titles and the axis title come in lines of half the width, the whole text kept."""
    frame = pd.DataFrame([{"category": "c", "rank": 1, "word": "w", "score": 1.0, "in_category": 1, "share_%": 1.0,
                           "elsewhere": 0, "elsewhere_%": 0.0, "phrases": ""}], columns=category_view.COLUMNS)
    frame.attrs.update(metric="fightin-words", k=None, unit="occurrences")
    title = "comp.os.ms-windows.misc: top 10 words by Fightin' Words (own words)"
    half = category_view.TITLE_WIDTH // 2
    bar = category_view.bar_chart(frame, title=title, label="Fightin' Words (own words)", title_width=half)
    lines = bar["title"]["text"]
    assert len(lines) > 1 and all(len(line) <= half for line in lines) and " ".join(lines) == title
    assert "comp.os.ms-windows.misc:" in lines[0]  # never broken at a hyphen
    axis = bar["encoding"]["x"]["title"]
    assert all(len(line) <= half for line in axis) and " ".join(axis) == "Fightin' Words (own words) (training split)"
    assert category_view.bar_chart(frame, title="c: top 1 words by rf")["title"]["text"] == ["c: top 1 words by rf"]
