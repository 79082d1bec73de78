"""Sample size before the study: how many articles x judges detect a chosen rating difference
at 80 % power under the paper's tests (docs/study.md "Sample size").

**Model, calibrated on a pilot.** A rating is a latent score rounded to 1..3:
``round(mu ± delta/2 + article + keyword + noise)``, the first method getting ``+delta/2``.
The variance components come from the pilot's answers ("Do not know" and intruders left out),
by the method of moments: ``noise`` from the spread of judges on the same keyword and question,
``keyword`` from the spread of keyword means within an article, ``article`` from the spread of
article means; ``mu`` is the pilot's mean rating and each answer is "Do not know" with the
pilot's share. The pilot is the study's own judgements, or, before any, its simulated judges'
(``study simulate``). ``delta`` is the chosen difference in rating points on the latent scale;
the realised mean difference after rounding is reported beside it.

**Power.** For every design (articles, judges) ``simulations`` studies are drawn (seeded);
each is tested as the paper's Table 7 does — Wilcoxon signed-rank and sign test over the pairs
of keyword ranks 1..K of the two methods (two-sided) — and, honestly, also by the robustness
test over article means (one pair per article, no pseudo-replication). With more than two
methods a test counts at Holm's first step, ``alpha / pairs``. Power is the share of
simulated studies with p < that level; the smallest design reaching :data:`TARGET` by the
paper's Wilcoxon is named.
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy.engine import Engine

from ..errors import InputError
from ..lazy import lazy_module

stats = lazy_module("scipy.stats")  # imported on first use: the study pages open without it

TARGET = 0.8
PLAN_NOTE = ("latent score rounded to 1..3: mu ± delta/2 + article + keyword + judge noise, variance components "
             "and 'Do not know' share from the pilot's answers (method of moments); per design, seeded simulated "
             "studies tested like Table 7 (Wilcoxon signed-rank and sign test over rank pairs, two-sided) and over "
             "article means (robustness); power = share with p < alpha (alpha / pairs with more than two methods)")


def pilot_parameters(frame: pd.DataFrame) -> dict[str, float]:
    """``mu``, ``sd_article``, ``sd_keyword``, ``sd_noise`` and ``do_not_know`` from answers
    (:func:`~.analysis.answers_frame`; intruders and "Do not know" left out of the scores)."""
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


def _simulate(params: dict[str, float], delta: float, articles: int, judges: int, keywords: int,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One simulated study: ratings of x and y (0 = "Do not know") per article, judge and rank."""
    shape = (articles, judges, keywords)
    art = rng.normal(0, params["sd_article"], (articles, 1, 1))

    def ratings(shift: float) -> np.ndarray:
        kw = rng.normal(0, params["sd_keyword"], (articles, 1, keywords))
        latent = params["mu"] + shift + art + kw + rng.normal(0, params["sd_noise"], shape)
        values = np.clip(np.rint(latent), 1, 3)
        values[rng.random(shape) < params["do_not_know"]] = 0
        return values

    return ratings(delta / 2), ratings(-delta / 2), np.repeat(np.arange(articles), judges * keywords)


