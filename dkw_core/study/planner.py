"""Sample size before the study: how many articles x judges detect a chosen rating difference
at 80 % power under the paper's tests (docs/study.md "Sample size").

**Model, calibrated on a pilot.** A rating is a latent score rounded to 1..3:
``round(mu ± delta/2 + article + keyword + noise)``, the first method getting ``+delta/2``.
The variance components come from the pilot's answers ("Do not know" and intruders left out),
by the method of moments: ``noise`` from the spread of judges on the same keyword and question,
``keyword`` from the spread of keyword means within an article, ``article`` from the spread of
article means; ``mu`` is the pilot's mean rating and each answer is "Do not know" with the
pilot's share. The pilot is the study's own judgements, or, before any, its simulated judges'
(``study simulate``), in both cases only the answers the analysis keeps: the study's exclusion
rules applied by :func:`~.exclusion.apply_rules`, the analysis's own code (:func:`plan_study`
says how many answers it used of how many). ``delta`` is the chosen difference in rating points
on the latent scale; the realised mean difference after rounding is reported beside it.

**Designs.** Articles x judges per article; the judges per article are the study's fixed number
(:class:`~.settings.StudyConfig`) unless other numbers are asked for explicitly.

**Power.** For every design ``simulations`` studies are drawn (seeded, all of a design at once);
each is tested as the paper's Table 7 does — Wilcoxon signed-rank and sign test over the pairs
of keyword ranks 1..K of the two methods (two-sided) — and, honestly, also by the robustness
test over article means (one pair per article, no pseudo-replication). With more than two
methods a test counts at Holm's strictest step, ``alpha / pairs``. Power is the share of
simulated studies with p < that level, given with its Monte Carlo standard error
``sqrt(p (1 - p) / simulations)``: at the default :data:`PLAN_SIMULATIONS` it is at most
1.6 points. The smallest design reaching :data:`TARGET` by the paper's Wilcoxon is named.
Column names and sentences for a reader (:data:`PLAIN_COLUMNS`, :func:`plan_table`,
:func:`level_text`, :func:`pilot_text`, :func:`power_text`, :func:`smallest_text`) are shared
by the command line and the Study admin page.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy.engine import Engine

from ..errors import InputError
from ..lazy import lazy_module
from .settings import PLAN_SIMULATIONS

stats = lazy_module("scipy.stats")  # imported on first use: the study pages open without it

TARGET = 0.8
#: Cells (articles x judges x keywords x simulated studies) drawn at once: bounds memory.
CHUNK_CELLS = 1_000_000
PLAN_NOTE = ("Model: a rating is a latent score rounded to 1..3 — the pilot's mean ± difference/2 plus an article, "
             "a keyword and a judge term — with the spreads and the 'Do not know' share estimated from the pilot's "
             "answers (method of moments). Each simulated study is tested like the paper's Table 7 (Wilcoxon "
             "signed-rank and sign test over the pairs of keyword ranks, two-sided) and over article means "
             "(robustness: one pair per article, no judge counted twice).")
#: Column names of :func:`plan_table` (the command line's table and the Study admin page's).
PLAIN_COLUMNS: dict[str, str] = {
    "articles": "articles",
    "judges": "judges per article",
    "judgements": "judgements",
    "power_wilcoxon": "power, Wilcoxon over keyword ranks (the paper's test)",
    "power_sign": "power, sign test over keyword ranks",
    "power_article_means": "power, Wilcoxon over article means (robustness)",
    "mean_rated_difference": "realised difference after rounding (points)",
}
POWERS = ("wilcoxon", "sign", "article_means")


def pilot_parameters(frame: pd.DataFrame) -> dict[str, float]:
    """``mu``, ``sd_article``, ``sd_keyword``, ``sd_noise`` and ``do_not_know`` from answers
    (:func:`~.answers.answers_frame`; intruders and "Do not know" left out of the scores);
    ``pilot_answers``: the answers used (intruders left out)."""
    if "intruder" in frame.columns:
        frame = frame[~frame["intruder"]]
    if frame.empty:
        raise InputError("the pilot has no answers: let judges (or `study simulate`) judge some articles first")
    dnk = float((frame["value"] == 0).mean())
    rated = frame[frame["value"] > 0]
    unit = rated.groupby(["keyword_id", "question"])["value"]
    within = unit.var(ddof=1).dropna()
    noise = float(within.mean()) if len(within) else 0.25
    judges = float(unit.size().mean())
    kw_means = rated.groupby(["article_id", "question", "keyword_id"])["value"].mean()
    kw_var = kw_means.groupby(level=[0, 1]).var(ddof=1).dropna()
    keyword = max(0.0, float(kw_var.mean()) - noise / judges) if len(kw_var) else 0.0
    per_article = kw_means.groupby(level=[0, 1]).size().mean()
    art_means = rated.groupby(["article_id", "question"])["value"].mean()
    article = max(0.0, float(art_means.var(ddof=1)) - keyword / per_article - noise / (judges * per_article)) \
        if len(art_means) > 1 else 0.0
    return {"mu": float(rated["value"].mean()), "sd_article": article ** 0.5, "sd_keyword": keyword ** 0.5,
            "sd_noise": noise ** 0.5, "do_not_know": dnk, "pilot_answers": int(len(frame))}


def _simulate(params: dict[str, float], delta: float, articles: int, judges: int, keywords: int, studies: int,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``studies`` simulated studies at once: ratings of x and y (0 = "Do not know"), shape
    (studies, articles, judges, keywords)."""
    shape = (studies, articles, judges, keywords)
    art = rng.normal(0, params["sd_article"], (studies, articles, 1, 1))

    def ratings(shift: float) -> np.ndarray:
        kw = rng.normal(0, params["sd_keyword"], (studies, articles, 1, keywords))
        latent = params["mu"] + shift + art + kw + rng.normal(0, params["sd_noise"], shape)
        values = np.clip(np.rint(latent), 1, 3)
        values[rng.random(shape) < params["do_not_know"]] = 0
        return values

    return ratings(delta / 2), ratings(-delta / 2)


