"""Pairwise comparison of keyword methods in a study (paper Table 7; docs/method.md §4).

For every pair (x, y) of method labels: the paper's pairing (same article, judge, question and
keyword rank) and a robustness pairing over article means; Wilcoxon signed-rank with direction
and signed z, and the sign test (one- and two-sided); Holm-corrected per question and level when
there are more than two methods; mean differences with bootstrap CIs (the Table 7 chart).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ..lazy import lazy_module
from .models import QUESTIONS

stats = lazy_module("scipy.stats")  # imported on first use: the study pages open without it

PAIRING = ("pairs: same article, same judge, same question, keyword rank i of method x vs rank i of method y "
           "(x = A, y = B with two methods; i = 1..the smaller of the two methods' keyword counts, every rank "
           "both showed); a pair is left out when either answer is 'Do not know' or a method has no keyword at "
           "rank i; d = x - y")
LEFT_OUT_NOTE = ("every answer to x's and y's keywords is either in a pair or counted as left out, by reason: "
                 "'Do not know' (no rating), its partner at the same rank answered 'Do not know', or no partner "
                 "rank (the other method showed fewer keywords for that article); all non-'Do not know' answers "
                 "are in the robustness rows and the differences")
ARTICLE_PAIRING = ("robustness rows: one pair per article — the mean of its non-'Do not know' answers to "
                   "x's keywords and to y's keywords (over all its judges and keywords), d = mean x - mean y; "
                   "no pseudo-replication of judges and keywords")
WILCOXON_NOTE = ("scipy.stats.wilcoxon(zero_method='wilcox' — zero differences dropped, method='approx', "
                 "correction=False): T = min(R+, R-), two-sided p; direction = the method whose ranks sum "
                 "higher; z_signed = |z| with the sign of R+ - R- (positive: x rated higher)")
SIGN_NOTE = ("scipy.stats.binomtest(n+, n+ + n-, 0.5): M = (n+ - n-)/2; p1 = the paper's one-sided p, its "
             "direction taken from the data (stated in 'sign_alternative'); p2 = two-sided p; ties dropped")
LEVEL_PAPER = "answers (paper's Table 7)"
LEVEL_ARTICLES = "article means (robustness)"
HOLM_NOTE = ("Holm step-down correction over the pairwise comparisons of one question and level "
             "(p_holm: Wilcoxon two-sided; sign_p_holm: sign test two-sided)")
DIFFERENCE_NOTE = ("mean over articles of (article mean of x - article mean of y), 'Do not know' left out; 95 % "
                   "percentile bootstrap CI over articles (scipy.stats.bootstrap, 2000 resamples, seed 0)")


def _f(x: Any) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def holm(pvalues: list[float | None]) -> list[float | None]:
    """Holm-adjusted p-values (step-down, made monotone, capped at 1); None stays None and is
    not counted in the family."""
    present = [(p, i) for i, p in enumerate(pvalues) if p is not None]
    m = len(present)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(sorted(present, key=lambda pi: pi[0])):
        running = max(running, min(1.0, (m - rank) * float(p)))
        out[i] = running
    return out


def pairing(frame: pd.DataFrame, question: str, max_rank: int, x: str = "A",
            y: str = "B") -> tuple[list[int], list[int], dict[str, int]]:
    """Ratings of methods x and y paired by (article, judge, question, rank i), ranks
    1..``max_rank`` (see :data:`PAIRING`), plus the account of every answer to x's and y's keywords that is
    not in a pair (:data:`LEFT_OUT_NOTE`): ``answers`` (x's plus y's), ``paired`` (answers in
    pairs, twice the pairs), ``do_not_know``, ``partner_do_not_know``, ``no_partner_rank``."""
    sub = frame[frame["question"] == question]
    a_vals: list[int] = []
    b_vals: list[int] = []
    left = {"answers": 0, "paired": 0, "do_not_know": 0, "partner_do_not_know": 0, "no_partner_rank": 0}
    rx, ry = f"rank_{x.lower()}", f"rank_{y.lower()}"
    for _jid, grp in sub.groupby("judgement_id", sort=True):
        by_a = {int(r): int(v) for r, v in zip(grp[rx], grp["value"], strict=True) if not pd.isna(r)}
        by_b = {int(r): int(v) for r, v in zip(grp[ry], grp["value"], strict=True) if not pd.isna(r)}
        for own, other in ((by_a, by_b), (by_b, by_a)):
            for i, v in own.items():
                left["answers"] += 1
                if v == 0:
                    left["do_not_know"] += 1
                elif i > max_rank or i not in other:
                    left["no_partner_rank"] += 1
                elif other[i] == 0:
                    left["partner_do_not_know"] += 1
        for i in range(1, max_rank + 1):
            if by_a.get(i, 0) > 0 and by_b.get(i, 0) > 0:
                a_vals.append(by_a[i])
                b_vals.append(by_b[i])
    left["paired"] = 2 * len(a_vals)
    return a_vals, b_vals, left


def article_means(frame: pd.DataFrame, question: str, x: str = "A", y: str = "B") -> tuple[list[float], list[float]]:
    """Per article: mean non-DNK answer to x's keywords and to y's keywords (both needed)."""
    sub = frame[(frame["question"] == question) & (frame["value"] > 0)]
    a_vals: list[float] = []
    b_vals: list[float] = []
    for _art, grp in sub.groupby("article_id", sort=True):
        a = grp.loc[grp[f"in_{x.lower()}"], "value"]
        b = grp.loc[grp[f"in_{y.lower()}"], "value"]
        if len(a) and len(b):
            a_vals.append(float(a.mean()))
            b_vals.append(float(b.mean()))
    return a_vals, b_vals


def paired_tests(a: Sequence[float], b: Sequence[float], x: str = "A", y: str = "B") -> dict[str, Any]:
    """Wilcoxon signed-rank (with direction and signed z) and sign test (one- and two-sided) of
    method x's ratings ``a`` against method y's ``b``; see :data:`WILCOXON_NOTE` and :data:`SIGN_NOTE`."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n_plus, n_minus = int((d > 0).sum()), int((d < 0).sum())
    row: dict[str, Any] = {"pairs": len(d), "zero_differences": int((d == 0).sum()), "n_plus": n_plus,
                           "n_minus": n_minus, "wilcoxon_T": None, "wilcoxon_R_plus": None,
                           "wilcoxon_R_minus": None, "wilcoxon_z_signed": None, "wilcoxon_p_two_sided": None,
                           "direction": None, "sign_M": (n_plus - n_minus) / 2, "sign_p_one_sided": None,
                           "sign_alternative": None, "sign_p_two_sided": None, "note": ""}
    if n_plus + n_minus == 0:
        row["note"] = "no non-zero paired differences"
        return row
    nz = d[d != 0]
    ranks = stats.rankdata(np.abs(nz))
    r_plus, r_minus = float(ranks[nz > 0].sum()), float(ranks[nz < 0].sum())
    res = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx", alternative="two-sided")
    z = _f(res.zstatistic)
    sign = (r_plus > r_minus) - (r_plus < r_minus)
    row.update(wilcoxon_T=_f(res.statistic), wilcoxon_R_plus=r_plus, wilcoxon_R_minus=r_minus,
               wilcoxon_z_signed=(abs(z) * sign if z is not None else None), wilcoxon_p_two_sided=_f(res.pvalue),
               direction={1: f"{x} rated higher", -1: f"{y} rated higher", 0: "no difference"}[sign])
    greater = n_plus >= n_minus
    n = n_plus + n_minus
    bt = stats.binomtest(n_plus, n, 0.5, alternative="greater" if greater else "less")
    row.update(sign_p_one_sided=_f(bt.pvalue),
               sign_alternative=f"{x} rated higher than {y}" if greater else f"{y} rated higher than {x}",
               sign_p_two_sided=_f(stats.binomtest(n_plus, n, 0.5, alternative="two-sided").pvalue))
    return row


