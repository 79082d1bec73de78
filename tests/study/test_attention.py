"""Attention checks (dkw_core/study/attention.py): planted intruder keywords from a distant
category, recorded as such, never in the method comparison, looking like any keyword."""
from __future__ import annotations

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.analysis import analyze
from dkw_core.study.attention import chosen_articles, plant_intruders
from dkw_core.study.models import Answer, Article, StudyKeyword
from dkw_core.study.simulate import simulate

from .fakes import CATS, category_provider, disjoint_provider, make_docs


def _study(engine, share=0.5, provider=category_provider, **kw):
    cfg = S.StudyConfig(name="att", corpus="fake", articles_per_category=2, categories_per_batch=3,
                        judges_per_article=2, keywords_per_method=3, seed=11, attention_share=share, **kw)
    return S.create_study(engine, documents=make_docs(CATS, per_split=4), categories=CATS, provider=provider,
                          config=cfg)


def test_a_share_of_articles_carries_one_intruder_from_another_category_with_no_method(engine):
    sid = _study(engine, share=0.5)
    with Session(engine) as s:
        arts = s.scalars(select(Article).where(Article.study_id == sid)).all()
        planted = {a.doc_id: [k for k in a.keywords if k.intruder] for a in arts}
        assert sum(len(v) for v in planted.values()) == 6 == sum(bool(v) for v in planted.values())  # 0.5 x 12
        for a in arts:
            for kw in planted[a.doc_id]:
                assert kw.sources == []  # no producing method
                own = {k.word for k in a.keywords if not k.intruder}
                assert kw.word not in own and kw.word.split("_")[1] != a.category  # another category's word
            real = [k for k in a.keywords if not k.intruder]
            assert len(real) == 6 and all(k.sources for k in real)


def test_the_intruder_comes_from_the_category_sharing_fewest_keywords():
    articles = [("d1", "near", "text"), ("d2", "own", "text"), ("d3", "far", "text")]
    keywords = {"d1": ["x", "y", "n1"], "d2": ["x", "y", "o1"], "d3": ["f1", "f2", "f3"]}
    out = plant_intruders(articles, keywords, ["near", "own", "far"], share=1.0, seed=0)
    assert out["d2"] in {"f1", "f2", "f3"}  # 'near' shares x and y with 'own'
    assert out["d1"] in {"f1", "f2", "f3"}
    assert out["d3"] in {"x", "y", "n1", "o1"}


def test_the_intruder_is_never_a_word_of_the_articles_text():
    articles = [("d1", "a", "An article about zebra crossings"), ("d2", "b", "other")]
    keywords = {"d1": ["road"], "d2": ["zebra", "lion"]}
    for seed in range(20):
        assert plant_intruders(articles, keywords, ["a", "b"], share=1.0, seed=seed)["d1"] == "lion"


def test_attention_checks_are_refused_when_no_intruder_exists(engine):
    with pytest.raises(InputError, match="no intruder keyword for article"):
        _study(engine, share=0.5, provider=disjoint_provider)  # every category has the same words
    with pytest.raises(InputError, match="between 0 and 1"):
        _study(engine, share=1.5)
    with Session(engine) as s:
        assert s.scalar(text("SELECT count(*) FROM study")) == 0  # nothing stored


def test_the_chosen_articles_follow_the_share_and_the_seed():
    ids = [f"d{i}" for i in range(40)]
    assert len(chosen_articles(ids, 0.1, 1)) == 4 and chosen_articles(ids, 0.1, 1) == chosen_articles(ids, 0.1, 1)
    assert chosen_articles(ids, 0.1, 1) != chosen_articles(ids, 0.1, 2)
    assert chosen_articles(ids, 0.0, 1) == [] and len(chosen_articles(ids, 0.01, 1)) == 1


def test_intruder_answers_never_enter_the_method_comparison(engine):
    sid = _study(engine, share=0.5)
    simulate(engine, sid, judges=2, mode="scripted", seed=3)
    before = analyze(engine, sid, include_simulated=True, apply_rules=False)
    with Session(engine) as s:
        intruders = select(StudyKeyword.id).where(StudyKeyword.intruder.is_(True))
        changed = s.execute(update(Answer).where(Answer.keyword_id.in_(intruders)).values(value=3)).rowcount
        s.commit()
    assert changed == 6 * 2 * 2  # 6 articles, 2 judges, 2 questions
    after = analyze(engine, sid, include_simulated=True, apply_rules=False)
    for key in ("distribution", "agreement", "significance", "differences", "verdict"):
        assert after[key] == before[key], key
    assert after["exclusions"]["attention_checks"] == 12
    # ...while the rules see the failed checks: every judge failed, every judgement is removed
    ruled = analyze(engine, sid, include_simulated=True)
    assert ruled["exclusions"]["removed"]["by_rule"]["max_failed_checks"]["judges"] == 2


def test_the_judge_task_shows_an_intruder_as_any_other_keyword(engine):
    sid = _study(engine, share=1.0)
    jid = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, jid).task
    assert len(task.keywords) == 7 and all(isinstance(p, int) and isinstance(w, str) for p, w in task.keywords)
    assert [p for p, _w in task.keywords] == list(range(7))
    assert not any(hasattr(task, f) for f in ("intruder", "intruders", "sources"))