def _tests(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """(Wilcoxon p, sign p, article-means Wilcoxon p, mean rated difference) of one study."""
    fa, fb = a.reshape(len(a), -1), b.reshape(len(b), -1)
    keep = (fa > 0) & (fb > 0)
    d = (fa - fb)[keep]
    nz = d[d != 0]
    if len(nz) == 0:
        return 1.0, 1.0, 1.0, 0.0
    w = stats.wilcoxon(nz, zero_method="wilcox", correction=False, method="approx").pvalue
    s = stats.binomtest(int((nz > 0).sum()), len(nz), 0.5).pvalue
    ma = np.where(fa > 0, fa, np.nan)
    mb = np.where(fb > 0, fb, np.nan)
    with warnings.catch_warnings():  # an article whose every answer was "Do not know": NaN, dropped below
        warnings.simplefilter("ignore", RuntimeWarning)
        da = np.nanmean(ma, axis=1) - np.nanmean(mb, axis=1)
    da = da[~np.isnan(da) & (da != 0)]
    r = stats.wilcoxon(da, zero_method="wilcox", correction=False, method="approx").pvalue if len(da) else 1.0
    return float(w), float(s), float(r), float(d.mean())


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
         keywords: int = 5, methods: int = 2, simulations: int = 200, alpha: float = 0.05,
         seed: int = 0) -> dict[str, Any]:
    """Power of every design (articles x judges) to detect ``difference`` rating points."""
    if not 0 < abs(difference) <= 2:
        raise InputError(f"the rating difference to detect must be between 0 and 2 points (not 0), got {difference}")
    if not articles or not judges or min(articles) < 2 or min(judges) < 1:
        raise InputError("give at least one design: articles >= 2 and judges >= 1")
    if not 10 <= simulations <= 100_000 or keywords < 1 or methods < 2:
        raise InputError("simulations must be between 10 and 100000, keywords >= 1, methods >= 2")
    level = alpha / (methods * (methods - 1) / 2)
    rng = np.random.default_rng(seed)
    rows = []
    for n in sorted(set(articles)):
        for m in sorted(set(judges)):
            got = np.array([_tests(*_simulate(params, difference, n, m, keywords, rng)[:2])
                            for _ in range(simulations)])
            rows.append({"articles": n, "judges": m, "judgements": n * m,
                         "power_wilcoxon": float((got[:, 0] < level).mean()),
                         "power_sign": float((got[:, 1] < level).mean()),
                         "power_article_means": float((got[:, 2] < level).mean()),
                         "mean_rated_difference": float(got[:, 3].mean())})
    enough = [r for r in rows if r["power_wilcoxon"] >= TARGET]
    smallest = min(enough, key=lambda r: (r["judgements"], r["articles"])) if enough else None
    return {"difference": difference, "keywords": keywords, "methods": methods, "alpha": alpha, "level": level,
            "simulations": simulations, "seed": seed, "parameters": params, "designs": rows,
            "smallest": smallest, "target": TARGET, "note": PLAN_NOTE}


def plan_study(engine: Engine, study_id: int, **kwargs: Any) -> dict[str, Any]:
    """:func:`plan` calibrated on the study's judgements (its simulated judges' before any real
    ones); ``keywords`` and ``methods`` default to the study's."""
    from .analysis import answers_frame
    from .creation import study_settings

    settings = study_settings(engine, study_id)
    frame = answers_frame(engine, study_id)
    source = "the study's judgements"
    if frame.empty:
        frame = answers_frame(engine, study_id, include_simulated=True)
        source = "the study's simulated judges (study simulate)"
    kwargs.setdefault("keywords", min(int(m["top"]) for m in settings["methods"]))
    kwargs.setdefault("methods", len(settings["methods"]))
    result = plan(pilot_parameters(frame), **kwargs)
    result["pilot"] = source
    return result


def format_plan(result: dict[str, Any]) -> str:
    p = result["parameters"]
    lines = [f"Sample size to detect a difference of {result['difference']:+.2f} rating points "
             f"({result['keywords']} + {result['keywords']} keywords, {result['methods']} methods, alpha "
             f"{result['alpha']}, level {result['level']:.4g}), {result['simulations']} simulated studies per design, "
             f"seed {result['seed']}",
             f"pilot: {result.get('pilot', 'given parameters')} ({p['pilot_answers']} answers): mu {p['mu']:.2f}, "
             f"sd article {p['sd_article']:.2f}, keyword {p['sd_keyword']:.2f}, judge noise {p['sd_noise']:.2f}, "
             f"'Do not know' {p['do_not_know']:.0%}",
             f"{'articles':>8} {'judges':>6} {'Wilcoxon':>9} {'sign':>6} {'art.means':>9} {'rated d':>8}"]
    for r in result["designs"]:
        lines.append(f"{r['articles']:>8} {r['judges']:>6} {r['power_wilcoxon']:>9.0%} {r['power_sign']:>6.0%} "
                     f"{r['power_article_means']:>9.0%} {r['mean_rated_difference']:>+8.3f}")
    best = result["smallest"]
    lines.append(f"smallest design with {result['target']:.0%} power (paper's Wilcoxon): "
                 + (f"{best['articles']} articles x {best['judges']} judges" if best else "none of these"))
    lines.append(f"({result['note']})")
    return "\n".join(lines)
