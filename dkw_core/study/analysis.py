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

import math
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, selectinload

from .models import ANSWERS, QUESTIONS, Answer, Article, Judge, Judgement, Study, StudyKeyword
from .errors import StudyError

PAIRING = ("pairs: same article, same judge, same question, keyword rank i of A vs rank i of B "
           "(i = 1..keywords per method); a pair is left out when either answer is 'Do not know' or a "
           "method has no keyword at rank i; d = A - B")
ARTICLE_PAIRING = ("robustness rows: one pair per article — the mean of its non-'Do not know' answers to "
                   "A's keywords and to B's keywords (over all its judges and keywords), d = mean A - mean B; "
                   "no pseudo-replication of judges and keywords")
WILCOXON_NOTE = ("scipy.stats.wilcoxon(zero_method='wilcox' — zero differences dropped, method='approx', "
                 "correction=False): T = min(R+, R-), two-sided p; direction = the method whose ranks sum "
                 "higher; z_signed = |z| with the sign of R+ - R- (positive: A rated higher)")
SIGN_NOTE = ("scipy.stats.binomtest(n+, n+ + n-, 0.5): M = (n+ - n-)/2; p1 = the paper's one-sided p, its "
             "direction taken from the data (stated in 'sign_alternative'); p2 = two-sided p; ties dropped")
LEVEL_PAPER = "answers (paper's Table 7)"
LEVEL_ARTICLES = "article means (robustness)"
AGREEMENT_NOTE = ("Spearman rho over pairs of judges (lower judgement slot first) rating the same keyword "
                  "on the same question, 'Do not know' left out; Krippendorff alpha (ordinal, values 1..3), "
                  "raters = judgement slots, units = keyword x question")

HOLM_NOTE = ("Holm step-down correction over the pairwise comparisons of one question and level "
             "(p_holm: Wilcoxon two-sided; sign_p_holm: sign test two-sided)")
DIFFERENCE_NOTE = ("mean over articles of (article mean of x - article mean of y), 'Do not know' left out; 95 % "
                   "percentile bootstrap CI over articles (scipy.stats.bootstrap, 2000 resamples, seed 0)")

BASE_COLUMNS = ["judgement_id", "judge_id", "judge", "simulated", "slot", "article_id", "doc_id", "category",
                "batch", "keyword_id", "keyword", "question", "value", "answer"]
TAIL_COLUMNS = ["submitted_at", "seconds_spent"]
COLUMNS = BASE_COLUMNS + ["in_a", "rank_a", "in_b", "rank_b"] + TAIL_COLUMNS


def method_columns(labels: list[str]) -> list[str]:
    """``in_<label>``, ``rank_<label>`` for every method label (lower case)."""
    return [c for label in labels for c in (f"in_{label.lower()}", f"rank_{label.lower()}")]


def study_labels(engine: Engine, study_id: int) -> list[str]:
    with Session(engine) as session:
        study = session.get(Study, study_id)
        if study is None:
            raise StudyError(f"no study with id {study_id}")
        return [m.label for m in study.methods] or ["A", "B"]


def holm(pvalues: list[float | None]) -> list[float | None]:
    """Holm-adjusted p-values (step-down, made monotone, capped at 1); None stays None and is
    not counted in the family."""
    idx = [i for i, p in enumerate(pvalues) if p is not None]
    m = len(idx)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (m - rank) * float(pvalues[i])))
        out[i] = running
    return out


