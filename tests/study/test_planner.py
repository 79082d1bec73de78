"""The sample-size planner (dkw_core/study/planner.py): pilot calibration and simulated power."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.planner import format_plan, pilot_parameters, plan, plan_study
from dkw_core.study.simulate import simulate

from .fakes import CATS, disjoint_provider, make_docs


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
    params = {"mu": 2.0, "sd_article": 0.3, "sd_keyword": 0.3, "sd_noise": 0.6, "do_not_know": 0.05,
              "pilot_answers": 1}
    big = plan(params, difference=0.6, articles=[10, 100], judges=[1, 3], simulations=60, seed=1)["designs"]
    power = {(r["articles"], r["judges"]): r["power_wilcoxon"] for r in big}
    assert power[(100, 3)] == 1.0 and power[(10, 1)] < power[(100, 3)]
    assert all(r["mean_rated_difference"] > 0 for r in big)
    null = plan(params, difference=0.001, articles=[50], judges=[3], simulations=200, seed=2)
    assert null["designs"][0]["power_wilcoxon"] < 0.12  # about alpha: no real difference to detect
    assert null["smallest"] is None and "none of these" in format_plan(null)


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
