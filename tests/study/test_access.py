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
    """A real flood: ten sessions at the organiser's own address and three at others hammer
    wrong passwords through two engines (two app processes) on one SQLite file, with the
    delays scaled down sixty times (1 s → 1/60 s, 30 s → 0.5 s, a new session's 15 s → 0.25 s).
    The organiser, from the flood's own address, gets in within the new session's wait, and
    after a typo of his own within the bound (nobody waits for another session's mistakes);
    each flooding session is checked at most once per bound."""
    import threading
    import time

    from dkw_core.db import make_engine
    from dkw_core.study.models import init_db

    url = f"sqlite:///{tmp_path / 'study.sqlite'}"
    engines = [make_engine(url, default_file="unused.sqlite") for _ in range(2)]
    init_db(engines[0])
    bound = 0.5
    gates = [AdminGate("right-password", engine=e, base_delay=bound / 30, max_delay=bound,
                       new_session_delay=bound / 2) for e in engines]
    stop = threading.Event()
    checked: dict[tuple[str, str], list[float]] = {}

    def flood(gate, client, session):
        while not stop.is_set():
            result = gate.attempt("wrong-guess", client, session)
            if not result.blocked:
                checked.setdefault((client, session), []).append(result.retry_at - result.wait)

    home = "127.0.0.1"
    clients = [(home, f"flood-{i}") for i in range(10)] + [(f"203.0.113.{i}", "s") for i in range(1, 4)]
    threads = [threading.Thread(target=flood, args=(gates[i % 2], c, s)) for i, (c, s) in enumerate(clients)]
    for t in threads:
        t.start()

    def get_in(gate, session, entries):
        """Seconds until admitted, typing ``entries`` in turn (an entry refused unchecked is
        sent again, as the page's countdown does); and refusals that came after the wait."""
        started, late, due = time.time(), 0, None
        first = gate.attempt(entries[0], home, session)
        assert first.blocked and 0 < first.wait <= bound / 2  # a new session under a flood: its short wait
        result = first
        while not result.ok and time.time() - started < 30:
            if not result.blocked:  # checked and wrong: the next entry
                assert entries[0] != "right-password"
                entries = entries[1:]
            elif due is not None:
                late += time.time() >= due + 0.05  # refused unchecked once his own wait was over
            due = result.retry_at
            time.sleep(0.01)
            result = gate.attempt(entries[0], home, session)
        return time.time() - started, late

    try:
        deadline = time.time() + 60
        while gates[0].failures < 10 and time.time() < deadline:  # the flood is under way
            time.sleep(0.01)
        assert gates[0].failures >= 10
        took, late = get_in(gates[1], "organiser", ["right-password"])
        assert late == 0 and took < 30  # the new session's 0.25 s, plus the flood's queue for the database lock
        # His success reset the server's count: the second tab comes under the flood again once it has
        # counted anew (on a loaded machine the flood's threads may not have run in between).
        while gates[0].failures < 10 and time.time() < deadline:
            time.sleep(0.01)
        took, late = get_in(gates[0], "organiser-tab-2", ["right-passwodr", "right-password"])  # a typo: his own bound
        assert late == 0 and took < 30
        while min(len(checked.get(c, [])) for c in clients[:10]) < 9 and time.time() < deadline:  # sustained
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join()
        for e in engines:
            e.dispose()
    for client in clients[:10]:  # each flooding session: checked at most once per bound
        times = sorted(checked[client])
        assert len(times) >= 9 and all(b - a >= bound * 0.999 for a, b in zip(times[6:], times[7:]))


def test_a_new_session_waits_the_servers_delay_before_its_first_check():
    """Opening a new session per guess buys no check at once under a flood: its first entry is
    refused unchecked for the server's delay (at most the new-session bound), then checked."""
    now = [0.0]
    gate = AdminGate("right-password", clock=lambda: now[0], base_delay=1.0, max_delay=30.0, new_session_delay=15.0)
    waits = []
    for _ in range(6):
        wrong = gate.attempt("wrong", "203.0.113.9", "attacker")
        waits.append(wrong.wait)
        now[0] += wrong.wait
    assert waits == [1, 2, 4, 8, 16, 30]
    other = gate.attempt("wrong", "203.0.113.9", "attacker-2")  # a new session per guess buys nothing
    assert other.blocked and other.wait == 15.0
    fresh = gate.attempt("right-password", "203.0.113.9", "organiser")
    assert fresh.blocked and fresh.wait == 15.0 and "checked in 15 s" in fresh.message
    now[0] += 15.0
    assert gate.attempt("right-password", "203.0.113.9", "organiser").ok
    quiet = AdminGate("right-password", clock=lambda: now[0])
    assert quiet.attempt("right-password", "198.51.100.7", "first-visit").ok  # no flood: no wait at all
