"""dkw_app/charts.py: the Metrics page's figures a reader must trust at a glance."""
from __future__ import annotations

import pandas as pd

from dkw_app import charts
from dkw_core.metrics import PAPER_METRICS

R8 = pd.DataFrame([  # the reference Overview of R8 (the baseline 97.58 sits inside the label-free-top1 CIs)
    {"protocol": "label-aware", "reads_labels": True, "selection": "algorithm2", "metric": "ig", "k": 30, "top": 50,
     "micro_f1": 99.27, "ci_low": 98.90, "ci_high": 99.59, "baseline_f1": 97.58, "diff": 1.69, "diff_low": 1.32,
     "diff_high": 2.01},
    {"protocol": "label-aware", "reads_labels": True, "selection": "cv", "metric": "ig", "k": 50, "top": 10,
     "micro_f1": 99.68, "ci_low": 99.41, "ci_high": 99.91, "baseline_f1": 97.58, "diff": 2.10, "diff_low": 1.83,
     "diff_high": 2.33},
    {"protocol": "label-free-top1", "reads_labels": False, "selection": "algorithm2", "metric": "tf-ig", "k": 10,
     "top": 20, "micro_f1": 96.89, "ci_low": 96.16, "ci_high": 97.58, "baseline_f1": 97.58, "diff": -0.69,
     "diff_low": -1.42, "diff_high": 0.0},
    {"protocol": "label-free-top1", "reads_labels": False, "selection": "cv", "metric": "ig", "k": 50, "top": 10,
     "micro_f1": 97.17, "ci_low": 96.44, "ci_high": 97.81, "baseline_f1": 97.58, "diff": -0.41, "diff_low": -1.14,
     "diff_high": 0.23},
])


def _layers(spec: dict, mark: str) -> list[dict]:
    return [layer for layer in spec["layer"] if (layer["mark"]["type"] if isinstance(layer["mark"], dict)
                                                  else layer["mark"]) == mark]


def _rows(spec: dict) -> list[dict]:
    return spec["data"]["values"]


def test_overview_is_a_valid_vega_lite_spec_with_and_without_a_baseline():
    """The Overview's chart is Vega-Lite (the page's first chart: BENCHMARKS.md); a spec the schema
    of the Vega-Lite Streamlit bundles refuses would draw nothing."""
    import jsonschema
    from altair.vegalite.v6.schema import load_schema

    schema = load_schema()
    for table in (R8, R8.assign(baseline_f1=float("nan")), R8.iloc[:0]):
        jsonschema.validate(charts.choice_chart(table, dataset="r8"), schema)


def test_overview_draws_the_difference_to_the_baseline_with_its_interval_and_names_the_selections():
    spec = charts.choice_chart(R8, dataset="r8")
    (bars,) = _layers(spec, "bar")
    colour = bars["encoding"]["color"]["scale"]
    assert colour["domain"] == ["Algorithm 2 (paper)", "cross-validation on the training split"]  # no raw code
    assert bars["encoding"]["x"]["field"] == "x"
    cv = [r for r in _rows(spec) if r["selection"].startswith("cross")]
    assert [r["x"] for r in cv] == [2.10, -0.41]  # the difference to the baseline, not F1 on a 0–100 axis
    assert [(r["low"], r["high"]) for r in cv] == [(1.83, 2.33), (-1.14, 0.23)]
    (errors,) = _layers(spec, "errorbar")
    assert (errors["encoding"]["x"]["field"], errors["encoding"]["x2"]["field"]) == ("low", "high")
    title = bars["encoding"]["x"]["title"]
    assert "86.23" not in title and "97.58" in title and "tf-idf + LinearSVC" in title
    assert "scale" not in bars["encoding"]["x"]  # never pinned to 0–100
    subtitle = " ".join(spec["title"]["subtitle"])
    assert "not stored" in subtitle  # R8 has no paired Δ interval: said so
    assert "paired bootstrap" in " ".join(charts.choice_chart(R8.assign(paired=True), dataset="r8")["title"]["subtitle"])
    assert spec["encoding"]["y"]["type"] == "nominal" and spec["encoding"]["y"]["sort"] == [r["row"] for r in _rows(spec)]


