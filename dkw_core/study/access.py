"""Admin access to the study pages: password rules, a growing but bounded delay after failed
attempts, and the one-time token used when no password is configured.

* A configured password (``DKW_ADMIN_PASSWORD`` or ``admin_password`` in Streamlit secrets)
  must have at least :data:`MIN_PASSWORD_LENGTH` characters; a shorter one keeps the admin
  pages closed with a message saying so.
* When none is configured, the server generates a random token at start and prints it on
  its console (as notebook servers do); it is valid until the server stops.
* :class:`AdminGate` counts failed attempts in the study database (table
  ``study_admin_throttle``), so every app process sharing that database shares the counts.
  Two counts: the server's (every client's failures, row ``admin``) and each client's (a
  browser session at a network address, a row ``c:<hash>``). After a failure *the session
  that made it* is refused unchecked for ``delay_after(n)`` =
  ``min(BASE_DELAY * 2**(n-1), MAX_DELAY)`` seconds — 1, 2, 4, … s, never more than
  :data:`MAX_DELAY` — where ``n`` is the larger of the two counts: under a flood every failing
  session waits the full :data:`MAX_DELAY` at once. A session's first attempt while the server
  counts failures is refused unchecked for the server's delay, at most :data:`NEW_SESSION_DELAY`
  (so that opening a new session per guess does not buy a check at once), and checked when that
  wait is over. Nobody waits for another session's mistakes, so a flood of wrong attempts from
  any number of sessions, at any address — the organiser's own included (the same machine, or
  a proxy that hides addresses) — cannot keep the organiser out: his right password is checked
  within :data:`NEW_SESSION_DELAY`, and after a typo of his own within :data:`MAX_DELAY`. The
  price, stated in docs/bad-inputs.md: the guess rate is bounded per session — one per
  :data:`MAX_DELAY` once the server has seen six failures — so an attacker holding S sessions
  open gets S guesses per :data:`MAX_DELAY`; the defence against guessing is the secret's
  length (at least :data:`MIN_PASSWORD_LENGTH` characters, or the generated 32-character token).
  A success resets the client's and the server's count, and a failure more than
  :data:`RESET_AFTER` seconds after the previous one starts a new count; client rows older
  than that (or reset by a success) are deleted.
  Without a usable study database (none configured, unreachable, read-only) the counts are
  kept in the server process, as before, so the organiser can still log in and read the error.
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

from sqlalchemy import delete, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..errors import InputError

MIN_PASSWORD_LENGTH = 12
#: Wait after the first failure (seconds); it doubles with each further one ...
BASE_DELAY = 1.0
#: ... up to this bound: one wrong attempt keeps everyone out for at most this long.
MAX_DELAY = 30.0
#: A new session's first attempt waits the server's current delay, at most this long.
NEW_SESSION_DELAY = 15.0
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


def client_scope(client: str, session: str = "") -> str:
    """The throttle row of a browser ``session`` at a client address (``""``: not known, e.g. a
    local browser or a bare script); hashed, so the table holds no address."""
    key = f"{client}\0{session}" if session else client
    return "c:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:30]


class AdminGate:
    """Checks admin secrets with a growing, bounded delay after failures, per browser session.
    The counts live in the study database ``engine`` (shared by every process using it) or,
    without one, in this object (thread-safe either way)."""

    def __init__(self, secret: str, *, engine: Engine | None = None, clock: Callable[[], float] = time.time,
                 base_delay: float = BASE_DELAY, max_delay: float = MAX_DELAY,
                 new_session_delay: float = NEW_SESSION_DELAY, reset_after: float = RESET_AFTER) -> None:
        self._secret = secret.encode("utf-8")
        self.engine = engine
        self.clock = clock
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.new_session_delay = new_session_delay
        self.reset_after = reset_after
        self._memory: dict[str, _Count] = {}
        self._lock = threading.Lock()

    def delay_after(self, failures: int) -> float:
        """Seconds attempts are refused after ``failures`` consecutive failures."""
        return 0.0 if failures <= 0 else min(self.base_delay * 2 ** (failures - 1), self.max_delay)

    @property
    def failures(self) -> int:
        """The server's current count of consecutive failures (every client's)."""
        return self._update("", lambda server, _client: server.failures)

    def _update(self, client: str, change: Callable[[_Count, _Count], _T], session: str = "") -> _T:
        """``change(server count, client count)`` with both counts locked against every other
        thread and process, their changes stored. An unusable database (read-only, gone) falls
        back to this process's counts for that call."""
        scope = client_scope(client, session)
        with self._lock:
            if self.engine is not None:
                try:
                    with _locked_rows(self.engine, scope, self.clock() - self.reset_after) as (srow, crow):
                        server, count = _Count(srow.failures, srow.last_failure, srow.blocked_until), \
                            _Count(crow.failures, crow.last_failure, crow.blocked_until)
                        result = change(server, count)
                        for row, new in ((srow, server), (crow, count)):
                            row.failures, row.last_failure, row.blocked_until = (
                                new.failures, new.last_failure, new.blocked_until)
                    return result
                except SQLAlchemyError as exc:
                    _log.warning("admin attempt counted in this server process only: the study database "
                                 "cannot store it (%s)", type(exc).__name__)
            stale = self.clock() - self.reset_after
            for key in [k for k, c in self._memory.items()
                        if k not in (SCOPE, scope) and (c.last_failure is None or c.last_failure < stale)]:
                del self._memory[key]
            return change(self._memory.setdefault(SCOPE, _Count()), self._memory.setdefault(scope, _Count()))

    def attempt(self, given: str, client: str = "", session: str = "") -> Attempt:
        """Check ``given`` for the browser ``session`` at network address ``client`` (either
        ``""`` when unknown)."""
        return self._update(client, lambda server, count: self._attempt(server, count, given), session)

    def _attempt(self, server: _Count, count: _Count, given: str) -> Attempt:
        now = self.clock()
        if now < count.blocked_until:
            wait = count.blocked_until - now
            return Attempt(False, f"too many wrong attempts: the next attempt is accepted in "
                                  f"{math.ceil(wait)} s", wait, blocked=True, retry_at=count.blocked_until)
        if count.failures == 0 and count.blocked_until == 0.0:  # a session's first attempt
            first = min(self.delay_after(server.failures), self.new_session_delay)
            if server.last_failure is not None and now - server.last_failure > self.reset_after:
                first = 0.0  # the server's failures are an old run
            if first > 0:
                count.blocked_until, count.last_failure = now + first, now  # kept while it waits
                return Attempt(False, f"the server has counted {server.failures} wrong attempt(s) lately: a new "
                                      f"session's entry is checked in {math.ceil(first)} s", first, blocked=True,
                               retry_at=count.blocked_until)
        if given and hmac.compare_digest(given.encode("utf-8", "surrogatepass"), self._secret):
            for c in (server, count):
                c.failures, c.last_failure, c.blocked_until = 0, None, 0.0
            return Attempt(True, "")
        for c in (server, count):
            if c.last_failure is not None and now - c.last_failure > self.reset_after:
                c.failures = 0  # a new run of failures
            c.failures += 1
            c.last_failure = now
        delay = self.delay_after(max(server.failures, count.failures))
        count.blocked_until = now + delay  # this session only: nobody waits for another session's mistakes
        return Attempt(False, f"wrong password (attempt {server.failures}); the next attempt is accepted in "
                              f"{math.ceil(delay)} s", delay, retry_at=count.blocked_until)


@contextlib.contextmanager
def _locked_rows(engine: Engine, scope: str, stale: float) -> Iterator[tuple[Any, Any]]:
    """The server's and the client's throttle rows in a transaction holding the database write
    lock (SQLite) or the rows' locks (``SELECT ... FOR UPDATE`` elsewhere, always the server's
    row first), committed when the block ends. Client rows whose last failure is older than
    ``stale`` are deleted on the way."""
    from .models import AdminThrottle

    with Session(engine) as session:
        if engine.dialect.name == "sqlite":
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
        rows = []
        for key in (SCOPE, scope):
            row = session.scalars(select(AdminThrottle).where(AdminThrottle.scope == key).with_for_update()).first()
            if row is None:  # a new client, or the row the migration made was deleted
                row = AdminThrottle(scope=key, failures=0, last_failure=None, blocked_until=0.0)
                session.add(row)
                session.flush()
            rows.append(row)
        session.execute(delete(AdminThrottle).where(
            AdminThrottle.scope.startswith("c:"), AdminThrottle.scope != scope,
            or_(AdminThrottle.last_failure < stale, AdminThrottle.last_failure.is_(None)))
            .execution_options(synchronize_session=False))
        yield rows[0], rows[1]
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
