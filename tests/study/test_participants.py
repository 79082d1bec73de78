"""Participants from a crowd platform (dkw_core/study/participants.py): one judge identity per
platform id, resumable from any device, a completion code when done, ids kept out of exports,
and every bad input refused in one line with nothing stored."""
from __future__ import annotations

import io
import threading

import pandas as pd
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.errors import StudyError
from dkw_core.study.export import export, export_frame
from dkw_core.study.models import Judge, Participant
from dkw_core.study.participants import (
    PARTICIPANT_COLUMNS,
    PlatformSettings,
    completion,
    join,
    participants_csv,
    participants_frame,
    platform,
    set_platform,
)
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


def _submit(engine, jid, value=2):
    task = S.next_task(engine, jid).task
    S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, answers=all_answers(value)(jid, task))
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
    (PlatformSettings("PROLIFIC_PID", "C1", completion_code_failed="F 1"),
     "the completion code for a failed attention check may hold only"),
    (PlatformSettings("PROLIFIC_PID", "C1", completion_code_failed="C1"), "must differ from the completion code"),
    (PlatformSettings(None, None, completion_code_failed="F1"), "needs the study's completion code"),
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


CHECKED = PlatformSettings("PROLIFIC_PID", "C1A2B3", "https://app.prolific.com/submissions/complete?cc=C1A2B3", 2,
                           completion_code_failed="FAIL99")


def _checked_study(engine, settings=CHECKED):
    """Every article carries an intruder; the default rule excludes any failed check."""
    cfg = S.StudyConfig(name="crowd", corpus="fake", articles_per_category=2, categories_per_batch=6,
                        judges_per_article=3, keywords_per_method=2, seed=2, attention_share=1.0)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=category_provider, config=cfg)
    set_platform(engine, sid, settings)
    return sid


def test_a_participant_who_failed_the_attention_check_is_shown_the_other_code_and_keeps_it(engine):
    sid = _checked_study(engine)
    assert platform(engine, sid) == CHECKED
    careless, careful = join(engine, sid, "careless-1"), join(engine, sid, "careful-2")
    for _ in range(2):
        _submit(engine, careless, value=2)  # "Partially" for the intruder: a failed check
        _submit(engine, careful, value=1)  # "Irrelevant" throughout: passed
    assert completion(engine, careless) == {
        "code": "FAIL99", "url": "https://app.prolific.com/submissions/complete?cc=FAIL99", "articles": 2}
    assert completion(engine, careful) == {"code": "C1A2B3", "url": CHECKED.completion_url, "articles": 2}
    # the organiser drops the second code later: what each was shown stays what she was shown
    set_platform(engine, sid, PROLIFIC)
    assert completion(engine, careless)["code"] == "FAIL99"


def test_without_a_code_for_failed_checks_everyone_gets_the_completion_code(engine):
    sid = _checked_study(engine, PROLIFIC)
    careless = join(engine, sid, "careless-1")
    for _ in range(2):
        _submit(engine, careless, value=2)
    assert completion(engine, careless)["code"] == "C1A2B3"


def test_the_participants_export_joins_platform_ids_rule_flags_and_the_code_shown(engine):
    from dkw_core.csvsafe import read_csv

    sid = _checked_study(engine)
    careless, careful = join(engine, sid, "careless-1"), join(engine, sid, "careful-2")
    idle = join(engine, sid, "idle-3")
    for _ in range(2):
        _submit(engine, careless, value=2)
    _submit(engine, careful, value=1)
    completion(engine, careless)
    frame = participants_frame(engine, sid)
    assert list(frame.columns) == list(PARTICIPANT_COLUMNS)
    assert {c: str(t) for c, t in frame.dtypes.items()} == {c: d for c, (d, _m) in PARTICIPANT_COLUMNS.items()}
    rows = {r["participant_id"]: r for r in frame.to_dict("records")}
    assert [rows[p]["judge_id"] for p in ("careless-1", "careful-2", "idle-3")] == [careless, careful, idle]
    bad = rows["careless-1"]
    assert bad["judge"] == f"participant-{careless}" and bad["articles"] == 2 and bad["completed"]
    assert bad["completion_code"] == "FAIL99" and bad["failed_check_code"]
    assert bad["excluded"] and bad["excluded_max_failed_checks"] and not bad["excluded_min_articles"]
    good = rows["careful-2"]
    assert good["articles"] == 1 and not good["completed"] and pd.isna(good["completion_code"])
    assert not good["excluded"] and not good["excluded_max_failed_checks"] and not good["failed_check_code"]
    assert rows["idle-3"]["articles"] == 0 and pd.isna(rows["idle-3"]["excluded"])  # nothing to keep or leave out
    text = participants_csv(engine, sid)
    assert text.splitlines()[0].startswith("participant_id,judge_id,judge,articles,completed,")
    back = read_csv(io.StringIO(text))
    assert back["participant_id"].tolist() == ["careless-1", "careful-2", "idle-3"]
    assert back["completion_code"].tolist()[0] == "FAIL99"


def test_the_organisers_judge_tables_show_the_platform_id_beside_the_judge(engine):
    from dkw_core.study.exclusion import judge_quality

    sid = _study(engine)
    jid = join(engine, sid, "PID-visible-7")
    lab = S.invite_judge(engine, sid, name="lab")[0]
    _submit(engine, jid)
    _submit(engine, lab)
    rows = {r["judge_id"]: r for r in S.monitoring(engine, sid)["judges"]}
    assert (rows[jid]["name"], rows[jid]["platform_id"]) == (f"participant-{jid}", "PID-visible-7")
    assert rows[lab]["platform_id"] is None
    quality = {r["judge_id"]: r for r in judge_quality(engine, sid)}
    assert quality[jid]["platform_id"] == "PID-visible-7" and quality[lab]["platform_id"] is None
