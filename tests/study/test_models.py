"""Schema constraints hold in the database itself (dkw_core/study/models.py)."""
from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.errors import StoreError
from dkw_core.study import service as S
from dkw_core.study.models import Answer, Judgement, init_db

from .fakes import CATS, disjoint_provider, make_docs


def _setup(engine):
    cfg = S.StudyConfig(name="m", corpus="fake", articles_per_category=1, categories_per_batch=1,
                        judges_per_article=1, keywords_per_method=1, seed=1)
    sid = S.create_study(engine, documents=make_docs(CATS[:1]), categories=CATS[:1], provider=disjoint_provider, config=cfg)
    a = S.invite_judge(engine, sid, name="a")[0]
    b = S.invite_judge(engine, sid, name="b")[0]
    return sid, a, b, S.next_task(engine, a).task


def test_unique_slot_judge_and_answer_constraints(engine):
    _sid, a, b, task = _setup(engine)
    with Session(engine) as s:  # a second judgement of the same judge on the same article
        s.add(Judgement(article_id=task.article_id, judge_id=a, slot=2))
        with pytest.raises(IntegrityError):
            s.commit()
    with Session(engine) as s:  # the same slot for another judge (over-assignment)
        s.add(Judgement(article_id=task.article_id, judge_id=b, slot=1))
        with pytest.raises(IntegrityError):
            s.commit()
    kw = S.display_keyword_ids(engine, task.judgement_id)[0]
    with Session(engine) as s:
        s.add_all([Answer(judgement_id=task.judgement_id, keyword_id=kw, question="topic", value=1),
                   Answer(judgement_id=task.judgement_id, keyword_id=kw, question="topic", value=2)])
        with pytest.raises(IntegrityError):
            s.commit()
    with Session(engine) as s:
        s.add(Answer(judgement_id=task.judgement_id, keyword_id=kw, question="mood", value=9))
        with pytest.raises(IntegrityError):
            s.commit()


def test_init_db_is_idempotent_and_refuses_unknown_newer_revision(engine, tmp_path):
    init_db(engine)
    init_db(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    fresh = make_engine(str(engine.url), default_file="unused.sqlite")  # a new process would see this
    with pytest.raises(StoreError, match="newer dkw"):
        init_db(fresh)
    fresh.dispose()