def test_overview_marks_the_protocol_that_reads_the_gold_label():
    spec = charts.choice_chart(R8, dataset="r8")
    for row in _rows(spec):
        reads = row["row"].startswith("label-aware")
        assert ("reads the gold label" in row["row"]) == reads
        assert (row["gold"] == charts.GOLD) == reads
    (bars,) = _layers(spec, "bar")
    opacity = bars["encoding"]["opacity"]
    assert opacity["field"] == "gold" and opacity["scale"] == {"domain": [charts.DEPLOYABLE, charts.GOLD],
                                                               "range": [1.0, 0.4]}  # pale
    assert f"pale: {charts.GOLD}" in spec["title"]["subtitle"]  # the pale bar explained


def test_overview_values_stand_outside_the_plot_where_the_baseline_line_cannot_cross_them():
    spec = charts.choice_chart(R8, dataset="r8")
    texts = _layers(spec, "text")
    assert len(texts) == 2 and all(t["encoding"]["x"] == {"value": "width"} and t["mark"]["align"] == "left"
                                   and t["mark"]["dx"] > 0 for t in texts)  # right of the plot
    rows = _rows(spec)
    assert (rows[3]["f1_text"], rows[3]["delta_text"]) == ("F1 97.17 [96.44, 97.81]", "Δ -0.41 [-1.14, +0.23]")
    assert rows[2]["delta_text"] == "Δ -0.69 [-1.42, 0]"  # a zero bound reads 0
    (rule,) = _layers(spec, "rule")
    assert rule["encoding"]["x"] == {"datum": 0}  # the baseline: the zero line inside the plot


def test_overview_without_a_baseline_shows_the_f1_with_its_interval_on_an_axis_of_the_values():
    spec = charts.choice_chart(R8.assign(baseline_f1=float("nan")), dataset="r8")
    (dots,) = _layers(spec, "point")
    assert dots["encoding"]["x"]["scale"] == {"zero": False} and dots["encoding"]["shape"]["field"] == "gold"
    assert sorted(r["x"] for r in _rows(spec)) == [96.89, 97.17, 99.27, 99.68]
    assert all(r["low"] < r["x"] < r["high"] for r in _rows(spec))
    assert not _layers(spec, "rule") and len(_layers(spec, "text")) == 1  # no baseline, no Δ


def test_a_hostile_dataset_name_goes_into_the_overview_as_plain_text():
    """Vega draws titles as text and its tooltip escapes HTML: nothing escaped here (it would show)."""
    spec = charts.choice_chart(R8, dataset="<b>r8</b>")
    assert spec["title"]["subtitle"][0].startswith("<b>r8</b> · ")


def _curves(names):
    rows = [{"metric": m, "top": n, "k": 90, "micro_f1": 80.0 + i + n / 100, "ci_low": 79.0 + i, "ci_high": 81.0 + i,
             "dataset": "20ng", "protocol": "label-aware", "split": "test", "vectors": "v", "classifier": "svm-ovr"}
            for i, m in enumerate(names) for n in (1, 10)]
    return pd.DataFrame(rows)


def test_against_n_never_gives_two_methods_the_same_colour_and_dash():
    names = [*PAPER_METRICS, "yake", "textrank"]  # 13 metrics and two extractors
    fig = charts.curve_chart(_curves(names), dataset="20ng", protocol="label-aware", how="K chosen")
    lines = [t for t in fig.data if "(classifier)" not in t.name]
    assert len(lines) == len(names)
    styles = [(t.line.color, t.line.dash) for t in lines]
    assert None not in {c for c, _ in styles} and len(set(styles)) == len(styles)
    by = {t.name: t for t in lines}
    assert by["rf"].line.color == by["tf-rf"].line.color and by["rf"].line.dash != by["tf-rf"].line.dash
    assert by["tf-idf (keyword metric)"].line.dash == "dash"  # tf-idf is the tf- variant of idf


