"""The study's answer, first: one verdict per question (topic, category), pure over the stored
answers (docs/study.md "What the analysis reports"; paper §4.6, Table 7).

For every pair (x, y) of methods and every question, over the paper's pairs (same article,
judge, question and keyword rank, "Do not know" left out; :data:`~.comparison.PAIRING`):

* **how much**: the mean rating difference x − y per paired keyword, and the share of x's and
  of y's paired answers rated *Relevant* and their difference, each with a 95 % CI from a
  cluster bootstrap over articles (the answers of one article share its judges and text, so
  articles are resampled, not answers; 2,000 resamples, seed 0, percentile interval);
* **how sure**: the paper's Wilcoxon signed-rank and sign tests (two-sided), Holm-adjusted over
  the methods' pairs (``p_holm`` / ``sign_p_holm`` of :func:`~.comparison.significance`);
* **which method** the judges rated higher: the sign of the mean difference, called a
  difference only when the Holm-adjusted Wilcoxon p is below :data:`ALPHA`;
* **the agreement** that goes with it: Krippendorff's ordinal alpha of each method's keywords
  on that question (:func:`~.analysis.agreement`);
* **how robust**: the same Wilcoxon test over article means (one pair per article, the
  robustness rows of :func:`~.comparison.significance`), Holm-adjusted likewise; a difference
  the answers show but the article means do not is said so beside it;
* **what was left out**: judgements excluded (simulated judges, the study's exclusion rules)
  as counted by the caller — per reason, where a judgement caught by two rules counts under
  each, and in all, each judgement once — and the answers the pairing leaves out.

:class:`Verdict` is the one reading of it in words: ``study analyze`` and the Study results
page print its :meth:`Verdict.lines`.

Planted intruder keywords (attention checks) have no producing method and never enter here.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .comparison import LEVEL_ARTICLES, LEVEL_PAPER, _f, method_pairs, pairing, significance
from .models import QUESTIONS

#: Significance level of the verdict's wording (Holm-adjusted Wilcoxon p).
ALPHA = 0.05
#: Bootstrap of the verdict's CIs: resamples and seed (fixed, so a verdict is reproducible).
RESAMPLES = 2000
SEED = 0
RELEVANT = 3
VERDICT_NOTE = ("mean rating difference x - y over the paper's paired keywords (1 Irrelevant .. 3 Relevant, "
                "'Do not know' left out) and the share of paired answers rated Relevant, each with a 95 % "
                "cluster-bootstrap CI over articles (2000 resamples, seed 0); Wilcoxon signed-rank and sign "
                "tests two-sided, Holm-adjusted over the methods' pairs; a method is called rated higher "
                f"when the adjusted Wilcoxon p < {ALPHA}; 'over article means': the same Wilcoxon test on "
                "each article's mean rating per method (one pair per article), adjusted likewise")


def _per_article(frame: pd.DataFrame, question: str, max_rank: int, x: str,
                 y: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The paired ratings (x's, y's) of each article, articles with at least one pair."""
    out = []
    for _art, grp in frame.groupby("article_id", sort=True):
        a, b, _left = pairing(grp, question, max_rank, x, y)
        if a:
            out.append((np.asarray(a, dtype=float), np.asarray(b, dtype=float)))
    return out


def _cluster_ci(sums: np.ndarray, counts: np.ndarray) -> tuple[float | None, float | None]:
    """95 % percentile CI of sum(sums)/sum(counts) resampling articles (rows) with replacement."""
    if len(counts) < 2:
        return None, None
    rng = np.random.default_rng(SEED)
    idx = rng.integers(0, len(counts), size=(RESAMPLES, len(counts)))
    stat = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
    low, high = np.percentile(stat, [2.5, 97.5])
    return _f(low), _f(high)


def pair_effect(frame: pd.DataFrame, question: str, max_rank: int, x: str, y: str) -> dict[str, Any]:
    """Mean rating difference x − y and shares rated Relevant over the paired keywords, with
    cluster-bootstrap CIs over articles (module docstring)."""
    arts = _per_article(frame, question, max_rank, x, y)
    n = np.array([len(a) for a, _b in arts], dtype=float)
    d = np.array([float((a - b).sum()) for a, b in arts])
    rx = np.array([float((a == RELEVANT).sum()) for a, _b in arts])
    ry = np.array([float((b == RELEVANT).sum()) for _a, b in arts])
    pairs = int(n.sum())
    row: dict[str, Any] = {"pairs": pairs, "articles": len(arts), "mean_difference": None, "ci_low": None,
                           "ci_high": None, "relevant_x": None, "relevant_y": None, "relevant_difference": None,
                           "relevant_ci_low": None, "relevant_ci_high": None}
    if not pairs:
        return row
    row["mean_difference"] = float(d.sum() / pairs)
    row["ci_low"], row["ci_high"] = _cluster_ci(d, n)
    row["relevant_x"], row["relevant_y"] = float(rx.sum() / pairs), float(ry.sum() / pairs)
    row["relevant_difference"] = row["relevant_x"] - row["relevant_y"]
    row["relevant_ci_low"], row["relevant_ci_high"] = _cluster_ci(rx - ry, n)
    return row


