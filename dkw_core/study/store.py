"""Sessions on the study database: the write lock every change takes, and small shared helpers.

**Atomicity.** Every write runs in one transaction that first takes the database write
lock (``BEGIN IMMEDIATE`` on SQLite; ``SELECT ... FOR UPDATE`` on the study row elsewhere),
and the schema's unique constraints back it up: concurrent judges can neither over-assign an
article nor lose or duplicate a judgement.

**Waiting for the lock (SQLite).** Threads of one process (a server's judge sessions) queue
for the write lock first-come first-served (:class:`FairLock`), so only one of them at a time
competes with other processes instead of all of them racing in SQLite's busy handler, where
a late-comer can take the lock again and again while an earlier writer waits. Against other
processes ``BEGIN IMMEDIATE`` is tried with a short busy wait (:data:`BUSY_SLICE`) and, while
the database stays locked, retried with jittered exponential backoff (:data:`BACKOFF`) until
the connection's busy timeout (``DKW_DB_TIMEOUT``, default 30 s) is used up in all; only then
does the writer see "database is locked". The lock is taken first, before any statement, and
held only for the transaction's few writes.
"""
from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from ..errors import StoreError
from .errors import AccessError, StudyError
from .models import Judge, Study, StudyEvent, utcnow

#: Seconds SQLite's own busy handler waits per ``BEGIN IMMEDIATE`` attempt before dkw backs off.
BUSY_SLICE = 0.25
#: First and largest pause (seconds) between attempts; each pause is doubled, times a jitter of 0.5-1.5.
BACKOFF = (0.01, 0.2)
_sleep = time.sleep  # the backoff's pause (tests replace it to see that a writer backed off)


class FairLock:
    """A re-entrant lock handed to waiting threads in arrival order (``threading.RLock`` lets
    the releasing thread take it straight back, which starves the others under load)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._owner: int | None = None
        self._depth = 0
        self._waiters: deque[threading.Lock] = deque()

    def acquire(self) -> None:
        me = threading.get_ident()
        with self._mutex:
            if self._owner == me:
                self._depth += 1
                return
            if self._owner is None and not self._waiters:
                self._owner, self._depth = me, 1
                return
            gate = threading.Lock()
            gate.acquire()
            self._waiters.append(gate)
        try:
            gate.acquire()  # released by the owner's release(), which hands the lock over
        except BaseException:  # interrupted while queued: leave the queue, or pass on a lock just handed over
            with self._mutex:
                if gate in self._waiters:
                    self._waiters.remove(gate)
                    raise
            self._owner, self._depth = me, 1
            self.release()
            raise
        with self._mutex:
            self._owner, self._depth = me, 1

    def release(self) -> None:
        with self._mutex:
            self._depth -= 1
            if self._depth:
                return
            self._owner = None
            if self._waiters:
                self._owner = -1  # handed over: nobody may barge in before the next waiter runs
                self._waiters.popleft().release()


_writers: dict[str, FairLock] = {}
_writers_guard = threading.Lock()


def _writer_queue(engine: Engine) -> FairLock:
    """The in-process queue of writers to one database."""
    key = engine.url.render_as_string(hide_password=True)
    with _writers_guard:
        return _writers.setdefault(key, FairLock())


def _busy(exc: OperationalError) -> bool:
    text = str(getattr(exc, "orig", None) or exc).lower()
    return "locked" in text or "busy" in text


def _begin_immediate(session: Session) -> None:
    """``BEGIN IMMEDIATE`` with short busy waits and jittered exponential backoff between them,
    for at most the connection's busy timeout in all (then the "locked" error is raised)."""
    conn = session.connection()
    timeout_ms = int(conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0)
    deadline = time.monotonic() + timeout_ms / 1000
    pause = BACKOFF[0]
    try:
        while True:
            left = deadline - time.monotonic()
            conn.exec_driver_sql(f"PRAGMA busy_timeout={max(1, int(min(BUSY_SLICE, max(left, 0)) * 1000))}")
            try:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except OperationalError as exc:
                left = deadline - time.monotonic()
                if not _busy(exc) or left <= 0:
                    raise
            _sleep(min(left, pause * random.uniform(0.5, 1.5)))
            pause = min(BACKOFF[1], pause * 2)
    finally:
        conn.exec_driver_sql(f"PRAGMA busy_timeout={timeout_ms}")


@contextlib.contextmanager
def write_session(engine: Engine, study_id: int | None = None) -> Iterator[Session]:
    """A session holding the database write lock from its first statement to commit. Any
    exception (``KeyboardInterrupt`` and ``SystemExit`` included) rolls the whole change back.
    Threads of this process queue for the lock in turn (on PostgreSQL too: a writer waiting for
    the study row's lock would otherwise hold a pooled connection, and a crowd of them drains
    the pool); on SQLite a lock held by another process is waited for with backoff (module
    docstring)."""
    queue = _writer_queue(engine)  # every backend: one writer of this process at a time holds a
    queue.acquire()                # connection, so waiting writers do not drain the connection pool
    try:
        with _write_session(engine, study_id) as session:
            yield session
    finally:
        queue.release()


@contextlib.contextmanager
def _write_session(engine: Engine, study_id: int | None) -> Iterator[Session]:
    session = Session(engine, expire_on_commit=False)
    try:
        if engine.dialect.name == "sqlite":
            _begin_immediate(session)
        elif study_id is not None:
            session.execute(select(Study.id).where(Study.id == study_id).with_for_update())
        yield session
        session.commit()
    except OperationalError as exc:
        session.rollback()
        from ..db import describe_store_error

        raise StoreError(f"study {describe_store_error(exc)}") from exc
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def get_study(session: Session, study_id: int) -> Study:
    study = session.get(Study, study_id)
    if study is None:
        raise StudyError(f"no study with id {study_id}")
    return study


def get_judge(session: Session, judge_id: int) -> Judge:
    judge = session.get(Judge, judge_id)
    if judge is None:
        raise AccessError("unknown judge")
    return judge


def log_event(session: Session, study_id: int, action: str, detail: str = "") -> None:
    """Append to the study's change log (UTC time)."""
    session.add(StudyEvent(study_id=study_id, at=utcnow(), action=action, detail=detail))


def require_status(study: Study, allowed: Sequence[str], doing: str) -> None:
    if study.status not in allowed:
        raise StudyError(f"study {study.id} is {study.status}: cannot {doing}")
