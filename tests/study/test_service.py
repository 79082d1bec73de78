"""Study creation, judge access, assignment rules and submission validation (dkw_core/study/service.py)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.models import QUESTIONS, Answer, Article, Draft, Judge, Judgement, StudyKeyword, utcnow
from dkw_core.study.simulate import all_answers, take_turns

from .fakes import CATS, case_provider, disjoint_provider, make_docs, overlap_provider


def _study(engine, *, cats=CATS[:4], per_cat=2, per_batch=2, judges=3, provider=disjoint_provider, seed=7, **kw):
    cfg = S.StudyConfig(name="t", corpus="fake", articles_per_category=per_cat, categories_per_batch=per_batch,
                        judges_per_article=judges, seed=seed, keywords_per_method=kw.pop("top", 3), **kw)
    return S.create_study(engine, documents=make_docs(cats), categories=cats, provider=provider, config=cfg)


def _full_answers(task, value=2):
    return {(k, q): value for k, _w in task.keywords for q in QUESTIONS}


def _judge_all(engine, judge_id, *, limit=1000):
    """Let one judge work until nothing is left; returns the article ids in order."""
    seen = []
    for _ in range(limit):
        state = S.next_task(engine, judge_id)
        if state.task is None:
            return seen
        seen.append(state.task.article_id)
        S.submit(engine, judge_id=judge_id, judgement_id=state.task.judgement_id, answers=_full_answers(state.task))
    raise AssertionError("judge never finished")


# ------------------------------------------------------------------ creation

def test_create_draws_test_split_per_category_in_fixed_batches(engine):
    sid = _study(engine, cats=CATS, per_cat=3, per_batch=4)
    with Session(engine) as s:
        arts = s.scalars(select(Article).where(Article.study_id == sid)).all()
    assert len(arts) == 6 * 3
    assert all(a.doc_id.startswith("test/") for a in arts)
    for cat in CATS:
        assert sum(a.category == cat for a in arts) == 3
    # batches follow the given category order, 4 categories per batch
    batch_of = {a.category: a.batch for a in arts}
    assert [batch_of[c] for c in CATS] == [0, 0, 0, 0, 1, 1]
    assert S.study_settings(engine, sid)["seed"] == 7


def test_same_seed_draws_same_articles_other_seed_differs(engine):
    docs = make_docs(CATS, per_split=10)
    a = S.draw_articles(docs, CATS, per_category=3, seed=1)
    b = S.draw_articles(docs, CATS, per_category=3, seed=1)
    c = S.draw_articles(docs, CATS, per_category=3, seed=2)
    assert [d.id for d in a] == [d.id for d in b]
    assert [d.id for d in a] != [d.id for d in c]


def test_union_stores_shared_keyword_once_with_both_ranks(engine):
    sid = _study(engine, provider=overlap_provider, top=3)
    with Session(engine) as s:
        art = s.scalars(select(Article).where(Article.study_id == sid)).first()
        words = {kw.word: {src.method: src.rank for src in kw.sources} for kw in art.keywords}
    assert words == {"shared": {"A": 1, "B": 2}, "a2": {"A": 2}, "a3": {"A": 3}, "b1": {"B": 1}, "b3": {"B": 3}}


def test_a_word_two_methods_give_in_two_cases_is_shown_once_as_the_first_method_spelt_it(engine):
    """NASA (A) and nasa (B), Café (A) and the decomposed cafe + U+0301 (B): a judge would read each
    pair as one word, so it is one keyword with both ranks, spelt as method A gave it."""
    sid = _study(engine, provider=case_provider, top=3, judges=1)
    with Session(engine) as s:
        for art in s.scalars(select(Article).where(Article.study_id == sid)):
            words = {kw.word: {src.method: src.rank for src in kw.sources} for kw in art.keywords}
            assert words == {"NASA": {"A": 1, "B": 2}, "Caf\u00e9": {"A": 2, "B": 3}, "a3": {"A": 3}, "b1": {"B": 1}}
    jid, _ = S.invite_judge(engine, sid, name="ann")
    task = S.next_task(engine, jid).task
    assert sorted(w for _p, w in task.keywords) == ["Caf\u00e9", "NASA", "a3", "b1"]  # each once
    S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, answers=_full_answers(task))
    with Session(engine) as s:
        assert s.scalar(select(func.count(Answer.id)).where(Answer.judgement_id == task.judgement_id)) == 4 * 2


def test_create_refuses_bad_input(engine):
    with pytest.raises(InputError, match="only 4 documents"):
        _study(engine, per_cat=5)
    with pytest.raises(InputError, match="no keywords"):
        _study(engine, provider=lambda spec, ids, top, protocol: {})
    with pytest.raises(InputError, match="must differ"):
        _study(engine, method_a="x", method_b="x")
    with pytest.raises(InputError, match="positive"):
        _study(engine, judges=0)


# ------------------------------------------------------------------ access

def test_codes_are_random_stored_hashed_and_wrong_code_opens_nothing(engine):
    sid = _study(engine)
    j1, code1 = S.invite_judge(engine, sid, name="ann")
    j2, code2 = S.invite_judge(engine, sid, name="bob")
    assert code1 != code2 and len(code1) >= 20
    assert S.authenticate(engine, code1) == j1
    assert S.authenticate(engine, f"  {code2} ") == j2
    with Session(engine) as s:
        stored = s.scalars(select(Judge.code_hash)).all()
    assert code1 not in stored and code2 not in stored
    for wrong in ("", "nope", code1[:-1], code1 + "x"):
        with pytest.raises(S.AccessError):
            S.authenticate(engine, wrong)
    with pytest.raises(InputError):
        S.invite_judge(engine, sid, name="  ")


def test_judge_task_carries_no_method_names_or_provenance(engine):
    sid = _study(engine, method_a="tf-rf", method_b="latent-5word-knn90-rf")
    jid, _ = S.invite_judge(engine, sid, name="ann")
    state = S.next_task(engine, jid)
    dump = repr(state) + repr(S.judge_info(engine, jid))
    assert "tf-rf" not in dump and "latent" not in dump and "rank" not in dump
    assert sorted(w for _k, w in state.task.keywords) == ["alpha1", "alpha2", "alpha3", "beta1", "beta2", "beta3"]


def test_task_identifiers_are_display_positions_and_an_opaque_token(engine):
    sid = _study(engine)
    jid, _ = S.invite_judge(engine, sid, name="ann")
    task = S.next_task(engine, jid).task
    assert [p for p, _w in task.keywords] == list(range(6))
    assert re.fullmatch(r"[0-9a-f]{16}", task.token) and task.token != f"{task.judgement_id:016x}"
    ids = S.display_keyword_ids(engine, task.judgement_id)
    with Session(engine) as s:
        word_of = dict(s.execute(select(StudyKeyword.id, StudyKeyword.word)).all())
    assert [word_of[i] for i in ids] == [w for _p, w in task.keywords]
    S.submit(engine, judge_id=jid, judgement_id=task.judgement_id,
             answers={(p, q): (3 if w.startswith("alpha") else 1) for p, w in task.keywords for q in QUESTIONS})
    with Session(engine) as s:  # answers land on the keyword shown at that position
        stored = {(word_of[k], v) for k, v in s.execute(select(Answer.keyword_id, Answer.value))}
    assert stored == {(w, 3 if w.startswith("alpha") else 1) for _p, w in task.keywords}


def test_keyword_rows_are_created_in_random_order_not_method_then_rank(engine):
    """Row ids reach no judge, but they must not encode provenance either: over 24 articles
    of 3 + 3 keywords, A-then-B-by-rank order (probability 1/720 per article) is not the rule."""
    sid = _study(engine, cats=CATS, per_cat=4)
    with Session(engine) as s:
        arts = s.scalars(select(Article).where(Article.study_id == sid)).all()
        orders = [[kw.word for kw in sorted(a.keywords, key=lambda k: k.id)] for a in arts]
    union_order = ["alpha1", "alpha2", "alpha3", "beta1", "beta2", "beta3"]
    assert len(orders) == 24
    assert sum(o == union_order for o in orders) < 4
    assert len({tuple(o) for o in orders}) > 12


# ------------------------------------------------------------------ assignment rules

def test_simulated_judges_fill_every_article_exactly_and_never_repeat(engine):
    sid = _study(engine, cats=CATS, per_cat=2, per_batch=2, judges=3)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(5)]
    # judges take turns, one article at a time, like real concurrent judges
    take_turns(engine, judges, all_answers(2))
    with Session(engine) as s:
        per_article = dict(s.execute(select(Judgement.article_id, func.count()).group_by(Judgement.article_id)).all())
        pairs = s.execute(select(Judgement.article_id, Judgement.judge_id)).all()
        open_ = s.scalar(select(func.count()).where(Judgement.submitted_at.is_(None)))
    assert len(per_article) == 12 and set(per_article.values()) == {3}
    assert len(pairs) == len(set(pairs)) == 36
    assert open_ == 0


def test_batches_are_served_in_order_while_a_batch_has_work(engine):
    sid = _study(engine, cats=CATS, per_cat=2, per_batch=2, judges=3)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(4)]
    batches_of: dict[int, list[int]] = {j: [] for j in judges}
    active = list(judges)
    while active:
        nxt = []
        for j in active:
            # state before the assignment: the lowest batch with an article this judge may take
            with Session(engine) as s:
                taken = dict(s.execute(select(Judgement.article_id, func.count()).group_by(Judgement.article_id)).all())
                mine = set(s.scalars(select(Judgement.article_id).where(Judgement.judge_id == j)))
                arts = s.execute(select(Article.id, Article.batch)).all()
            open_batches = [b for a, b in arts if a not in mine and taken.get(a, 0) < 3]
            state = S.next_task(engine, j)
            if state.task is None:
                assert not open_batches
                continue
            assert state.progress.batch == min(open_batches)
            batches_of[j].append(state.progress.batch)
            S.submit(engine, judge_id=j, judgement_id=state.task.judgement_id, answers=_full_answers(state.task))
            nxt.append(j)
        active = nxt
    for seq in batches_of.values():  # each judge's batches never go back
        assert seq == sorted(seq)
    assert sum(map(len, batches_of.values())) == 36


def test_next_batch_opens_when_judge_has_judged_every_article_of_current(engine):
    sid = _study(engine, cats=CATS[:4], per_cat=2, per_batch=2, judges=3)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    order = _judge_all(engine, ann)
    with Session(engine) as s:
        batch = dict(s.execute(select(Article.id, Article.batch)).all())
    # alone, the batch-0 articles still lack judges, yet she moves on after judging all of them
    assert [batch[a] for a in order] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_next_batch_opens_when_no_article_of_current_lacks_judges(engine):
    sid = _study(engine, cats=CATS[:4], per_cat=2, per_batch=2, judges=2)
    first = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(2)]
    with Session(engine) as s:
        batch = dict(s.execute(select(Article.id, Article.batch)).all())
    for j in first:  # two judges complete batch 0 (2 judges per article)
        for _ in range(4):
            st = S.next_task(engine, j)
            assert batch[st.task.article_id] == 0
            S.submit(engine, judge_id=j, judgement_id=st.task.judgement_id, answers=_full_answers(st.task))
    late = S.invite_judge(engine, sid, name="late")[0]
    st = S.next_task(engine, late)
    assert batch[st.task.article_id] == 1


def test_article_order_is_random_per_judge(engine):
    sid = _study(engine, cats=CATS[:2], per_cat=4, per_batch=2, judges=6)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(6)]
    with Session(engine) as s:  # fixed per-judge seeds make the test deterministic
        for i, j in enumerate(judges):
            s.execute(update(Judge).where(Judge.id == j).values(order_seed=1000 + i))
        s.commit()
    orders = {tuple(_judge_all(engine, j)) for j in judges}
    assert len(orders) > 1
    assert all(len(o) == 8 for o in orders)


def test_resume_returns_the_same_open_article(engine):
    sid = _study(engine)
    jid = S.invite_judge(engine, sid, name="ann")[0]
    a = S.next_task(engine, jid)
    b = S.next_task(engine, jid)
    assert a.task.judgement_id == b.task.judgement_id
    assert sorted(a.task.keywords) == sorted(b.task.keywords)
    assert a.task.keywords == b.task.keywords  # same shuffle on resume


def test_done_when_every_article_judged_by_this_judge(engine):
    sid = _study(engine, cats=CATS[:2], per_cat=1, per_batch=1, judges=1)
    a, b = (S.invite_judge(engine, sid, name=n)[0] for n in ("a", "b"))
    assert len(_judge_all(engine, a)) == 2
    assert S.next_task(engine, b).status == "done"
    assert S.judge_progress(engine, a).judged == 2


def test_reserved_articles_make_others_wait_and_expired_reservations_are_released(engine):
    sid = _study(engine, cats=CATS[:1], per_cat=1, per_batch=1, judges=1, reservation_minutes=5)
    a, b = (S.invite_judge(engine, sid, name=n)[0] for n in ("a", "b"))
    ta = S.next_task(engine, a).task
    assert S.next_task(engine, b).status == "wait"
    with Session(engine) as s:
        s.execute(update(Judgement).values(last_seen_at=utcnow() - timedelta(minutes=10)))
        s.commit()
    tb = S.next_task(engine, b).task
    assert tb is not None and tb.article_id == ta.article_id
    with pytest.raises(S.SubmissionError, match="not reserved for you"):
        S.submit(engine, judge_id=a, judgement_id=ta.judgement_id, answers=_full_answers(ta))
    S.submit(engine, judge_id=b, judgement_id=tb.judgement_id, answers=_full_answers(tb))


# ------------------------------------------------------------------ submission validation

def _answers_stored(engine):
    with Session(engine) as s:
        return s.scalar(select(func.count(Answer.id)))


def test_incomplete_invalid_foreign_and_duplicate_submissions_are_refused(engine):
    sid = _study(engine)
    a, b = (S.invite_judge(engine, sid, name=n)[0] for n in ("a", "b"))
    task = S.next_task(engine, a).task
    full = _full_answers(task)
    incomplete = dict(list(full.items())[:-1])
    with pytest.raises(S.SubmissionError, match="incomplete"):
        S.submit(engine, judge_id=a, judgement_id=task.judgement_id, answers=incomplete)
    with pytest.raises(S.SubmissionError, match="invalid answer"):
        S.submit(engine, judge_id=a, judgement_id=task.judgement_id, answers={**full, next(iter(full)): 7})
    with pytest.raises(S.SubmissionError, match="not shown"):
        S.submit(engine, judge_id=a, judgement_id=task.judgement_id, answers={**full, (999999, "topic"): 1})
    with pytest.raises(S.SubmissionError, match="not reserved for you"):
        S.submit(engine, judge_id=b, judgement_id=task.judgement_id, answers=full)
    assert _answers_stored(engine) == 0
    S.submit(engine, judge_id=a, judgement_id=task.judgement_id, answers=full)
    assert _answers_stored(engine) == len(full) == 12
    with pytest.raises(S.SubmissionError, match="already submitted"):
        S.submit(engine, judge_id=a, judgement_id=task.judgement_id, answers=full)
    assert _answers_stored(engine) == 12


def _stored(engine, judgement_id):
    """Everything the database holds of one judgement: its answers, submission time, time spent, drafts."""
    with Session(engine) as s:
        j = s.get(Judgement, judgement_id)
        return (sorted((a.keyword_id, a.question, a.value) for a in j.answers), j.submitted_at, j.seconds_spent,
                s.scalar(select(func.count(Draft.id)).where(Draft.judgement_id == judgement_id)))


def test_a_second_device_of_the_same_participant_is_told_the_article_was_submitted_and_stores_nothing(engine):
    """One participant id open on two devices: A submits, then B saves a changed answer and submits
    changed answers. Both are refused as already submitted from another device; the database
    keeps exactly A's answers, A's submission time and no draft."""
    from dkw_core.study.participants import PlatformSettings, join, set_platform

    sid = _study(engine)
    set_platform(engine, sid, PlatformSettings("PROLIFIC_PID", "DONE-1"))
    judge = join(engine, sid, "p-1")
    assert join(engine, sid, "p-1") == judge  # the second device: the same judge
    on_a, on_b = S.next_task(engine, judge).task, S.next_task(engine, judge).task
    assert (on_a.judgement_id, on_a.token) == (on_b.judgement_id, on_b.token)  # the same article on both
    S.submit(engine, judge_id=judge, judgement_id=on_a.judgement_id, token=on_a.token, answers=_full_answers(on_a, 1))
    stored = _stored(engine, on_a.judgement_id)
    changed = _full_answers(on_b, 3)
    attempts = (lambda: S.save_draft(engine, judge_id=judge, judgement_id=on_b.judgement_id, token=on_b.token,
                                     answers=dict([next(iter(changed.items()))])),
                lambda: S.submit(engine, judge_id=judge, judgement_id=on_b.judgement_id, token=on_b.token,
                                 answers=changed))
    for attempt in attempts:
        with pytest.raises(S.SubmissionError) as err:
            attempt()
        assert err.value.reason == "submitted"
        assert str(err.value).startswith("Not saved: this article was already submitted from another device")
        assert _stored(engine, on_a.judgement_id) == stored
    assert {value for _k, _q, value in stored[0]} == {1} and len(stored[0]) == len(changed) and stored[3] == 0
    assert S.next_task(engine, judge).task.judgement_id != on_a.judgement_id  # B goes on when asked


# ------------------------------------------------------------------ life cycle

def test_pause_lets_a_judge_finish_her_article_but_gives_out_no_new_one(engine):
    sid = _study(engine, judges=1)
    a = S.invite_judge(engine, sid, name="a")[0]
    b = S.invite_judge(engine, sid, name="b")[0]
    held = S.next_task(engine, a).task
    assert S.set_status(engine, sid, "paused") == "open"
    assert S.next_task(engine, b).status == "paused"
    assert S.next_task(engine, a).task.judgement_id == held.judgement_id  # resumes her article
    S.submit(engine, judge_id=a, judgement_id=held.judgement_id, answers=_full_answers(held))
    assert S.next_task(engine, a).status == "paused"
    S.invite_judge(engine, sid, name="c")  # inviting while paused is allowed
    S.set_status(engine, sid, "open")
    assert S.next_task(engine, b).status == "task"


def test_closed_study_refuses_assignment_submission_and_new_judges(engine):
    sid = _study(engine)
    a = S.invite_judge(engine, sid, name="a")[0]
    held = S.next_task(engine, a).task
    S.set_status(engine, sid, "closed")
    assert S.next_task(engine, a).status == "closed"
    with pytest.raises(S.SubmissionError, match="closed"):
        S.submit(engine, judge_id=a, judgement_id=held.judgement_id, answers=_full_answers(held))
    with pytest.raises(S.StudyError, match="closed"):
        S.invite_judge(engine, sid, name="late")
    with pytest.raises(InputError):
        S.set_status(engine, sid, "finished")


def test_revoke_keeps_answers_releases_the_reservation_and_reissue_continues(engine):
    sid = _study(engine, judges=1)
    a, code = S.invite_judge(engine, sid, name="a")
    first = S.next_task(engine, a).task
    S.submit(engine, judge_id=a, judgement_id=first.judgement_id, answers=_full_answers(first))
    S.next_task(engine, a)  # holds a second article
    assert S.revoke_judge(engine, sid, a) == 1
    with pytest.raises(S.AccessError, match="revoked"):
        S.authenticate(engine, code)
    with pytest.raises(S.AccessError, match="revoked"):
        S.next_task(engine, a)
    assert _answers_stored(engine) == 12  # her submitted article stays
    new = S.reissue_code(engine, sid, a)
    assert new != code and S.authenticate(engine, new) == a
    with pytest.raises(S.AccessError):
        S.authenticate(engine, code)
    assert S.judge_progress(engine, a).judged == 1
    assert S.next_task(engine, a).task.judgement_id != first.judgement_id
    log = S.study_events(engine, sid)
    assert [e["action"] for e in log] == ["created", "judge invited", "code revoked", "code re-issued"]
    assert all(e["at"] is not None for e in log)
    with pytest.raises(S.StudyError, match="no judge"):
        S.revoke_judge(engine, sid, 999)


def test_the_library_refuses_control_characters_in_every_stored_name(engine):
    from dkw_core.errors import InputError
    from dkw_core.study.judges import invite_judge
    from dkw_core.study.settings import MethodSpec, StudyConfig

    with pytest.raises(InputError, match="holds a control character"):
        invite_judge(engine, 1, name="eve\tfake-code\nmallory")
    with pytest.raises(InputError, match=r"the study's name .* holds a control character \(a line break\)"):
        StudyConfig(name="a\nb").validate()
    methods = (MethodSpec("tf-rf"), MethodSpec("mine\x00", keywords={"d": ["w"]}))
    with pytest.raises(InputError, match=r"method .*'mine\\x00'.*NUL"):
        StudyConfig(methods=methods).validate()