def method_pairs(labels: list[str]) -> list[tuple[str, str]]:
    """Every pair (x, y) of method labels, x before y (A-B, A-C, B-C…)."""
    return list(combinations(labels, 2))


def significance(frame: pd.DataFrame, keywords_shown: int | Mapping[str, int],
                 names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Table 7 rows (rank-paired answers) then robustness rows (article means), per question and
    pair of methods; with more than two methods Holm-corrected per question and level.
    ``keywords_shown``: each method's number of keywords (label -> N; one int for all); a pair
    x, y pairs ranks 1..min(N_x, N_y) and every Table 7 row accounts for the answers it leaves
    out (``answers``, ``answers_paired``, ``left_out_*``; :data:`LEFT_OUT_NOTE`)."""
    names = names or {"A": "A", "B": "B"}
    shown = (keywords_shown if isinstance(keywords_shown, Mapping)
             else dict.fromkeys(names, int(keywords_shown)))
    pairs = method_pairs(list(names))
    out = []
    for level in (LEVEL_PAPER, LEVEL_ARTICLES):
        for q in QUESTIONS:
            family = []
            for x, y in pairs:
                extra: dict[str, Any] = {}
                a: Sequence[float]
                b: Sequence[float]
                if level == LEVEL_PAPER:
                    max_rank = min(int(shown[x]), int(shown[y]))
                    a, b, left = pairing(frame, q, max_rank, x, y)
                    extra = {"ranks_paired": max_rank, "answers": left["answers"],
                             "answers_paired": left["paired"], "left_out_do_not_know": left["do_not_know"],
                             "left_out_partner_do_not_know": left["partner_do_not_know"],
                             "left_out_no_partner_rank": left["no_partner_rank"]}
                else:
                    a, b = article_means(frame, q, x, y)
                family.append({"level": level, "question": q, "method_x": x, "method_y": y,
                               "name_x": names[x], "name_y": names[y], **paired_tests(a, b, x, y), **extra})
            if len(family) > 1:  # corrected within the family
                p_holm = holm([r["wilcoxon_p_two_sided"] for r in family])
                s_holm = holm([r["sign_p_two_sided"] for r in family])
                for row, p, s in zip(family, p_holm, s_holm):
                    row["p_holm"], row["sign_p_holm"] = p, s
            else:
                for row in family:
                    row["p_holm"], row["sign_p_holm"] = row["wilcoxon_p_two_sided"], row["sign_p_two_sided"]
            out.extend(family)
    return out


def differences(frame: pd.DataFrame, names: dict[str, str], *, n_resamples: int = 2000,
                seed: int = 0) -> list[dict[str, Any]]:
    """Per question and pair: mean article-level difference x − y with a 95 % bootstrap CI
    (:data:`DIFFERENCE_NOTE`) — the data of a Table 7 chart."""
    out = []
    for q in QUESTIONS:
        for x, y in method_pairs(list(names)):
            a, b = article_means(frame, q, x, y)
            d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
            low = high = None
            if len(d) >= 2 and np.ptp(d) > 0:
                res = stats.bootstrap((d,), np.mean, confidence_level=0.95, n_resamples=n_resamples,
                                      method="percentile", rng=np.random.default_rng(seed))
                low, high = _f(res.confidence_interval.low), _f(res.confidence_interval.high)
            elif len(d) >= 1:
                low = high = float(d.mean())
            out.append({"question": q, "method_x": x, "method_y": y, "name_x": names[x], "name_y": names[y],
                        "articles": len(d), "mean_difference": float(d.mean()) if len(d) else None,
                        "ci_low": low, "ci_high": high})
    return out
