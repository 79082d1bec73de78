"""Pure DataFrame builders for the pages: keyword tables (paper Tables 3–6) and the data
behind every chart (what the CSV download buttons hand out)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .backend import BASELINE_KINDS, RUN_COLUMNS


def keyword_table(by_metric: Mapping[str, Sequence[Any]], *, top: int | None = None) -> pd.DataFrame:
    """Metrics side by side: one column per metric, one row per rank (1 = best).

    ``by_metric`` maps a metric name to its ranked ``Keyword`` list; shorter lists are
    padded with empty strings so every column has the same length (as the paper's tables).
    """
    longest = max((len(v) for v in by_metric.values()), default=0)
    rows = longest if top is None else top
    data = {metric: [kws[i].word if i < len(kws) else "" for i in range(rows)]
            for metric, kws in by_metric.items()}
    frame = pd.DataFrame(data, index=pd.RangeIndex(1, rows + 1, name="rank"))
    return frame


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


def metric_bars(runs: pd.DataFrame, *, dataset: str, protocol: str, top: int | None = None,
                classifier: str | None = None) -> pd.DataFrame:
    """Data of a per-metric F1 bar chart (paper Figs. 2–7): the method's best run (by
    micro-F1) of every metric for one corpus, protocol, N (``top``) and classifier."""
    frame = _filtered(runs, dataset=dataset, protocol=protocol, top=top, classifier=classifier)
    frame = frame[frame["kind"].fillna("method") == "method"].dropna(subset=["micro_f1"])
    if frame.empty:
        return pd.DataFrame(columns=RUN_COLUMNS)
    best = frame.sort_values("micro_f1", ascending=False).drop_duplicates("metric")
    return best.sort_values("micro_f1", ascending=False)[RUN_COLUMNS].reset_index(drop=True)


def f1_by_keywords(runs: pd.DataFrame, *, dataset: str, protocol: str,
                   classifier: str | None = None) -> pd.DataFrame:
    """Data of an F1-vs-N line chart (paper Figs. 8–10): for every number of keywords N
    the best setup (metric, K) by micro-F1."""
    frame = _filtered(runs, dataset=dataset, protocol=protocol, classifier=classifier)
    frame = frame[frame["kind"].fillna("method") == "method"].dropna(subset=["micro_f1", "top"])
    if frame.empty:
        return pd.DataFrame(columns=RUN_COLUMNS)
    best = frame.sort_values("micro_f1", ascending=False).drop_duplicates("top")
    return best.sort_values("top")[RUN_COLUMNS].reset_index(drop=True)


def baselines(runs: pd.DataFrame, *, dataset: str, protocol: str | None = None,
              classifier: str | None = None) -> pd.DataFrame:
    """Baseline runs (tf-idf / bag-of-words + classifier) of one corpus: the reference lines.

    The tf-idf baseline weights no keywords (stored with protocol ``"none"`` or none at all),
    so it is shown under either protocol; a keyword-set baseline only under its own."""
    frame = _filtered(runs, dataset=dataset, classifier=classifier)
    frame = frame[frame["kind"].isin(BASELINE_KINDS)].dropna(subset=["micro_f1"])
    if protocol is not None and "protocol" in frame.columns:
        frame = frame[frame["protocol"].isna() | frame["protocol"].isin(["none", protocol])]
    best = frame.sort_values("micro_f1", ascending=False).drop_duplicates("kind")
    return best.sort_values("kind")[RUN_COLUMNS].reset_index(drop=True)


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
