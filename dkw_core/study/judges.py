"""Judges and their access codes: invite, revoke, re-issue, authenticate (codes stored hashed)."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..errors import InputError
from ..validation import check_name
from .errors import AccessError, StudyError
from .limits import check
from .models import Judge, Notice, init_db, utcnow
from .store import get_judge, get_study, log_event, require_status, write_session

REVOKED = "this access code was revoked; ask the study's organiser for a new one"


def hash_code(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def invite_judge(engine: Engine, study_id: int, *, name: str, simulated: bool = False) -> tuple[int, str]:
    """Create a judge and return ``(judge_id, access_code)``; only the code's hash is stored.
    Refused when the study is closed (a paused study may still invite)."""
    name = (name or "").strip()
    if not name:
        raise InputError("a judge needs a name (or pseudonym)")
    check("judge name", name, "of the new judge")
    check_name("a judge's name", name)
    code = secrets.token_urlsafe(18)
    with write_session(engine, study_id) as session:
        study = get_study(session, study_id)
        require_status(study, ("open", "paused"), "invite judges")
        judge = Judge(study_id=study_id, name=name, code_hash=hash_code(code),
                      order_seed=secrets.randbelow(2**31), simulated=simulated)
        session.add(judge)
        session.flush()
        log_event(session, study_id, "judge invited", f"judge {judge.id}" + (" (simulated)" if simulated else ""))
        return judge.id, code


def judge_of(session: Session, study_id: int, judge_id: int) -> Judge:
    judge = session.get(Judge, judge_id)
    if judge is None or judge.study_id != study_id:
        raise StudyError(f"study {study_id} has no judge {judge_id}")
    return judge


def unsent(judgement) -> int:
    """Draft answers held for an unsubmitted judgement."""
    return len(judgement.drafts)


def unsent_note(judgement, fate: str) -> str:
    """``"; your 2 unsent answer(s) <fate>"`` for a notice, or nothing when she had given none
    (a judge who had only been handed the article is not told about "0 unsent answer(s)")."""
    n = unsent(judgement)
    return f"; your {n} unsent answer(s) {fate}" if n else ""


def notify(session: Session, judge_id: int, reason: str, message: str) -> None:
    session.add(Notice(judge_id=judge_id, at=utcnow(), reason=reason, message=message))


def revoke_judge(engine: Engine, study_id: int, judge_id: int) -> int:
    """Revoke a judge's access code. Her submitted answers stay; her open (unsubmitted)
    reservation is released so that others can take the article, and she finds a notice
    saying so when she comes back with a new code. Returns how many were released."""
    with write_session(engine, study_id) as session:
        judge = judge_of(session, study_id, judge_id)
        if judge.revoked_at is not None:
            raise StudyError(f"judge {judge_id}'s access is already revoked")
        judge.revoked_at = utcnow()
        open_j = [j for j in judge.judgements if j.submitted_at is None]
        for j in open_j:
            notify(session, judge_id, "revoked",
                   f"The article you were judging was given back when your access code was revoked"
                   f"{unsent_note(j, 'to it were discarded')}.")
            session.delete(j)
        log_event(session, study_id, "code revoked", f"judge {judge_id}; {len(open_j)} open reservation(s) released")
        return len(open_j)


def reissue_code(engine: Engine, study_id: int, judge_id: int) -> str:
    """A new access code for a judge (the old one stops working); her answers are kept and she
    continues where she stopped. Clears a revocation. Refused when the study is closed."""
    code = secrets.token_urlsafe(18)
    with write_session(engine, study_id) as session:
        study = get_study(session, study_id)
        require_status(study, ("open", "paused"), "re-issue access codes")
        judge = judge_of(session, study_id, judge_id)
        was_revoked = judge.revoked_at is not None
        judge.code_hash = hash_code(code)
        judge.revoked_at = None
        log_event(session, study_id, "code re-issued",
                  f"judge {judge_id}" + (" (revocation lifted)" if was_revoked else ""))
    return code


def authenticate(engine: Engine, code: str) -> int:
    """The judge id of ``code``; a wrong or empty code raises :class:`AccessError`."""
    code = (code or "").strip()
    if not code or len(code) > 200:
        raise AccessError("unknown access code")
    digest = hash_code(code)
    init_db(engine)
    with Session(engine) as session:
        judge = session.scalars(select(Judge).where(Judge.code_hash == digest)).first()
        if judge is None or not hmac.compare_digest(judge.code_hash, digest):
            raise AccessError("unknown access code")
        if judge.revoked_at is not None:
            raise AccessError(REVOKED)
        return judge.id


def judge_info(engine: Engine, judge_id: int) -> dict[str, Any]:
    """Name, study name and whether the instructions were acknowledged (no method names)."""
    with Session(engine) as session:
        judge = get_judge(session, judge_id)
        return {"id": judge.id, "name": judge.name, "study_id": judge.study_id,
                "study_name": judge.study.name, "corpus": judge.study.corpus, "status": judge.study.status,
                "instructions_seen": judge.instructions_seen_at is not None}


def acknowledge_instructions(engine: Engine, judge_id: int) -> None:
    with write_session(engine) as session:
        judge = get_judge(session, judge_id)
        if judge.instructions_seen_at is None:
            judge.instructions_seen_at = utcnow()
