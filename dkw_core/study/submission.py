"""Answers: each one saved as a draft as soon as it is given, then the whole article submitted,
validated again on the server. Drafts survive reloads and reconnects; submission stores every
answer of the article in one transaction (all or nothing) and deletes its drafts."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .errors import SubmissionError
from .judges import REVOKED
from .models import ANSWERS, QUESTIONS, Answer, Draft, Judge, Judgement, utcnow
from .store import get_judge, get_study, write_session
from .tasks import display_order, widget_token

NOT_RESERVED = ("Not saved: this article is not reserved for you any more (the reservation expired or was "
                "released); reload to get your next article")
#: Another device or window of the same judge (a platform participant's link opened twice) submitted
#: the article first: this device's answers and drafts are refused, the stored ones stay.
ALREADY_SUBMITTED = ("Not saved: this article was already submitted from another device or window; your answers "
                     "here were not stored")
PAUSED = ("Saved. The study is now paused by its organisers: no new article is given out for now; your answers "
          "are safe.")


@dataclass(frozen=True)
class DraftResult:
    saved: int  # answers stored (or cleared) by this call
    answered: int  # answers now held as draft for the article
    total: int  # answers the article needs (keywords x questions)


@dataclass(frozen=True)
class SubmitResult:
    """``saved``: the article and all its answers are stored. ``study_status`` after the
    submission (``open``, ``paused``); ``message`` says both in one sentence for the judge."""

    saved: bool
    study_status: str
    message: str


def owner_revoked(session: Session, judge_id: int) -> bool:
    judge = session.get(Judge, judge_id)
    return judge is None or judge.revoked_at is not None


def _study_of(engine: Engine, judge_id: int) -> int:
    with Session(engine) as probe:
        return get_judge(probe, judge_id).study_id


def _held(session: Session, judge_id: int, judgement_id: int, study_id: int, *, doing: str,
          token: str | None = None) -> Judgement:
    """The judgement if this judge may still answer it, else the reason as SubmissionError.
    ``token`` (:attr:`JudgeTask.token`, when given) must be the reservation's current one."""
    if owner_revoked(session, judge_id):
        raise SubmissionError(f"Not saved: {REVOKED}", "revoked")
    if get_study(session, study_id).status == "closed":
        raise SubmissionError(f"Not saved: the study is closed: no more answers are accepted ({doing})", "closed")
    judgement = session.get(Judgement, judgement_id)
    if judgement is None or judgement.judge_id != judge_id:
        raise SubmissionError(NOT_RESERVED, "released")
    if token is not None and token != widget_token(judgement.judge, judgement):
        raise SubmissionError(NOT_RESERVED, "released")
    if judgement.submitted_at is not None:
        raise SubmissionError(ALREADY_SUBMITTED, "submitted")
    return judgement


def _check_value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in ANSWERS:
        raise SubmissionError(f"Not saved: invalid answer {value!r}; expected one of {sorted(ANSWERS)}", "invalid")
    return value


