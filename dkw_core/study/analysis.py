"""Statistics of a finished (or running) study — paper §4.6, Fig. 11, Fig. 12, Table 7.

Answers are ordinal: 1 Irrelevant < 2 Partially < 3 Relevant; 0 "Do not know" is counted in
the distributions but left out of every statistic. A keyword produced by both methods was
shown once and its answers count for both methods.

* **Distributions** (Fig. 11): answer counts per method and question.
* **Agreement** (Fig. 12): Spearman's rho (``scipy.stats.spearmanr``) per method and question
  over pairs of judges who rated the same keyword on the same question (each pair ordered
  lower slot first, i.e. earlier-reserved judge first), plus Krippendorff's alpha (ordinal,
  package ``krippendorff``; raters = judgement slots, units = keyword x question).
* **Significance** (Table 7, the paper's layout), per question: Wilcoxon signed-rank test
  (``scipy.stats.wilcoxon``, ``zero_method="wilcox"``, ``method="approx"``, no continuity
  correction: T = min(R+, R−), two-sided p) reported with its **direction** (which method is
  rated higher: sign of R+ − R−) and a **signed standardized statistic** z (positive: A rated
  higher); and the sign test (``scipy.stats.binomtest``: M = (n+ − n−)/2) with the paper's
  one-sided p, whose direction is the one observed (chosen after seeing the data, as in the
  paper), beside the two-sided p. Pairing: same article, same judge, same question, keyword
  rank i of A vs rank i of B; d = A − B.
* **Robustness** (not in the paper): the answers of one article are not independent (same
  judges, same text), so a second row per question first averages each article's answers per
  method (over its judges and keywords, "Do not know" left out) and then runs the same tests
  over articles: one pair per article.
* **More than two methods** (methods A, B, C…): every pair of methods is compared as above
  (x against y, d = x − y) and, per question and level, the family of pairwise p-values is
  Holm-corrected (Holm 1979, step-down, monotone; ``p_holm`` for Wilcoxon, ``sign_p_holm`` for
  the two-sided sign test). With two methods there is one comparison and no correction.
* **Differences with CI** (the data of a Table 7 chart): per question and pair, the mean over
  articles of (article mean of x − article mean of y) with a 95 % percentile bootstrap CI
  (``scipy.stats.bootstrap``, 2,000 resamples, seed 0).

Simulated judges (``study simulate``) are left out unless ``include_simulated=True``.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..lazy import lazy_module
from .answers import answers_frame
from .comparison import (  # noqa: F401  (re-exported: analysis is the study's statistics namespace)
    ARTICLE_PAIRING,
    DIFFERENCE_NOTE,
    HOLM_NOTE,
    LEFT_OUT_NOTE,
    LEVEL_ARTICLES,
    LEVEL_PAPER,
    PAIRING,
    SIGN_NOTE,
    WILCOXON_NOTE,
    _f,
    article_means,
    differences,
    holm,
    method_pairs,
    paired_tests,
    pairing,
    significance,
)
from .creation import keywords_shown, method_rows
from .exclusion import apply_rules as exclude
from .models import ANSWERS, QUESTIONS, Judge, Judgement
from .settings import ExclusionRules
from .store import get_study
from .verdict import Verdict, rule_reason, verdict

stats = lazy_module("scipy.stats")  # imported on first use: the study pages open without it

AGREEMENT_NOTE = ("Spearman rho over pairs of judges (lower judgement slot first) rating the same keyword "
                  "on the same question, 'Do not know' left out; Krippendorff alpha (ordinal, values 1..3), "
                  "raters = judgement slots, units = keyword x question")

def json_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON-ready rows (numpy scalars and NaN turned into Python values and None)."""
    import json

    return json.loads(frame.to_json(orient="records"))


def distribution(frame: pd.DataFrame, names: dict[str, str]) -> list[dict[str, Any]]:
    """Answer counts and shares per method and question (Fig. 11), "Do not know" included."""
    out = []
    for slot in names:
        sub = frame[frame[f"in_{slot.lower()}"]]
        for q in QUESTIONS:
            part = sub[sub["question"] == q]
            total = len(part)
            for value, label in ANSWERS.items():
                n = int((part["value"] == value).sum())
                out.append({"method": slot, "method_name": names[slot], "question": q, "value": value,
                            "answer": label, "count": n, "share": (n / total) if total else None})
    return out


