from __future__ import annotations

import json

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from dkw_app import stored_runs
from tests.app.conftest import page
from tests.app.fakes import FakeBackend
from tests.support import vega

ORIGINAL_LOAD_RUNS = stored_runs.load_runs
ORIGINAL_REFERENCE_RUNS = stored_runs.reference_runs
ORIGINAL_REFERENCE_LEAKS = stored_runs.load_reference_leakchecks


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
    return pd.DataFrame(rows, columns=stored_runs.RUN_COLUMNS)


def figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def titled(at: AppTest, words: str) -> dict:
    """The first chart whose title holds ``words``."""
    return next(f for f in figures(at) if words in f["layout"]["title"]["text"])


def by_name(fig: dict) -> dict[str, dict]:
    return {trace.get("name"): trace for trace in fig["data"]}


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first table on the page that has ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first static table (plain column names, values as text) that has ``column``."""
    return next(t.value for t in at.table if column in t.value.columns)


def run_metrics() -> AppTest:
    return AppTest.from_file(page("pages/2_Metrics.py"), default_timeout=30).run()


def open_tab(at: AppTest, name: str) -> AppTest:
    """Click a tab: every tab but the Overview computes and draws only while open."""
    at.session_state["m_tab"] = name
    return at.run()


def make_search_runs() -> pd.DataFrame:
    """Per-metric Algorithm 2 runs (K chosen on training data) beside grid runs whose test F1 is higher."""
    rows = []
    common = {"dataset": "20ng", "split": "test", "vectors": "glove-6b-50d", "classifier": "linear-svm-ovr",
              "protocol": "label-free", "sample": None}
    for metric, micro in (("rf", 50.0), ("tds", 60.0), ("ig", 40.0)):
        for top in (1, 10):
            rows.append({**common, "metric": metric, "k": 30, "top": top, "micro_f1": micro + top,
                         "macro_f1": micro + top - 5, "kind": "search", "options": {"metrics": [metric]}})
            rows.append({**common, "metric": metric, "k": 90, "top": top, "micro_f1": 99.0, "macro_f1": 99.0,
                         "kind": "method", "options": {}})
    rows.append({**common, "metric": "ig", "k": 50, "top": 5, "micro_f1": 45.0, "macro_f1": 40.0, "kind": "search",
                 "options": {"metrics": ["rf", "tds", "ig"]}})
    return pd.DataFrame(rows)


def test_grid_of_fixed_runs_is_labelled_a_grid_never_a_best(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs())
    at = open_tab(run_metrics(), "Per metric")
    assert not at.exception
    assert at.radio(key="m_protocol").value == "label-aware"
    assert at.selectbox(key="m_top").value == 10
    fig = titled(at, "F1 per metric")
    bars = by_name(fig)
    # every stored (metric, K) at N=10, label-aware, in metric and K order: no run picked by its test score
    assert bars["micro-F1"]["x"] == ["ig K=10", "ig K=90", "rf K=10", "rf K=90", "tds K=10", "tds K=90"]
    assert bars["micro-F1"]["y"] == pytest_approx([75, 76, 95, 96, 85, 86])
    assert bars["tf-idf + LinearSVC (classifier) micro-F1"]["y"] == pytest_approx([86, 86])  # never "tf-idf" alone
    title = fig["layout"]["title"]["text"]
    for part in ("label-aware", "N=10", "test", "glove-6b-50d", "linear-svm-ovr", "grid of test scores"):
        assert part in title
    assert "best" not in title.replace("not a best", "")


def test_algorithm2_choice_is_charted_not_the_best_test_score(monkeypatch):
    FakeBackend(monkeypatch, runs=make_search_runs())
    at = open_tab(run_metrics(), "Per metric")
    at.radio(key="m_protocol").set_value("label-free").run()
    assert not at.exception
    fig = titled(at, "F1 per metric")
    bars = by_name(fig)
    assert bars["micro-F1"]["x"] == ["rf", "tds", "ig"]
    assert bars["micro-F1"]["y"] == pytest_approx([60, 70, 50])  # K=30 chosen on training data, not the 99s
    assert "Algorithm 2" in fig["layout"]["title"]["text"]
    choice = table_with(at, "setup chosen")
    open_tab(at, "Against N")
    lines = by_name(titled(at, "vs number of keywords"))
    assert lines["tds"]["x"] == [1, 10] and lines["tds"]["y"] == pytest_approx([61, 70])
    assert list(choice["setup chosen"]) == ["ig K 50 N 5"]
    assert list(choice["parameter choice"]) == ["Algorithm 2 (paper)"]


def test_protocol_and_n_change_the_charts(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs())
    at = open_tab(run_metrics(), "Per metric")
    at.radio(key="m_protocol").set_value("label-free").run()
    at.selectbox(key="m_top").set_value(1).run()
    assert not at.exception
    bars = by_name(titled(at, "F1 per metric"))
    assert bars["micro-F1"]["y"] == pytest_approx([50, 51, 70, 71, 60, 61])
    open_tab(at, "Against N")
    lines = by_name(titled(at, "vs number of keywords"))
    assert lines["rf K=90 micro-F1"]["x"] == [1, 10]
    assert lines["rf K=90 micro-F1"]["y"] == pytest_approx([71, 76])


def test_papers_test_keeps_its_direction_table_and_states_its_power(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs())
    at = open_tab(run_metrics(), "Significance")
    table = table_with(at, "signed z")
    row = table[(table["method A"] == "rf") & (table["method B"] == "tds")].iloc[0]
    assert row["higher"] == "rf" and float(row["signed z"]) > 0
    assert {"sign test p, two-sided (Bonferroni)", "Wilcoxon p (Bonferroni)", "Wilcoxon"} <= set(table.columns)
    assert any("smallest two-sided p" in c.value for c in at.caption)


def make_prediction_runs() -> pd.DataFrame:
    """CV-chosen per-(metric, N) runs with per-document predictions: rf right on 95 of 100
    test documents, tf-idf on 40, ig on 93; tds only at N=10 (a lone point)."""
    from dkw_core.evaluation.paired import encode_labels

    rng = np.random.default_rng(0)
    gold = rng.integers(0, 4, 100)
    rows = []
    for metric, right in (("rf", 95), ("tf-idf", 40), ("ig", 93), ("tds", 80)):
        for top in ((1, 10) if metric != "tds" else (10,)):
            pred = gold.copy()
            wrong = rng.choice(100, 100 - right, replace=False)
            pred[wrong] = (gold[wrong] + 1) % 4
            rows.append({"dataset": "20ng", "split": "test", "vectors": "glove-6b-50d", "classifier": "svm-ovr",
                         "protocol": "label-aware", "sample": None, "metric": metric, "k": 30, "top": top,
                         "micro_f1": float(right), "macro_f1": float(right) - 1, "kind": "search",
                         "options": {"metrics": [metric], "tops": [top], "selection": "cv", "k_choice": "metric"},
                         "predictions": {"split": "s1", "gold": encode_labels(gold), "pred": encode_labels(pred)}})
    return pd.DataFrame(rows)


def test_per_document_significance_and_no_lone_dot_in_any_chart(monkeypatch):
    FakeBackend(monkeypatch, runs=make_prediction_runs())
    at = run_metrics()
    assert not at.exception
    assert at.radio(key="m_selection_20ng").value == "cv"
    for tab in ("Overview", "Against N", "Significance"):
        open_tab(at, tab)
        assert not at.exception
        for fig in figures(at):
            for trace in fig["data"]:
                if (trace.get("type") in ("scatter", None) and "lines" in trace.get("mode", "lines")
                        and "(classifier)" not in str(trace.get("name"))):  # a baseline is a flat line
                    assert len(trace["x"]) >= 2, trace.get("name")  # a line, never a lone dot
    open_tab(at, "Against N")
    lines = by_name(titled(at, "vs number of keywords"))
    assert set(lines) >= {"rf", "ig", "tf-idf (keyword metric)"} and "tds" not in lines
    assert lines["rf"]["error_y"]["array"]  # the bootstrap interval is drawn
    assert "once per metric" in titled(at, "vs number of keywords")["layout"]["title"]["text"]
    assert any("Left out" in c.value and "tds" in c.value for c in at.caption)
    assert "Download this chart's data (CSV)" in {b.label for b in at.get("download_button")}
    open_tab(at, "Significance")
    heat = titled(at, "every pair")["data"][0]
    assert heat["type"] == "heatmap"
    pairs = table_with(at, "only A right")
    rf = pairs[(pairs["method A"] == "rf") & (pairs["method B"] == "tf-idf (keyword metric)")].iloc[0]
    low = float(rf["95 % CI"].strip("[]").split(",")[0])
    assert rf["A − B (points)"] == "+55.00" and low > 40 and float(rf["p (Holm)"]) < 1e-6
    assert "Download the tests (CSV)" in {b.label for b in at.get("download_button")}


def test_first_visit_decodes_no_prediction_and_hashes_every_cached_table(monkeypatch):
    """The page used to bootstrap and compare every stored prediction on each first visit (every tab
    ran), and Streamlit could not hash the runs table's dict cells (it logged a warning and pickled
    the table). Now the predictions are decoded only once a tab that needs them is open."""
    from streamlit.runtime.caching import hashing

    from dkw_core.evaluation import comparisons

    decoded: list[str] = []
    real_decode = comparisons.decode_labels
    monkeypatch.setattr(comparisons, "decode_labels", lambda text: decoded.append(text) or real_decode(text))
    warned: list[str] = []
    monkeypatch.setattr(hashing._LOGGER, "warning", lambda msg, *a, **k: warned.append(str(msg)))
    FakeBackend(monkeypatch, runs=make_prediction_runs())
    at = run_metrics()
    assert not at.exception and decoded == []  # the first visit: no prediction decoded
    open_tab(at, "Per metric")
    assert titled(at, "F1 per metric") and decoded == []  # nor for the bars
    open_tab(at, "Significance")
    assert titled(at, "every pair") and decoded  # the tab that needs them decodes them
    open_tab(at, "Against N")
    assert titled(at, "vs number of keywords")
    assert not [w for w in warned if "default hashing method failed" in w]


def test_reference_results_shown_first_and_never_mixed_with_your_runs(monkeypatch):
    reference = make_search_runs()
    reference["source"] = "reference results of dkw 9.9.9"
    mine = make_runs()
    mine["stale"] = False
    old = mine.iloc[:1].copy()
    old["stale"], old["dkw_version"], old["label"] = True, "0.0.1", "an old run"
    leaks = pd.DataFrame([{"dataset": "20ng", "metric": "rf", "k": 90, "top": 10, "follow_wrong_label_aware": 88.0,
                           "follow_wrong_label_free": 5.5, "chance": 5.0, "source": "reference results of dkw 9.9.9"}])
    FakeBackend(monkeypatch, runs=pd.concat([mine, old], ignore_index=True), reference=reference, leaks=leaks)
    at = open_tab(run_metrics(), "Per metric")
    assert not at.exception
    source = at.radio(key="m_source")
    assert source.value == "reference results of dkw 9.9.9" and len(source.options) == 2
    at.radio(key="m_protocol").set_value("label-free").run()
    assert by_name(titled(at, "F1 per metric"))["micro-F1"]["y"] == pytest_approx([60, 70, 50])
    open_tab(at, "Leak check")
    assert list(table_with(at, "follows the wrong label, label-aware (%)")["follows the wrong label, label-aware (%)"]) \
        == ["88.00"]
    assert any("1 stale run" in e.label for e in at.expander)
    open_tab(at, "Per metric")
    source.set_value("your runs (results store)").run()
    assert not at.exception
    ys = by_name(titled(at, "F1 per metric"))["micro-F1"]["y"]
    assert 60 not in ys and len(ys) == 6  # your grid only; the stale run is not charted twice
    assert sum(1 for y in ys if y == pytest_approx(76)) == 1


def test_leak_check_panel_runs_through_the_backend(monkeypatch):
    fake = FakeBackend(monkeypatch, runs=make_runs())
    at = open_tab(run_metrics(), "Leak check")
    at.number_input(key="m_leak_k").set_value(10)
    submit = [b for b in at.button if b.label == "Run the leak check"][0]
    submit.click().run()
    assert not at.exception
    assert fake.leak_calls and fake.leak_calls[-1]["k"] == 10
    shown = {m.label: m.value for m in at.metric}
    assert shown["follow the wrong label, label-aware"] == "91.50 %"
    assert shown["chance"] == "5.00 %"
    assert any(t.value == "20ng <b>leak</b> check" for t in at.text)  # untrusted label rendered as text


def test_empty_store_and_no_corpus_do_not_fail(monkeypatch):
    FakeBackend(monkeypatch)  # no runs
    at = open_tab(run_metrics(), "Per metric")
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
    # the real stored_runs.load_runs (variant labels from options) over a store read that is faked
    monkeypatch.setattr(stored_runs, "load_runs", ORIGINAL_LOAD_RUNS)
    stored = pd.concat([runs, hyp], ignore_index=True)
    monkeypatch.setattr(results, "load_runs", lambda url=None, dataset=None, **_: stored)
    at = open_tab(run_metrics(), "Per metric")
    at.radio(key="m_protocol").set_value("label-free").run()
    assert at.selectbox(key="m_variant").value == "standard"
    assert 99.0 not in by_name(titled(at, "F1 per metric"))["micro-F1"]["y"]
    at.selectbox(key="m_variant").set_value("decoding hypotheses").run()
    assert not at.exception
    assert by_name(titled(at, "F1 per metric"))["micro-F1"]["y"] == pytest_approx([99] * 6)


def test_the_shipped_reference_results_render_from_the_first_start(monkeypatch):
    from dkw_core.evaluation.reference import reference_files

    FakeBackend(monkeypatch)  # an empty results store
    monkeypatch.setattr(stored_runs, "reference_runs", ORIGINAL_REFERENCE_RUNS)
    monkeypatch.setattr(stored_runs, "load_reference_leakchecks", ORIGINAL_REFERENCE_LEAKS)
    at = run_metrics()
    assert not at.exception
    if not reference_files():
        return  # a checkout without docs/results
    assert at.radio(key="m_source").value.startswith("reference results of dkw ")
    (overview,) = vega.specs(at)  # Vega-Lite: the first chart
    assert "chosen on the training split" in overview["title"]["text"] and overview["data"]["values"]
    assert "parameter choice" in table_with(at, "setup chosen").columns


def test_hubness_section_measures_the_chosen_neighbours(monkeypatch):
    fake = FakeBackend(monkeypatch, runs=make_runs())
    at = open_tab(run_metrics(), "Hubness")
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


def test_hubness_of_the_reference_results_shows_without_a_prepared_corpus(monkeypatch):
    reference = make_search_runs()
    reference["source"] = "reference results of dkw 9.9.9"
    hubs = pd.DataFrame([{"dataset": "20ng", "vectors": "glove-6b-50d", "neighbours": "cosine", "k": 90,
                          "queries": 1000, "vocabulary": 500, "skewness": 7.25, "top1_share": 0.2, "never_share": 0.3,
                          "hubs": [{"word": "<i>also</i>", "k_occurrence": 9, "query_share": 0.5}],
                          "source": "reference results of dkw 9.9.9"}])
    FakeBackend(monkeypatch, prepared=False, reference=reference, hubness=hubs)
    at = open_tab(run_metrics(), "Hubness")
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["k-occurrence skewness"] == "7.25" and values["Words nobody's neighbour"] == "30.0 %"
    assert list(frame_with(at, "k-occurrence")["word"]) == ["<i>also</i>"]  # a word is shown as text
    assert not any("not prepared with cosine neighbours" in i.value for i in at.info)


def test_hubness_section_explains_an_unprepared_corpus(monkeypatch):
    FakeBackend(monkeypatch, runs=make_runs(), prepared=False)
    at = open_tab(run_metrics(), "Hubness")
    assert not at.exception
    assert any("not prepared with cosine neighbours" in i.value for i in at.info)


def test_metrics_page_refuses_to_evaluate_a_one_category_corpus(monkeypatch, tmp_path):
    from streamlit.testing.v1 import AppTest

    from dkw_core.corpora import Corpus, Document
    from tests.app.fakes import FakeBackend, FakeModel

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    fake = FakeBackend(monkeypatch)
    fake.corpus = Corpus("20ng", [Document("20ng/train/a/1", "team game", "a", "train"),
                                  Document("20ng/test/a/2", "coach league", "a", "test")])
    monkeypatch.setattr(FakeModel, "categories", property(lambda self: self.corpus.categories), raising=False)
    at = open_tab(AppTest.from_file(page("pages/2_Metrics.py"), default_timeout=60).run(), "Your runs")
    assert not at.exception
    next(b for b in at.button if b.label == "Run evaluation").click().run()
    assert not at.exception
    assert any("needs at least two" in e.value for e in at.error) and not at.success
    assert not (tmp_path / "results.sqlite").exists()
    assert fake.prepare_calls == 0  # refused before any preparation


def test_overview_charts_the_seed_0_choice_and_tables_the_seed_stability(monkeypatch):
    rows = []
    common = {"dataset": "20ng", "split": "test", "vectors": "glove-6b-50d", "classifier": "svm-ovr",
              "protocol": "label-free-top1", "sample": None, "kind": "search"}
    for seed, (metric, k, top, micro) in enumerate((("ig", 90, 20, 85.1), ("ig", 70, 20, 84.5), ("rf", 90, 5, 83.0))):
        for selection in ("cv", "algorithm2"):
            options = {"metrics": ["rf", "ig", "tds"], "tops": [1, 5, 20], "seed": seed}
            if selection == "cv":
                options.update(selection="cv", folds=3, max_per_category=50)
            rows.append({**common, "metric": metric, "k": k, "top": top, "micro_f1": micro - (selection != "cv"),
                         "macro_f1": micro - 2, "options": options})
    FakeBackend(monkeypatch, runs=pd.DataFrame(rows))
    at = run_metrics()
    assert not at.exception
    picks = table_with(at, "setup chosen")
    assert list(picks["setup chosen"]) == ["ig K 90 N 20"] * 2  # the chart shows the seed-0 choice per selection
    table = table_with(at, "setups chosen (times)")
    cv = table[table["parameter choice"].str.contains("cross-validation")].iloc[0]
    assert cv["seeds"] == "0, 1, 2" and cv["mean micro-F1 (%)"] == f"{(85.1 + 84.5 + 83.0) / 3:.2f}"
    assert cv["setups chosen (times)"].startswith("ig K 90 N 20 (1)")
    assert cv["parameter choice"] == "3-fold cross-validation on at most 50 training documents per category"
    assert "Download the seed stability (CSV)" in {b.label for b in at.get("download_button")}


def test_significance_names_the_best_metric_and_plots_every_difference_against_it_and_the_baseline(monkeypatch):
    """A pairs table holding the tf-idf + LinearSVC classifier (``baseline-tfidf``, as h4's
    reference results will): a forest plot with one panel against the best metric and one against
    the classifier, each panel's table in plain words, the heatmap beside them."""
    from tests.app.test_charts import PAIRS

    FakeBackend(monkeypatch, runs=make_prediction_runs())
    full = PAIRS.assign(higher="", p_mcnemar=PAIRS["p_holm"], k_a=30, k_b=30, documents=100, resamples=2000, seed=0,
                        pairs=len(PAIRS))
    monkeypatch.setattr(stored_runs, "per_document", lambda *a, **k: full)
    at = open_tab(run_metrics(), "Significance")
    assert not at.exception
    assert any(m.value.startswith("**Highest micro-F1 on the test split at N=10: ig, 85.10 %**") for m in at.markdown)
    forest = titled(at, "difference with 95 % CI")
    panels = [a["text"] for a in forest["layout"]["annotations"]]
    assert panels == ["vs ig (highest test F1)", "vs tf-idf + LinearSVC (classifier)"]
    assert all(t["error_x"]["array"] for t in forest["data"])
    vs_base = table_with(at, "− tf-idf + LinearSVC (classifier) (points)")
    assert list(vs_base["method"]) == ["ig", "rf"] and list(vs_base["p (Holm)"]) == ["0.004", "< 1e-300"]
    assert titled(at, "every pair")["data"][0]["type"] == "heatmap"