def _fmt(x: float | None, spec: str = ".2f") -> str:
    return "—" if x is None else format(x, spec)


def _p(x: float | None) -> str:
    return "= —" if x is None else ("< 0.001" if x < 0.001 else f"= {x:.3f}")


def _sentence(q: str, row: dict[str, Any], names: Mapping[str, str], alphas: Mapping[str, float | None],
              family: int) -> str:
    x, y = row["method_x"], row["method_y"]
    if not row["pairs"]:
        return f"{q}: {x} and {y} have no paired answers yet."
    d = row["mean_difference"]
    hi, lo = (x, y) if d >= 0 else (y, x)
    head = (f"{q}: {hi} ({names[hi]}) rated higher than {lo} ({names[lo]})" if row["significant"]
            else f"{q}: no significant difference between {x} ({names[x]}) and {y} ({names[y]})")
    holm = f", Holm over {family} pairs" if family > 1 else ""
    return (f"{head}: {x} − {y} = {d:+.2f} points per keyword (95 % CI {_fmt(row['ci_low'], '+.2f')} to "
            f"{_fmt(row['ci_high'], '+.2f')}); Relevant {row['relevant_x']:.0%} vs {row['relevant_y']:.0%} "
            f"({_fmt(_pct(row['relevant_difference']), '+.0f')} points, CI {_fmt(_pct(row['relevant_ci_low']), '+.0f')} "
            f"to {_fmt(_pct(row['relevant_ci_high']), '+.0f')}); Wilcoxon p {_p(row['p_holm'])}, sign test p "
            f"{_p(row['sign_p_holm'])}{holm}; {_over_articles(row, family)}; agreement α {x} {_fmt(alphas.get(x))}, "
            f"{y} {_fmt(alphas.get(y))}; {row['pairs']} pairs in {row['articles']} articles.")


def _after_holm(family: int) -> str:
    return " after Holm" if family > 1 else ""


def _over_articles(row: Mapping[str, Any], family: int) -> str:
    """The robustness test of a pair in words: its (Holm-adjusted) Wilcoxon p over article means,
    and "not significant" when the answers show a difference the article means do not."""
    p = f"Wilcoxon p {_p(row['article_p_holm'])}"
    if row["significant"] and not row["article_significant"]:
        return f"over article means not significant{_after_holm(family)} ({p})"
    return f"over article means {p}"


def _pct(x: float | None) -> float | None:
    return None if x is None else 100 * x


def verdict(frame: pd.DataFrame, methods: Sequence[Mapping[str, Any]], *,
            agreement_rows: Sequence[Mapping[str, Any]] = (),
            excluded: Mapping[str, int] | None = None, excluded_in_all: int | None = None) -> dict[str, Any]:
    """One verdict per question, computed from ``frame`` (:func:`~.answers.answers_frame`: the
    stored answers of the judgements kept) alone. ``methods``: ``label``, ``name``, ``top`` of
    each method in label order. ``agreement_rows``: :func:`~.analysis.agreement` of the same
    frame. ``excluded``: judgements left out before ``frame`` was made, by reason (reported; a
    judgement caught by two exclusion rules counts under each); ``excluded_in_all``: the
    judgements left out, each once (default: the sum of ``excluded``). JSON-ready; read it in
    words with :class:`Verdict`."""
    names = {m["label"]: m["name"] for m in methods}
    shown = {m["label"]: int(m["top"]) for m in methods}
    if "intruder" in frame.columns:
        frame = frame[~frame["intruder"]]
    tests = significance(frame, shown, names)
    sig = [r for r in tests if r["level"] == LEVEL_PAPER]
    robust = {(r["question"], r["method_x"], r["method_y"]): r for r in tests if r["level"] == LEVEL_ARTICLES}
    family = len(method_pairs(list(names)))
    out = []
    for q in QUESTIONS:
        alphas = {r["method"]: r["krippendorff_alpha_ordinal"] for r in agreement_rows if r["question"] == q}
        rows = []
        for test in (r for r in sig if r["question"] == q):
            x, y = test["method_x"], test["method_y"]
            effect = pair_effect(frame, q, min(shown[x], shown[y]), x, y)
            p = test["p_holm"]
            d = effect["mean_difference"]
            significant = p is not None and p < ALPHA and d is not None and d != 0
            higher = None if d is None or d == 0 else (x if d > 0 else y)
            art = robust[(q, x, y)]
            art_p = art["p_holm"]
            row = {"question": q, "method_x": x, "method_y": y, "name_x": names[x], "name_y": names[y], **effect,
                   "wilcoxon_p": test["wilcoxon_p_two_sided"], "p_holm": p, "sign_p": test["sign_p_two_sided"],
                   "sign_p_holm": test["sign_p_holm"], "rated_higher": higher if significant else None,
                   "higher_mean": higher, "significant": significant,
                   "article_pairs": art["pairs"], "article_p_holm": art_p,
                   "article_significant": (significant and art_p is not None and art_p < ALPHA
                                           and art["direction"] == f"{higher} rated higher"),
                   "alpha_x": alphas.get(x), "alpha_y": alphas.get(y)}
            row["sentence"] = _sentence(q, row, names, alphas, family)
            rows.append(row)
        winners = {r["rated_higher"] for r in rows if r["rated_higher"]}
        losers = {(r["method_y"] if r["rated_higher"] == r["method_x"] else r["method_x"])
                  for r in rows if r["rated_higher"]}
        best = sorted(winners - losers)
        out.append({"question": q, "question_text": QUESTIONS[q], "pairs": rows,
                    "rated_higher": best[0] if len(best) == 1 else None,
                    "headline": rows[0]["sentence"] if len(rows) == 1 else _many(q, rows, best, names)})
    excluded = dict(excluded or {})
    return {"questions": out, "excluded": excluded,
            "excluded_in_all": int(sum(excluded.values()) if excluded_in_all is None else excluded_in_all),
            "alpha": ALPHA, "note": VERDICT_NOTE}


