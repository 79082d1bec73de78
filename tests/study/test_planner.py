"""The sample-size planner (dkw_core/study/planner.py): pilot calibration and simulated power."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sqlalchemy import text

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.analysis import analyze
from dkw_core.study.answers import answers_frame
from dkw_core.study.exclusion import apply_rules, study_rules
from dkw_core.study.planner import (
    PLAIN_COLUMNS,
    _tests,
    format_plan,
    level_text,
    pilot_parameters,
    pilot_text,
    plan,
    plan_study,
    plan_table,
    smallest_text,
)
from dkw_core.study.settings import PLAN_SIMULATIONS, ExclusionRules
from dkw_core.study.simulate import simulate
from dkw_core.study.store import get_study, write_session

from .fakes import CATS, category_provider, disjoint_provider, make_docs

PARAMS = {"mu": 2.0, "sd_article": 0.3, "sd_keyword": 0.3, "sd_noise": 0.6, "do_not_know": 0.05, "pilot_answers": 1}


def _frame(sd_article, sd_keyword, sd_noise, articles=300, keywords=6, judges=4, seed=0):
    """Answers drawn from the planner's own model (no rounding clip effects: mu 2, small sds)."""
    rng = np.random.default_rng(seed)
    rows = []
    for a in range(articles):
        art = rng.normal(0, sd_article)
        for k in range(keywords):
            kw = rng.normal(0, sd_keyword)
            for _j in range(judges):
                v = int(np.clip(np.rint(2 + art + kw + rng.normal(0, sd_noise)), 1, 3))
                rows.append({"article_id": a, "keyword_id": a * 100 + k, "question": "topic", "value": v,
                             "intruder": False})
    return pd.DataFrame(rows)


def test_pilot_parameters_rank_the_variance_components_of_a_known_pilot():
    noisy = pilot_parameters(_frame(0.1, 0.1, 0.6))
    spread = pilot_parameters(_frame(0.6, 0.1, 0.1))
    assert noisy["sd_noise"] > noisy["sd_article"] and spread["sd_article"] > spread["sd_noise"]
    assert spread["sd_article"] == pytest.approx(0.6, abs=0.15) and noisy["do_not_know"] == 0


def test_power_grows_with_the_design_and_the_difference_and_is_near_alpha_without_one():
    params = PARAMS
    big = plan(params, difference=0.6, articles=[10, 100], judges=[1, 3], simulations=60, seed=1)["designs"]
    power = {(r["articles"], r["judges"]): r["power_wilcoxon"] for r in big}
    assert power[(100, 3)] == 1.0 and power[(10, 1)] < power[(100, 3)]
    assert all(r["mean_rated_difference"] > 0 for r in big)
    null = plan(params, difference=0.001, articles=[50], judges=[3], simulations=200, seed=2)
    assert null["designs"][0]["power_wilcoxon"] < 0.12  # about alpha: no real difference to detect
    assert null["smallest"] is None and "None of these designs" in format_plan(null)


def test_the_planner_calibrates_on_simulated_judges_before_real_ones_and_refuses_bad_input(engine):
    cfg = S.StudyConfig(name="pilot", corpus="fake", articles_per_category=1, categories_per_batch=6,
                        judges_per_article=2, keywords_per_method=3, seed=3)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=disjoint_provider, config=cfg)
    with pytest.raises(InputError, match="the pilot has no answers"):
        plan_study(engine, sid, difference=0.2, articles=[10], judges=[1], simulations=10)
    simulate(engine, sid, judges=2)
    result = plan_study(engine, sid, difference=0.2, articles=[10], judges=[2], simulations=10)
    assert result["pilot"].startswith("the study's simulated judges") and result["keywords"] == 3
    with pytest.raises(InputError, match="between 0 and 2 points"):
        plan_study(engine, sid, difference=0, articles=[10], judges=[1], simulations=10)


def _crowd_pilot(engine):
    """Three simulated judges on a study with attention checks and the default rule (no failed
    check): judge 1 answers Relevant to everything, intruders included, so the rule excludes her."""
    cfg = S.StudyConfig(name="crowd", corpus="fake", articles_per_category=2, categories_per_batch=6,
                        judges_per_article=2, keywords_per_method=3, seed=4, attention_share=0.5,
                        rules=ExclusionRules(max_failed_checks=0))
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=4), categories=CATS,
                         provider=category_provider, config=cfg)
    with engine.connect() as c:
        intruders = set(c.execute(text("SELECT id FROM study_keyword WHERE intruder")).scalars())

    def answer(judge, kw, q, _rng):
        if judge == 0:
            return 3
        return 1 if kw in intruders else (kw + judge + (q == "topic")) % 3 + 1

    simulate(engine, sid, judges=3, answer_fn=answer)
    return sid


def test_the_pilot_uses_only_the_answers_the_analysis_keeps_and_says_how_many_of_how_many(engine):
    sid = _crowd_pilot(engine)
    every = answers_frame(engine, sid, include_simulated=True)
    kept, _figures, removed = apply_rules(every, study_rules(engine, sid))  # the analysis's own rule code
    assert removed["judges"] == 1 and 0 < len(kept) < len(every)
    assert analyze(engine, sid, include_simulated=True)["counts"]["answers"] == len(kept)
    result = plan_study(engine, sid, difference=0.3, articles=[10], judges=[2], simulations=10)
    rated = kept[~kept["intruder"]]
    assert result["parameters"] == pilot_parameters(kept)  # calibrated on the kept answers only
    assert result["parameters"]["pilot_answers"] == len(rated) and result["parameters"]["mu"] < 2.5
    counts = result["pilot_counts"]
    assert counts == {"stored": len(every), "used": len(rated), "excluded_by_rules": removed["answers"],
                      "excluded_judges": 1, "attention_checks": int(kept["intruder"].sum())}
    line = pilot_text(result)
    assert f"{len(rated)} of {len(every)} answers used" in line
    assert f"Left out, as the analysis leaves them out: {removed['answers']} answers of 1 judge the exclusion rules " \
           "exclude" in line


