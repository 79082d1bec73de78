"""The Words tab's pure builders: the exclusivity-against-NPMI chart and the shown table."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from dkw_app.quality_view import SHOWN, words_chart, words_table

HOSTILE = "<a href='x'>evil</a>"


def _rows() -> pd.DataFrame:
    def row(id_, method, words, npmi, excl, micro):
        return {"corpus": "toy", "id": id_, "method": method, "words": words, "NPMI": npmi,
                "absent from test split (%)": 10.0, "exclusivity": excl, "micro-F1 (%)": micro,
                "macro-F1 (%)": micro - 5}
    return pd.DataFrame([
        row("rf", "rf", "latent, K 90", -0.3, 0.30, 97.0), row("tds", "tds", "latent, K 90", -0.3, 0.30, 97.0),
        row("ig", "ig", "latent, K 90", -0.37, 0.45, 97.12), row("chi2", HOSTILE, "latent, K 90", -0.2, 0.40, 96.0),
        row("idf", "idf", "latent, K 90", math.nan, 0.05, 50.0),
        row("own:fw", "Fightin' Words (own words)", "own words", 0.063, 0.539, 97.03),
        row("own:ctfidf", "c-TF-IDF (own words)", "own words", 0.066, 0.518, 96.89)])


def _chart(default: str = "ig") -> dict:
    return words_chart(_rows(), corpus="<b>toy</b>", default=default, k=90, top=10, window=10,
                       protocol="label-free-top1").to_plotly_json()


def test_one_marker_per_distinct_list_dkw_metrics_peers_and_the_default_apart():
    fig = _chart()
    traces = {t["name"]: t for t in fig["data"]}
    assert list(traces) == ["dkw metrics (latent words)", "peers (own words)", "the default metric: ig",
                            "Fightin' Words' NPMI and exclusivity: above and right of both is better"]
    latent = traces["dkw metrics (latent words)"]
    assert list(latent["x"]) == [-0.3, -0.2] and list(latent["y"]) == [0.30, 0.40]  # idf: no NPMI, not drawn
    assert "<b>rf = tds</b>" in latent["hovertext"][0] and "micro-F1 97.00 %" in latent["hovertext"][0]
    assert traces["the default metric: ig"]["marker"]["symbol"] == "star"
    peers = traces["peers (own words)"]
    assert list(peers["text"]) == ["Fightin' Words (own words)", "c-TF-IDF (own words)"]
    assert list(peers["textposition"]) == ["top center", "bottom center"]  # close together: names apart
    lines = {(s["x0"], s["x1"]) if s["xref"] == "x" else (s["y0"], s["y1"]) for s in fig["layout"]["shapes"]}
    assert lines == {(0.063, 0.063), (0.539, 0.539)}  # Fightin' Words' NPMI and exclusivity, dashed


def test_every_corpus_and_method_text_is_escaped_and_the_setup_is_in_the_title():
    fig = _chart()
    title = fig["layout"]["title"]["text"]
    assert "&lt;b&gt;toy&lt;/b&gt;" in title and "<b>toy</b>" not in title
    assert "K 90" in title and "window 10" in title and "label-free-top1" in title
    every = " ".join(h for t in fig["data"] if "text" in t for h in [*t["hovertext"], *t["text"]])
    assert "&lt;a href='x'&gt;evil&lt;/a&gt;" in every and HOSTILE not in every


def test_a_default_tied_with_another_metric_is_drawn_as_the_default():
    traces = {t["name"]: t for t in _chart(default="tds")["data"]}
    assert "the default metric: rf = tds" in traces
    assert list(traces["dkw metrics (latent words)"]["x"]) == [-0.37, -0.2]


def test_the_table_shows_the_plain_columns_most_exclusive_first():
    table = words_table(_rows())
    assert list(table.columns) == SHOWN == ["method", "words", "NPMI", "absent from test split (%)", "exclusivity",
                                            "micro-F1 (%)", "macro-F1 (%)"]
    assert list(table["method"][:2]) == ["Fightin' Words (own words)", "c-TF-IDF (own words)"]
    assert table["exclusivity"].is_monotonic_decreasing


def _doc_rows() -> pd.DataFrame:
    from dkw_core.evaluation.wordlists import CATEGORY_AXIS, TOPIC_AXIS

    def row(id_, method, words, topic, f1):
        return {"corpus": "toy", "id": id_, "method": method, "words": words, TOPIC_AXIS: topic,
                f"{TOPIC_AXIS} low": topic - 0.01, f"{TOPIC_AXIS} high": topic + 0.02, CATEGORY_AXIS: f1,
                f"{CATEGORY_AXIS} low": f1 - 1, f"{CATEGORY_AXIS} high": f1 + 1}
    return pd.DataFrame([row("lo-own", "lo-own", "latent, K 90", 0.03, 79.0), row("ig", "ig", "latent, K 90", 0.04, 78.4),
                         row("own:fw", "Fightin' Words (own words)", "own words", 0.23, 94.1),
                         row("yake", "YAKE! (extractor)", "extractor", 0.61, 90.2),
                         row("import:x", HOSTILE, "imported", 0.1, 50.0)])


def test_the_topic_category_chart_draws_each_kind_with_its_cis_and_names_the_front():
    from dkw_app.quality_view import topic_category_chart

    fig = topic_category_chart(_doc_rows(), corpus="<b>toy</b>", default="lo-own").to_plotly_json()
    traces = {t["name"].split(" (")[0]: t for t in fig["data"]}
    assert set(traces) == {"dkw metrics", "own words", "extractors", "imported keywords", "the default: lo-own"}
    yake = traces["extractors"]
    assert yake["x"] == [0.61] and yake["y"] == [90.2] and yake["text"] == ["YAKE! (extractor)"]
    assert yake["error_x"]["array"] == pytest.approx([0.02]) and yake["error_x"]["arrayminus"] == pytest.approx([0.01])
    assert yake["error_y"]["array"] == pytest.approx([1.0])
    assert traces["own words"]["text"] == ["Fightin' Words (own words)"]  # on the front: named
    assert traces["dkw metrics"]["text"] == [""]  # ig: beaten on both, not named
    assert traces["the default: lo-own"]["text"] == [""]  # named in the legend, its label overlapping no other
    assert "<a href" not in str(fig) and "<b>toy</b>" not in fig["layout"]["title"]["text"]