def test_against_n_highlights_one_metric():
    fig = charts.curve_chart(_curves(["rf", "ig", "tds"]), dataset="20ng", protocol="label-aware", how="K chosen",
                             highlight="ig")
    by = {t.name: t for t in fig.data}
    assert by["ig"].line.width > by["rf"].line.width and by["ig"].opacity == 1 and by["rf"].opacity < 0.5


PAIRS = pd.DataFrame([
    {"metric_a": "ig", "metric_b": "rf", "f1_a": 85.10, "f1_b": 84.75, "diff": 0.35, "ci_low": 0.07,
     "ci_high": 0.62, "p_holm": 0.31, "significant": False, "only_a_right": 60, "only_b_right": 34},
    {"metric_a": "ig", "metric_b": "baseline-tfidf", "f1_a": 85.10, "f1_b": 86.23, "diff": -1.13, "ci_low": -1.9,
     "ci_high": -0.3, "p_holm": 0.004, "significant": True, "only_a_right": 180, "only_b_right": 265},
    {"metric_a": "rf", "metric_b": "baseline-tfidf", "f1_a": 84.75, "f1_b": 86.23, "diff": -1.48, "ci_low": -2.2,
     "ci_high": -0.7, "p_holm": 0.0, "significant": True, "only_a_right": 150, "only_b_right": 261},
])


def test_forest_plot_shows_each_difference_with_its_interval_against_the_best_and_the_baseline():
    from dkw_core.evaluation.comparisons import against

    fig = charts.forest_chart([("vs ig (best metric)", against(PAIRS, "ig")),
                               ("vs tf-idf + LinearSVC (classifier)", against(PAIRS, "baseline-tfidf"))],
                              dataset="20ng", protocol="label-free-top1", top=10)
    assert [a.text for a in fig.layout.annotations][:2] == ["vs ig (best metric)", "vs tf-idf + LinearSVC (classifier)"]
    points = {(t.xaxis, y): (x, hi, lo, t.marker.symbol) for t in fig.data
              for y, x, hi, lo in zip(t.y, t.x, t.error_x.array, t.error_x.arrayminus)}
    x, hi, lo, symbol = points[("x", "tf-idf + LinearSVC (classifier)")]  # the baseline − ig
    assert (x, round(x + hi, 2), round(x - lo, 2), symbol) == (1.13, 1.9, 0.3, "circle")  # significant: filled
    x, hi, lo, symbol = points[("x2", "rf")]
    assert (x, round(x + hi, 2), round(x - lo, 2), symbol) == (-1.48, -0.7, -2.2, "circle")
    assert points[("x", "rf")][3] == "circle-open"  # not significant after Holm
    hover = {(t.xaxis, y): h for t in fig.data for y, h in zip(t.y, t.customdata)}
    assert hover[("x2", "rf")].endswith("p (Holm) < 1e-300")  # the one p format
    assert list(fig.layout.yaxis.categoryarray) == ["tf-idf + LinearSVC (classifier)", "ig", "rf"]  # by F1


def test_heatmap_reads_a_tie_as_0_and_an_underflowed_p_as_below_1e_300():
    pairs = pd.DataFrame([
        {"metric_a": "rf", "metric_b": "tds", "f1_a": 98.35, "f1_b": 98.35, "diff": -0.0, "ci_low": -0.0,
         "ci_high": 0.0, "p_holm": 1.0},
        {"metric_a": "tf-idf", "metric_b": "rf", "f1_a": 38.3, "f1_b": 98.35, "diff": -60.04, "ci_low": -61.1,
         "ci_high": -58.9, "p_holm": 0.0},
    ])
    fig = charts.difference_heatmap(pairs, dataset="20ng", protocol="label-aware", top=10)
    heat = fig.data[0]
    assert "tf-idf (keyword metric)" in heat.x  # never a bare "tf-idf"
    texts = {t for row in heat.text for t in row}
    assert "0" in texts and not {"-0.0", "+0.0", "-0"} & texts
    hovers = " ".join(h for row in heat.customdata for h in row)
    assert "p (Holm) < 1e-300" in hovers and "0.00e+0" not in hovers and "-0.00" not in hovers
