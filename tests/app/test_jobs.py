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


def test_time_remaining_goes_by_the_pace_since_the_fraction_first_moved(monkeypatch):
    """Loading before the first fraction (corpus, vectors, tagger) does not count: 100 s of
    loading, then 10 % in 60 s, leaves about 9 minutes (60 s x 0.899 / 0.1), not 16."""
    now = [1000.0]
    monkeypatch.setattr(jobs.time, "time", lambda: now[0])
    job = jobs.Job(key="k", title="t")
    job.pace.mark(now[0], 0.0)
    now[0] += 100  # loading
    assert job.remaining() is None  # no pace to go by yet
    job.pace.mark(now[0], 0.001)
    job.fraction = 0.001
    now[0] += 60
    job.fraction = 0.101
    assert abs(job.remaining() - 60 * 0.899 / 0.1) < 1e-6  # about 9 minutes
    job.state = "done"
    assert job.remaining() is None
