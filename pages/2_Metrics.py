"""Metrics: F1 per metric (paper Figs. 2–7), F1 against the number of
keywords (Figs. 8–10), baselines as reference lines, pairwise significance (appendix D),
all from the results store; every chart downloadable as CSV."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import backend, charts, resources, tables, widgets
from dkw_core.errors import DkwError

st.set_page_config(page_title="dkw — metrics", page_icon="📊", layout="wide")
st.title("Metrics: F1 of the keyword method")
st.caption("Document vector = normalised sum of the top-N keyword vectors (paper §3.6); F1 in percent "
           "on the split each run names (test unless stated).")
sample = widgets.sample_note()

runs = widgets.guarded(resources.runs)
if runs is None:
    runs = pd.DataFrame(columns=backend.RUN_COLUMNS)

datasets = sorted({str(d) for d in runs["dataset"].dropna()})
infos = widgets.guarded(resources.dataset_infos, default=[]) or []
known = [str(i["name"]) for i in infos if i.get("available")]
choices = datasets + [d for d in known if d not in datasets]
if not choices:
    st.info("The results store holds no run and no corpus is available.")
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

method = here[(here["kind"] == "method") & (here["protocol"] == protocol)]
base = tables.baselines(here, dataset=dataset, protocol=protocol, classifier=classifier)

# ------------------------------------------------------------------ bars per metric
st.header("F1 per metric")
tops = sorted({int(t) for t in method["top"].dropna()})
if not tops:
    st.info(f"No stored run of the method on {dataset} ({chosen}) under the {protocol} protocol.")
else:
    top = widgets.select("N — number of keywords", tops, key="m_top", default=10)
    bars = tables.metric_bars(here, dataset=dataset, protocol=protocol, top=top, classifier=classifier)
    st.plotly_chart(charts.metric_bar_chart(bars, base, dataset=dataset, protocol=protocol, top=top),
                    key="chart_bars")
    widgets.csv_download(pd.concat([bars, base], ignore_index=True), label="Download this chart's data (CSV)",
                         file_name=f"f1-per-metric-{dataset}-{protocol}-N{top}.csv", key="csv_bars")

# ------------------------------------------------------------------ lines against N
st.header("F1 against the number of keywords")
lines = tables.f1_by_keywords(here, dataset=dataset, protocol=protocol, classifier=classifier)
if lines.empty:
    st.info(f"No stored run of the method on {dataset} ({chosen}) under the {protocol} protocol.")
else:
    st.plotly_chart(charts.keywords_line_chart(lines, base, dataset=dataset, protocol=protocol),
                    key="chart_lines")
    widgets.csv_download(pd.concat([lines, base], ignore_index=True), label="Download this chart's data (CSV)",
                         file_name=f"f1-vs-N-{dataset}-{protocol}.csv", key="csv_lines")

# ------------------------------------------------------------------ significance
st.header("Pairwise significance of metrics")
st.caption("Wilcoxon signed-rank test of micro-F1 over configurations run with both metrics "
           "(same corpus, protocol, K, N, classifier, split, vectors, slice), Bonferroni-corrected.")
square = widgets.guarded(lambda: resources.significance(method[backend.RUN_COLUMNS], dataset, protocol))
if square is None or square.empty:
    st.info("Not enough paired runs (two metrics or more) for a significance table yet.")
else:
    st.plotly_chart(charts.significance_heatmap(square, dataset=dataset, protocol=protocol),
                    key="chart_significance")
    widgets.csv_download(square.reset_index(), label="Download the p-values (CSV)",
                         file_name=f"significance-{dataset}-{protocol}.csv", key="csv_significance")

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
available = dataset in known
with st.form("run_eval"):
    names = widgets.guarded(backend.paper_metric_names, default=[]) or []
    metrics = st.multiselect("Metrics", names, default=[m for m in ("rf", "tds", "ig") if m in names],
                             key="m_run_metrics")
    k = st.number_input("K — nearest words per phrase", 1, backend.DEFAULT_K_MAX, backend.DEFAULT_K_MAX,
                        key="m_run_k")
    n = st.number_input("N — keywords per document", 1, 100, 10, key="m_run_top")
    st.caption(f"Corpus {dataset} ({tables.sample_label(sample)}), protocol {protocol}, "
               f"{backend.classifier_label('svm-ovr')}, trained on the train split, scored on the test split.")
    submitted = st.form_submit_button("Run evaluation", disabled=not available)
if not available:
    st.caption(f"Needs the {dataset} archive: set DKW_ARCHIVES to the folder holding it.")
elif submitted:
    bar = st.progress(0.0, text="Preparing the corpus…")
    try:
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
