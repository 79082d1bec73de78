"""Concurrent judges on SQLite and on a real PostgreSQL server (tests/support/postgres.py):
20 threads, 4 processes, and a judging process killed with SIGKILL in the middle of its
submissions. Nothing may be lost, duplicated or over-assigned, and a half-done submission
must leave no answer behind."""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from datetime import timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import QUESTIONS, Answer, Judgement, KeywordSource, StudyKeyword, init_db, utcnow
from dkw_core.study.simulate import all_answers, take_turns

from .fakes import CATS, disjoint_provider, make_docs

ARTICLES, JUDGES_PER_ARTICLE, KEYWORDS = 24, 3, 6  # disjoint provider: 3 + 3 keywords per article


def _study(engine) -> int:
    cfg = S.StudyConfig(name="c", corpus="fake", articles_per_category=4, categories_per_batch=2,
                        judges_per_article=JUDGES_PER_ARTICLE, keywords_per_method=3, seed=7)
    return S.create_study(engine, documents=make_docs(CATS), categories=CATS, provider=disjoint_provider,
                          config=cfg)



def _work(engine, judge_ids, on_submit=None) -> list[int]:
    """Let the judges take turns until none has anything left; returns submitted judgement ids."""
    return take_turns(engine, judge_ids, all_answers(3), on_submit=(lambda _j, _i: on_submit()) if on_submit else None)


def _assert_complete_and_consistent(engine) -> None:
    with Session(engine) as s:
        rows = s.execute(select(Judgement.id, Judgement.article_id, Judgement.judge_id, Judgement.submitted_at)).all()
        per_article = dict(s.execute(select(Judgement.article_id, func.count()).group_by(Judgement.article_id)).all())
        answers = dict(s.execute(select(Answer.judgement_id, func.count()).group_by(Answer.judgement_id)).all())
        n_sources = s.scalar(select(func.count(KeywordSource.id)).join(StudyKeyword))
    assert len(rows) == ARTICLES * JUDGES_PER_ARTICLE and all(r.submitted_at is not None for r in rows)
    assert len({(r.article_id, r.judge_id) for r in rows}) == len(rows)
    assert set(per_article.values()) == {JUDGES_PER_ARTICLE} and len(per_article) == ARTICLES
    assert set(answers.values()) == {KEYWORDS * len(QUESTIONS)} and len(answers) == len(rows)
    assert n_sources == ARTICLES * KEYWORDS


def test_twenty_threads_submitting_for_twenty_judges_lose_and_duplicate_nothing(any_engine):
    engine = any_engine
    sid = _study(engine)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(20)]
    barrier = threading.Barrier(20)
    errors: list[BaseException] = []
    submitted: list[int] = []

    def work(j: int) -> None:
        try:
            barrier.wait()
            submitted.extend(_work(engine, [j]))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(j,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert len(submitted) == len(set(submitted)) == ARTICLES * JUDGES_PER_ARTICLE
    _assert_complete_and_consistent(engine)


def _process_worker(url: str, judge_ids: list[int], start, out) -> None:
    engine = make_engine(url, default_file="unused.sqlite")
    start.wait()
    try:
        out.put(("ok", _work(engine, judge_ids)))
    except BaseException as exc:  # noqa: BLE001 - reported to the test
        out.put(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        engine.dispose()


def test_four_processes_of_five_judges_each_lose_and_duplicate_nothing(any_engine):
    engine = any_engine
    url = engine.url.render_as_string(hide_password=False)
    sid = _study(engine)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(20)]
    engine.dispose()  # no inherited connections in the children
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_process_worker, args=(url, judges[i::4], start, out)) for i in range(4)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(30)
    assert [r[0] for r in results] == ["ok"] * 4, results
    ids = [i for _status, lst in results for i in lst]
    assert len(ids) == len(set(ids)) == ARTICLES * JUDGES_PER_ARTICLE
    _assert_complete_and_consistent(engine)


def _doomed_worker(url: str, judge_ids: list[int], count) -> None:
    engine = make_engine(url, default_file="unused.sqlite")

    def tick() -> None:
        with count.get_lock():
            count.value += 1

    _work(engine, judge_ids, on_submit=tick)


def test_judging_process_killed_mid_submission_leaves_no_partial_or_lost_judgement(any_engine):
    """Three times a process judging for four judges is killed (SIGKILL) while it submits;
    afterwards every submitted judgement has all its answers, no other judgement has any,
    and once the dead process's reservations expire the study completes exactly."""
    engine = any_engine
    url = engine.url.render_as_string(hide_password=False)
    sid = _study(engine)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(6)]
    engine.dispose()
    ctx = multiprocessing.get_context("fork")
    kills = 0
    for round_, (group, after) in enumerate(((judges[:4], 3), (judges[:4], 9), (judges[2:6], 5))):
        count = ctx.Value("i", 0)
        proc = ctx.Process(target=_doomed_worker, args=(url, group, count))
        proc.start()
        while count.value < after and proc.is_alive():
            time.sleep(0.001)
        if proc.is_alive():
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.join(30)
        assert proc.exitcode in (-signal.SIGKILL, 0), (round_, proc.exitcode)
        with Session(engine) as s:  # after every kill: all or nothing per judgement
            answers = dict(s.execute(select(Answer.judgement_id, func.count()).group_by(Answer.judgement_id)).all())
            states = dict(s.execute(select(Judgement.id, Judgement.submitted_at)).all())
        for jid, submitted_at in states.items():
            assert answers.get(jid, 0) == (KEYWORDS * len(QUESTIONS) if submitted_at else 0), (round_, jid)
        assert set(answers) <= set(states)
    assert kills == 3
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    # the killed process's open reservations expire; the remaining work is finished by others
    with Session(engine) as s:
        s.execute(update(Judgement).where(Judgement.submitted_at.is_(None))
                  .values(last_seen_at=utcnow() - timedelta(days=1)))
        s.commit()
    finishers = [S.invite_judge(engine, sid, name=f"f{i}")[0] for i in range(JUDGES_PER_ARTICLE)]
    _work(engine, finishers + judges)
    _assert_complete_and_consistent(engine)


def test_a_judge_never_sees_locked_for_a_lock_that_clears_while_she_backs_off(tmp_path, monkeypatch):
    """Issue 26 item 7: a writer of another process holds the SQLite write lock longer than one
    busy wait. The judge's submission backs off (jittered, exponential) and retries instead of
    failing with "study database is locked"; the lock is released at her first backoff pause."""
    import sqlite3

    from dkw_core.study import store

    path = tmp_path / "locked.sqlite"
    engine = make_engine(f"sqlite:///{path}", default_file="unused.sqlite", timeout=3.0)
    init_db(engine)
    sid = _study(engine)
    jid = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, jid).task
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # "another process"
    other.execute("BEGIN IMMEDIATE")
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        if other.in_transaction:
            other.execute("COMMIT")  # the other writer finishes while the judge waits

    monkeypatch.setattr(store, "_sleep", pause, raising=False)
    try:
        result = S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, answers=all_answers(2)(jid, task),
                          token=task.token)
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()
    assert result.saved and pauses and all(0 < p <= store.BACKOFF[1] * 1.5 for p in pauses)
    with Session(engine) as s:
        assert s.scalar(select(func.count(Answer.id))) == KEYWORDS * len(QUESTIONS)
    engine.dispose()
