"""Markdown tables of the stored evaluation runs (``python -m dkw_core report``).

Per dataset: the baselines; every metric at each N under both protocols (K from Algorithm 2
where the run was a per-metric search); Algorithm 2 over all setups; then the significance
of micro-F1 differences between metrics (paper appendix D). Every number names its
protocol, split, vectors, K, N, metric and classifier (columns or the table caption).
"""
from __future__ import annotations

import pandas as pd

from .classifiers import CLASSIFIER_LABELS
from .comparisons import _options, format_difference, format_p, per_document, significance_table
from .names import BOW_KEYWORDS, TFIDF_CLASSIFIER, method_name
from .protocols import STANDARD, run_variant

#: Columns holding a difference between two metrics.
DIFFERENCES = ("mean_diff", "diff", "ci_low", "ci_high")


def _fmt(x: float) -> str:
    if pd.isna(x):
        return ""
    return f"{x:.2e}" if 0 < abs(x) < 0.01 else f"{x:.2f}"


def _table(frame: pd.DataFrame, columns: list[str], headers: list[str] | None = None) -> str:
    headers = headers or columns
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
    for _, row in frame.iterrows():
        cells = []
        for c in columns:
            v = row[c]
            if isinstance(v, float) and c.startswith("p_"):
                cells.append(format_p(v))
            elif isinstance(v, float) and c in DIFFERENCES and not pd.isna(v):
                cells.append(format_difference(v, ".2f"))  # an exact tie reads 0, never -0.00
            else:
                cells.append(_fmt(v) if isinstance(v, float) else ("" if v is None else str(v)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _variant(row) -> str:
    """The run's variant (:func:`~dkw_core.evaluation.protocols.run_variant`), empty when standard;
    the neighbours spec is named with the vectors."""
    variant = run_variant(row.get("options"), neighbours=False)
    return "" if variant == STANDARD else variant


def metric_table(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (metric, N, classifier): K, micro and macro F1 per protocol.

    Uses per-metric search runs (K chosen by Algorithm 2) when present, else direct method runs."""
    per_metric = runs[(runs["kind"] == "search") & runs.apply(lambda r: len(_options(r).get("metrics", [])) == 1, axis=1)]
    direct = runs[runs["kind"] == "method"]
    rows = []
    for source, frame in (("Algorithm 2 (K)", per_metric), ("fixed K", direct)):
        if frame.empty:
            continue
        frame = frame.copy()
        frame["variant"] = frame.apply(_variant, axis=1)
        frame["group_k"] = frame["k"] if source == "fixed K" else 0
        for (metric, n, clf, vec, _k, variant), g in frame.groupby(
                ["metric", "top", "classifier", "vectors", "group_k", "variant"], sort=False):
            row = {"metric": metric, "N": int(n), "classifier": CLASSIFIER_LABELS.get(clf, clf), "vectors": vec,
                   "K from": source + (f"; {variant}" if variant else "")}
            for proto in ("label-aware", "label-free"):
                p = g[g["protocol"] == proto].sort_values("id").tail(1)
                row[f"{proto} K"] = str(int(p["k"].iloc[0])) if len(p) else ""
                row[f"{proto} micro"] = float(p["micro_f1"].iloc[0]) if len(p) else float("nan")
                row[f"{proto} macro"] = float(p["macro_f1"].iloc[0]) if len(p) else float("nan")
            rows.append(row)
    return pd.DataFrame(rows)


def verdict_lines(runs: pd.DataFrame, *, dataset: str) -> list[str]:
    """The verdict of every protocol with a choice over all setups (:mod:`.verdict`), one
    paragraph each, the paper's protocol first."""
    from ..types import PROTOCOLS
    from .verdict import verdict

    out = []
    for protocol in PROTOCOLS:
        found = verdict(runs, dataset=dataset, protocol=protocol)
        if found is not None:
            out += [found.text(), ""]
    return out


def significance_sections(runs: pd.DataFrame) -> list[str]:
    """Paper appendix D: metric pairs over every paired (dataset, sample, N, classifier, vectors)
    configuration, per protocol (K is each metric's own, from Algorithm 2 or fixed)."""
    out: list[str] = []
    for proto in ("label-aware", "label-free"):
        sig = significance_table(runs, proto)
        if sig is None:
            continue
        out += [f"## Significance between metrics, {proto} (paper appendix D)", "",
                f"micro-F1 differences over paired configurations (same dataset, sample, N, classifier, vectors; "
                f"K each metric's own). Wilcoxon signed-rank, two-sided: T = min(R+, R−) as the paper prints it, "
                f"the signed z = (R+ − n(n+1)/4) / σ (positive: metric A higher) and the direction; sign test: "
                f"M = (n+ − n−)/2 with the paper's one-sided p (direction taken from the data, as the paper "
                f"does) and the two-sided p beside it. p Bonferroni-corrected over the {len(sig)} pairs.", "",
                _table(sig, ["metric_a", "metric_b", "n", "mean_diff", "higher", "T", "z_signed", "wilcoxon_method",
                             "p_wilcoxon_bonferroni", "M", "p_sign_bonferroni", "p_sign_two_sided_bonferroni",
                             "significant"],
                       ["metric A", "metric B", "pairs", "mean A−B", "higher", "T", "z (signed)", "Wilcoxon method",
                        "p (Bonf.)", "M", "p sign one-sided (Bonf.)", "p sign two-sided (Bonf.)", "significant"]), ""]
    out += per_document_sections(runs)
    return out


def per_document_sections(runs: pd.DataFrame, *, top: int = 10) -> list[str]:
    """Every pair of metrics at N = ``top`` compared per test document (McNemar exact, paired
    bootstrap CI, Holm), per (dataset, protocol) with CV-chosen per-metric runs."""

    out: list[str] = []
    if runs.empty or "predictions" not in runs.columns:
        return out
    for (dataset, proto), _ in runs.groupby(["dataset", "protocol"], sort=True):
        table = per_document(runs, dataset=dataset, protocol=proto, top=top)
        if table.empty:
            continue
        table = table.assign(metric_a=table["metric_a"].map(method_name), metric_b=table["metric_b"].map(method_name))
        out += [f"## Per-document comparison of metrics, {dataset}, {proto}, N = {top}", "",
                "K each metric's own, chosen by stratified k-fold CV on the training split; beside the metrics the "
                f"{method_name(TFIDF_CLASSIFIER)} on full text and the {method_name(BOW_KEYWORDS)} of the same "
                "protocol and N. McNemar's exact test on "
                "the documents only one of the two classifies correctly, the micro-F1 difference A − B "
                f"(points) with its 95 % paired bootstrap interval ({int(table['resamples'].iloc[0])} resamples, "
                f"seed {int(table['seed'].iloc[0])}), p Holm-corrected over the {len(table)} pairs.", "",
                _table(table, ["metric_a", "metric_b", "diff", "ci_low", "ci_high", "only_a_right", "only_b_right",
                               "p_mcnemar", "p_holm", "significant"],
                       ["metric A", "metric B", "A − B", "CI low", "CI high", "only A right", "only B right",
                        "p McNemar", "p (Holm)", "significant"]), ""]
    return out


def markdown_report(runs: pd.DataFrame, *, significance: bool = True) -> str:
    """All stored runs of this dkw version as Markdown, one section per (dataset, sample).
    Stale runs (another dkw version) are left out and counted."""
    stale_note: list[str] = []
    if "stale" in runs.columns and runs["stale"].astype(bool).any():
        n_stale = int(runs["stale"].astype(bool).sum())
        runs = runs[~runs["stale"].astype(bool)]
        stale_note = [f"{n_stale} stored run(s) of another dkw version left out (stale; re-run them with this "
                      f"version to include them).", ""]
    if runs.empty:
        return "".join(line + "\n" for line in stale_note) + (
            "No evaluation runs stored yet. Run `python -m dkw_core evaluate ...` or `search`/`baseline` first.\n")
    out = ["# Evaluation report", "",
           "F1 in percent on the **test split**. *label-aware* = the paper's protocol (test documents weighted "
           "with their gold category); *label-free* = deployable (test labels never read, statistics from the "
           "training split only).", "", *stale_note]
    from .protocols import dkw_version

    out[1:1] = ["", f"dkw {dkw_version()}."]
    runs = runs.copy()
    if "id" not in runs.columns:  # runs read from the reference files: their order in the files
        runs["id"] = range(len(runs))
    # runs with another neighbours spec (docs/method.md, step 3) are other vectors for every table
    runs["vectors"] = [v if _options(r).get("neighbours") is None else f"{v} ({_options(r)['neighbours']})"
                       for v, (_, r) in zip(runs["vectors"], runs.iterrows())]
    runs["sample_key"] = runs["sample"].fillna(0).astype(int)
    for (dataset, sample), d in runs.groupby(["dataset", "sample_key"], sort=True):
        title = f"## {dataset}" + (f" (sample: first {sample} documents per category and split)" if sample else " (full corpus)")
        out += [title, ""]
        base = d[d["kind"].isin(["baseline-tfidf", "baseline-bow"])].copy()
        if len(base):
            base["what"] = base.apply(lambda r: f"{method_name(r['kind'])}, sublinear tf-idf of the full text"
                                      if r["kind"] == TFIDF_CLASSIFIER
                                      else f"{method_name(r['kind'])}, keyword sets by {r['metric']}", axis=1)
            base["clf"] = base["classifier"].map(lambda c: CLASSIFIER_LABELS.get(c, c))
            base["N"] = base["top"].map(lambda n: "" if n == 0 else str(n))
            out += ["### Baselines (no word vectors)", "",
                    _table(base, ["what", "protocol", "N", "clf", "micro_f1", "macro_f1"],
                           ["baseline", "protocol", "N", "classifier", "micro-F1", "macro-F1"]), ""]
        verdicts = verdict_lines(d, dataset=str(dataset))
        if verdicts:
            out += ["### Verdict per protocol", "", *verdicts]
        mt = metric_table(d)
        if len(mt):
            mt["metric"] = mt["metric"].map(method_name)
            vec = ", ".join(sorted(set(mt["vectors"])))
            out += [f"### The method per metric (vectors: {vec})", "",
                    "How each parameter was chosen: K by Algorithm 2 on the training split (fold-local "
                    "statistics) where *K from* says so, else fixed; metric and N are fixed per row (a grid "
                    "over metrics and N, not a choice; no row is picked by its test score).", "",
                    _table(mt, ["metric", "N", "K from", "label-aware K", "label-aware micro", "label-aware macro",
                                "label-free K", "label-free micro", "label-free macro", "classifier", "vectors"],
                           ["metric", "N", "K from", "paper K", "paper micro-F1", "paper macro-F1",
                            "label-free K", "label-free micro-F1", "label-free macro-F1", "classifier", "vectors"]), ""]
        full = d[(d["kind"] == "search") & d.apply(lambda r: len(_options(r).get("metrics", [])) > 1, axis=1)]
        if len(full):
            full = full.copy()
            full["clf"] = full["classifier"].map(lambda c: CLASSIFIER_LABELS.get(c, c))
            full["seed"] = full.apply(lambda r: _options(r).get("seed", ""), axis=1)
            out += ["### Algorithm 2 over all setups (chosen K, metric, N; trained on the whole training split)", "",
                    "K, metric and N chosen by Algorithm 2 on the training split alone (cross-validation with "
                    "fold-local statistics; chi2 and tf-chi2 excluded from the metric choice as in the paper); "
                    "the chosen setup is trained on the whole training split and scored once on the test split.",
                    "",
                    _table(full, ["protocol", "k", "metric", "top", "micro_f1", "macro_f1", "clf", "vectors", "seed"],
                           ["protocol", "K", "metric", "N", "micro-F1", "macro-F1", "classifier", "vectors", "seed"]), ""]
    if significance:
        out += significance_sections(runs)
    return "\n".join(out) + "\n"