def test_against_n_highlights_the_chosen_metric(monkeypatch):
    FakeBackend(monkeypatch, runs=make_prediction_runs())
    at = open_tab(run_metrics(), "Against N")
    at.selectbox(key="m_highlight").set_value("ig").run()
    assert not at.exception
    lines = by_name(titled(at, "vs number of keywords"))
    assert lines["ig"]["line"]["width"] > lines["rf"]["line"]["width"] and lines["rf"]["opacity"] < 0.5
    styles = [(t["line"]["color"], t["line"]["dash"]) for t in lines.values()]
    assert len(set(styles)) == len(styles)


def test_significance_hands_the_classifier_baseline_to_the_per_document_comparison(monkeypatch):
    """The tf-idf + LinearSVC run carries no protocol ("none"): the runs of one protocol alone
    would leave it out of McNemar, bootstrap and Holm."""
    runs = make_prediction_runs()
    base = runs.iloc[0].copy()
    base["kind"], base["protocol"], base["metric"], base["options"] = "baseline-tfidf", "none", "tf-idf-sublinear", {}
    FakeBackend(monkeypatch, runs=pd.concat([runs, base.to_frame().T], ignore_index=True))
    seen = []
    real = stored_runs.per_document
    monkeypatch.setattr(stored_runs, "per_document", lambda frame, **kw: seen.append(frame) or real(frame, **kw))
    at = open_tab(run_metrics(), "Significance")
    assert not at.exception and seen
    assert "baseline-tfidf" in set(seen[-1]["kind"])