def _many(q: str, rows: list[dict[str, Any]], best: list[str], names: Mapping[str, str]) -> str:
    wins = [f"{r['rated_higher']} > {r['method_y'] if r['rated_higher'] == r['method_x'] else r['method_x']}"
            for r in rows if r["rated_higher"]]
    if not wins:
        return f"{q}: no pair of methods differs significantly (Holm over {len(rows)} pairs)."
    lead = (f"{best[0]} ({names[best[0]]}) rated higher than every method it differs from; "
            if len(best) == 1 else "")
    fragile = [f"{r['method_x']}−{r['method_y']} p {_p(r['article_p_holm'])}"
               for r in rows if r["rated_higher"] and not r["article_significant"]]
    robust = (f"; over article means, not significant after Holm ({', '.join(fragile)})" if fragile
              else "; significant over article means too")
    return f"{q}: {lead}significant after Holm over {len(rows)} pairs: " + ", ".join(wins) + robust + "."


@dataclass(frozen=True)
class Verdict:
    """The verdict of :func:`verdict` (the JSON-ready dict ``analyze`` returns under
    ``verdict``) in words: the one place its lines are put together, printed alike by
    ``study analyze`` and the Study results page."""

    data: Mapping[str, Any]
    #: How a method's (stored, possibly imported) name is set into a line: as it is for the
    #: terminal (``study analyze`` escapes whole lines); the Study results page isolates each
    #: name (``dkw_app.untrusted.isolate``), so that no bidi control in one reorders the line.
    name: Callable[[str], str] = str

    @property
    def questions(self) -> list[Mapping[str, Any]]:
        return list(self.data["questions"])

    @property
    def note(self) -> str:
        """How the verdict was computed (a caption under it)."""
        return str(self.data["note"])

    def question_lines(self, item: Mapping[str, Any]) -> list[str]:
        """One question's lines: with one pair of methods its sentence; with more the headline,
        then one sentence per pair (difference, CIs, p, article means, agreement). Each name
        goes through :attr:`name`; with ``str`` the lines are the stored ``sentence`` and
        ``headline``, word for word."""
        rows, q = list(item["pairs"]), item["question"]
        names = {r[f"method_{s}"]: self.name(r[f"name_{s}"]) for r in rows for s in "xy"}
        sentences = [_sentence(q, r, names, {r["method_x"]: r["alpha_x"], r["method_y"]: r["alpha_y"]}, len(rows))
                     for r in rows]
        if len(sentences) == 1:
            return sentences
        return [_many(q, rows, [item["rated_higher"]] if item["rated_higher"] else [], names), *sentences]

    def pair_sentences(self) -> list[str]:
        """Every question's lines (:meth:`question_lines`), topic first."""
        return [line for item in self.questions for line in self.question_lines(item)]

    def excluded_line(self) -> str:
        """How many judgements were left out of the verdict in all (each once), and why (a
        judgement caught by two rules counts under each), in one line."""
        parts = [f"{n} {reason}" for reason, n in self.data["excluded"].items() if n]
        if not parts:
            return "no judgement excluded"
        total = self.data["excluded_in_all"]
        counted = sum(self.data["excluded"].values())  # more than in all: a judgement under two rules
        overlap = "; a judgement caught by two rules counts under each" if counted > total else ""
        return f"{total} judgement(s) excluded in all ({'; '.join(parts)}{overlap})"

    def lines(self) -> list[str]:
        """The verdict as printed: :meth:`pair_sentences`, then :meth:`excluded_line`."""
        return [*self.pair_sentences(), self.excluded_line()]

    def text(self) -> str:
        return "\n".join(self.lines())


def rule_reason(rule: str) -> str:
    """The reason under which an exclusion rule's judgements are counted in ``excluded``."""
    return f"by rule '{rule}'"