def save_draft(engine: Engine, *, judge_id: int, judgement_id: int,
               answers: Mapping[tuple[int, str], int | None], token: str | None = None) -> DraftResult:
    """Store answers as soon as they are given: ``(display position, question) -> 0..3``, or
    None to clear one. Upserts per keyword and question under the write lock and renews the
    reservation. Pass ``token`` (the task's), as for :func:`submit`. Allowed while the study is
    paused; refused (nothing stored, ``reason`` set) when the article was released, the code
    revoked, the study closed or the article submitted."""
    study_id = _study_of(engine, judge_id)
    for attempt in range(2):
        try:
            with write_session(engine, study_id) as session:
                judgement = _held(session, judge_id, judgement_id, study_id, doing="draft", token=token)
                shown = display_order(judgement.judge, judgement)
                given: dict[tuple[int, str], int | None] = {}
                for key, value in answers.items():
                    try:
                        pos, question = int(key[0]), str(key[1])
                    except (TypeError, ValueError, IndexError):
                        raise SubmissionError(f"Not saved: malformed answer key {key!r}", "invalid") from None
                    if not 0 <= pos < len(shown) or question not in QUESTIONS:
                        raise SubmissionError("Not saved: an answer is for a keyword or question not shown with "
                                              "this article", "invalid")
                    given[(pos, question)] = None if value is None else _check_value(value)
                existing = {(d.keyword_id, d.question): d for d in judgement.drafts}
                for (pos, question), value in given.items():
                    kw_id = shown[pos].id
                    row = existing.get((kw_id, question))
                    if value is None:
                        if row is not None:
                            judgement.drafts.remove(row)
                            session.delete(row)
                            del existing[(kw_id, question)]
                    elif row is None:
                        row = Draft(keyword_id=kw_id, question=question, value=value, updated_at=utcnow())
                        judgement.drafts.append(row)
                        existing[(kw_id, question)] = row
                    else:
                        row.value, row.updated_at = value, utcnow()
                judgement.last_seen_at = utcnow()  # answering keeps the reservation alive
                return DraftResult(saved=len(given), answered=len(existing), total=len(shown) * len(QUESTIONS))
        except IntegrityError:  # only without a write lock: another writer inserted the same draft
            if attempt == 1:
                raise SubmissionError("Not saved: the answer was changed at the same moment elsewhere; "
                                      "try again", "duplicate") from None
    raise AssertionError("unreachable")


def submit(engine: Engine, *, judge_id: int, judgement_id: int, answers: Mapping[tuple[int, str], int],
           seconds_spent: float | None = None, token: str | None = None) -> SubmitResult:
    """Store all answers of one judgement, validated again on the server.

    ``answers`` maps ``(display position, question)`` to 0..3 (:data:`ANSWERS`), positions as
    in :attr:`JudgeTask.keywords`; every keyword of the article needs both questions.
    Incomplete, foreign, unknown-keyword or repeated submissions raise
    :class:`SubmissionError` (``reason`` set; the message starts with "Not saved") and store
    nothing. Pass ``token`` (the task's) so that a page left open on a released reservation
    cannot answer a newer one. On success the article's drafts are deleted and the result says
    whether the study is now paused.
    """
    study_id = _study_of(engine, judge_id)
    try:
        with write_session(engine, study_id) as session:
            judgement = _held(session, judge_id, judgement_id, study_id, doing="submission", token=token)
            shown = display_order(judgement.judge, judgement)
            expected = {(pos, q) for pos in range(len(shown)) for q in QUESTIONS}
            try:
                given = {(int(k), str(q)): v for (k, q), v in answers.items()}
            except (TypeError, ValueError) as exc:
                raise SubmissionError(f"Not saved: malformed answers: {exc}", "invalid") from None
            missing = expected - given.keys()
            extra = given.keys() - expected
            if extra:
                raise SubmissionError(f"Not saved: {len(extra)} answer(s) are for keywords or questions not shown "
                                      f"with this article", "invalid")
            if missing:
                raise SubmissionError(f"Not saved: incomplete submission: {len(missing)} of {len(expected)} "
                                      f"answers missing; every keyword needs both questions answered", "incomplete")
            for value in given.values():
                _check_value(value)
            now = utcnow()
            for (pos, question), value in sorted(given.items()):
                session.add(Answer(judgement_id=judgement.id, keyword_id=shown[pos].id, question=question,
                                   value=value))
            session.execute(delete(Draft).where(Draft.judgement_id == judgement.id))
            judgement.submitted_at = now
            judgement.seconds_spent = (float(seconds_spent) if seconds_spent is not None
                                       else (now - judgement.assigned_at).total_seconds())
            status = get_study(session, study_id).status
    except IntegrityError as exc:
        raise SubmissionError("Not saved: duplicate submission refused", "duplicate") from exc
    return SubmitResult(saved=True, study_status=status, message="Saved." if status == "open" else PAUSED)
