"""Admin access to the study pages: password rules, a growing but bounded delay after failed
attempts, and the one-time token used when no password is configured.

* A configured password (``DKW_ADMIN_PASSWORD`` or ``admin_password`` in Streamlit secrets)
  must have at least :data:`MIN_PASSWORD_LENGTH` characters; a shorter one keeps the admin
  pages closed with a message saying so.
* When none is configured, the server generates a random token at start and prints it on
  its console (as notebook servers do); it is valid until the server stops.
* :class:`AdminGate` counts failed attempts in the study database (table
  ``study_admin_throttle``), so every app process sharing that database shares one count (and
  opening new browser sessions does not reset it): after the n-th consecutive failure every
  attempt is refused unchecked for ``min(BASE_DELAY * 2**(n-1), MAX_DELAY)`` seconds — 1, 2,
  4, … s, never more than :data:`MAX_DELAY`, which bounds how long anyone can keep the
  organiser out with one wrong attempt. A success resets the count, and a failure more than
  :data:`RESET_AFTER` seconds after the previous one starts a new count. The count is global:
  behind a proxy the app cannot tell one visitor from another honestly, so it does not try.
  Without a usable study database (none configured, unreachable, read-only) the count is kept
  in the server process, as before, so the organiser can still log in and read the error.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..errors import InputError

MIN_PASSWORD_LENGTH = 12
#: Wait after the first failure (seconds); it doubles with each further one ...
BASE_DELAY = 1.0
#: ... up to this bound: one wrong attempt keeps everyone out for at most this long.
MAX_DELAY = 30.0
#: A failure this long (seconds) after the previous one starts a new count.
RESET_AFTER = 900.0
SCOPE = "admin"
_T = TypeVar("_T")
_log = logging.getLogger(__name__)


def check_password_rules(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InputError(f"the admin password is too short ({len(password)} characters; at least "
                         f"{MIN_PASSWORD_LENGTH} needed)")


def generate_token() -> str:
    """A random admin token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


@dataclass
class Attempt:
    """Outcome of one attempt. ``blocked``: refused unchecked because it came during the wait;
    ``retry_at``: the gate-clock time from which the next attempt is accepted (0 when at once)."""

    ok: bool
    message: str
    wait: float = 0.0
    blocked: bool = False
    retry_at: float = 0.0


@dataclass
class _Count:
    failures: int = 0
    last_failure: float | None = None
    blocked_until: float = 0.0


class AdminGate:
    """Checks admin secrets with a growing, bounded delay after failures. The count lives in
    the study database ``engine`` (shared by every process using it) or, without one, in this
    object (thread-safe either way)."""

    def __init__(self, secret: str, *, engine: Engine | None = None, clock: Callable[[], float] = time.time,
                 base_delay: float = BASE_DELAY, max_delay: float = MAX_DELAY,
                 reset_after: float = RESET_AFTER) -> None:
        self._secret = secret.encode("utf-8")
        self.engine = engine
        self.clock = clock
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.reset_after = reset_after
        self._memory = _Count()
        self._lock = threading.Lock()

    def delay_after(self, failures: int) -> float:
        """Seconds attempts are refused after ``failures`` consecutive failures."""
        return 0.0 if failures <= 0 else min(self.base_delay * 2 ** (failures - 1), self.max_delay)

    @property
    def failures(self) -> int:
        """The current count of consecutive failures."""
        return self._update(lambda count: count.failures)

    def _update(self, change: Callable[[_Count], _T]) -> _T:
        """``change(count)`` with the count locked against every other thread and process, its
        changes stored. An unusable database (read-only, gone) falls back to this process's count
        for that call."""
        with self._lock:
            if self.engine is not None:
                try:
                    with _locked_row(self.engine) as row:
                        count = _Count(row.failures, row.last_failure, row.blocked_until)
                        result = change(count)
                        row.failures, row.last_failure, row.blocked_until = (
                            count.failures, count.last_failure, count.blocked_until)
                    return result
                except SQLAlchemyError as exc:
                    _log.warning("admin attempt counted in this server process only: the study database "
                                 "cannot store it (%s)", type(exc).__name__)
            return change(self._memory)

    def attempt(self, given: str) -> Attempt:
        return self._update(lambda count: self._attempt(count, given))

    def _attempt(self, count: _Count, given: str) -> Attempt:
        now = self.clock()
        if now < count.blocked_until:
            wait = count.blocked_until - now
            return Attempt(False, f"too many wrong attempts: the next attempt is accepted in "
                                  f"{math.ceil(wait)} s", wait, blocked=True, retry_at=count.blocked_until)
        if given and hmac.compare_digest(given.encode("utf-8"), self._secret):
            count.failures, count.last_failure, count.blocked_until = 0, None, 0.0
            return Attempt(True, "")
        if count.last_failure is not None and now - count.last_failure > self.reset_after:
            count.failures = 0  # a new run of failures
        count.failures += 1
        count.last_failure = now
        delay = self.delay_after(count.failures)
        count.blocked_until = now + delay
        return Attempt(False, f"wrong password (attempt {count.failures}); the next attempt is accepted in "
                              f"{math.ceil(delay)} s", delay, retry_at=count.blocked_until)


@contextlib.contextmanager
def _locked_row(engine: Engine) -> Iterator[Any]:
    """The throttle row in a transaction holding the database write lock (SQLite) or the row's
    lock (``SELECT ... FOR UPDATE`` elsewhere), committed when the block ends."""
    from .models import AdminThrottle

    with Session(engine) as session:
        if engine.dialect.name == "sqlite":
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
        row = session.scalars(select(AdminThrottle).where(AdminThrottle.scope == SCOPE).with_for_update()).first()
        if row is None:  # the row the migration made was deleted: start again
            row = AdminThrottle(scope=SCOPE, failures=0, last_failure=None, blocked_until=0.0)
            session.add(row)
        yield row
        session.commit()


_gates: dict[str, AdminGate] = {}
_gates_lock = threading.Lock()


def gate_for(secret: str, engine: Engine | None = None) -> AdminGate:
    """The gate of ``secret`` counting in the study database ``engine`` (or in this process
    without one); one object per secret and database, so its clock can be set in tests."""
    where = engine.url.render_as_string(hide_password=False) if engine is not None else ""
    key = hashlib.sha256(f"{secret}\0{where}".encode()).hexdigest()
    with _gates_lock:
        if key not in _gates:
            _gates[key] = AdminGate(secret, engine=engine)
        return _gates[key]
