"""Sessions on the study database: the write lock every change takes, and small shared helpers.

**Atomicity.** Every write runs in one transaction that first takes the database write
lock (``BEGIN IMMEDIATE`` on SQLite; ``SELECT ... FOR UPDATE`` on the study row elsewhere),
and the schema's unique constraints back it up: concurrent judges can neither over-assign an
article nor lose or duplicate a judgement.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from ..errors import StoreError
from .errors import StudyError
from .models import Study, StudyEvent, init_db, utcnow


@contextlib.contextmanager
def write_session(engine: Engine, study_id: int | None = None) -> Iterator[Session]:
    """A session holding the database write lock from its first statement to commit. Any
    exception (``KeyboardInterrupt`` and ``SystemExit`` included) rolls the whole change back."""
    session = Session(engine, expire_on_commit=False)
    try:
        if engine.dialect.name == "sqlite":
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
        elif study_id is not None:
            session.execute(select(Study.id).where(Study.id == study_id).with_for_update())
        yield session
        session.commit()
    except OperationalError as exc:
        session.rollback()
        raise StoreError(f"study database busy or unavailable: {exc.orig}") from exc
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def open_store(engine: Engine) -> Engine:
    """Create or check the schema; returns the engine for chaining."""
    init_db(engine)
    return engine


def get_study(session: Session, study_id: int) -> Study:
    study = session.get(Study, study_id)
    if study is None:
        raise StudyError(f"no study with id {study_id}")
    return study


def log_event(session: Session, study_id: int, action: str, detail: str = "") -> None:
    """Append to the study's change log (UTC time)."""
    session.add(StudyEvent(study_id=study_id, at=utcnow(), action=action, detail=detail))


def require_status(study: Study, allowed: Sequence[str], doing: str) -> None:
    if study.status not in allowed:
        raise StudyError(f"study {study.id} is {study.status}: cannot {doing}")