def answers_frame(engine: Engine, study_id: int, *, include_simulated: bool = False) -> pd.DataFrame:
    """One row per stored answer with method provenance (``in_<label>``/``rank_<label>`` for
    every method: ``in_a``/``rank_a``/``in_b``/``rank_b`` for the paper's two); answers of
    simulated judges only with ``include_simulated``."""
    labels = study_labels(engine, study_id)
    with Session(engine) as session:
        rows = []
        q = (select(Answer, Judgement, Article, StudyKeyword)
             .join(Judgement, Answer.judgement_id == Judgement.id)
             .join(Article, Judgement.article_id == Article.id)
             .join(StudyKeyword, Answer.keyword_id == StudyKeyword.id)
             .join(Judge, Judgement.judge_id == Judge.id)
             .where(Article.study_id == study_id, Judgement.submitted_at.is_not(None),
                    *(() if include_simulated else (Judge.simulated.is_(False),)))
             .options(selectinload(StudyKeyword.sources), selectinload(Judgement.judge))
             .order_by(Judgement.id, Answer.keyword_id, Answer.question))
        for ans, jd, art, kw in session.execute(q):
            ranks = {s.method: s.rank for s in kw.sources}
            row = {"judgement_id": jd.id, "judge_id": jd.judge_id, "judge": jd.judge.name,
                   "simulated": bool(jd.judge.simulated), "slot": jd.slot,
                   "article_id": art.id, "doc_id": art.doc_id, "category": art.category,
                   "batch": art.batch + 1, "keyword_id": kw.id, "keyword": kw.word,
                   "question": ans.question, "value": ans.value, "answer": ANSWERS[ans.value],
                   "submitted_at": jd.submitted_at, "seconds_spent": jd.seconds_spent}
            for label in labels:
                row[f"in_{label.lower()}"] = label in ranks
                row[f"rank_{label.lower()}"] = ranks.get(label)
            rows.append(row)
    frame = pd.DataFrame(rows, columns=BASE_COLUMNS + method_columns(labels) + TAIL_COLUMNS)
    types: dict[str, Any] = {"value": int, "slot": int, "keyword_id": int, "judgement_id": int}
    for label in labels:
        types[f"rank_{label.lower()}"] = "Int64"
        types[f"in_{label.lower()}"] = bool
    return frame.astype(types)


def _f(x: Any) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


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


def paired_ratings(frame: pd.DataFrame, question: str, keywords_per_method: int, x: str = "A",
                   y: str = "B") -> tuple[list[int], list[int]]:
    """Ratings of methods x and y paired by (article, judge, question, rank i); see :data:`PAIRING`."""
    sub = frame[(frame["question"] == question) & (frame["value"] > 0)]
    a_vals: list[int] = []
    b_vals: list[int] = []
    rx, ry = f"rank_{x.lower()}", f"rank_{y.lower()}"
    for _jid, grp in sub.groupby("judgement_id", sort=True):
        by_a = {int(r): int(v) for r, v in zip(grp[rx], grp["value"]) if not pd.isna(r)}
        by_b = {int(r): int(v) for r, v in zip(grp[ry], grp["value"]) if not pd.isna(r)}
        for i in range(1, keywords_per_method + 1):
            if i in by_a and i in by_b:
                a_vals.append(by_a[i])
                b_vals.append(by_b[i])
    return a_vals, b_vals


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


def paired_tests(a: list[float], b: list[float], x: str = "A", y: str = "B") -> dict[str, Any]:
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


