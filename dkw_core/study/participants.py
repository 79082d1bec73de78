"""Participants from a crowd platform (Prolific, MTurk, a university pool; docs/study.md
"Participants from a platform").

The study link is ``<app>/Judge?study=<id>&<param>=<participant id>``, ``param`` being the
study's :attr:`~.models.Study.participant_param` (``PROLIFIC_PID``, ``workerId``). Each
participant id gets one judge identity (:func:`join`); the same id, from any device, returns
to the same judge and her open article. Platform ids live in ``study_participant`` only: the
judge is named ``participant-<judge id>`` and exports leave the ids out unless asked.

A participant is done when she has submitted the study's ``articles_per_participant`` (or when
nothing is left for her); she is then shown the study's completion code and, if configured,
its completion URL (http or https only).

Every input is checked before any work and refused in one line: a missing id, one longer than
:data:`MAX_ID_CHARS`, one holding anything but letters, digits and ``- _ . : @`` (markup,
control characters, spaces), a parameter name or completion code of the wrong form, and a
completion URL that is not http(s). Two requests with the same new id at once create one judge:
the write lock serialises them and ``UNIQUE(study_id, participant_id)`` backs it up.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import InputError
from .errors import StudyError
from .judges import hash_code
from .models import Article, Judge, Judgement, Participant, Study, init_db, utcnow
from .store import get_study, log_event, require_status, write_session

MAX_ID_CHARS = 100
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]*")
_PARAM = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: URL parameters the judge page reads itself: a platform parameter may not be one of them.
RESERVED_PARAMS = ("code", "study")
MAX_URL_CHARS = 2000


def check_participant_id(value: str | None, param: str = "the participant id parameter") -> str:
    """The participant id, or :class:`InputError` saying in one line what is wrong with it."""
    if value is None or not str(value).strip():
        raise InputError(f"this study link has no participant id ({param} is missing or empty); open the link "
                         f"the platform gave you")
    value = str(value)
    if len(value) > MAX_ID_CHARS:
        raise InputError(f"a participant id is limited to {MAX_ID_CHARS} characters (this one has {len(value)})")
    if not _ID.fullmatch(value):
        what = ("a control character" if any(ord(c) < 32 or ord(c) == 127 for c in value)
                else "markup" if any(c in "<>&\"'`" for c in value) else "a character other than these")
        raise InputError(f"a participant id may hold only letters, digits and - _ . : @ (this one holds {what})")
    return value


def check_completion_url(url: str | None) -> str | None:
    """An http(s) URL (or None/empty for none), else one line."""
    if url is None or not url.strip():
        return None
    url = url.strip()
    parts = urlsplit(url)
    if (parts.scheme.lower() not in ("http", "https") or not parts.netloc or len(url) > MAX_URL_CHARS
            or any(ord(c) < 33 or ord(c) == 127 for c in url)):
        raise InputError(f"the completion URL must be an http:// or https:// address without spaces, at most "
                         f"{MAX_URL_CHARS} characters (got one starting {url[:30]!r})")
    return url


@dataclass(frozen=True)
class PlatformSettings:
    """How a study takes participants from a platform (all None: it takes none)."""

    participant_param: str | None = None
    completion_code: str | None = None
    completion_url: str | None = None
    articles_per_participant: int | None = None

    def validate(self) -> None:
        if self.participant_param is not None:
            if not _PARAM.fullmatch(self.participant_param) or self.participant_param in RESERVED_PARAMS:
                raise InputError(f"the participant id parameter must be a URL parameter name such as PROLIFIC_PID "
                                 f"or workerId (letters, digits, _; not {' or '.join(RESERVED_PARAMS)}), got "
                                 f"{self.participant_param[:70]!r}")
            if not self.completion_code:
                raise InputError("a study taking platform participants needs a completion code")
        if self.completion_code is not None and not _CODE.fullmatch(self.completion_code):
            raise InputError("the completion code may hold only letters, digits, - and _ (1 to 64 characters)")
        check_completion_url(self.completion_url)
        n = self.articles_per_participant
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
            raise InputError(f"articles per participant must be a positive integer, got {n!r}")


def set_platform(engine: Engine, study_id: int, settings: PlatformSettings) -> None:
    """Store how the study takes platform participants (logged); checked first, in one line."""
    settings.validate()
    with write_session(engine, study_id) as session:
        study = get_study(session, study_id)
        study.participant_param = settings.participant_param
        study.completion_code = settings.completion_code
        study.completion_url = check_completion_url(settings.completion_url)
        study.articles_per_participant = settings.articles_per_participant
        log_event(session, study_id, "platform",
                  f"participant id parameter {settings.participant_param or '(none)'}, "
                  f"{settings.articles_per_participant or 'all'} article(s) each, completion URL "
                  f"{'set' if settings.completion_url else 'none'}")


def platform(engine: Engine, study_id: int) -> PlatformSettings:
    init_db(engine)
    with Session(engine) as session:
        st = get_study(session, study_id)
        return PlatformSettings(st.participant_param, st.completion_code, st.completion_url,
                                st.articles_per_participant)


def join(engine: Engine, study_id: int, participant_id: str | None) -> int:
    """The judge id of ``participant_id`` in the study, created on first arrival. Refused in one
    line (nothing stored) for a bad id, a study taking no platform participants, or a closed
    study (a participant who already has an identity still gets it, to read why)."""
    settings = platform(engine, study_id)
    if settings.participant_param is None:
        raise StudyError(f"study {study_id} takes no participants from a platform")
    pid = check_participant_id(participant_id, settings.participant_param)
    for attempt in range(2):
        try:
            with write_session(engine, study_id) as session:
                found = session.scalars(select(Participant).where(Participant.study_id == study_id,
                                                                  Participant.participant_id == pid)).first()
                if found is not None:
                    return found.judge_id
                study = get_study(session, study_id)
                require_status(study, ("open", "paused"), "take new participants")
                judge = Judge(study_id=study_id, name="participant", code_hash=hash_code(secrets.token_urlsafe(18)),
                              order_seed=secrets.randbelow(2**31))
                session.add(judge)
                session.flush()
                judge.name = f"participant-{judge.id}"
                session.add(Participant(study_id=study_id, participant_id=pid, judge_id=judge.id, created_at=utcnow()))
                log_event(session, study_id, "participant joined", f"judge {judge.id}")
                return judge.id
        except IntegrityError:  # only without a write lock: the same id joined at this moment elsewhere
            if attempt:
                raise
    raise AssertionError("unreachable")


def quota_reached(session: Session, judge: Judge) -> bool:
    """Whether a platform participant has judged her ``articles_per_participant``."""
    quota = judge.study.articles_per_participant
    if quota is None:
        return False
    if session.scalar(select(Participant.id).where(Participant.judge_id == judge.id)) is None:
        return False  # an invited judge: no quota
    done = session.scalar(select(func.count(Judgement.id)).where(Judgement.judge_id == judge.id,
                                                                 Judgement.submitted_at.is_not(None))) or 0
    return done >= quota


def completion(engine: Engine, judge_id: int) -> dict[str, Any] | None:
    """For a platform participant who is done (quota reached, or nothing left after at least one
    article): ``{"code", "url", "articles"}``, and her completion time is recorded; None for an
    invited judge. ``code`` is None when she judged nothing (the study had nothing left)."""
    with write_session(engine) as session:
        row = session.scalars(select(Participant).where(Participant.judge_id == judge_id)).first()
        if row is None:
            return None
        study = session.get(Study, row.study_id)
        assert study is not None
        done = session.scalar(select(func.count(Judgement.id)).join(Article).where(
            Judgement.judge_id == judge_id, Judgement.submitted_at.is_not(None))) or 0
        if done and row.completed_at is None:
            row.completed_at = utcnow()
        return {"code": study.completion_code if done else None, "url": study.completion_url if done else None,
                "articles": int(done)}


def participant_ids(engine: Engine, study_id: int) -> dict[int, str]:
    """judge id -> platform participant id (for an export that asks for them)."""
    with Session(engine) as session:
        rows = session.execute(select(Participant.judge_id, Participant.participant_id)
                               .where(Participant.study_id == study_id)).all()
        return {int(judge): str(pid) for judge, pid in rows}
