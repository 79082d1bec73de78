"""Significance of differences between metrics (paper appendix D).

For every pair of metrics, over the configurations evaluated with both (paired on
dataset, protocol, K, N, classifier, split, vectors, sample by default):

* Wilcoxon signed-rank test (``scipy.stats.wilcoxon``, two-sided): T = min(R+, R-) as the
  paper prints it (its z is never positive, so it hides which side is higher), the p-value
  (exact when scipy can), and — stating the direction — R+ and R-, the **signed**
  standardized statistic ``z_signed = (R+ - n(n+1)/4) / sigma`` (tie-corrected; positive when
  metric A scores higher) and ``higher`` (the metric with the larger rank sum, or "tie");
* sign test: M = (n+ - n-) / 2 and the paper's one-sided binomial p-value in the observed
  direction (``scipy.stats.binomtest``; the direction is picked after seeing the data, as the
  paper does), with the two-sided p-value beside it;

both Bonferroni-corrected for the number of metric pairs tested (p × pairs, capped at 1).
Zero differences are dropped (``zero_method="wilcox"``; the sign test ignores ties too).

The p-value is deterministic: the tests run on the integer number of **correct test documents**
(micro-F1 in percent × test documents / 100, rounded to the integer it is — :func:`correct_documents`;
the test size comes from a ``test_documents`` column or the run's stored predictions), so the
shipped reference results (percentages with 4 decimals) and the database (full floats) give the
same differences and the same real ties. Only scores without a known test size fall back to F1
rounded to :data:`RESOLUTION` decimals. The method is chosen explicitly (:func:`wilcoxon_method`,
what ``scipy.stats.wilcoxon`` picks by default): the **exact** null distribution when n ≤ 50 non-zero differences
and no two absolute differences are tied, otherwise the **normal approximation** with the
tie-corrected variance and no continuity correction. Each table names the method per pair
(column ``wilcoxon_method``).
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..errors import InputError
from ..expected_warnings import wilcoxon_warnings_expected
from ..lazy import lazy_module

stats = lazy_module("scipy.stats")  # imported on first use: the app's pages import this module

#: Decimals (of F1 in percent) a score without a known test size is rounded to before a difference is taken.
RESOLUTION = 4
#: Largest number of non-zero differences for the exact Wilcoxon distribution.
EXACT_MAX_N = 50

DEFAULT_PAIR_ON: tuple[str, ...] = ("dataset", "protocol", "k", "top", "classifier", "split", "vectors", "sample")

COLUMNS = ["metric_a", "metric_b", "n", "mean_diff", "higher", "R_plus", "R_minus", "T", "z", "z_signed",
           "p_wilcoxon", "wilcoxon_method", "p_wilcoxon_bonferroni", "M", "p_sign", "p_sign_bonferroni", "p_sign_two_sided",
           "p_sign_two_sided_bonferroni", "significant"]
_CORRECTED = ("p_wilcoxon_bonferroni", "p_sign_bonferroni", "p_sign_two_sided_bonferroni", "significant")


def signed_rank_direction(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """(R+, R-, signed z) of the paired differences a - b (zeros dropped, average ranks for ties).

    ``z = (R+ - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24 - sum(t^3 - t)/48)``: positive when ``a`` is
    higher, negative when ``b`` is; 0 without non-zero differences."""
    d = _differences(a, b)
    d = d[d != 0]
    n = d.size
    if n == 0:
        return 0.0, 0.0, 0.0
    ranks = stats.rankdata(np.abs(d))
    r_plus, r_minus = float(ranks[d > 0].sum()), float(ranks[d < 0].sum())
    _, counts = np.unique(np.abs(d), return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24 - float(((counts ** 3) - counts).sum()) / 48
    z = (r_plus - n * (n + 1) / 4) / np.sqrt(var) if var > 0 else 0.0
    return r_plus, r_minus, float(z)


def _differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    """a − b of the scores rounded to :data:`RESOLUTION` decimals (zeros kept)."""
    x = np.round(np.asarray(a, dtype=float), RESOLUTION)
    y = np.round(np.asarray(b, dtype=float), RESOLUTION)
    return np.asarray(np.round(x - y, RESOLUTION))


def correct_documents(runs: pd.DataFrame) -> pd.Series:
    """Correct test documents per run, ``round(micro_f1 / 100 × test documents)`` (micro-F1 in percent
    is the share of test documents classified right), NaN where the test size is unknown.

    The test size is the ``test_documents`` column, else the length of the run's stored gold
    labels (``predictions``), shared by every run of the same (dataset, sample)."""
    size = pd.Series(np.nan, index=runs.index, dtype=float)
    if "test_documents" in runs.columns:
        size = pd.to_numeric(runs["test_documents"], errors="coerce").astype(float)
    if "predictions" in runs.columns:
        from .paired import decode_labels

        gold = [len(decode_labels(p["gold"])) if isinstance(p, dict) and isinstance(p.get("gold"), str) else np.nan
                for p in runs["predictions"]]
        size = size.fillna(pd.Series(gold, index=runs.index, dtype=float))
    keys = [c for c in ("dataset", "sample") if c in runs.columns]
    if keys and size.isna().any() and size.notna().any():
        group = pd.Series(["|".join(str(row[k]) for k in keys) for _, row in runs[keys].iterrows()], index=runs.index)
        size = size.fillna(size.groupby(group).transform("max"))
    return np.round(pd.to_numeric(runs["micro_f1"], errors="coerce") * size / 100)


def wilcoxon_method(d: np.ndarray) -> str:
    """``"exact"`` for at most :data:`EXACT_MAX_N` non-zero differences without tied absolute
    values, else ``"approx"`` (normal approximation, tie-corrected, no continuity correction)."""
    d = np.asarray(d, dtype=float)
    d = d[d != 0]
    return "exact" if d.size <= EXACT_MAX_N and np.unique(np.abs(d)).size == d.size else "approx"


def wilcoxon_signed_rank(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, int, str]:
    """(T, z, two-sided p, n non-zero pairs, method) for paired samples ``a``, ``b``: scores
    rounded to :data:`RESOLUTION` decimals, zeros dropped (``zero_method="wilcox"``), method
    from :func:`wilcoxon_method`; z always from the normal approximation."""
    d = _differences(a, b)
    d = d[d != 0]
    n = int(d.size)
    if n == 0:
        return float("nan"), 0.0, 1.0, 0, "none"
    method = wilcoxon_method(d)
    with wilcoxon_warnings_expected():
        approx = stats.wilcoxon(d, zero_method="wilcox", correction=False, method="approx")
        res = approx if method == "approx" else stats.wilcoxon(d, zero_method="wilcox", method="exact")
    return float(res.statistic), float(approx.zstatistic), float(res.pvalue), n, method


def sign_test(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, int]:
    """(M = (n+ - n-)/2, one-sided p in the observed direction, n non-tied pairs).

    The direction of the one-sided test is chosen after seeing the data (the paper's
    practice); :func:`sign_test_two_sided` gives the p-value that does not."""
    d = _differences(a, b)
    pos, neg = int((d > 0).sum()), int((d < 0).sum())
    n = pos + neg
    if n == 0:
        return 0.0, 1.0, 0
    p = stats.binomtest(max(pos, neg), n, 0.5, alternative="greater").pvalue
    return (pos - neg) / 2, float(p), n


def sign_test_two_sided(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided binomial p-value of the sign test (ties dropped)."""
    d = _differences(a, b)
    pos, neg = int((d > 0).sum()), int((d < 0).sum())
    if pos + neg == 0:
        return 1.0
    return float(stats.binomtest(pos, pos + neg, 0.5, alternative="two-sided").pvalue)


