from __future__ import annotations

import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from dkw_app import backend
from tests.app.conftest import page
from tests.app.fakes import FakeBackend

ORIGINAL_LOAD_RUNS = backend.load_runs


def make_runs() -> pd.DataFrame:
    rows = []
    common = {"dataset": "20ng", "split": "test", "vectors": "glove-6b-50d", "classifier": "linear-svm-ovr"}
    for protocol, shift in (("label-aware", 0.0), ("label-free", -0.2)):
        for metric, micro in (("rf", 0.9), ("tds", 0.8), ("ig", 0.7)):
            for top in (1, 10):
                for k in (10, 90):
                    value = micro + shift + (0.05 if top == 10 else 0.0) + (0.01 if k == 90 else 0.0)
                    rows.append({**common, "protocol": protocol, "metric": metric, "k": k, "top": top,
                                 "micro_f1": value, "macro_f1": value - 0.1, "kind": "method"})
    rows.append({**common, "protocol": None, "metric": None, "k": None, "top": None,
                 "micro_f1": 0.86, "macro_f1": 0.85, "kind": "baseline-tfidf"})
    for row in rows:  # the store gives F1 in percent
        row["micro_f1"], row["macro_f1"] = 100 * row["micro_f1"], 100 * row["macro_f1"]
    return pd.DataFrame(rows, columns=backend.RUN_COLUMNS)


def figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def by_name(fig: dict) -> dict[str, dict]:
    return {trace.get("name"): trace for trace in fig["data"]}


def run_metrics() -> AppTest:
    return AppTest.from_file(page("pages/2_Metrics.py"), default_timeout=30).run()


def test_bar_chart_series_and_baseline(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs())
    at = run_metrics()
    assert not at.exception
    assert at.radio(key="m_protocol").value == "label-aware"
    assert at.selectbox(key="m_top").value == 10
    bars = by_name(figures(at)[0])
    # best K (90) of each metric at N=10, label-aware: micro = base + 0.05 + 0.01
    assert bars["micro-F1"]["x"] == ["rf", "tds", "ig"]
    assert bars["micro-F1"]["y"] == pytest_approx([96, 86, 76])
    assert bars["macro-F1"]["y"] == pytest_approx([86, 76, 66])
    assert bars["baseline-tfidf micro-F1"]["y"] == pytest_approx([86, 86])
    title = figures(at)[0]["layout"]["title"]["text"]
    for part in ("label-aware", "N=10", "test", "glove-6b-50d", "linear-svm-ovr"):
        assert part in title


def test_protocol_and_n_change_the_charts(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs())
    at = run_metrics()
    at.radio(key="m_protocol").set_value("label-free").run()
    at.selectbox(key="m_top").set_value(1).run()
    assert not at.exception
    bars = by_name(figures(at)[0])
    assert bars["micro-F1"]["y"] == pytest_approx([71, 61, 51])
    lines = by_name(figures(at)[1])
    assert lines["micro-F1"]["x"] == [1, 10]
    assert lines["micro-F1"]["y"] == pytest_approx([71, 76])


def test_heatmap_and_csv_downloads(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs())
    at = run_metrics()
    heat = figures(at)[2]["data"][0]
    assert heat["type"] == "heatmap"
    assert heat["x"] == ["ig", "rf", "tds"]
    # symmetric: rf vs tds = 0.01 both ways
    z = heat["z"]
    assert z[1][2] == z[2][1] == 0.01
    downloads = at.get("download_button")
    assert len(downloads) == 3


def test_empty_store_and_no_corpus_do_not_fail(monkeypatch):
    FakeBackend(monkeypatch)  # no runs
    at = run_metrics()
    assert not at.exception
    assert not figures(at)[:2] or all(f["data"][0]["type"] == "heatmap" for f in figures(at))
    assert any("No stored run" in i.value for i in at.info)


def pytest_approx(values):
    import pytest

    return pytest.approx(values)


def test_variants_are_charted_apart(monkeypatch):
    import dkw_core.evaluation.results as results

    runs = make_runs()
    runs["options"] = [{}] * len(runs)
    hyp = runs[(runs["kind"] == "method") & (runs["protocol"] == "label-free")].copy()
    hyp["options"] = [{"decoding": "hypotheses"}] * len(hyp)
    hyp["micro_f1"] = 99.0
    FakeBackend(monkeypatch)
    # the real backend.load_runs (variant labels from options) over a store read that is faked
    monkeypatch.setattr(backend, "load_runs", ORIGINAL_LOAD_RUNS)
    stored = pd.concat([runs, hyp], ignore_index=True)
    monkeypatch.setattr(results, "load_runs", lambda url=None, dataset=None, **_: stored)
    at = run_metrics()
    at.radio(key="m_protocol").set_value("label-free").run()
    assert at.selectbox(key="m_variant").value == "standard"
    assert 99.0 not in by_name(figures(at)[0])["micro-F1"]["y"]
    at.selectbox(key="m_variant").set_value("decoding hypotheses").run()
    assert not at.exception
    assert by_name(figures(at)[0])["micro-F1"]["y"] == pytest_approx([99, 99, 99])


def test_hubness_section_measures_the_chosen_neighbours(monkeypatch):
    fake = FakeBackend(monkeypatch, runs=make_runs())
    at = run_metrics()
    assert not at.exception
    assert at.selectbox(key="m_hub_neighbours").value == "cosine"
    at.selectbox(key="m_hub_neighbours").set_value("abtt-d3").run()
    at.button(key="m_hub_run").click().run()
    assert not at.exception
    assert fake.prepared_neighbours[-1] == "abtt-d3"
    values = {m.label: m.value for m in at.metric}
    assert values["k-occurrence skewness"] == "4.25"
    assert values["Neighbour slots held by the top 1 % of words"] == "12.3 %"
    hubs = at.dataframe[-1].value
    assert list(hubs["word"]) == ["same", "making", "<b>only</b>"]  # a word is shown as text
    assert any("nearest words by abtt-d3" in c.value for c in at.caption)


def test_hubness_section_explains_an_unprepared_corpus(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs(), prepared=False)
    at = run_metrics()
    assert not at.exception
    assert any("not prepared with cosine neighbours" in i.value for i in at.info)