def rater_pairs(frame: pd.DataFrame, slot: str, question: str) -> tuple[list[int], list[int]]:
    """(x, y) ratings of pairs of judges on the same keyword and question, DNK left out."""
    sub = frame[frame[f"in_{slot.lower()}"] & (frame["question"] == question) & (frame["value"] > 0)]
    xs: list[int] = []
    ys: list[int] = []
    for _kw, grp in sub.sort_values("slot").groupby("keyword_id", sort=True):
        vals = list(grp["value"])
        for i, j in combinations(range(len(vals)), 2):
            xs.append(int(vals[i]))
            ys.append(int(vals[j]))
    return xs, ys


def agreement(frame: pd.DataFrame, names: dict[str, str], judges_per_article: int) -> list[dict[str, Any]]:
    """Spearman rho and Krippendorff's ordinal alpha per method and question (Fig. 12)."""
    import krippendorff

    out = []
    for slot in names:
        for q in QUESTIONS:
            xs, ys = rater_pairs(frame, slot, q)
            rho = p = None
            note = ""
            if len(xs) >= 3 and len(set(xs)) > 1 and len(set(ys)) > 1:
                res = stats.spearmanr(xs, ys)
                rho, p = _f(res.statistic), _f(res.pvalue)
            else:
                note = "too few pairs or no variation for Spearman"
            sub = frame[frame[f"in_{slot.lower()}"] & (frame["question"] == q)]
            units = sorted(sub["keyword_id"].unique())
            alpha = None
            if units:
                col = {k: i for i, k in enumerate(units)}
                mat = np.full((max(judges_per_article, int(sub["slot"].max())), len(units)), np.nan)
                for r in sub.itertuples():
                    if r.value > 0:
                        mat[r.slot - 1, col[r.keyword_id]] = r.value
                try:
                    with np.errstate(invalid="ignore", divide="ignore"):  # no variation -> nan -> None
                        alpha = _f(krippendorff.alpha(reliability_data=mat, level_of_measurement="ordinal",
                                                      value_domain=[1, 2, 3]))
                except (ValueError, ZeroDivisionError):
                    alpha = None
            out.append({"method": slot, "method_name": names[slot], "question": q, "spearman_rho": rho,
                        "spearman_p": p, "pairs": len(xs), "krippendorff_alpha_ordinal": alpha,
                        "units": len(units), "note": note})
    return out