def paired_table(runs: pd.DataFrame, *, score: str = "micro_f1", pair_on: Sequence[str] = DEFAULT_PAIR_ON) -> pd.DataFrame:
    """Configurations x metrics table of ``score`` (mean over duplicate runs of one cell)."""
    missing = [c for c in (*pair_on, "metric", score) if c not in runs.columns]
    if missing:
        raise InputError(f"runs lack the columns {missing} needed to pair configurations")
    keys = list(pair_on)
    frame = runs[[*keys, "metric", score]].copy()
    for c in keys:  # NaN keys (sample=None) would be dropped by pivot
        frame[c] = frame[c].astype(object).where(frame[c].notna(), "-")
    return frame.pivot_table(index=keys, columns="metric", values=score, aggfunc="mean")


def compare_metrics(runs: pd.DataFrame, *, pair_on: Sequence[str] = DEFAULT_PAIR_ON) -> pd.DataFrame:
    """Wilcoxon and sign tests of the micro-F1 for every pair of metrics, Bonferroni-corrected
    (significant below 0.05).

    ``runs`` is a DataFrame like :func:`dkw_core.evaluation.results.load_runs` returns (one
    row per run with a ``metric`` column and the ``pair_on`` columns). A pair is tested on the
    configurations where both metrics have a score. The tests run on correct-document counts
    (:func:`correct_documents`) where the test size is known; ``mean_diff`` is in F1 points.
    """
    table = paired_table(runs, pair_on=pair_on)
    tested = table
    counts = correct_documents(runs)
    if counts.notna().any():  # the tests on integer counts where the test size is known
        tested = paired_table(runs.assign(_correct=counts.fillna(runs["micro_f1"])), score="_correct", pair_on=pair_on)
    names = [m for m in dict.fromkeys(runs["metric"]) if m in table.columns]  # first-seen order
    pairs = list(itertools.combinations(names, 2))
    rows = []
    for a, b in pairs:
        both = table[[a, b]].dropna()
        t = tested.loc[both.index, [a, b]]
        T, z, p_w, _, w_method = wilcoxon_signed_rank(t[a], t[b])
        M, p_s, _ = sign_test(t[a], t[b])
        r_plus, r_minus, z_signed = signed_rank_direction(t[a], t[b])
        higher = a if r_plus > r_minus else b if r_minus > r_plus else "tie"
        rows.append({
            "metric_a": a, "metric_b": b, "n": int(len(both)),
            "mean_diff": float((both[a] - both[b]).mean()) if len(both) else float("nan"),
            "higher": higher, "R_plus": r_plus, "R_minus": r_minus,
            "T": T, "z": z, "z_signed": z_signed, "p_wilcoxon": p_w, "wilcoxon_method": w_method, "M": M,
            "p_sign": p_s,
            "p_sign_two_sided": sign_test_two_sided(t[a], t[b]),
        })
    out = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in _CORRECTED])
    m = max(len(pairs), 1)
    out["p_wilcoxon_bonferroni"] = np.minimum(out["p_wilcoxon"] * m, 1.0)
    out["p_sign_bonferroni"] = np.minimum(out["p_sign"] * m, 1.0)
    out["p_sign_two_sided_bonferroni"] = np.minimum(out["p_sign_two_sided"] * m, 1.0)
    out["significant"] = out["p_wilcoxon_bonferroni"] < 0.05
    return out[COLUMNS]
