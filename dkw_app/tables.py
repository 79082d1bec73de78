"""Pure DataFrame builders for the pages: keyword tables (paper Tables 3–6) and the data
behind every chart (what the CSV download buttons hand out)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from dkw_core.evaluation.comparisons import format_difference, format_p
from dkw_core.evaluation.names import TFIDF_CLASSIFIER, method_name
from dkw_core.evaluation.selection import selection_name

from .stored_runs import BASELINE_KINDS, RUN_COLUMNS


def keyword_table(by_metric: Mapping[str, Sequence[Any]], *, top: int | None = None) -> pd.DataFrame:
    """Metrics side by side: one column per metric, one row per rank (1 = best).

    ``by_metric`` maps a metric name to its ranked ``Keyword`` list; shorter lists are
    padded with empty strings so every column has the same length (as the paper's tables).
    """
    longest = max((len(v) for v in by_metric.values()), default=0)
    rows = longest if top is None else top
    data = {metric: [kws[i].word if i < len(kws) else "" for i in range(rows)]
            for metric, kws in by_metric.items()}
    return pd.DataFrame(data, index=pd.RangeIndex(1, rows + 1, name="rank"))


def provenance_table(keyword: Any) -> pd.DataFrame:
    """The phrases that led to one keyword: phrase, cosine similarity, occurrence count."""
    rows = [{"phrase": p.phrase, "similarity": float(p.similarity), "count": int(p.count)}
            for p in getattr(keyword, "provenance", []) or []]
    return pd.DataFrame(rows, columns=["phrase", "similarity", "count"])


def keywords_long(by_metric: Mapping[str, Sequence[Any]], *, doc_id: str, protocol: str, k: int,
                  vectors: str) -> pd.DataFrame:
    """Long form of the keyword table (one row per metric and rank) for the CSV download."""
    rows = []
    for metric, kws in by_metric.items():
        for rank, kw in enumerate(kws, start=1):
            rows.append({"document": doc_id, "protocol": protocol, "vectors": vectors, "K": k,
                         "metric": metric, "rank": rank, "keyword": kw.word,
                         "score": float(kw.score), "tf": kw.tf})
    return pd.DataFrame(rows, columns=["document", "protocol", "vectors", "K", "metric", "rank",
                                       "keyword", "score", "tf"])


def _filtered(runs: pd.DataFrame, **equal: Any) -> pd.DataFrame:
    frame = runs
    for column, value in equal.items():
        if value is not None and column in frame.columns:
            frame = frame[frame[column] == value]
    return frame


#: How the parameters of each kind of chart row were chosen (shown in titles and tables).
CHOSEN_K = "K chosen per metric by Algorithm 2 on the training split (fold-local statistics); metric and N fixed"
GRID = "grid of test scores: every stored K, none chosen (not a best)"


def search_scope(runs: pd.DataFrame) -> pd.Series:
    """Per run: ``"per-metric"`` (Algorithm 2 choosing K for one metric), ``"all"`` (Algorithm 2
    over all setups), ``"grid"`` (a fixed (K, metric, N) run) or ``"baseline"``."""
    def scope(row) -> str:
        kind = row.get("kind")
        if kind == "search":
            options = row.get("options")
            metrics = options.get("metrics", []) if isinstance(options, dict) else []
            return "all" if len(metrics) > 1 else "per-metric"
        if kind in BASELINE_KINDS:
            return "baseline"
        return "grid"

    if runs.empty:
        return pd.Series([], dtype=object, index=runs.index)
    return runs.apply(scope, axis=1)


def _method_runs(runs: pd.DataFrame, scope: str, **equal: Any) -> pd.DataFrame:
    frame = _filtered(runs, **equal)
    if frame.empty:
        return frame
    return frame[search_scope(frame) == scope].dropna(subset=["micro_f1"])


def _latest(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    frame = frame.sort_values("id") if "id" in frame.columns else frame
    return frame.drop_duplicates(keys, keep="last")


def metric_bars(runs: pd.DataFrame, *, dataset: str, protocol: str, top: int | None = None,
                classifier: str | None = None) -> pd.DataFrame:
    """Data of a per-metric F1 bar chart (paper Figs. 2–7): for every metric its run with K
    chosen by Algorithm 2 on the training split (per-metric search runs), at N = ``top``.
    Never the best of several runs by test score."""
    frame = _method_runs(runs, "per-metric", dataset=dataset, protocol=protocol, top=top, classifier=classifier)
    if frame.empty:
        return pd.DataFrame(columns=RUN_COLUMNS)
    frame = _latest(frame, ["metric", "top", "classifier"])
    return frame[RUN_COLUMNS].reset_index(drop=True)


def metric_grid(runs: pd.DataFrame, *, dataset: str, protocol: str, top: int | None = None,
                classifier: str | None = None) -> pd.DataFrame:
    """Every fixed-(K, metric, N) run at N = ``top``: a grid of test scores, one bar per
    (metric, K), with the column ``setup`` ("rf K=90"). Nothing in it is a choice."""
    frame = _method_runs(runs, "grid", dataset=dataset, protocol=protocol, top=top, classifier=classifier)
    if frame.empty:
        return pd.DataFrame(columns=[*RUN_COLUMNS, "setup"])
    frame = _latest(frame, ["metric", "k", "top", "classifier"]).sort_values(["metric", "k"])
    frame = frame[RUN_COLUMNS].reset_index(drop=True)
    frame["setup"] = [f"{m} K={int(k)}" for m, k in zip(frame["metric"], frame["k"])]
    return frame


def f1_by_keywords(runs: pd.DataFrame, *, dataset: str, protocol: str,
                   classifier: str | None = None) -> pd.DataFrame:
    """Data of F1-vs-N lines (paper Figs. 8–10): one line per metric, each point the per-metric
    Algorithm 2 run at that N (K chosen on the training split); column ``series`` names the line."""
    frame = _method_runs(runs, "per-metric", dataset=dataset, protocol=protocol, classifier=classifier)
    frame = frame.dropna(subset=["top"]) if not frame.empty else frame
    if frame.empty:
        return pd.DataFrame(columns=[*RUN_COLUMNS, "series"])
    frame = _latest(frame, ["metric", "top", "classifier"]).sort_values(["metric", "top"])
    frame = frame[RUN_COLUMNS].reset_index(drop=True)
    frame["series"] = frame["metric"].astype(str)
    return frame


def f1_grid_by_keywords(runs: pd.DataFrame, *, dataset: str, protocol: str,
                        classifier: str | None = None) -> pd.DataFrame:
    """F1-vs-N lines of the grid of fixed runs: one line per (metric, K). Not a choice."""
    frame = _method_runs(runs, "grid", dataset=dataset, protocol=protocol, classifier=classifier)
    frame = frame.dropna(subset=["top"]) if not frame.empty else frame
    if frame.empty:
        return pd.DataFrame(columns=[*RUN_COLUMNS, "series"])
    frame = _latest(frame, ["metric", "k", "top", "classifier"]).sort_values(["metric", "k", "top"])
    frame = frame[RUN_COLUMNS].reset_index(drop=True)
    frame["series"] = [f"{m} K={int(k)}" for m, k in zip(frame["metric"], frame["k"])]
    return frame


def baselines(runs: pd.DataFrame, *, dataset: str, protocol: str | None = None,
              classifier: str | None = None) -> pd.DataFrame:
    """Baseline runs (tf-idf / bag-of-words + classifier) of one corpus: the reference lines.

    The tf-idf baseline weights no keywords (stored with protocol ``"none"`` or none at all),
    so it is shown under either protocol; a keyword-set baseline only under its own."""
    frame = _filtered(runs, dataset=dataset, classifier=classifier)
    frame = frame[frame["kind"].isin(BASELINE_KINDS)].dropna(subset=["micro_f1"])
    if protocol is not None and "protocol" in frame.columns:
        frame = frame[frame["protocol"].isna() | frame["protocol"].isin(["none", protocol])]
    if frame.empty:
        return pd.DataFrame(columns=RUN_COLUMNS)
    # one line per baseline kind (and N for keyword sets): the latest run, never the best of several
    frame = _latest(frame, ["kind", "top"])
    return frame.sort_values(["kind", "top"])[RUN_COLUMNS].reset_index(drop=True)


def describe_setup(frame: pd.DataFrame, column: str) -> str:
    """``"a"`` or ``"a, b"`` or ``"?"``: the distinct values of a column, for chart titles."""
    if column not in frame.columns:
        return "?"
    values = [str(v) for v in pd.unique(frame[column].dropna())]
    return ", ".join(values) if values else "?"


FULL = "full corpus"


def sample_label(sample: object) -> str:
    """``"full corpus"`` or ``"first n per category"`` for a run's ``sample`` value."""
    if sample is None or pd.isna(sample):
        return FULL
    return f"first {int(sample)} per category"


def sample_options(runs: pd.DataFrame) -> list[str]:
    """Labels of the corpus slices present in ``runs`` (full corpus first)."""
    values = {sample_label(v) for v in runs["sample"]} if "sample" in runs.columns else set()
    return sorted(values, key=lambda v: (v != FULL, len(v), v))


def for_sample(runs: pd.DataFrame, label: str) -> pd.DataFrame:
    """The runs of one slice, so slice and full-corpus F1 are never mixed in a chart."""
    if "sample" not in runs.columns:
        return runs
    return runs[runs["sample"].map(sample_label) == label]


#: A selection in words (``dkw_core.evaluation.selection.SELECTION_NAMES``).
SELECTION_LABELS = {s: selection_name(s) for s in ("cv", "algorithm2")}


def run_selection(runs: pd.DataFrame) -> pd.Series:
    """Per run: ``"cv"``, ``"algorithm2"`` (how a search run chose its setup) or ``"fixed"``."""
    def one(row) -> str:
        if row.get("kind") != "search":
            return "fixed"
        options = row.get("options")
        return "cv" if isinstance(options, dict) and options.get("selection") == "cv" else "algorithm2"

    if runs.empty:
        return pd.Series([], dtype=object, index=runs.index)
    return runs.apply(one, axis=1)


def selections(runs: pd.DataFrame) -> list[str]:
    """The selections present among the search runs, the robust one first."""
    present = set(run_selection(runs))
    return [s for s in ("cv", "algorithm2") if s in present]


def with_selection(runs: pd.DataFrame, selection: str | None) -> pd.DataFrame:
    """The fixed runs and baselines, plus the search runs of one selection only (never mixed)."""
    if selection is None or runs.empty:
        return runs
    chosen = run_selection(runs)
    return runs[(chosen == "fixed") | (chosen == selection)]


def connected(lines: pd.DataFrame, *, series: str = "series", x: str = "top") -> tuple[pd.DataFrame, list[str]]:
    """The lines with at least two points (a line, not a lone dot) and the names left out."""
    if lines.empty or series not in lines.columns:
        return lines, []
    counts = lines.groupby(series)[x].nunique()
    lone = [str(s) for s, n in counts.items() if n < 2]
    return lines[~lines[series].isin(lone)].reset_index(drop=True), lone


def corpora_table(infos: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Home's table of corpora: name, description, documents per split, categories and whether
    the archive is here; a count nobody published reads "unknown", never an empty or "None" cell."""
    def count(value: Any) -> str:
        return f"{int(value):,}" if isinstance(value, int | float) and value == value else "unknown"

    rows = [{"corpus": str(i.get("name")), "train": count(i.get("train")), "test": count(i.get("test")),
             "categories": count(i.get("categories")), "archive": "here" if i.get("available") else "missing",
             "description": str(i.get("description") or "")} for i in infos]  # the long column last
    return pd.DataFrame(rows, columns=["corpus", "train", "test", "categories", "archive", "description"])


# --------------------------------------------------------------------------- plain tables of the Metrics page
# What a reader sees: plain column names, numbers as text with their unit, CIs as [low, high],
# p in the one p format. The CSV downloads keep the raw columns.

def _num(value: Any, spec: str = ".2f") -> str:
    return "" if value is None or pd.isna(value) else format_difference(float(value), spec)


def _ci(low: Any, high: Any, spec: str = ".2f") -> str:
    return "" if low is None or pd.isna(low) else f"[{_num(low, spec)}, {_num(high, spec)}]"


def _int(value: Any) -> str:
    return "" if value is None or pd.isna(value) else str(int(value))


def overview_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The Overview's chosen setups (``comparisons.overview``) with plain column names."""
    base = "baseline_f1" in frame.columns and frame["baseline_f1"].notna().any()
    rows = []
    for r in frame.itertuples(index=False):
        row = {"protocol": r.protocol, "reads the gold label": "yes" if r.reads_labels else "no",
               "parameter choice": selection_name(r.selection, folds=r.folds, max_per_category=r.max_per_category,
                                                  detail=True),
               "setup chosen": f"{r.metric} K {_int(r.k)} N {_int(r.top)}", "micro-F1 (%)": _num(r.micro_f1),
               "95 % CI": _ci(r.ci_low, r.ci_high)}
        if base:
            row[f"Δ vs {method_name(TFIDF_CLASSIFIER)} (points)"] = _num(r.diff, "+.2f")
            row["95 % CI of Δ"] = _ci(r.diff_low, r.diff_high, "+.2f")
        rows.append(row)
    return pd.DataFrame(rows)


def stability_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The seed stability (``comparisons.seed_stability``) with plain column names: the whole
    training split and a capped CV named in words."""
    rows = [{"protocol": r.protocol,
             "parameter choice": selection_name(r.selection, folds=r.folds, max_per_category=r.max_per_category,
                                                detail=True),
             "seeds": r.seeds, "mean micro-F1 (%)": _num(r.mean), "sd (points)": _num(r.sd),
             "range (%)": f"{_num(r.min)} – {_num(r.max)}", "setups chosen (times)": r.chosen}
            for r in frame.itertuples(index=False)]
    return pd.DataFrame(rows)


def stability_verdict(frame: pd.DataFrame) -> str:
    """One line: which choice moves least with its seed, and the largest sd."""
    if frame.empty:
        return ""
    calm = frame.loc[frame["sd"].astype(float).idxmin()]
    wild = frame.loc[frame["sd"].astype(float).idxmax()]
    def name(r) -> str:
        return (f"{selection_name(r['selection'], folds=r['folds'], max_per_category=r['max_per_category'], detail=True)}"
                f" under {r['protocol']}")
    line = (f"Most stable: {name(calm)}, sd {_num(calm['sd'])} points over seeds {calm['seeds']}")
    if wild is not calm and float(wild["sd"]) > float(calm["sd"]):
        line += f"; least stable: {name(wild)}, sd {_num(wild['sd'])} points."
    return line + ("" if line.endswith(".") else ".")


def as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """A table of dkw_core's (e.g. ``leakcheck.plain_table``) as text for :func:`widgets.plain_table`:
    whole numbers as integers, other numbers with two decimals, text as is."""
    out = frame.copy()
    for c in out.columns:
        if pd.api.types.is_integer_dtype(out[c]):
            out[c] = [_int(v) for v in out[c]]
        elif pd.api.types.is_float_dtype(out[c]):
            out[c] = [_num(v) for v in out[c]]
    return out


def against_table(table: pd.DataFrame) -> pd.DataFrame:
    """One panel of the forest plot (``comparisons.against``) as a table: plain names."""
    if table.empty:
        return pd.DataFrame()
    ref = method_name(str(table["reference"].iloc[0]))
    return pd.DataFrame({
        "method": [method_name(m) for m in table["method"]],
        "micro-F1 (%)": [_num(v) for v in table["f1"]],
        f"− {ref} (points)": [_num(v, "+.2f") for v in table["diff"]],
        "95 % CI": [_ci(lo, hi, "+.2f") for lo, hi in zip(table["ci_low"], table["ci_high"])],
        "p (Holm)": [format_p(p) for p in table["p_holm"]],
        "significant": ["yes" if s else "no" for s in table["significant"]],
    })


def pairs_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Every pair of the per-document comparison (``comparisons.per_document``), plain names."""
    if pairs.empty:
        return pd.DataFrame()
    return pd.DataFrame({
        "method A": [method_name(m) for m in pairs["metric_a"]],
        "method B": [method_name(m) for m in pairs["metric_b"]],
        "A − B (points)": [_num(v, "+.2f") for v in pairs["diff"]],
        "95 % CI": [_ci(lo, hi, "+.2f") for lo, hi in zip(pairs["ci_low"], pairs["ci_high"])],
        "only A right": [_int(v) for v in pairs["only_a_right"]],
        "only B right": [_int(v) for v in pairs["only_b_right"]],
        "p (Holm)": [format_p(p) for p in pairs["p_holm"]],
    })


def appendix_d_table(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's appendix-D test (``comparisons.appendix_d``) with plain column names."""
    if table.empty:
        return pd.DataFrame()
    def col(name: str) -> pd.Series:
        return table[name] if name in table.columns else pd.Series([None] * len(table), index=table.index)

    return pd.DataFrame({
        "method A": [method_name(m) for m in table["metric_a"]],
        "method B": [method_name(m) for m in table["metric_b"]],
        "configurations": [_int(v) for v in col("n")],
        "mean A − B (points)": [_num(v, "+.2f") for v in col("mean_diff")],
        "higher": [method_name(m) if isinstance(m, str) else "" for m in col("higher")],
        "signed z": [_num(v, "+.2f") for v in col("z_signed")],
        "Wilcoxon p (Bonferroni)": [format_p(p) for p in col("p_wilcoxon_bonferroni")],
        "Wilcoxon": [str(v) if isinstance(v, str) else "" for v in col("wilcoxon_method")],
        "sign test p, two-sided (Bonferroni)": [format_p(p) for p in col("p_sign_two_sided_bonferroni")],
    })
