"""Errors of the study: every one a :class:`~dkw_core.errors.DkwError` with a one-line message."""
from __future__ import annotations

from ..errors import DkwError


class StudyError(DkwError):
    """A study operation was refused (unknown study, bad settings)."""


class AccessError(StudyError):
    """Unknown or wrong judge access code."""


class SubmissionError(StudyError):
    """A submission or draft was refused; nothing was stored.

    ``reason``: ``"incomplete"``, ``"invalid"``, ``"released"`` (the reservation is gone),
    ``"revoked"``, ``"closed"``, ``"submitted"`` (already submitted) or ``"duplicate"``."""

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason


class Cancelled(DkwError):
    """A long study operation (creation, preparation) was cancelled; nothing was stored."""


def cancellable(progress, cancel):
    """A progress callback that raises :class:`Cancelled` when ``cancel()`` is true, then reports
    to ``progress`` (either may be None). Long steps report often, so they stop within a step."""
    def report(fraction: float, message: str) -> None:
        if cancel is not None and cancel():
            raise Cancelled("study creation cancelled; nothing was stored")
        if progress is not None:
            progress(fraction, message)

    return report