def _wilcoxon(d: np.ndarray) -> np.ndarray:
    """Two-sided Wilcoxon signed-rank p of every row of differences (the paper's: zeros dropped,
    normal approximation, no continuity correction), by SciPy along the rows; 1 for a row
    without a non-zero difference."""
    p = np.ones(len(d))
    some = (d != 0).any(axis=1)
    if some.any():
        p[some] = stats.wilcoxon(d[some], zero_method="wilcox", correction=False, method="approx", axis=1).pvalue
    return p


def _sign(d: np.ndarray) -> np.ndarray:
    """Two-sided sign test p of every row (zeros dropped): ``binomtest(k, n, 0.5)``, which for
    p = 1/2 is ``min(1, 2 P(X <= min(k, n - k)))`` — SciPy's binomial CDF along the rows."""
    pos, neg = (d > 0).sum(axis=1), (d < 0).sum(axis=1)
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(pos, neg), pos + neg, 0.5))
    p[pos + neg == 0] = 1.0
    return p


def _tests(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(Wilcoxon p, sign p, article-means Wilcoxon p, mean rated difference) of each simulated
    study (first axis of :func:`_simulate`'s arrays). A pair with a "Do not know" counts as no
    difference, which the tests drop like a tie."""
    studies, articles = a.shape[:2]
    fa, fb = a.reshape(studies, articles, -1), b.reshape(studies, articles, -1)
    rated = (fa > 0) & (fb > 0)
    d = np.where(rated, fa - fb, 0.0).reshape(studies, -1)
    with warnings.catch_warnings():  # an article whose every answer was "Do not know": NaN, no difference
        warnings.simplefilter("ignore", RuntimeWarning)
        da = np.nanmean(np.where(fa > 0, fa, np.nan), axis=2) - np.nanmean(np.where(fb > 0, fb, np.nan), axis=2)
    mean = d.sum(axis=1) / np.maximum(rated.reshape(studies, -1).sum(axis=1), 1)
    return _wilcoxon(d), _sign(d), _wilcoxon(np.nan_to_num(da, nan=0.0)), mean


def mc_error(power: float, simulations: int) -> float:
    """Monte Carlo (binomial) standard error of a simulated power: ``sqrt(p (1 - p) / n)``."""
    return math.sqrt(power * (1 - power) / simulations)


def counts(text: str) -> list[int]:
    """``"25,50,100"`` -> ``[25, 50, 100]`` (designs typed on the admin page), else one line."""
    try:
        values = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise InputError(f"expected whole numbers separated by commas, got {str(text)[:40]!r}") from None
    if not values or min(values) < 1 or max(values) > 100_000:
        raise InputError("expected whole numbers between 1 and 100000 separated by commas")
    return values


def plan(params: dict[str, float], *, difference: float, articles: Sequence[int], judges: Sequence[int],
         keywords: int = 5, methods: int = 2, simulations: int = PLAN_SIMULATIONS, alpha: float = 0.05,
         seed: int = 0) -> dict[str, Any]:
    """Power of every design (articles x judges) to detect ``difference`` rating points, each
    with its Monte Carlo standard error (``se_<test>``)."""
    if not 0 < abs(difference) <= 2:
        raise InputError(f"the rating difference to detect must be between 0 and 2 points (not 0), got {difference}")
    if not articles or not judges or min(articles) < 2 or min(judges) < 1:
        raise InputError("give at least one design: articles >= 2 and judges >= 1")
    if not 10 <= simulations <= 100_000 or keywords < 1 or methods < 2:
        raise InputError("simulations must be between 10 and 100000, keywords >= 1, methods >= 2")
    pairs = methods * (methods - 1) // 2
    level = alpha / pairs
    rng = np.random.default_rng(seed)
    rows = []
    for n in sorted(set(articles)):
        for m in sorted(set(judges)):
            per_chunk = max(1, CHUNK_CELLS // (n * m * keywords))
            parts, done = [], 0
            while done < simulations:
                size = min(per_chunk, simulations - done)
                parts.append(np.column_stack(_tests(*_simulate(params, difference, n, m, keywords, size, rng))))
                done += size
            got = np.vstack(parts)
            row: dict[str, Any] = {"articles": n, "judges": m, "judgements": n * m}
            for i, test in enumerate(POWERS):
                power = float((got[:, i] < level).mean())
                row[f"power_{test}"] = power
                row[f"se_{test}"] = mc_error(power, simulations)
            row["mean_rated_difference"] = float(got[:, 3].mean())
            rows.append(row)
    enough = [r for r in rows if r["power_wilcoxon"] >= TARGET]
    smallest = min(enough, key=lambda r: (r["judgements"], r["articles"])) if enough else None
    return {"difference": difference, "keywords": keywords, "methods": methods, "pairs": pairs, "alpha": alpha,
            "level": level, "simulations": simulations, "seed": seed, "mc_error_max": mc_error(0.5, simulations),
            "parameters": params, "designs": rows, "smallest": smallest, "target": TARGET, "note": PLAN_NOTE}


def plan_study(engine: Engine, study_id: int, *, judges: Sequence[int] | None = None, **kwargs: Any) -> dict[str, Any]:
    """:func:`plan` calibrated on the answers the analysis keeps — the study's judgements (its
    simulated judges' before any real ones) less those of judges its exclusion rules exclude
    (:func:`~.exclusion.apply_rules`) and the attention checks; ``pilot_counts`` says how many
    of how many. ``judges`` defaults to the study's fixed judges per article, ``keywords`` and
    ``methods`` to the study's."""
    from .answers import answers_frame
    from .creation import study_settings
    from .exclusion import apply_rules, study_rules

    settings = study_settings(engine, study_id)
    frame = answers_frame(engine, study_id)
    source = "the study's judgements"
    if frame.empty:
        frame = answers_frame(engine, study_id, include_simulated=True)
        source = "the study's simulated judges (study simulate)"
    kept, _figures, removed = apply_rules(frame, study_rules(engine, study_id))
    checks = int(kept["intruder"].sum()) if len(kept) else 0
    if len(frame) and len(kept) == checks:
        raise InputError(f"the pilot has no answers the analysis keeps: the exclusion rules leave out "
                         f"{removed['answers']} of the {len(frame)} answers of {source} (see each judge against "
                         f"the rules)")
    fixed = int(settings["judges_per_article"])
    kwargs.setdefault("keywords", min(int(m["top"]) for m in settings["methods"]))
    kwargs.setdefault("methods", len(settings["methods"]))
    result = plan(pilot_parameters(kept), judges=[fixed] if judges is None else judges, **kwargs)
    result["pilot"] = source
    result["pilot_counts"] = {"stored": int(len(frame)), "used": int(result["parameters"]["pilot_answers"]),
                              "excluded_by_rules": int(removed["answers"]), "excluded_judges": int(removed["judges"]),
                              "attention_checks": checks}
    result["judges_per_article"] = fixed
    return result


def level_text(result: dict[str, Any]) -> str:
    """``significance level 0.0167 (0.05 / 3 pairs, Holm's strictest step)``, or for two
    methods ``significance level 0.05 (two methods, one comparison)``."""
    if result.get("pairs", 1) <= 1:
        return f"significance level {result['level']:.3g} (two methods, one comparison)"
    return (f"significance level {result['level']:.3g} ({result['alpha']:g} / {result['pairs']} pairs, "
            f"Holm's strictest step)")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def pilot_text(result: dict[str, Any]) -> str:
    """Where the pilot comes from, how many answers it used of how many, and what it measured."""
    p = result["parameters"]
    c = result.get("pilot_counts")
    if c is None:
        used = f"Pilot: given parameters ({_count(p['pilot_answers'], 'answer')})."
    else:
        left = ([f"{_count(c['excluded_by_rules'], 'answer')} of {_count(c['excluded_judges'], 'judge')} the "
                 f"exclusion rules exclude"] if c["excluded_by_rules"] else [])
        left += [f"{_count(c['attention_checks'], 'answer')} to attention checks"] if c["attention_checks"] else []
        used = (f"Pilot: {result['pilot']}, {c['used']} of {c['stored']} answers used. "
                + ("Left out, as the analysis leaves them out: " + " and ".join(left) + "." if left
                   else "No judge is excluded by the rules and no answer is an attention check."))
    return (f"{used} It measured a mean rating of {p['mu']:.2f} (1 Irrelevant .. 3 Relevant), standard "
            f"deviations of {p['sd_article']:.2f} between articles, {p['sd_keyword']:.2f} between keywords and "
            f"{p['sd_noise']:.2f} between judges of one keyword, and {100 * p['do_not_know']:.0f} % 'Do not know'.")


def power_text(result: dict[str, Any]) -> str:
    """What a power in the table is, at which level, and its Monte Carlo error."""
    return (f"Power: the share of {result['simulations']} simulated studies per design (seed {result['seed']}) in "
            f"which a two-sided test finds the difference of {result['difference']:+g} rating points between two "
            f"methods ({result['keywords']} keywords each), at {level_text(result)}. ± is the Monte Carlo "
            f"standard error of that share, sqrt(p (1 − p) / {result['simulations']}): at most "
            f"{100 * result['mc_error_max']:.1f} points.")


def smallest_text(result: dict[str, Any]) -> str:
    """The smallest design reaching the target power by the paper's test, in one sentence."""
    best = result["smallest"]
    target = f"{result['target']:.0%}".replace("%", " %")
    if best is None:
        return f"None of these designs reaches {target} power by the paper's Wilcoxon test."
    text = (f"Smallest design with {target} power by the paper's Wilcoxon test: {best['articles']} articles × "
            f"{best['judges']} judges per article ({best['judgements']} judgements).")
    fixed = result.get("judges_per_article")
    if fixed is not None and best["judges"] != fixed:
        text += (f" This study gives each article to {fixed} judges: {best['judges']} needs a new study "
                 f"with that number.")
    return text


def _percent(power: float, se: float) -> str:
    return f"{100 * power:.0f} % ± {100 * se:.1f}"


def plan_table(result: dict[str, Any]) -> pd.DataFrame:
    """The designs as text for a reader, under :data:`PLAIN_COLUMNS`: each power with ± its
    Monte Carlo standard error in points."""
    rows = []
    for r in result["designs"]:
        row = {"articles": str(r["articles"]), "judges": str(r["judges"]), "judgements": str(r["judgements"])}
        for test in POWERS:
            row[f"power_{test}"] = _percent(r[f"power_{test}"], r[f"se_{test}"])
        row["mean_rated_difference"] = f"{r['mean_rated_difference']:+.3f}"
        rows.append(row)
    return pd.DataFrame(rows, columns=list(PLAIN_COLUMNS)).rename(columns=PLAIN_COLUMNS)


def _text_table(frame: pd.DataFrame, width: int = 13) -> list[str]:
    """A text table whose headers wrap at word boundaries onto several lines."""
    import textwrap

    cols = [(c, [str(v) for v in frame[c]]) for c in frame.columns]
    widths = [max([len(v) for v in values] + [min(width, len(c))]) for c, values in cols]
    heads = [textwrap.wrap(c, w) or [""] for (c, _), w in zip(cols, widths)]
    widths = [max([w] + [len(h) for h in head]) for w, head in zip(widths, heads)]
    lines = []
    for i in range(max(len(h) for h in heads)):
        lines.append("  ".join((h[i] if i < len(h) else "").rjust(w) for h, w in zip(heads, widths)))
    for j in range(len(frame)):
        lines.append("  ".join(values[j].rjust(w) for (_, values), w in zip(cols, widths)))
    return lines


def format_plan(result: dict[str, Any]) -> str:
    """The plan for a terminal: what was simulated, the pilot, the table, the smallest design."""
    lines = [f"Sample size to detect a difference of {result['difference']:+g} rating points "
             f"({result['methods']} methods, {result['keywords']} keywords each).",
             pilot_text(result), power_text(result), "", *_text_table(plan_table(result)), "",
             smallest_text(result), result["note"]]
    return "\n".join(lines)
