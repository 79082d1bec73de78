"""Participants from a crowd platform (dkw_core/study/participants.py): one judge identity per
platform id, resumable from any device, a completion code when done, ids kept out of exports,
and every bad input refused in one line with nothing stored."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.errors import StudyError
from dkw_core.study.export import export, export_frame
from dkw_core.study.models import Judge, Participant
from dkw_core.study.participants import PlatformSettings, completion, join, platform, set_platform
from dkw_core.study.simulate import all_answers

from .fakes import CATS, category_provider, make_docs

PROLIFIC = PlatformSettings("PROLIFIC_PID", "C1A2B3", "https://app.prolific.com/submissions/complete?cc=C1A2B3", 2)


def _study(engine, settings=PROLIFIC):
    cfg = S.StudyConfig(name="crowd", corpus="fake", articles_per_category=2, categories_per_batch=6,
                        judges_per_article=3, keywords_per_method=2, seed=2)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=category_provider, config=cfg)
    if settings is not None:
        set_platform(engine, sid, settings)
    return sid


def _counts(engine):
    with Session(engine) as s:
        return s.scalar(select(func.count(Judge.id))), s.scalar(select(func.count(Participant.id)))


def _submit(engine, jid):
    task = S.next_task(engine, jid).task
    S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, answers=all_answers()(jid, task))
    return task.article_id


def test_one_identity_per_participant_resumed_from_another_device_then_a_completion_code(engine):
    sid = _study(engine)
    jid = join(engine, sid, "5f1a2b3c4d5e6f7a8b9c0d1e")
    first = S.next_task(engine, jid).task
    # another device: the same id returns the same judge and the same open article
    assert join(engine, sid, "5f1a2b3c4d5e6f7a8b9c0d1e") == jid
    assert S.next_task(engine, jid).task.judgement_id == first.judgement_id
    assert join(engine, sid, "someone-else") != jid
    with Session(engine) as s:
        assert s.get(Judge, jid).name == f"participant-{jid}"  # the platform id is not the judge's name
    assert completion(engine, jid) == {"code": None, "url": None, "articles": 0}  # nothing judged: no code yet
    _submit(engine, jid)
    _submit(engine, jid)
    assert S.next_task(engine, jid).status == "done"  # two articles each
    assert completion(engine, jid) == {"code": "C1A2B3", "url": PROLIFIC.completion_url, "articles": 2}
    with Session(engine) as s:
        assert s.scalars(select(Participant.completed_at).where(Participant.judge_id == jid)).one() is not None


def test_an_invited_judge_has_no_quota_and_no_completion_code(engine):
    sid = _study(engine)
    jid = S.invite_judge(engine, sid, name="lab")[0]
    for _ in range(3):
        _submit(engine, jid)
    assert S.next_task(engine, jid).status == "task" and completion(engine, jid) is None


def test_the_same_new_id_twice_at_once_makes_one_judge(any_engine):
    sid = _study(any_engine)
    barrier = threading.Barrier(8)
    got, errors = [], []

    def arrive():
        barrier.wait()
        try:
            got.append(join(any_engine, sid, "worker-A1B2"))
        except Exception as exc:  # noqa: BLE001  (collected and asserted empty)
            errors.append(exc)

    threads = [threading.Thread(target=arrive) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(got)) == 1 and len(got) == 8
    assert _counts(any_engine) == (1, 1)


@pytest.mark.parametrize("pid,says", [
    (None, "this study link has no participant id (PROLIFIC_PID is missing or empty)"),
    ("", "this study link has no participant id"),
    ("x" * 10_000, "a participant id is limited to 100 characters (this one has 10000)"),
    ("<script>alert(1)</script>", "this one holds markup"),
    ("abc\x07def", "this one holds a control character"),
    ("abc def", "a participant id may hold only letters, digits and - _ . : @"),
])
def test_a_bad_participant_id_is_one_line_and_stores_nothing(engine, pid, says):
    sid = _study(engine)
    with pytest.raises(InputError) as err:
        join(engine, sid, pid)
    assert says in str(err.value) and "\n" not in str(err.value)
    assert _counts(engine) == (0, 0)


@pytest.mark.parametrize("settings,says", [
    (PlatformSettings("PROLIFIC_PID", "C1", "javascript:alert(1)"), "must be an http:// or https:// address"),
    (PlatformSettings("PROLIFIC_PID", "C1", "ftp://files.example.org/x"), "must be an http:// or https:// address"),
    (PlatformSettings("PROLIFIC_PID", "C1", "https://example.org/a b"), "must be an http:// or https:// address"),
    (PlatformSettings("code", "C1"), "must be a URL parameter name"),
    (PlatformSettings("PROLIFIC_PID", None), "needs a completion code"),
    (PlatformSettings("PROLIFIC_PID", "<b>x</b>"), "the completion code may hold only"),
])
def test_bad_platform_settings_are_one_line_and_change_nothing(engine, settings, says):
    sid = _study(engine)
    with pytest.raises(InputError) as err:
        set_platform(engine, sid, settings)
    assert says in str(err.value) and "\n" not in str(err.value)
    assert platform(engine, sid) == PROLIFIC


def test_a_study_without_platform_links_refuses_participants(engine):
    sid = _study(engine, settings=None)
    with pytest.raises(StudyError, match="takes no participants from a platform"):
        join(engine, sid, "abc")
    assert _counts(engine) == (0, 0)


def test_platform_ids_stay_out_of_exports_unless_asked(engine):
    sid = _study(engine)
    jid = join(engine, sid, "PID-secret-42")
    _submit(engine, jid)
    assert "PID-secret-42" not in export(engine, sid, "csv") and "PID-secret-42" not in export(engine, sid, "json")
    assert "participant_id" not in export_frame(engine, sid).columns
    frame = export_frame(engine, sid, participant_ids=True)
    assert set(frame["participant_id"]) == {"PID-secret-42"}
    assert "PID-secret-42" in export(engine, sid, "csv", participant_ids=True)
