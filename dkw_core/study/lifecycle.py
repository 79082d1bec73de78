"""A study's life cycle (open / paused / closed) and its change log."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..errors import InputError
from .judges import notify, unsent_note
from .models import STATUSES, Article, Judge, Judgement, Notice, StudyEvent, utcnow
from .store import get_study, log_event, write_session


def set_status(engine: Engine, study_id: int, status: str) -> str:
    """Open, pause or close a study; returns the previous status.

    ``open``: judges get articles. ``paused``: no new article is given out; a judge may still
    submit the article she holds; judges may be invited. ``closed``: no article is given out,
    nothing is submitted, no judge is invited or re-issued a code (a closed study may be
    re-opened). A judge holding an article when the study closes keeps her reservation and
    her draft answers (they come back if it reopens) and gets a notice saying so; reopening
    (or pausing) a closed study withdraws those notices, which would no longer be true.
    """
    if status not in STATUSES:
        raise InputError(f"status must be one of {', '.join(STATUSES)}, got {status!r}")
    with write_session(engine, study_id) as session:
        study = get_study(session, study_id)
        before = study.status
        if before != status:
            study.status = status
            log_event(session, study_id, "status", f"{before} -> {status}")
            if status == "closed":
                held = session.scalars(select(Judgement).join(Article).where(
                    Article.study_id == study_id, Judgement.submitted_at.is_(None))).all()
                for j in held:
                    kept = unsent_note(j, "are kept and come back")
                    notify(session, j.judge_id, "closed",
                           f"The study was closed while you were judging an article, so it accepts no answers "
                           f"for now{kept or '; the article stays yours'} if the study reopens.")
            elif before == "closed":  # the "study was closed" notices are no longer true
                judges = select(Judge.id).where(Judge.study_id == study_id)
                session.execute(update(Notice).where(Notice.reason == "closed", Notice.dismissed_at.is_(None),
                                                     Notice.judge_id.in_(judges)).values(dismissed_at=utcnow()))
        return before


def study_events(engine: Engine, study_id: int) -> list[dict[str, Any]]:
    """The study's log, oldest first: ``{"at", "action", "detail"}`` (UTC times)."""
    with Session(engine) as session:
        get_study(session, study_id)
        rows = session.scalars(select(StudyEvent).where(StudyEvent.study_id == study_id).order_by(StudyEvent.id))
        return [{"at": e.at, "action": e.action, "detail": e.detail} for e in rows]
