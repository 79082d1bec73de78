"""Metrics: F1 per metric (paper Figs. 2–7), F1 against the number of keywords (Figs. 8–10),
Algorithm 2's choice, baselines as reference lines, pairwise significance with its direction
(appendix D) and the leak check — from the shipped reference results or the user's own runs
(never mixed; runs of another dkw version listed apart as stale); every chart downloadable as
CSV. Nothing here is chosen by a test score: K comes from Algorithm 2 on the training split,
and fixed runs are shown as a grid, titled as such."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import backend, charts, resources, study_ui, tables, widgets
from dkw_core.errors import DkwError

st.set_page_config(page_title="dkw — metrics", page_icon=":material/bar_chart:", layout="wide")
study_ui.require_mode_access("metrics")  # DKW_MODE=study: organisers only
st.title("Metrics: F1 of the keyword method")
st.caption("Document vector = normalised sum of the top-N keyword vectors (paper §3.6); F1 in percent "
           "on the split each run names (test unless stated).")
sample = widgets.sample_note()

YOURS = "your runs (results store)"
user_runs = widgets.guarded(resources.runs)
if user_runs is None:
    user_runs = pd.DataFrame(columns=backend.RUN_COLUMNS)
current, stale = backend.split_stale(user_runs)
ref = widgets.guarded(resources.reference)
if ref is None:
    ref = pd.DataFrame(columns=backend.RUN_COLUMNS)
sources = [str(s) for s in pd.unique(ref["source"].dropna())] if "source" in ref.columns else []
source = st.radio("Results", [*sources, YOURS], key="m_source", horizontal=True,
                  help="The reference results ship with dkw (docs/results); your runs are those of the results "
                       "store computed by this dkw version. The two are never mixed in a chart.")
if source == YOURS:
    runs = current
    st.caption(f"Runs of dkw {backend.dkw_version()} in your results store.")
else:
    runs = ref[ref["source"] == source]
    when = ", ".join(sorted({str(d)[:10] for d in runs.get("date", pd.Series(dtype=str)).dropna()}))
    st.caption(f"{source}, computed {when or '?'} by `scripts/bench_eval.py` (commands in each file of "
               "docs/results and in BENCHMARKS.md).")
if len(stale):
    with st.expander(f"{len(stale)} stale run(s) of another dkw version — not charted"):
        st.caption(f"Stored by another dkw version (this is {backend.dkw_version()}); the method may have changed "
                   "since. Re-run the same configuration (the form below, or the same CLI command) to compute it "
                   "with this version.")
        cols = [c for c in ("dkw_version", "label", "micro_f1", "macro_f1") if c in stale.columns]
        st.dataframe(stale[cols], hide_index=True)

datasets = sorted({str(d) for d in runs["dataset"].dropna()})
infos = widgets.guarded(resources.dataset_infos, default=[]) or []
known = [str(i["name"]) for i in infos if i.get("available")]
choices = datasets + [d for d in known if d not in datasets]
if not choices:
    st.info("The results store holds no run and no corpus is available yet: download one here.")
    for info in infos:
        widgets.missing_corpus(info)
    st.stop()

c1, c2, c3, c4 = st.columns(4)
with c1:
    dataset = widgets.select("Corpus", choices, key="m_dataset")
here = runs[runs["dataset"] == dataset]
slices = tables.sample_options(here)
with c2:
    chosen = widgets.select("Documents", slices or [tables.sample_label(sample)], key="m_sample",
                            default=tables.sample_label(sample),
                            help="Runs on a slice (first n documents per category and split) are "
                                 "never mixed with full-corpus runs.")
here = tables.for_sample(here, chosen)
variants = sorted({str(v) for v in here.get("variant", pd.Series(dtype=str)).dropna()})
if len(variants) > 1:
    variant = widgets.select("Variant", variants, key="m_variant", default=backend.STANDARD,
                             help="Non-default evaluation options; variants are never mixed in a chart.")
    here = here[here["variant"] == variant]
with c3:
    protocol = st.radio("Protocol", backend.PROTOCOLS, key="m_protocol", horizontal=True)
    st.caption(backend.PROTOCOL_HELP[protocol])
classifiers = sorted({str(c) for c in here["classifier"].dropna()})
with c4:
    classifier = (widgets.select("Classifier", classifiers, key="m_classifier",
                                 format_func=backend.classifier_label) if classifiers else None)

proto_runs = here[here["protocol"] == protocol]
base = tables.baselines(here, dataset=dataset, protocol=protocol, classifier=classifier)
chosen_lines = tables.f1_by_keywords(proto_runs, dataset=dataset, protocol=protocol, classifier=classifier)
grid_lines = tables.f1_grid_by_keywords(proto_runs, dataset=dataset, protocol=protocol, classifier=classifier)

# ------------------------------------------------------------------ bars per metric
st.header("F1 per metric")
tops = sorted({int(t) for t in pd.concat([chosen_lines["top"], grid_lines["top"]]).dropna()})
if not tops:
    st.info(f"No stored run of the method on {dataset} ({chosen}) under the {protocol} protocol.")
else:
    top = widgets.select("N — number of keywords", tops, key="m_top", default=10)
    bars = tables.metric_bars(proto_runs, dataset=dataset, protocol=protocol, top=top, classifier=classifier)
    grid = bars.empty
    if grid:
        bars = tables.metric_grid(proto_runs, dataset=dataset, protocol=protocol, top=top, classifier=classifier)
        st.caption(f"No run with K chosen by Algorithm 2 at N={top}: the chart shows the {tables.GRID}.")
    else:
        st.caption(f"{tables.CHOSEN_K}.")
    st.plotly_chart(charts.metric_bar_chart(bars, base, dataset=dataset, protocol=protocol, top=top, grid=grid),
                    key="chart_bars")
    widgets.csv_download(pd.concat([bars, base], ignore_index=True), label="Download this chart's data (CSV)",
                         file_name=f"f1-per-metric-{dataset}-{protocol}-N{top}.csv", key="csv_bars")

# ------------------------------------------------------------------ lines against N
st.header("F1 against the number of keywords")
lines, grid = (chosen_lines, False) if not chosen_lines.empty else (grid_lines, True)
if lines.empty:
    st.info(f"No stored run of the method on {dataset} ({chosen}) under the {protocol} protocol.")
else:
    st.plotly_chart(charts.keywords_line_chart(lines, base, dataset=dataset, protocol=protocol, grid=grid),
                    key="chart_lines")
    widgets.csv_download(pd.concat([lines, base], ignore_index=True), label="Download this chart's data (CSV)",
                         file_name=f"f1-vs-N-{dataset}-{protocol}.csv", key="csv_lines")

# ------------------------------------------------------------------ Algorithm 2's choice
st.header("Algorithm 2's choice over all setups")
choice = tables.algorithm2_choices(here, dataset=dataset, classifier=classifier)
if choice.empty:
    st.info("No run of Algorithm 2 over all (K, metric, N) setups for this corpus yet "
            "(`python -m dkw_core search --dataset … --protocol both`).")
else:
    st.caption("The setup Algorithm 2 chose on the training split, trained on the whole training split and "
               "scored once on the test split (F1 in percent).")
    st.dataframe(choice, hide_index=True, key="table_choice")

# ------------------------------------------------------------------ significance
st.header("Pairwise significance of metrics")
st.caption("Wilcoxon signed-rank test of micro-F1 over configurations run with both metrics (K each metric's "
           "own from Algorithm 2, paired over N; or the grid paired over K and N), Bonferroni-corrected. "
           "The table gives the direction: which metric is higher, the signed z (positive: metric A higher) "
           "and the sign test's one-sided p (direction read from the data, as in the paper) beside the "
           "two-sided p.")
long = widgets.guarded(lambda: backend.significance_long(proto_runs, dataset=dataset, protocol=protocol))
if long is None or long.empty:
    st.info("Not enough paired runs (two metrics or more) for a significance table yet.")
else:
    square = backend.square_significance(long)
    st.plotly_chart(charts.significance_heatmap(square, dataset=dataset, protocol=protocol),
                    key="chart_significance")
    shown = long[["metric_a", "metric_b", "n", "higher", "mean_diff", "z_signed", "p_wilcoxon_bonferroni",
                  "M", "p_sign_bonferroni", "p_sign_two_sided_bonferroni", "significant"]]
    st.dataframe(shown, hide_index=True, key="table_significance")
    widgets.csv_download(long, label="Download the tests (CSV)",
                         file_name=f"significance-{dataset}-{protocol}.csv", key="csv_significance")

# ------------------------------------------------------------------ leak check
st.header("Leak check")
st.caption("Every test document gets a random wrong category. Under the label-aware (paper's) protocol its "
           "keywords are ranked with that wrong category; the share of predictions that then follow the wrong "
           "label shows how much of the label-aware F1 is the label read back. The label-free protocol reads no "
           "label; chance = 100 / categories. Percent of the test documents.")
leaks = widgets.guarded(resources.reference_leaks)
if leaks is not None and not leaks.empty:
    mine = leaks[leaks["dataset"] == dataset]
    if not mine.empty:
        cols = [c for c in ("dataset", "metric", "k", "top", "follow_wrong_label_aware", "follow_wrong_label_free",
                            "chance", "gold_label_aware", "gold_label_free", "source") if c in mine.columns]
        st.dataframe(mine[cols], hide_index=True, key="table_leaks_reference")
available = dataset in known
with st.form("leak_form"):
    names = widgets.guarded(backend.paper_metric_names, default=[]) or []
    l_metric = st.selectbox("Metric", names, index=names.index("rf") if "rf" in names else 0, key="m_leak_metric")
    l_k = st.number_input("K — nearest words per phrase", 1, backend.DEFAULT_K_MAX, backend.DEFAULT_K_MAX,
                          key="m_leak_k")
    l_n = st.number_input("N — keywords per document", 1, 100, 10, key="m_leak_top")
    leak_submitted = st.form_submit_button("Run the leak check", disabled=not available)
if not available:
    st.caption(f"Needs the {dataset} archive: set DKW_ARCHIVES to the folder holding it.")
elif leak_submitted:
    bar = st.progress(0.0, text="Preparing the corpus…")
    try:
        model = resources.model(dataset, sample, backend.DEFAULT_K_MAX, progress=widgets.progress_callback(bar))
        bar.progress(0.9, text="Classifying with wrong labels…")
        result = backend.leak_check(model, dataset=dataset, sample=sample, metric=l_metric, k=int(l_k),
                                    top=int(l_n))
    except DkwError as exc:
        widgets.show_error(exc)
    else:
        bar.progress(1.0, text="Done")
        st.session_state["m_leak_result"] = result
if st.session_state.get("m_leak_result"):
    r = st.session_state["m_leak_result"]
    st.text(r["label"])
    m1, m2, m3 = st.columns(3)
    m1.metric("follow the wrong label, label-aware", f"{r['follow_wrong_label_aware']:.2f} %")
    m2.metric("follow the wrong label, label-free", f"{r['follow_wrong_label_free']:.2f} %")
    m3.metric("chance", f"{r['chance']:.2f} %")

# ------------------------------------------------------------------ hubness of step 3
st.header("Hubness of the nearest words")
st.caption("k-occurrence of a word = how many unique phrase vectors of the corpus have it among their K "
           "nearest words. A strongly right-skewed distribution means a few hub words are neighbours of "
           "almost every phrase and swamp the tf- metrics.")
h1, h2 = st.columns(2)
with h1:
    h_neighbours = widgets.select("Nearest words (step 3)", list(backend.NEIGHBOURS_CHOICES), key="m_hub_neighbours",
                                  default=backend.DEFAULT_NEIGHBOURS,
                                  format_func=lambda s: f"{s} — {backend.NEIGHBOURS_HELP.get(s, s)}")
with h2:
    h_k = st.number_input("K", 1, backend.DEFAULT_K_MAX, backend.DEFAULT_K_MAX, key="m_hub_k")
prepared = dataset in known and widgets.guarded(
    lambda: resources.is_prepared(dataset, sample, backend.DEFAULT_K_MAX, h_neighbours), default=False)
if not prepared:
    st.info(f"{dataset} is not prepared with {h_neighbours} neighbours: prepare it on the Documents page or "
            f"with `python -m dkw_core prepare --dataset {dataset} --neighbours {h_neighbours}`.")
elif st.button("Measure hubness", key="m_hub_run"):
    try:
        hub_model = resources.model(dataset, sample, backend.DEFAULT_K_MAX, neighbours=h_neighbours)
        st.session_state["m_hub_report"] = backend.hubness(hub_model, k=int(h_k))
    except DkwError as exc:
        widgets.show_error(exc)
report = st.session_state.get("m_hub_report")
if prepared and report and report.get("neighbours") == h_neighbours and report.get("k") == int(h_k):
    m1, m2, m3 = st.columns(3)
    m1.metric("k-occurrence skewness", f"{report['skewness']:.2f}")
    m2.metric("Neighbour slots held by the top 1 % of words", f"{100 * report['top1_share']:.1f} %")
    m3.metric("Words nobody's neighbour", f"{100 * report['never_share']:.1f} %")
    st.caption(f"{report['dataset']} · vectors {report['vectors']} · nearest words by {report['neighbours']} · "
               f"K={report['k']} · {report['queries']:,} unique phrase vectors · {report['vocabulary']:,} words")
    st.dataframe(pd.DataFrame([{"word": h["word"], "k-occurrence": h["k_occurrence"],
                                "share of phrase vectors (%)": round(100 * h["query_share"], 1)}
                               for h in report["hubs"]]), hide_index=True)

# ------------------------------------------------------------------ run a missing evaluation
st.header("Run a missing evaluation")
with st.form("run_eval"):
    names = widgets.guarded(backend.paper_metric_names, default=[]) or []
    metrics = st.multiselect("Metrics", names, default=[m for m in ("rf", "tds", "ig") if m in names],
                             key="m_run_metrics")
    k = st.number_input("K — nearest words per phrase", 1, backend.DEFAULT_K_MAX, backend.DEFAULT_K_MAX,
                        key="m_run_k")
    n = st.number_input("N — keywords per document", 1, 100, 10, key="m_run_top")
    st.caption(f"Corpus {dataset} ({tables.sample_label(sample)}), protocol {protocol}, "
               f"{backend.classifier_label('svm-ovr')}, trained on the train split, scored on the test split. "
               "A fixed (K, N) run is a grid point of your runs, not a choice.")
    submitted = st.form_submit_button("Run evaluation", disabled=not available)
if not available:
    info = next((i for i in infos if i.get("name") == dataset), None)
    if info is not None:
        widgets.missing_corpus(info)
    else:
        st.caption(f"{dataset} is not a corpus the library can open here.")
elif submitted:
    bar = st.progress(0.0, text="Preparing the corpus…")
    try:
        backend.check_evaluable(resources.corpus(dataset, sample).categories, dataset)  # before any preparation
        model = resources.model(dataset, sample, backend.DEFAULT_K_MAX,
                                progress=widgets.progress_callback(bar))
        backend.run_evaluation(model, dataset=dataset, sample=sample, protocol=protocol, metrics=metrics,
                               k=int(k), top=int(n), progress=widgets.progress_callback(bar))
    except DkwError as exc:
        widgets.show_error(exc)
    else:
        resources.runs.clear()
        st.success("Evaluation stored.")
        st.rerun()
