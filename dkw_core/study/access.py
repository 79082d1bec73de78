"""Admin access to the study pages: password rules, a growing delay after failed attempts,
and the one-time token used when no password is configured.

* A configured password (``DKW_ADMIN_PASSWORD`` or ``admin_password`` in Streamlit secrets)
  must have at least :data:`MIN_PASSWORD_LENGTH` characters; a shorter one keeps the admin
  pages closed with a message saying so.
* When none is configured, the server generates a random token at start and prints it on
  its console (as notebook servers do); it is valid until the server stops.
* :class:`AdminGate` counts failed attempts per server process (not per browser session, so
  opening new sessions does not reset it): after the n-th consecutive failure every attempt
  is refused unchecked for ``min(base * 2**(n-1), max_delay)`` seconds. A success resets it.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InputError

MIN_PASSWORD_LENGTH = 12
BASE_DELAY = 1.0
MAX_DELAY = 300.0


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


class AdminGate:
    """Checks admin secrets with a growing delay after failures (thread-safe)."""

    def __init__(self, secret: str, *, clock: Callable[[], float] = time.monotonic,
                 base_delay: float = BASE_DELAY, max_delay: float = MAX_DELAY) -> None:
        self._secret = secret.encode("utf-8")
        self.clock = clock
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.failures = 0
        self._blocked_until = 0.0
        self._lock = threading.Lock()

    def delay(self) -> float:
        """Seconds the next attempt must wait after the current run of failures."""
        return 0.0 if self.failures == 0 else min(self.base_delay * 2 ** (self.failures - 1), self.max_delay)

    def attempt(self, given: str) -> Attempt:
        with self._lock:
            now = self.clock()
            if now < self._blocked_until:
                wait = self._blocked_until - now
                return Attempt(False, f"too many wrong attempts: the next attempt is accepted in "
                                      f"{math.ceil(wait)} s", wait, blocked=True, retry_at=self._blocked_until)
            if given and hmac.compare_digest(given.encode("utf-8"), self._secret):
                self.failures = 0
                self._blocked_until = 0.0
                return Attempt(True, "")
            self.failures += 1
            self._blocked_until = now + self.delay()
            return Attempt(False, f"wrong password (attempt {self.failures}); the next attempt is accepted in "
                                  f"{math.ceil(self.delay())} s", self.delay(), retry_at=self._blocked_until)


_gates: dict[str, AdminGate] = {}
_gates_lock = threading.Lock()


def gate_for(secret: str) -> AdminGate:
    """The process-wide gate of ``secret`` (one failure count per secret and server)."""
    key = hashlib.sha256(secret.encode("utf-8")).hexdigest()
    with _gates_lock:
        if key not in _gates:
            _gates[key] = AdminGate(secret)
        return _gates[key]
