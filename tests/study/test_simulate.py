"""Simulated judges (dkw_core/study/simulate.py)."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.analysis import analyze
from dkw_core.study.models import Judgement
from dkw_core.study.simulate import simulate

from .fakes import CATS, disjoint_provider, make_docs


def _study(engine, judges=3):
    cfg = S.StudyConfig(name="sim", corpus="fake", articles_per_category=3, categories_per_batch=2,
                        judges_per_article=judges, keywords_per_method=3, seed=5)
    return S.create_study(engine, documents=make_docs(CATS[:4]), categories=CATS[:4], provider=disjoint_provider,
                          config=cfg)


@pytest.mark.parametrize("mode", ["random", "scripted"])
def test_simulation_fills_every_article_with_the_set_number_of_judges(engine, mode):
    sid = _study(engine)
    seen = []
    out = simulate(engine, sid, judges=4, mode=mode, seed=1, progress=lambda f, m: seen.append(f))
    assert out == {"judges": 4, "judgements": 12 * 3}
    with Session(engine) as s:
        counts = s.execute(select(Judgement.article_id, func.count()).where(Judgement.submitted_at.is_not(None))
                           .group_by(Judgement.article_id)).all()
    assert len(counts) == 12 and {c for _a, c in counts} == {3}
    assert seen and seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)


def test_scripted_judges_show_the_scripted_effect(engine):
    sid = _study(engine)
    simulate(engine, sid, judges=5, mode="scripted", seed=2)
    sig = {r["question"]: r for r in analyze(engine, sid, include_simulated=True)["significance"] if "paper" in r["level"]}
    assert sig["category"]["sign_M"] < 0  # B scripted better on category
    assert sig["topic"]["sign_M"] > 0  # A scripted better on topic


def test_answer_function_overrides_mode_and_bad_mode_is_refused(engine):
    sid = _study(engine, judges=1)
    simulate(engine, sid, judges=1, answer_fn=lambda j, k, q, rng: 2)
    dist = [r for r in analyze(engine, sid, include_simulated=True)["distribution"] if r["count"]]
    assert {r["answer"] for r in dist} == {"Partially"}
    with pytest.raises(InputError, match="mode"):
        simulate(engine, sid, mode="chaos")