def analyze(engine: Engine, study_id: int, *, include_simulated: bool = False,
            apply_rules: bool = True) -> dict[str, Any]:
    """Everything the results page and ``study analyze`` print, JSON-serialisable. Answers of
    simulated judges are left out unless ``include_simulated`` (then ``includes_simulated``
    is true and every display must say so). The study's exclusion rules are applied unless
    ``apply_rules`` is false; ``verdict_without_rules`` is the verdict on every judgement and
    ``exclusions`` each judge's figures against the rules and what each rule removed. Planted
    intruder keywords (attention checks) are in no distribution, agreement or test."""
    with Session(engine) as session:
        study = get_study(session, study_id)
        methods = method_rows(study)
        info: dict[str, Any] = {"id": study.id, "name": study.name, "corpus": study.corpus, "split": study.split,
                               "method_a": study.method_a, "method_b": study.method_b,
                               "protocol_a": study.protocol_a, "protocol_b": study.protocol_b, "methods": methods,
                               "status": study.status,
                               "keywords_per_method": study.keywords_per_method,
                               "keywords_shown": keywords_shown(methods),
                               "judges_per_article": study.judges_per_article, "seed": study.seed,
                               "articles": len(study.articles), "attention_share": study.attention_share}
        rules = ExclusionRules.from_dict(study.rules)
        simulated = session.scalar(
            select(func.count(Judgement.id)).join(Judge, Judgement.judge_id == Judge.id)
            .where(Judge.study_id == study_id, Judge.simulated.is_(True), Judgement.submitted_at.is_not(None))) or 0
    every = answers_frame(engine, study_id, include_simulated=include_simulated)
    kept, figures, removed = exclude(every, rules)
    frame = kept if apply_rules else every
    names = {m["label"]: m["name"] for m in methods}
    pairs = method_pairs(list(names))
    agree = agreement(frame, names, info["judges_per_article"])
    excluded = {} if include_simulated else {"simulated (study simulate)": int(simulated)}
    by_rule = {rule_reason(r["rule"]): r["judgements"] for r in removed["by_rule"].values()}
    left_out = sum(excluded.values())  # simulated judges are out before the rules: no judgement counts twice
    checks = every[every["intruder"]].groupby("judgement_id").ngroups if len(every) else 0
    return {
        "verdict": verdict(frame, methods, agreement_rows=agree,
                           excluded={**excluded, **(by_rule if apply_rules else {})},
                           excluded_in_all=left_out + (removed["judgements"] if apply_rules else 0)),
        "verdict_without_rules": verdict(every, methods, agreement_rows=agreement(every, names,
                                                                                  info["judges_per_article"]),
                                         excluded=excluded),
        "exclusions": {"rules": None if rules is None else rules.to_dict(),
                       "described": [] if rules is None else rules.describe(), "applied": bool(apply_rules),
                       "removed": removed, "attention_checks": int(checks),
                       "judges": json_rows(figures)},
        "study": info,
        "includes_simulated": bool(include_simulated and simulated),
        "simulated_judgements": int(simulated),
        "counts": {"judgements": int(frame["judgement_id"].nunique()), "answers": len(frame),
                   "judges": int(frame["judge_id"].nunique()),
                   "do_not_know": int((frame["value"] == 0).sum())},
        "distribution": distribution(frame, names),
        "agreement": agree,
        "agreement_note": AGREEMENT_NOTE,
        "significance": significance(frame, {m["label"]: m["top"] for m in info["methods"]}
                                     or info["keywords_per_method"], names),
        "left_out_note": LEFT_OUT_NOTE,
        "pairs": [list(p) for p in pairs],
        "correction": (HOLM_NOTE if len(pairs) > 1 else "none (2 methods, one comparison)"),
        "differences": differences(frame, names),
        "difference_note": DIFFERENCE_NOTE,
        "pairing": PAIRING,
        "article_pairing": ARTICLE_PAIRING,
        "wilcoxon_note": WILCOXON_NOTE,
        "sign_note": SIGN_NOTE,
    }


def simulated_note(result: dict[str, Any]) -> str:
    """One line saying whether simulated judgements are in the figures."""
    n = result["simulated_judgements"]
    if result["includes_simulated"]:
        return (f"WARNING: includes {n} SIMULATED judgement(s) (study simulate): not human data, "
                f"never publish these figures")
    return (f"{n} simulated judgement(s) left out (include them with --include-simulated)" if n
            else "no simulated judgements")


def _fmt(x: Any, spec: str = ".4g") -> str:
    return "—" if x is None else format(x, spec)


def exclusion_lines(result: dict[str, Any]) -> list[str]:
    """The exclusion rules, what each removed, and the verdict without them (report lines)."""
    ex = result["exclusions"]
    if ex["rules"] is None:
        return ["Exclusion rules: none stored with this study (made before rules existed)."]
    removed = ex["removed"]
    lines = [f"Exclusion rules (fixed before judging; {'applied' if ex['applied'] else 'NOT applied'}): "
             + ("; ".join(ex["described"]) or "every rule off"),
             f"  {ex['attention_checks']} judgement(s) carried an attention check (a planted intruder keyword)"]
    for rule in removed["by_rule"].values():
        lines.append(f"  {rule['rule']}: {rule['judges']} judge(s), {rule['judgements']} judgement(s) removed")
    lines.append(f"  in all: {removed['judges']} judge(s), {removed['judgements']} judgement(s), "
                 f"{removed['answers']} answer(s) removed")
    lines.append("Verdict without the exclusion rules:")
    lines += [f"  {line}" for line in Verdict(result["verdict_without_rules"]).pair_sentences()]
    return lines


