"""Background jobs of the server (dkw_app/jobs.py): a visitor's cancel and the time remaining."""
from __future__ import annotations

import threading

from dkw_app import jobs


def test_a_visitor_cancels_a_job_at_its_next_progress_call():
    gate, calls = threading.Event(), []

    def work(progress):
        for i in range(1000):
            progress(i / 1000, f"step {i}")
            calls.append(i)
            gate.wait(5)  # one step at a time, released by the test
            gate.clear()
        return "finished"

    job = jobs.start("test-user-cancel", "a long job", work)
    try:
        assert job.running and jobs.cancel("test-user-cancel")
        gate.set()
        job.thread.join(5)
        assert job.state == "cancelled" and job.error == "cancelled by a visitor"
        assert job.result is None and len(calls) == 1
        assert not jobs.cancel("test-user-cancel")  # nothing running any more
        again = jobs.start("test-user-cancel", "started again", lambda progress: "ok")
        again.thread.join(5)
        assert again is not job and again.state == "done" and again.result == "ok"
    finally:
        gate.set()
        jobs.forget("test-user-cancel")


def test_time_remaining_follows_the_fraction_done():
    job = jobs.Job(key="k", title="t", started=100.0)
    job.fraction = 0.25
    job.finished = None
    assert job.remaining() is not None
    job.finished = 160.0  # 60 s for a quarter: 3 minutes to go (finished is only used as "now" here)
    job.state = "running"
    assert job.remaining() == 180.0
    job.fraction = 0.0
    assert job.remaining() is None  # no pace to go by yet
    job.fraction, job.state = 0.5, "done"
    assert job.remaining() is None
