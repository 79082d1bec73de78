"""Long work the server runs in the background (no Streamlit here): a study's creation goes on
when its admin leaves the page, and the page shows its progress when she comes back.

A job is a daemon thread owned by the server process, keyed so that one key runs at most once
at a time. Its ``progress(fraction, message)`` callback records the progress and is also the
job's cancellation point: when the server stops (SIGTERM / SIGINT end the main thread, and
Python then calls :func:`stop_all` before it exits), the next progress call raises
:class:`Cancelled`, the library call unwinds (its transaction rolled back, its cache files
written atomically or not at all), and the job ends as ``cancelled``. A visitor can cancel one
job the same way (:func:`cancel`: its next progress call raises), and every page can show a
job's time remaining (:meth:`Job.remaining`, from its fraction done and the time spent).
"""
from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dkw_core.errors import DkwError
from dkw_core.types import Pace

#: How long the server waits at exit for running jobs to reach a cancellation point.
STOP_TIMEOUT = 5.0


class Cancelled(Exception):
    """Raised from a job's progress callback when the server is stopping or a visitor cancelled it."""


@dataclass
class Job:
    key: str
    title: str
    state: str = "running"  # running | done | failed | cancelled
    fraction: float = 0.0
    message: str = "starting"
    result: Any = None
    error: str = ""
    started: float = field(default_factory=time.time)
    finished: float | None = None
    thread: threading.Thread | None = None
    cancel_requested: bool = False  # a visitor asked it to stop (see cancel())
    pace: Pace = field(default_factory=Pace)  # the time remaining, from the pace since the fraction first moved

    @property
    def running(self) -> bool:
        return self.state == "running"

    def remaining(self) -> float | None:
        """Seconds still to go at the pace so far (``None`` while unknown or when not running)."""
        return self.pace.left(time.time(), self.fraction) if self.running else None

    def seconds(self) -> float:
        return (self.finished or time.time()) - self.started


_jobs: dict[str, Job] = {}
_lock = threading.Lock()
_stopping = threading.Event()


def start(key: str, title: str, work: Callable[[Callable[[float, str], None]], Any]) -> Job:
    """Run ``work(progress)`` in a background thread under ``key``; the running job when one
    with this key is still running."""
    with _lock:
        current = _jobs.get(key)
        if current is not None and current.running:
            return current
        if _stopping.is_set():
            raise DkwError("the server is stopping: no new background work is started")
        job = Job(key=key, title=title)

        def progress(fraction: float, message: str = "") -> None:
            if _stopping.is_set():
                raise Cancelled("the server is stopping")
            if job.cancel_requested:
                raise Cancelled("cancelled")
            job.fraction = min(max(float(fraction), 0.0), 1.0)
            job.message = str(message)
            job.pace.mark(time.time(), job.fraction)

        def run() -> None:
            try:
                job.result = work(progress)
            except Cancelled:
                job.state, job.error = "cancelled", _cancel_reason(job)
            except DkwError as exc:  # the library's own cancellation (cancel=stopping) included
                stopped = _stopping.is_set() or job.cancel_requested
                job.state, job.error = ("cancelled", _cancel_reason(job)) if stopped else ("failed", str(exc))
            except Exception as exc:  # noqa: BLE001 - shown on the page, traceback on the console
                traceback.print_exc()
                job.state, job.error = "failed", f"{type(exc).__name__}: {exc}"
            else:
                job.state, job.fraction = "done", 1.0
            finally:
                job.finished = time.time()

        job.thread = threading.Thread(target=run, name=f"dkw-job-{key}", daemon=True)
        _jobs[key] = job
        job.thread.start()
        return job


def _cancel_reason(job: Job) -> str:
    return "cancelled by a visitor" if job.cancel_requested and not _stopping.is_set() else "stopped with the server"


def cancel(key: str) -> bool:
    """Ask the running job under ``key`` to stop at its next progress call; ``False`` when none runs."""
    with _lock:
        job = _jobs.get(key)
        if job is None or not job.running:
            return False
        job.cancel_requested = True
        return True


def get(key: str) -> Job | None:
    with _lock:
        return _jobs.get(key)


def all_jobs() -> list[Job]:
    with _lock:
        return list(_jobs.values())


def forget(key: str) -> None:
    """Drop a finished job (after its outcome was shown)."""
    with _lock:
        job = _jobs.get(key)
        if job is not None and not job.running:
            del _jobs[key]


def stop_all(timeout: float = STOP_TIMEOUT) -> None:
    """Ask every running job to stop and wait up to ``timeout`` seconds for them."""
    _stopping.set()
    deadline = time.monotonic() + timeout
    for job in all_jobs():
        if job.thread is not None and job.thread.is_alive():
            job.thread.join(max(0.0, deadline - time.monotonic()))


# Called when the main thread has ended (the server stopped), before Python's exit waits for
# threads: the jobs unwind at their next progress call instead of being cut off mid-write.
threading._register_atexit(stop_all)  # type: ignore[attr-defined]


def stopping() -> bool:
    """Whether the server is stopping (a library call's ``cancel`` callback)."""
    return _stopping.is_set()
