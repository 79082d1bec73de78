"""Participants from a crowd platform (Prolific, MTurk, a university pool; docs/study.md
"Participants from a platform").

The study link is ``<app>/Judge?study=<id>&<param>=<participant id>``, ``param`` being the
study's :attr:`~.models.Study.participant_param` (``PROLIFIC_PID``, ``workerId``). Each
participant id gets one judge identity (:func:`join`); the same id, from any device, returns
to the same judge and her open article. Platform ids live in ``study_participant`` only: the
judge is named ``participant-<judge id>`` and exports leave the ids out unless asked.

A participant is done when she has submitted the study's ``articles_per_participant`` (or when
nothing is left for her); she is then shown the study's completion code and, if configured,
its completion URL (http or https only). A study may set a second code,
``completion_code_failed``, for a participant whom the rule "failed attention checks" excludes
when she finishes (platforms such as Prolific take several codes); the code she was shown is
stored with her and kept, and the completion URL, if it carries the study's code as a query
value (``?cc=C1A2B3``), carries hers. :func:`participants_frame` is the organiser's one table
of participants: platform id, judge, articles, completed, each exclusion rule's flag, the code
shown.

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
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import InputError
from .errors import StudyError
from .judges import hash_code
from .models import Article, Judge, Judgement, Participant, init_db, utcnow
from .settings import RULE_NAMES
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
    #: Shown instead of ``completion_code`` to a participant the attention-check rule excludes.
    completion_code_failed: str | None = None

    def validate(self) -> None:
        if self.participant_param is not None:
            if not _PARAM.fullmatch(self.participant_param) or self.participant_param in RESERVED_PARAMS:
                raise InputError(f"the participant id parameter must be a URL parameter name such as PROLIFIC_PID "
                                 f"or workerId (letters, digits, _; not {' or '.join(RESERVED_PARAMS)}), got "
                                 f"{self.participant_param[:70]!r}")
            if not self.completion_code:
                raise InputError("a study taking platform participants needs a completion code")
        for what, code in (("completion code", self.completion_code),
                           ("completion code for a failed attention check", self.completion_code_failed)):
            if code is not None and not _CODE.fullmatch(code):
                raise InputError(f"the {what} may hold only letters, digits, - and _ (1 to 64 characters)")
        if self.completion_code_failed is not None:
            if self.completion_code is None:
                raise InputError("a completion code for a failed attention check needs the study's completion code")
            if self.completion_code_failed == self.completion_code:
                raise InputError("the completion code for a failed attention check must differ from the completion "
                                 "code")
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
        study.completion_code_failed = settings.completion_code_failed
        log_event(session, study_id, "platform",
                  f"participant id parameter {settings.participant_param or '(none)'}, "
                  f"{settings.articles_per_participant or 'all'} article(s) each, completion URL "
                  f"{'set' if settings.completion_url else 'none'}, code for a failed attention check "
                  f"{'set' if settings.completion_code_failed else 'none'}")


def platform(engine: Engine, study_id: int) -> PlatformSettings:
    init_db(engine)
    with Session(engine) as session:
        st = get_study(session, study_id)
        return PlatformSettings(st.participant_param, st.completion_code, st.completion_url,
                                st.articles_per_participant, st.completion_code_failed)


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


def _url_with_code(url: str | None, standard: str | None, code: str | None) -> str | None:
    """``url`` with every query value equal to the study's ``standard`` code replaced by
    ``code`` (Prolific's ``?cc=``), so that the way back carries the code she was shown."""
    if url is None or code is None or standard is None or code == standard:
        return url
    parts = urlsplit(url)
    query = [(k, code if v == standard else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def completion(engine: Engine, judge_id: int) -> dict[str, Any] | None:
    """For a platform participant who is done (quota reached, or nothing left after at least one
    article): ``{"code", "url", "articles"}``, and her completion time and the code shown are
    recorded (the same code every later time); None for an invited judge. ``code`` is None when
    she judged nothing (the study had nothing left). The code is the study's
    ``completion_code_failed`` when it is set and the rule "failed attention checks" excludes her
    (:func:`~.exclusion.fails_attention_rule`), else its ``completion_code``."""
    from .exclusion import fails_attention_rule

    with Session(engine) as session:
        row = session.scalars(select(Participant).where(Participant.judge_id == judge_id)).first()
        if row is None:
            return None
        study_id, shown, failed_code = row.study_id, row.completion_code, get_study(
            session, row.study_id).completion_code_failed
    failed = shown is None and failed_code is not None and fails_attention_rule(engine, study_id, judge_id)
    with write_session(engine) as session:
        row = session.scalars(select(Participant).where(Participant.judge_id == judge_id)).one()
        study = get_study(session, row.study_id)
        done = session.scalar(select(func.count(Judgement.id)).join(Article).where(
            Judgement.judge_id == judge_id, Judgement.submitted_at.is_not(None))) or 0
        if not done:
            return {"code": None, "url": None, "articles": 0}
        if row.completed_at is None:
            row.completed_at = utcnow()
        if row.completion_code is None:  # decided once: what she copies into the platform stays true
            row.completion_code = (study.completion_code_failed if failed and study.completion_code_failed
                                   else study.completion_code)
        return {"code": row.completion_code,
                "url": _url_with_code(study.completion_url, study.completion_code, row.completion_code),
                "articles": int(done)}


#: The participants export, column -> (pandas dtype, meaning): one row per platform participant
#: (docs/study.md "Participants from a platform"). The rule flags are empty for a participant
#: with no submitted article (the analysis has nothing of hers to keep or leave out).
PARTICIPANT_COLUMNS: dict[str, tuple[str, str]] = {
    "participant_id": ("string", "the platform id (PROLIFIC_PID, workerId)"),
    "judge_id": ("int64", "judge number in the study"),
    "judge": ("string", "judge name (participant-<judge number>)"),
    "articles": ("int64", "articles she submitted"),
    "completed": ("boolean", "she finished and was shown a completion code"),
    "completed_at": ("datetime64[us]", "when she was first shown it (UTC)"),
    "completion_code": ("string", "the completion code she was shown (empty: none yet)"),
    "failed_check_code": ("boolean", "that code is the study's code for a failed attention check"),
    "excluded": ("boolean", "the study's exclusion rules leave her answers out of the analysis"),
    **{f"excluded_{rule}": ("boolean", f"excluded by the rule '{name}'") for rule, name in RULE_NAMES.items()},
}


def participants_frame(engine: Engine, study_id: int) -> pd.DataFrame:
    """One row per platform participant of the study (:data:`PARTICIPANT_COLUMNS`, joined on
    arrival order): her platform id beside her judge, what she did, the code she was shown and
    each exclusion rule's verdict on her (:func:`~.exclusion.judge_figures`, the analysis' own)."""
    from .answers import answers_frame
    from .exclusion import judge_figures, study_rules

    with Session(engine) as session:
        study = get_study(session, study_id)
        failed_code = study.completion_code_failed
        rows = session.execute(select(Participant, Judge.name).join(Judge, Participant.judge_id == Judge.id)
                               .where(Participant.study_id == study_id).order_by(Participant.id)).all()
        found = [(p.participant_id, p.judge_id, name, p.completed_at, p.completion_code) for p, name in rows]
    figures = judge_figures(answers_frame(engine, study_id, include_simulated=True), study_rules(engine, study_id))
    by_judge = {int(r.judge_id): r for r in figures.itertuples()}
    out = []
    for pid, judge_id, name, completed_at, code in found:
        fig = by_judge.get(judge_id)
        flags: dict[str, Any] = {"excluded": None if fig is None else bool(fig.excluded)}
        flags.update({f"excluded_{rule}": None if fig is None else rule in fig.excluded_by for rule in RULE_NAMES})
        out.append({"participant_id": pid, "judge_id": judge_id, "judge": name,
                    "articles": 0 if fig is None else int(fig.articles), "completed": completed_at is not None,
                    "completed_at": completed_at, "completion_code": code,
                    "failed_check_code": code is not None and code == failed_code, **flags})
    frame = pd.DataFrame(out, columns=list(PARTICIPANT_COLUMNS))
    return frame.astype({c: dtype for c, (dtype, _m) in PARTICIPANT_COLUMNS.items()})


def participants_csv(engine: Engine, study_id: int) -> str:
    """:func:`participants_frame` as CSV, through dkw's one CSV writer (formulas neutralised)."""
    from ..csvsafe import frame_to_csv

    return frame_to_csv(participants_frame(engine, study_id), date_format="%Y-%m-%dT%H:%M:%S")