def significance(frame: pd.DataFrame, keywords_per_method: int,
                 names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Table 7 rows (rank-paired answers) then robustness rows (article means), per question and
    pair of methods; with more than two methods Holm-corrected per question and level."""
    names = names or {"A": "A", "B": "B"}
    pairs = method_pairs(list(names))
    out = []
    for level in (LEVEL_PAPER, LEVEL_ARTICLES):
        for q in QUESTIONS:
            family = []
            for x, y in pairs:
                a, b = (paired_ratings(frame, q, keywords_per_method, x, y) if level == LEVEL_PAPER
                        else article_means(frame, q, x, y))
                family.append({"level": level, "question": q, "method_x": x, "method_y": y,
                               "name_x": names[x], "name_y": names[y], **paired_tests(a, b, x, y)})
            corrected = len(family) > 1
            p_holm = holm([r["wilcoxon_p_two_sided"] for r in family]) if corrected else None
            s_holm = holm([r["sign_p_two_sided"] for r in family]) if corrected else None
            for i, row in enumerate(family):
                row["p_holm"] = p_holm[i] if corrected else row["wilcoxon_p_two_sided"]
                row["sign_p_holm"] = s_holm[i] if corrected else row["sign_p_two_sided"]
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


def analyze(engine: Engine, study_id: int, *, include_simulated: bool = False) -> dict[str, Any]:
    """Everything the results page and ``study analyze`` print, JSON-serialisable. Answers of
    simulated judges are left out unless ``include_simulated`` (then ``includes_simulated``
    is true and every display must say so)."""
    with Session(engine) as session:
        study = session.get(Study, study_id)
        if study is None:
            raise StudyError(f"no study with id {study_id}")
        methods = [{"label": m.label, "name": m.name, "protocol": m.protocol, "kind": m.kind, "top": m.top,
                    "source": m.source} for m in study.methods]
        info = {"id": study.id, "name": study.name, "corpus": study.corpus, "split": study.split,
                "method_a": study.method_a, "method_b": study.method_b,
                "protocol_a": study.protocol_a, "protocol_b": study.protocol_b, "methods": methods,
                "status": study.status,
                "keywords_per_method": study.keywords_per_method,
                "judges_per_article": study.judges_per_article, "seed": study.seed,
                "articles": len(study.articles)}
        simulated = session.scalar(
            select(func.count(Judgement.id)).join(Judge, Judgement.judge_id == Judge.id)
            .where(Judge.study_id == study_id, Judge.simulated.is_(True), Judgement.submitted_at.is_not(None))) or 0
    frame = answers_frame(engine, study_id, include_simulated=include_simulated)
    names = {m["label"]: m["name"] for m in info["methods"]} or {"A": info["method_a"], "B": info["method_b"]}
    pairs = method_pairs(list(names))
    return {
        "study": info,
        "includes_simulated": bool(include_simulated and simulated),
        "simulated_judgements": int(simulated),
        "counts": {"judgements": int(frame["judgement_id"].nunique()), "answers": len(frame),
                   "judges": int(frame["judge_id"].nunique()),
                   "do_not_know": int((frame["value"] == 0).sum())},
        "distribution": distribution(frame, names),
        "agreement": agreement(frame, names, info["judges_per_article"]),
        "agreement_note": AGREEMENT_NOTE,
        "significance": significance(frame, info["keywords_per_method"], names),
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


def format_report(result: dict[str, Any]) -> str:
    """Plain-text report of :func:`analyze` for the CLI."""
    s = result["study"]
    c = result["counts"]
    described = ", ".join(f"{m['label']} = {m['name']} ({m['protocol']}" + (f", {m['kind']}" if m["kind"] in
                                                                             ("extractor", "imported") else "")
                          + ")" for m in s["methods"])
    lines = [f"study {s['id']} {s['name']!r} ({s['status']}): corpus {s['corpus']} ({s['split']} split), "
             f"{described}, {s['keywords_per_method']} keywords per method, {s['judges_per_article']} judges per article",
             simulated_note(result),
             f"{c['judgements']} submitted judgements by {c['judges']} judges, {c['answers']} answers "
             f"({c['do_not_know']} 'Do not know')", "", "Answer distribution (Fig. 11):"]
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
              f"  {result['pairing']}", f"  {result['article_pairing']}",
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
    lines += ["", f"Differences between methods (Table 7 chart data): {result['difference_note']}"]
    for row in result["differences"]:
        lines.append(f"  {row['method_x']}-{row['method_y']} {row['question']:<9} articles={row['articles']} "
                     f"mean d={_fmt(row['mean_difference'])} 95% CI [{_fmt(row['ci_low'])}, {_fmt(row['ci_high'])}]")
    return "\n".join(lines)
