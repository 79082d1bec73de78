"""Answers are never silently lost (dkw_core/study/submission.py, tasks.py): drafts saved per
answer and restored on reload, cleared on submit, safe under concurrent writers; a judge is told
when her article is taken (revoke, expiry, close); submit says whether it saved and whether the
study is paused."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dkw_core.study import service as S
from dkw_core.study.models import QUESTIONS, Answer, Draft, Judgement, utcnow

from .fakes import CATS, disjoint_provider, make_docs


def _study(engine, *, judges=2, **kw):
    cfg = S.StudyConfig(name="d", corpus="fake", articles_per_category=2, categories_per_batch=2,
                        judges_per_article=judges, seed=3, keywords_per_method=3, **kw)
    return S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider,
                          config=cfg)


def _drafts(engine) -> int:
    with Session(engine) as s:
        return s.scalar(select(func.count(Draft.id)))


def test_each_answer_is_saved_as_draft_and_restored_on_reload(engine):
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    assert task.draft == {} and len(task.missing) == 12
    first = S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 3})
    assert (first.saved, first.answered, first.total) == (1, 1, 12)
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 2, (4, "category"): 0})
    reloaded = S.next_task(engine, ann).task  # a reload or reconnect asks again
    assert reloaded.judgement_id == task.judgement_id and reloaded.keywords == task.keywords
    assert reloaded.draft == {(0, "topic"): 2, (4, "category"): 0}
    assert (0, "topic") not in reloaded.missing and (0, "category") in reloaded.missing
    assert len(reloaded.missing) == 10
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): None})  # cleared
    assert S.next_task(engine, ann).task.draft == {(4, "category"): 0}
    with Session(engine) as s:  # drafts are not answers: analysis and export never see them
        assert s.scalar(select(func.count(Answer.id))) == 0


def test_drafts_follow_the_keyword_not_the_position_and_are_cleared_on_submit(engine):
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    answers = {(p, q): (3 if w.startswith("alpha") else 1) for p, w in task.keywords for q in QUESTIONS}
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers=answers)
    restored = S.next_task(engine, ann).task.draft
    assert {(w, q): restored[(p, q)] for p, w in task.keywords for q in QUESTIONS} == \
        {(w, q): (3 if w.startswith("alpha") else 1) for _p, w in task.keywords for q in QUESTIONS}
    result = S.submit(engine, judge_id=ann, judgement_id=task.judgement_id, answers=restored)
    assert result.saved and result.study_status == "open" and result.message == "Saved."
    assert _drafts(engine) == 0
    nxt = S.next_task(engine, ann).task
    assert nxt.judgement_id != task.judgement_id and nxt.draft == {}
    with pytest.raises(S.SubmissionError) as err:
        S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 1})
    assert err.value.reason == "submitted"


def test_invalid_or_foreign_drafts_are_refused_and_store_nothing(engine):
    sid = _study(engine)
    ann, bob = (S.invite_judge(engine, sid, name=n)[0] for n in ("ann", "bob"))
    task = S.next_task(engine, ann).task
    for bad in ({(0, "topic"): 7}, {(99, "topic"): 1}, {(0, "colour"): 1}, {(0, "topic"): True}, {("x",): 1}):
        with pytest.raises(S.SubmissionError) as err:
            S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers=bad)
        assert err.value.reason == "invalid" and str(err.value).startswith("Not saved")
    with pytest.raises(S.SubmissionError) as err:
        S.save_draft(engine, judge_id=bob, judgement_id=task.judgement_id, answers={(0, "topic"): 1})
    assert err.value.reason == "released"
    assert _drafts(engine) == 0


def test_concurrent_draft_writers_lose_nothing_and_never_duplicate(engine):
    """Eight threads write the 12 answers of one article at once (two tabs, double clicks):
    every answer ends up stored exactly once with a value one of the writers gave."""
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    keys = [(p, q) for p, _w in task.keywords for q in QUESTIONS]
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def writer(i: int) -> None:
        try:
            barrier.wait()
            for n, key in enumerate(keys):
                S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={key: (i + n) % 4})
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    with Session(engine) as s:
        rows = s.execute(select(Draft.keyword_id, Draft.question, Draft.value)).all()
    assert len(rows) == len({(k, q) for k, q, _v in rows}) == 12
    draft = S.next_task(engine, ann).task.draft
    assert set(draft) == set(keys)
    assert all(draft[(p, q)] in {(i + keys.index((p, q))) % 4 for i in range(8)} for p, q in keys)


def test_draft_racing_a_submit_never_leaves_a_draft_behind(engine):
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    full = {(p, q): 2 for p, _w in task.keywords for q in QUESTIONS}
    outcomes: list[str] = []

    def drafts() -> None:
        for _ in range(20):
            try:
                S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(1, "topic"): 3})
                outcomes.append("draft")
            except S.SubmissionError as exc:
                outcomes.append(exc.reason)

    t = threading.Thread(target=drafts)
    t.start()
    S.submit(engine, judge_id=ann, judgement_id=task.judgement_id, answers=full)
    t.join(60)
    assert set(outcomes) <= {"draft", "submitted"}
    assert _drafts(engine) == 0  # a draft written before the submit was deleted by it; none after it


def test_pause_says_saved_and_paused_and_drafts_still_work(engine):
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    S.set_status(engine, sid, "paused")
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 1})
    result = S.submit(engine, judge_id=ann, judgement_id=task.judgement_id,
                      answers={(p, q): 2 for p, _w in task.keywords for q in QUESTIONS})
    assert result.saved and result.study_status == "paused"
    assert "Saved" in result.message and "paused" in result.message and "next article" not in result.message
    assert S.next_task(engine, ann).status == "paused"


def test_revoke_tells_the_judge_her_article_was_discarded_once_she_is_back(engine):
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 1, (1, "topic"): 2})
    S.revoke_judge(engine, sid, ann)
    assert _drafts(engine) == 0
    S.reissue_code(engine, sid, ann)
    state = S.next_task(engine, ann)
    assert [n.reason for n in state.notices] == ["revoked"]
    assert "revoked" in state.notices[0].message and "2 unsent answer(s)" in state.notices[0].message
    with pytest.raises(S.SubmissionError) as err:  # the page she had open cannot answer her new reservation
        S.submit(engine, judge_id=ann, judgement_id=task.judgement_id, token=task.token,
                 answers={(p, q): 2 for p, _w in task.keywords for q in QUESTIONS})
    assert err.value.reason == "released" and str(err.value).startswith("Not saved")
    assert state.task.token != task.token
    assert [n.reason for n in S.next_task(engine, ann).notices] == ["revoked"]  # shown until dismissed
    S.dismiss_notice(engine, judge_id=ann, notice_id=state.notices[0].id)
    assert S.next_task(engine, ann).notices == []


def test_expiry_and_close_tell_the_judge_what_happened_to_her_article(engine):
    sid = _study(engine, judges=1, reservation_minutes=5)
    ann, bob = (S.invite_judge(engine, sid, name=n)[0] for n in ("ann", "bob"))
    held = S.next_task(engine, ann).task
    S.save_draft(engine, judge_id=ann, judgement_id=held.judgement_id, answers={(0, "topic"): 1})
    with Session(engine) as s:
        s.execute(update(Judgement).values(last_seen_at=utcnow() - timedelta(minutes=10)))
        s.commit()
    S.next_task(engine, bob)  # another judge's request releases the stale reservation
    state = S.next_task(engine, ann)
    assert [n.reason for n in state.notices] == ["expired"]
    assert "5 minutes" in state.notices[0].message and "1 unsent answer(s)" in state.notices[0].message
    with pytest.raises(S.AccessError):  # a notice is only ever dismissed by its judge
        S.dismiss_notice(engine, judge_id=bob, notice_id=state.notices[0].id)
    S.dismiss_notice(engine, judge_id=ann, notice_id=state.notices[0].id)
    now_held = state.task
    S.save_draft(engine, judge_id=ann, judgement_id=now_held.judgement_id, answers={(2, "category"): 3})
    S.set_status(engine, sid, "closed")
    closed = S.next_task(engine, ann)
    assert closed.status == "closed" and [n.reason for n in closed.notices] == ["closed"]
    assert "kept" in closed.notices[0].message
    with pytest.raises(S.SubmissionError) as err:
        S.save_draft(engine, judge_id=ann, judgement_id=now_held.judgement_id, answers={(0, "topic"): 1})
    assert err.value.reason == "closed"
    S.set_status(engine, sid, "open")  # reopened: her article and draft come back
    back = S.next_task(engine, ann).task
    assert back.judgement_id == now_held.judgement_id and back.draft == {(2, "category"): 3}


def test_judge_state_and_notices_carry_no_method_names(engine):
    sid = _study(engine, method_a="tf-rf", method_b="latent-5word-knn90-rf")
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 1})
    S.revoke_judge(engine, sid, ann)
    S.reissue_code(engine, sid, ann)
    dump = repr(S.next_task(engine, ann))
    assert "tf-rf" not in dump and "latent" not in dump and "rank" not in dump


def test_the_organiser_sees_draft_answers_of_open_articles(engine):
    sid = _study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    task = S.next_task(engine, ann).task
    S.save_draft(engine, judge_id=ann, judgement_id=task.judgement_id, answers={(0, "topic"): 1, (1, "topic"): 0})
    row = S.monitoring(engine, sid)["judges"][0]
    assert (row["open"], row["draft_answers"], row["submitted"]) == (1, 2, 0)
