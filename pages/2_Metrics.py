"""Metrics: F1 per metric (paper Figs. 2–7), F1 against the number of keywords (Figs. 8–10),
Algorithm 2's choice, baselines as reference lines, pairwise significance with its direction
(appendix D) and the leak check — from the shipped reference results or the user's own runs
(never mixed; runs of another dkw version listed apart as stale); every chart downloadable as
CSV. Nothing here is chosen by a test score: K comes from Algorithm 2 on the training split,
and fixed runs are shown as a grid, titled as such."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import charts, corpora_models, keywords_door, resources, stored_runs, study_ui, tables, widgets
from dkw_app.untrusted import md
from dkw_core.errors import DkwError
from dkw_core.evaluation import comparisons, leakcheck
from dkw_core.evaluation.classifiers import check_evaluable
from dkw_core.evaluation.keyword_methods import information_note
from dkw_core.evaluation.names import TFIDF_CLASSIFIER, method_name
from dkw_core.evaluation.protocols import STANDARD, dkw_version
from dkw_core.evaluation.results import current_runs
from dkw_core.metrics import PAPER_METRICS
from dkw_core.neighbours import DEFAULT_NEIGHBOURS, NEIGHBOURS_CHOICES
from dkw_core.types import DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP, PROTOCOLS

st.set_page_config(page_title="dkw — metrics", page_icon=":material/bar_chart:", layout="wide")
study_ui.require_mode_access("metrics")  # DKW_MODE=study: organisers only
st.title("Metrics: F1 of the keyword method")
st.caption("Document vector = normalised sum of the top-N keyword vectors (paper §3.6); F1 in percent "
           "on the split each run names (test unless stated).")
sample = widgets.sample_note()
widgets.preparation_jobs()  # a preparation running on the server: progress, time left, Cancel

YOURS = "your runs (results store)"
user_runs = widgets.guarded(resources.runs, default=pd.DataFrame(columns=stored_runs.RUN_COLUMNS))
current, stale = current_runs(user_runs)
ref = widgets.guarded(resources.reference, default=pd.DataFrame(columns=stored_runs.RUN_COLUMNS))
sources = [str(s) for s in pd.unique(ref["source"].dropna())] if "source" in ref.columns else []
source = st.radio("Results", [*sources, YOURS], key="m_source", horizontal=True,
                  help="The reference results ship with dkw (docs/results); your runs are those of the results "
                       "store computed by this dkw version. The two are never mixed in a chart.")
if source == YOURS:
    runs = current
    st.caption(f"Runs of dkw {dkw_version()} in your results store.")
else:
    runs = ref[ref["source"] == source]
    when = ", ".join(sorted({str(d)[:10] for d in runs.get("date", pd.Series(dtype=str)).dropna()}))
    st.caption(f"{md(source)}, computed {when or '?'} by `scripts/bench_eval.py` (commands in each file of "
               "docs/results and in BENCHMARKS.md).")
if len(stale):
    with st.expander(f"{len(stale)} stale run(s) of another dkw version — not charted"):
        st.caption(f"Stored by another dkw version (this is {dkw_version()}); the method may have changed "
                   "since. Re-run the same configuration (the form below, or the same CLI command) to compute it "
                   "with this version.")
        plain = {"dkw_version": "dkw version", "label": "run", "micro_f1": "micro-F1 (%)", "macro_f1": "macro-F1 (%)"}
        cols = [c for c in plain if c in stale.columns]
        st.dataframe(stale[cols].rename(columns=plain), hide_index=True)

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
    variant = widgets.select("Variant", variants, key="m_variant", default=STANDARD,
                             help="Non-default evaluation options; variants are never mixed in a chart.")
    here = here[here["variant"] == variant]
with c3:
    protocol = st.radio("Protocol", PROTOCOLS, key="m_protocol", horizontal=True)
    st.caption(keywords_door.PROTOCOL_HELP[protocol])
classifiers = sorted({str(c) for c in here["classifier"].dropna()})
with c4:
    classifier = (widgets.select("Classifier", classifiers, key="m_classifier",
                                 format_func=stored_runs.classifier_label) if classifiers else None)

present = tables.selections(here)
if present:
    selection = st.radio("Parameter choice", present, key=f"m_selection_{dataset}", horizontal=True,
                         format_func=lambda s: tables.SELECTION_LABELS.get(s, s),
                         help="How K (and, over all setups, the metric and N) was chosen on the training split: "
                              "the robust CV selection, or the paper's Algorithm 2. Never by a test score.")
else:
    selection = None
here = tables.with_selection(here, selection)
proto_runs = here[here["protocol"] == protocol]
base = tables.baselines(here, dataset=dataset, protocol=protocol, classifier=classifier)
chosen_lines = tables.f1_by_keywords(proto_runs, dataset=dataset, protocol=protocol, classifier=classifier)
grid_lines = tables.f1_grid_by_keywords(proto_runs, dataset=dataset, protocol=protocol, classifier=classifier)
how_chosen = (f"K chosen by {tables.SELECTION_LABELS[selection]}" if selection else "fixed runs")
PNG = "PNG: the camera button at the chart's top right."
widgets.verdict_block(here, dataset=dataset, protocol=protocol, selection=selection, classifier=classifier)


def evaluable_model(bar):
    """The prepared model of the chosen corpus (progress in ``bar``), refused first, before any
    preparation, when its categories cannot be evaluated."""
    check_evaluable(resources.corpus(dataset, sample).categories, dataset)
    return resources.model(dataset, sample, DEFAULT_K, progress=widgets.progress_callback(bar))


# Lazy tabs: every tab but the Overview computes and draws only while it is open. The bootstrap
# intervals and the per-document tests (which decode every run's stored predictions) run only
# when asked for, and the browser draws one tab's elements, not eight (a hidden tab's chart and
# tables were drawn too: BENCHMARKS.md, "Every page's first open").
(t_overview, t_metric, t_n, t_sig, t_leak, t_hub, t_yours, t_words) = st.tabs(
    ["Overview", "Per metric", "Against N", "Significance", "Leak check", "Hubness", "Your runs", "Words"],
    key="m_tab", on_change="rerun")

# ------------------------------------------------------------------ overview
with t_overview:
    st.caption("The setup each parameter choice picked over all (K, metric, N) setups on the training split, "
               "trained on the whole training split and scored once on the test split, per protocol, against "
               f"the {method_name(TFIDF_CLASSIFIER)} on the full text. 95 % percentile bootstrap "
               "intervals over the test documents (1,000 resamples, seed 0).")
    everything = tables.for_sample(runs[runs["dataset"] == dataset], chosen)  # both selections
    picks = comparisons.choices(everything, dataset=dataset, classifier=classifier)
    stability = comparisons.seed_stability(picks)
    headline = widgets.guarded(lambda: resources.overview(everything, dataset, classifier))
    if headline is None or headline.empty:
        st.info("No run chose over all setups on this corpus yet "
                "(`python scripts/bench_eval.py --dataset … --cv --full-search`).")
    else:
        st.vega_lite_chart(charts.choice_chart(headline, dataset=dataset), width="stretch", key="chart_choice")
        widgets.plain_table(tables.overview_table(headline))
        widgets.csv_download(headline, label="Download this chart's data (CSV)", file_name=f"choice-{dataset}.csv",
                             key="csv_choice")
        st.caption("PNG: the download button in the chart's toolbar (top right, on hover).")
    if not stability.empty:
        st.markdown("**Seed stability**")
        st.caption("The same choice repeated with other seeds (Algorithm 2's seed draws its growing subsamples "
                   "and folds, the CV's its subsample and folds): the chosen setup's test micro-F1, mean and "
                   "sample sd over the seeds, and how often each setup was chosen.")
        st.markdown(md(tables.stability_verdict(stability)))
        widgets.plain_table(tables.stability_table(stability))
        widgets.csv_download(stability, label="Download the seed stability (CSV)",
                             file_name=f"seed-stability-{dataset}.csv", key="csv_stability")

# ------------------------------------------------------------------ bars per metric
with t_metric:
    if t_metric.open:
        st.caption(f"micro- and macro-F1 of every metric at one N (paper Figs. 2–7) under the {protocol} protocol; "
                   f"{how_chosen}. Baselines as lines.")
        tops = sorted({int(t) for t in pd.concat([chosen_lines["top"], grid_lines["top"]]).dropna()})
        if not tops:
            st.info(f"No stored run of the method on {md(dataset)} ({chosen}) under the {protocol} protocol.")
        else:
            top = widgets.select("N — number of keywords", tops, key="m_top", default=10)
            bars = tables.metric_bars(proto_runs, dataset=dataset, protocol=protocol, top=top, classifier=classifier)
            grid = bars.empty
            if grid:
                bars = tables.metric_grid(proto_runs, dataset=dataset, protocol=protocol, top=top, classifier=classifier)
                st.caption(f"No run with K chosen on the training split at N={top}: the chart shows the {tables.GRID}.")
            bar_how = (f"K chosen per metric on the training split by {tables.SELECTION_LABELS[selection]}; metric and "
                       "N fixed" if selection == "cv" else None)
            widgets.chart(charts.metric_bar_chart(bars, base, dataset=dataset, protocol=protocol, top=top, grid=grid,
                                                  how=bar_how),
                          key="chart_bars", file_name=f"f1-per-metric-{dataset}-{protocol}-N{top}")
            widgets.csv_download(pd.concat([bars, base], ignore_index=True), label="Download this chart's data (CSV)",
                                 file_name=f"f1-per-metric-{dataset}-{protocol}-N{top}.csv", key="csv_bars")
            st.caption(PNG)

# ------------------------------------------------------------------ lines against N
with t_n:
    if t_n.open:
        curves = widgets.guarded(lambda: resources.curves(proto_runs, dataset, protocol, selection or "cv", classifier),
                                 default=pd.DataFrame())
        if not curves.empty:
            k_choice = ", ".join(sorted({str(v) for v in curves["k_choice"]}))
            how = f"{charts.K_CHOICE_TEXT.get(k_choice, k_choice)} by {tables.SELECTION_LABELS.get(selection, selection)}"
            curves = curves.assign(series=curves["metric"])
            shown, lone = tables.connected(curves)
            drawn = [str(m) for m in dict.fromkeys(shown["metric"])] if not shown.empty else []
            highlight = widgets.select("Highlight a metric", ["none", *drawn], key="m_highlight", default="none",
                                       format_func=lambda m: m if m == "none" else method_name(m),
                                       help="Draws one metric bold and the others faint.") if drawn else "none"
            st.caption(f"micro-F1 against the number of keywords N (paper Figs. 8–10), one line per metric, under the "
                       f"{protocol} protocol; {how}. Error bars: 95 % percentile bootstrap interval over the test "
                       "documents (1,000 resamples, seed 0).")
            if shown.empty:
                st.info("Every metric has a single N here: no line to draw (" + ", ".join(lone) + ").")
            else:
                widgets.chart(charts.curve_chart(shown, base, dataset=dataset, protocol=protocol, how=how,
                                                 highlight=None if highlight == "none" else highlight), key="chart_lines",
                              file_name=f"f1-vs-N-{dataset}-{protocol}")
                widgets.csv_download(shown, label="Download this chart's data (CSV)",
                                     file_name=f"f1-vs-N-{dataset}-{protocol}.csv", key="csv_lines")
                st.caption(PNG + (f" Left out (a single N, no line): {', '.join(lone)}." if lone else ""))
        else:
            lines, lone = tables.connected(grid_lines)
            if lines.empty:
                st.info(f"No metric of {md(dataset)} ({chosen}) has runs at two N or more under the {protocol} protocol.")
            else:
                st.caption(f"No F1-against-N runs with K chosen on the training split: the {tables.GRID}.")
                widgets.chart(charts.keywords_line_chart(lines, base, dataset=dataset, protocol=protocol, grid=True),
                              key="chart_lines", file_name=f"f1-vs-N-{dataset}-{protocol}")
                widgets.csv_download(pd.concat([lines, base], ignore_index=True), label="Download this chart's data (CSV)",
                                     file_name=f"f1-vs-N-{dataset}-{protocol}.csv", key="csv_lines")
                st.caption(PNG)

# ------------------------------------------------------------------ significance
with t_sig:
    if t_sig.open:
        st.caption("Which metric is better, and by how much: every pair of metrics at one N compared document by "
                   "document on the same test split — McNemar's exact test on the documents only one of the two "
                   "classifies correctly, the micro-F1 difference with its 95 % paired bootstrap interval (2,000 "
                   f"resamples, seed 0), p Holm-corrected over all pairs. K each metric's own, {how_chosen}.")
        sig_tops = sorted({int(t) for t in chosen_lines["top"].dropna()}) if not chosen_lines.empty else []
        if not sig_tops:
            st.info("No per-metric runs with stored test predictions here: nothing to compare per document.")
        else:
            s_top = widgets.select("N — number of keywords", sig_tops, key="m_sig_top", default=10)
            pairs = widgets.guarded(lambda: resources.per_document(here, dataset, protocol, int(s_top),  # baselines too
                                                                   selection or "cv"))
            if pairs is None or pairs.empty:
                st.info("Fewer than two metrics with stored per-document predictions at this N.")
            else:
                unequal = information_note(protocol, [*{*pairs["metric_a"], *pairs["metric_b"]}])
                if unequal:
                    st.warning(md(unequal))
                best = comparisons.best_method(pairs)
                tied = [m for m in comparisons.tied_best(pairs) if m != best]
                panels = [(f"vs {best} (highest test F1)", comparisons.against(pairs, best))] if best else []
                if TFIDF_CLASSIFIER in {*pairs["metric_a"], *pairs["metric_b"]}:
                    panels.append((f"vs {method_name(TFIDF_CLASSIFIER)}",
                                   comparisons.against(pairs, TFIDF_CLASSIFIER)))
                if best:
                    f1 = panels[0][1]["f1_reference"].iloc[0]
                    st.markdown(f"**Highest micro-F1 on the test split at N={s_top}: {md(method_name(best))}, "
                                f"{f1:.2f} %**"
                                + (f" (tied with {md(', '.join(tied))}: the same number of correct documents)"
                                   if tied else "")
                                + ". A description of the test split, not a choice: the setup chosen on the training "
                                  "split is the verdict's, above.")
                widgets.chart(charts.forest_chart(panels, dataset=dataset, protocol=protocol, top=int(s_top)),
                              key="chart_forest", file_name=f"differences-{dataset}-{protocol}-N{s_top}")
                for title, table in panels:
                    st.markdown(f"**{md(title)}**")
                    widgets.plain_table(tables.against_table(table))
                widgets.chart(charts.difference_heatmap(pairs, dataset=dataset, protocol=protocol, top=int(s_top)),
                              key="chart_significance", file_name=f"significance-{dataset}-{protocol}-N{s_top}")
                with st.expander(f"Every pair ({len(pairs)}): difference, CI, discordant documents, p"):
                    widgets.plain_table(tables.pairs_table(pairs))  # wraps: long method names never cut
                widgets.csv_download(pairs, label="Download the tests (CSV)",
                                     file_name=f"significance-{dataset}-{protocol}-N{s_top}.csv", key="csv_significance")
                st.caption(PNG)
        with st.expander("The paper's test (appendix D): Wilcoxon signed-rank and sign test over configurations"):
            long = widgets.guarded(lambda: comparisons.appendix_d(proto_runs, dataset=dataset, protocol=protocol))
            if long is None or long.empty:
                st.info("Not enough paired configurations for the paper's test.")
            else:
                st.caption("The paper's appendix-D comparison, kept as the paper's: micro-F1 of the two metrics paired "
                           "over configurations (here the N values) as correct-document counts, Wilcoxon signed-rank "
                           "(method per pair: exact "
                           "without ties among |differences| and n ≤ 50, else normal approximation; zeros dropped) and "
                           "the sign test, Bonferroni-corrected. " + comparisons.appendix_d_power(long))
                widgets.plain_table(tables.appendix_d_table(long))
                widgets.csv_download(long, label="Download the paper's tests (CSV)",
                                     file_name=f"appendix-d-{dataset}-{protocol}.csv", key="csv_appendix_d")

# ------------------------------------------------------------------ leak check
with t_leak:
    if t_leak.open:
        st.caption("Every test document gets a random wrong category; under the label-aware (paper's) protocol its "
                   "keywords are ranked with it. A representation that ignores the injected label still lands on it "
                   "about (100 − accuracy) / (C − 1) % of the time: **no leak means a share near that expected "
                   "level**, not near chance (100 / C). Percent of the test documents; K and N as each row states.")
        leaks = widgets.guarded(resources.reference_leaks)
        if leaks is not None and not leaks.empty:
            mine = leaks[leaks["dataset"] == dataset]
            if not mine.empty:
                shown = leakcheck.plain_table(mine)  # plain column names, the deployable protocol checked, a verdict
                widgets.plain_table(tables.as_text(shown.drop(columns=["corpus"], errors="ignore")))  # one corpus: wraps
                widgets.csv_download(shown, label="Download the leak checks (CSV)",
                                     file_name=f"leakcheck-{dataset}.csv", key="csv_leaks")
        available = dataset in known
        with st.form("leak_form"):
            names = list(PAPER_METRICS)
            l_metric = st.selectbox("Metric", names,
                                    index=names.index(DEFAULT_METRIC) if DEFAULT_METRIC in names else 0,
                                    key="m_leak_metric")
            l_k = st.number_input("K — nearest words per phrase", 1, DEFAULT_K, DEFAULT_K,
                                  key="m_leak_k")
            l_n = st.number_input("N — keywords per document", 1, 100, DEFAULT_TOP, key="m_leak_top")
            leak_submitted = st.form_submit_button("Run the leak check", disabled=not available)
        if not available:
            st.caption(f"Needs the {md(dataset)} archive: set DKW_ARCHIVES to the folder holding it.")
        elif leak_submitted:
            bar = st.progress(0.0, text="Preparing the corpus…")
            try:
                model = evaluable_model(bar)
                bar.progress(0.9, text="Classifying with wrong labels…")
                result = stored_runs.leak_check(model, dataset=dataset, sample=sample, metric=l_metric, k=int(l_k),
                                            top=int(l_n))
            except DkwError as exc:
                widgets.show_error(exc)
            else:
                bar.progress(1.0, text="Done")
                st.session_state["m_leak_result"] = result
        if st.session_state.get("m_leak_result"):
            r = st.session_state["m_leak_result"]
            st.text(r["label"])
            m1, m2, m3, m4 = st.columns(4)
            m1.metric("follow the wrong label, label-aware", f"{r['follow_wrong_label_aware']:.2f} %")
            m2.metric("follow the wrong label, label-free", f"{r['follow_wrong_label_free']:.2f} %")
            if r.get("expected_no_leak") is not None:
                m3.metric("expected without a leak", f"{r['expected_no_leak']:.2f} %")
            m4.metric("chance", f"{r['chance']:.2f} %")

# ------------------------------------------------------------------ hubness of step 3
with t_hub:
    if t_hub.open:
        st.caption("k-occurrence of a word = how many unique phrase vectors of the corpus have it among their K "
                   "nearest words. A strongly right-skewed distribution means a few hub words are neighbours of "
                   "almost every phrase and swamp the tf- metrics. Measured on the prepared corpus; K as chosen here.")
        h1, h2 = st.columns(2)
        with h1:
            h_neighbours = widgets.select("Nearest words (step 3)", list(NEIGHBOURS_CHOICES),
                                          key="m_hub_neighbours", default=DEFAULT_NEIGHBOURS,
                                          format_func=lambda s: f"{s} — {corpora_models.NEIGHBOURS_HELP.get(s, s)}")
        with h2:
            h_k = st.number_input("K", 1, DEFAULT_K, DEFAULT_K, key="m_hub_k")
        prepared = dataset in known and widgets.guarded(
            lambda: resources.is_prepared(dataset, sample, DEFAULT_K, h_neighbours), default=False)
        # the reference results' hubness (cosine, K 90), shown without a prepared corpus
        reference_shown = source != YOURS and not sample and h_neighbours == "cosine" and widgets.hubness_reference(dataset)
        if not prepared and not reference_shown:
            st.info(f"{md(dataset)} is not prepared with {md(h_neighbours)} neighbours: "
                    + md("prepare it on the Documents page or with python -m dkw_core prepare --dataset")
                    + f" {md(dataset)} " + md(f"--neighbours {h_neighbours}"))
        elif prepared and st.button("Measure hubness", key="m_hub_run"):
            try:
                hub_model = resources.model(dataset, sample, DEFAULT_K, neighbours=h_neighbours)
                st.session_state["m_hub_report"] = corpora_models.hubness(hub_model, k=int(h_k))
            except DkwError as exc:
                widgets.show_error(exc)
        report = st.session_state.get("m_hub_report")
        if prepared and report and report.get("neighbours") == h_neighbours and report.get("k") == int(h_k):
            hubs = widgets.hubness_figures(report, lead=md(report["dataset"]))
            widgets.csv_download(hubs, label="Download the hubs (CSV)", file_name=f"hubs-{dataset}.csv", key="csv_hubs")

# ------------------------------------------------------------------ run a missing evaluation
with t_yours:
    if t_yours.open:
        st.caption("Run a fixed (K, N) evaluation per metric on this corpus and store it in your results store "
                   "(switch *Results* above to your runs to chart it). A fixed (K, N) run is a grid point, not a "
                   "choice; the parameter choices run from the command line (`scripts/bench_eval.py --cv`).")
        available = dataset in known
        with st.form("run_eval"):
            names = list(PAPER_METRICS)
            metrics = st.multiselect("Metrics", names, default=[m for m in ("rf", "tds", "ig") if m in names],
                                     key="m_run_metrics")
            k = st.number_input("K — nearest words per phrase", 1, DEFAULT_K, DEFAULT_K,
                                key="m_run_k")
            n = st.number_input("N — keywords per document", 1, 100, 10, key="m_run_top")
            st.caption(f"Corpus {md(dataset)} ({tables.sample_label(sample)}), protocol {protocol}, "
                       f"{stored_runs.classifier_label('svm-ovr')}, trained on the train split, scored on the test split.")
            submitted = st.form_submit_button("Run evaluation", disabled=not available)
        if not available:
            info = next((i for i in infos if i.get("name") == dataset), None)
            if info is not None:
                widgets.missing_corpus(info)
            else:
                st.caption(f"{md(dataset)} is not a corpus the library can open here.")
        elif submitted:
            bar = st.progress(0.0, text="Preparing the corpus…")
            try:
                stored_runs.run_evaluation(evaluable_model(bar), dataset=dataset, sample=sample, protocol=protocol,
                                           metrics=metrics, k=int(k), top=int(n), progress=widgets.progress_callback(bar))
            except DkwError as exc:
                widgets.show_error(exc)
            else:
                resources.runs.clear()
                st.success("Evaluation stored.")
                st.rerun()

# ------------------------------------------------------------------ category words: coherence, exclusivity
with t_words:
    if t_words.open:
        from dkw_app import quality_view  # here, not above: the page's header is being reworked apart

        quality_view.show_words(dataset)
