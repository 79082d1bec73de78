"""Admin access rules (dkw_core/study/access.py): minimum length, growing delay, tokens."""
from __future__ import annotations

import pytest

from dkw_core.errors import InputError
from dkw_core.study.access import MIN_PASSWORD_LENGTH, AdminGate, check_password_rules, gate_for, generate_token


def test_minimum_length():
    check_password_rules("x" * MIN_PASSWORD_LENGTH)
    with pytest.raises(InputError, match="at least 12"):
        check_password_rules("x" * (MIN_PASSWORD_LENGTH - 1))


def test_delay_doubles_after_each_failure_is_capped_and_reset_by_success():
    now = [0.0]
    gate = AdminGate("right-password", clock=lambda: now[0], base_delay=1.0, max_delay=8.0)
    waits = []
    for _ in range(6):
        result = gate.attempt("wrong")
        assert not result.ok and "wrong password" in result.message
        waits.append(result.wait)
        refused = gate.attempt("right-password")  # immediately: refused without being checked
        assert not refused.ok and "too many wrong attempts" in refused.message
        now[0] += result.wait
    assert waits == [1, 2, 4, 8, 8, 8]
    assert gate.failures == 6  # the early, unchecked attempts did not count
    assert gate.attempt("right-password").ok
    assert gate.failures == 0 and gate.attempt("wrong").wait == 1


def test_empty_attempt_is_a_failure_and_gates_are_per_secret_and_process_wide():
    assert not AdminGate("s" * 12, clock=lambda: 0.0).attempt("").ok
    assert gate_for("secret-one-123") is gate_for("secret-one-123")
    assert gate_for("secret-one-123") is not gate_for("secret-two-123")


def test_generated_tokens_are_long_and_random():
    tokens = {generate_token() for _ in range(20)}
    assert len(tokens) == 20 and all(len(t) >= 32 for t in tokens)


def test_a_refusal_during_the_wait_is_marked_unchecked_and_says_when_to_retry():
    now = [100.0]
    gate = AdminGate("right-password", clock=lambda: now[0], base_delay=2.0)
    wrong = gate.attempt("wrong")
    assert not wrong.blocked and wrong.retry_at == 102.0 and "accepted in 2 s" in wrong.message
    now[0] += 0.5
    early = gate.attempt("right-password")
    assert early.blocked and early.retry_at == 102.0 and "accepted in 2 s" in early.message  # 1.5 s rounded up
    now[0] = 102.0
    assert gate.attempt("right-password").ok


def test_gates_of_several_processes_on_one_database_count_every_failure_once(db_url):
    """Two engines on one database (as two app processes), four threads each: no failure lost
    or counted twice, on SQLite and on PostgreSQL."""
    import itertools
    import threading

    from dkw_core.db import make_engine
    from dkw_core.study.models import init_db

    engines = [make_engine(db_url, default_file="unused.sqlite") for _ in range(2)]
    init_db(engines[0])
    ticks = itertools.count(0, 1000)  # every attempt comes after the previous one's wait
    gates = [AdminGate("right-password", engine=e, clock=lambda: float(next(ticks)), reset_after=1e12)
             for e in engines]

    def fail(gate):
        for _ in range(5):
            assert not gate.attempt("wrong").ok

    threads = [threading.Thread(target=fail, args=(gates[i % 2],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert gates[0].failures == gates[1].failures == 40
    assert gates[1].attempt("right-password").ok and gates[0].failures == 0
    for e in engines:
        e.dispose()


def test_a_flood_from_any_number_of_sessions_cannot_keep_the_organiser_out(tmp_path):
    """A real flood: ten sessions of one address and three of their own hammer wrong passwords
    through two engines (two app processes) on one SQLite file, with the delays scaled down
    sixty times (1 s → 1/60 s, 30 s → 0.5 s). The organiser gets in at once, and after a typo
    of his own within the bound (nobody else waits for its mistakes); the flooding address is
    checked at most once per bound."""
    import threading
    import time

    from dkw_core.db import make_engine
    from dkw_core.study.models import init_db

    url = f"sqlite:///{tmp_path / 'study.sqlite'}"
    engines = [make_engine(url, default_file="unused.sqlite") for _ in range(2)]
    init_db(engines[0])
    bound = 0.5
    gates = [AdminGate("right-password", engine=e, base_delay=bound / 30, max_delay=bound) for e in engines]
    stop = threading.Event()
    checked: dict[str, list[float]] = {}

    def flood(gate, client):
        while not stop.is_set():
            result = gate.attempt("wrong-guess", client)
            if not result.blocked:
                checked.setdefault(client, []).append(result.retry_at - result.wait)

    clients = ["203.0.113.66"] * 10 + ["203.0.113.1", "203.0.113.2", "203.0.113.3"]
    threads = [threading.Thread(target=flood, args=(gates[i % 2], c)) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    try:
        deadline = time.time() + 60
        while gates[0].failures < 10 and time.time() < deadline:  # the flood is under way
            time.sleep(0.01)
        assert gates[0].failures >= 10
        assert gates[1].attempt("right-password", "198.51.100.7").ok  # the organiser, at once
        started = time.time()
        typo = gates[0].attempt("right-passwodr", "198.51.100.7")
        assert not typo.ok and not typo.blocked and typo.wait <= bound
        refused_after_wait = 0
        while True:
            now = time.time()
            result = gates[1].attempt("right-password", "198.51.100.7")
            if result.ok:
                break
            assert result.blocked, result  # refused unchecked during his own wait, never judged wrong
            refused_after_wait += now >= typo.retry_at
            time.sleep(0.01)
        assert time.time() - started < 30  # the correctness bound, with a margin for a loaded machine
        while len(checked.get("203.0.113.66", [])) < 9 and time.time() < deadline:  # a sustained flood
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join()
        for e in engines:
            e.dispose()
    assert refused_after_wait == 0  # never refused once his own wait was over
    times = sorted(checked["203.0.113.66"])  # ten sessions of one address: checked at most once per bound
    assert len(times) >= 9 and all(b - a >= bound * 0.999 for a, b in zip(times[6:], times[7:]))