def format_report(result: dict[str, Any]) -> str:
    """Plain-text report of :func:`analyze` for the CLI."""
    s = result["study"]
    c = result["counts"]
    described = ", ".join(f"{m['label']} = {m['name']} ({m['protocol']}"
                          + (f", {m['kind']}" if m["kind"] in ("extractor", "imported") else "") + ")"
                          for m in s["methods"])
    lines = [f"study {s['id']} {s['name']!r} ({s['status']}): corpus {s['corpus']} ({s['split']} split), "
             f"{described}, {s['keywords_shown']}, "
             f"{s['judges_per_article']} judges per article",
             simulated_note(result),
             f"{c['judgements']} submitted judgements by {c['judges']} judges, {c['answers']} answers "
             f"({c['do_not_know']} 'Do not know')", "", "Verdict:"]
    found = Verdict(result["verdict"])
    lines += [f"  {line}" for line in found.lines()] + [f"  ({found.note})"]
    lines += ["", *exclusion_lines(result)]
    lines += ["", "Answer distribution (Fig. 11):"]
    for row in result["distribution"]:
        lines.append(f"  {row['method']} {row['method_name']:<28} {row['question']:<9} {row['answer']:<12} "
                     f"{row['count']:>6}  {_fmt(row['share'], '.1%') if row['share'] is not None else '—'}")
    lines += ["", f"Inter-rater agreement (Fig. 12): {result['agreement_note']}"]
    for row in result["agreement"]:
        lines.append(f"  {row['method']} {row['method_name']:<28} {row['question']:<9} rho={_fmt(row['spearman_rho'])} "
                     f"(p={_fmt(row['spearman_p'])}, {row['pairs']} pairs)  "
                     f"alpha={_fmt(row['krippendorff_alpha_ordinal'])} ({row['units']} units) {row['note']}")
    many = len(result["pairs"]) > 1
    title = ("every pair of methods" if many else f"A ({s['method_a']}) against B ({s['method_b']})")
    lines += ["", f"Significance, {title}",
              f"  {result['pairing']}", f"  Left out: {result['left_out_note']}", f"  {result['article_pairing']}",
              f"  Wilcoxon: {result['wilcoxon_note']}", f"  Sign test: {result['sign_note']}",
              f"  Multiple comparisons: {result['correction']}"]
    level = None
    for row in result["significance"]:
        if row["level"] != level:
            level = row["level"]
            lines.append(f"  {level}:")
        pair = f"{row['method_x']}-{row['method_y']} " if many else ""
        holm_part = (f" p_holm={_fmt(row['p_holm'])}" if many else "")
        sign_holm = (f" p2_holm={_fmt(row['sign_p_holm'])}" if many else "")
        lines.append(f"    {pair}{row['question']:<9} pairs={row['pairs']} (zero d: {row['zero_differences']})  "
                     f"Wilcoxon T={_fmt(row['wilcoxon_T'])} z={_fmt(row['wilcoxon_z_signed'])} "
                     f"p2={_fmt(row['wilcoxon_p_two_sided'])}{holm_part} ({row['direction'] or '—'})  "
                     f"sign M={_fmt(row['sign_M'])} p1={_fmt(row['sign_p_one_sided'])} "
                     f"({row['sign_alternative'] or '—'}) p2={_fmt(row['sign_p_two_sided'])}{sign_holm} {row['note']}")
        if row.get("ranks_paired") is not None:
            lines.append(f"      ranks 1..{row['ranks_paired']} paired: {row['answers_paired']} of {row['answers']} "
                         f"answers in pairs; left out: {row['left_out_do_not_know']} 'Do not know', "
                         f"{row['left_out_partner_do_not_know']} with a 'Do not know' partner, "
                         f"{row['left_out_no_partner_rank']} without a partner rank")
    lines += ["", f"Differences between methods (Table 7 chart data): {result['difference_note']}"]
    for row in result["differences"]:
        lines.append(f"  {row['method_x']}-{row['method_y']} {row['question']:<9} articles={row['articles']} "
                     f"mean d={_fmt(row['mean_difference'])} 95% CI [{_fmt(row['ci_low'])}, {_fmt(row['ci_high'])}]")
    return "\n".join(lines)