def test_a_pilot_the_rules_empty_entirely_is_one_line_not_a_plan_on_nothing(engine):
    sid = _crowd_pilot(engine)
    with write_session(engine, sid) as session:  # the rules are locked by now: changed behind the API
        get_study(session, sid).rules = ExclusionRules(max_failed_checks=0, min_articles=10_000).to_dict()
    with pytest.raises(InputError, match="no answers the analysis keeps: the exclusion rules leave out"):
        plan_study(engine, sid, difference=0.3, articles=[10], judges=[2], simulations=10)


def test_the_batched_tests_give_scipy_s_p_values_study_by_study():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 4, (40, 6, 2, 3)).astype(float)  # 40 studies, 6 articles, 2 judges, 3 ranks; 0 = Do not know
    b = rng.integers(0, 4, (40, 6, 2, 3)).astype(float)
    a[0] = b[0]  # a study without any difference: p = 1
    w, s, r, mean = _tests(a, b)
    for i in range(len(a)):
        fa, fb = a[i].reshape(6, -1), b[i].reshape(6, -1)
        keep = (fa > 0) & (fb > 0)
        d = (fa - fb)[keep]
        nz = d[d != 0]
        if len(nz) == 0:
            assert (w[i], s[i], r[i], mean[i]) == (1.0, 1.0, 1.0, 0.0)
            continue
        assert w[i] == pytest.approx(stats.wilcoxon(nz, correction=False, method="asymptotic").pvalue, rel=1e-9)
        assert s[i] == pytest.approx(stats.binomtest(int((nz > 0).sum()), len(nz), 0.5).pvalue, rel=1e-9)
        da = np.nanmean(np.where(fa > 0, fa, np.nan), axis=1) - np.nanmean(np.where(fb > 0, fb, np.nan), axis=1)
        da = da[~np.isnan(da) & (da != 0)]
        assert r[i] == pytest.approx(stats.wilcoxon(da, correction=False, method="asymptotic").pvalue, rel=1e-9)
        assert mean[i] == pytest.approx(d.mean())


def test_every_power_carries_its_monte_carlo_error_within_2_points_at_the_default():
    assert PLAN_SIMULATIONS >= 625  # 0.5 / sqrt(625) = 2 points, the worst case (p = 0.5)
    result = plan(PARAMS, difference=0.3, articles=[4, 8], judges=[1], keywords=2, seed=3)
    assert result["simulations"] == PLAN_SIMULATIONS and result["mc_error_max"] <= 0.02
    for row in result["designs"]:
        for test in ("wilcoxon", "sign", "article_means"):
            p = row[f"power_{test}"]
            assert row[f"se_{test}"] == pytest.approx((p * (1 - p) / PLAN_SIMULATIONS) ** 0.5)
    assert 0.05 < result["designs"][0]["power_wilcoxon"] < 0.95  # a power whose error is not 0
    cell = plan_table(result)[PLAIN_COLUMNS["power_wilcoxon"]].iloc[0]
    se = 100 * result["designs"][0]["se_wilcoxon"]
    assert cell == f"{100 * result['designs'][0]['power_wilcoxon']:.0f} % ± {se:.1f}" and 0.5 < se <= 2
    assert "Monte Carlo standard error" in format_plan(result)


def test_designs_keep_the_study_s_judges_per_article_unless_others_are_asked_for(engine):
    cfg = S.StudyConfig(name="fixed", corpus="fake", articles_per_category=1, categories_per_batch=6,
                        judges_per_article=3, keywords_per_method=3, seed=3)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=disjoint_provider, config=cfg)
    simulate(engine, sid, judges=3)
    fixed = plan_study(engine, sid, difference=1.0, articles=[20, 200], simulations=20)
    assert {r["judges"] for r in fixed["designs"]} == {3} and fixed["judges_per_article"] == 3
    assert fixed["smallest"]["judges"] == 3 and "× 3 judges per article" in smallest_text(fixed)
    varied = plan_study(engine, sid, difference=1.0, articles=[20, 200], judges=[1, 3], simulations=20)
    assert {r["judges"] for r in varied["designs"]} == {1, 3}
    if varied["smallest"]["judges"] == 1:
        assert "This study gives each article to 3 judges: 1 needs a new study" in smallest_text(varied)


def test_the_plan_reads_without_its_footnote():
    three = plan(PARAMS, difference=0.5, articles=[10], judges=[2], methods=3, simulations=20)
    assert level_text(three) == "significance level 0.0167 (0.05 / 3 pairs, Holm's strictest step)"
    two = plan(PARAMS, difference=0.5, articles=[10], judges=[2], simulations=20)
    assert level_text(two) == "significance level 0.05 (two methods, one comparison)"
    assert list(plan_table(three).columns) == list(PLAIN_COLUMNS.values())
    assert "judges per article" in PLAIN_COLUMNS.values()
    body = format_plan(three).replace(three["note"], "")  # readable without the note
    assert "significance level 0.0167 (0.05 / 3 pairs, Holm's strictest step)" in body
    for cryptic in ("art.means", "rated d", "level 0.01667", " d "):
        assert cryptic not in body
    words = set(body.split())
    assert all(set(label.split()) <= words for label in PLAIN_COLUMNS.values())  # headers wrap, word by word
