"""Seconds for the organiser to get into the study admin pages while N sessions flood the
admin gate with wrong passwords, with the real constants (1 s doubling to 30 s).

    .venv/bin/python benchmarks/bench_admin_flood.py [--sessions 1 3 10] [--warmup 35] [--give-up 60]

For each N: a SQLite study database in a temporary folder; two flood processes (as two app
processes) running N sessions between them (a thread each), every session sending a wrong
password every 0.1 s from the attacker's address, through ``AdminGate.attempt``, the function
the admin page calls, each session under a name of its own. Each time after ``--warmup``
seconds of flood (his success resets the server's count) the organiser, from a new browser
session at another address, (a) types the right password, (b) mistypes it once and then types
the right one (an entry refused unchecked is sent again every second, as the page's countdown
does). With ``--same-address`` he then also tries from the flood's own address (a proxy or the
same machine). He gives up after ``--give-up`` seconds. The server's count of failures when he
starts is printed beside each figure. Prints seconds to get in, the attempts
the flood had checked and those refused unchecked.
"""
from __future__ import annotations

import argparse
import inspect
import multiprocessing
import os
import tempfile
import threading
import time

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

PASSWORD = "the-right-admin-password"
FLOOD_ADDRESS, ORGANISER_ADDRESS = "203.0.113.66", "198.51.100.7"


def _attempt(gate, given: str, client: str, session: str):
    """``gate.attempt`` with the client's address and browser session (an older gate without
    per-client or per-session counts is given what it takes)."""
    params = inspect.signature(gate.attempt).parameters
    if "session" in params:
        return gate.attempt(given, client, session)
    if "client" in params:
        return gate.attempt(given, client)
    return gate.attempt(given)


def _flood(url: str, sessions: int, stop, counts) -> None:
    from dkw_core.db import make_engine
    from dkw_core.study.access import AdminGate

    gate = AdminGate(PASSWORD, engine=make_engine(url, default_file="unused.sqlite"))

    def session(i: int) -> None:
        checked = refused = 0
        next_at = time.time() + i * 0.1 / max(sessions, 1)
        while not stop.is_set():
            result = _attempt(gate, f"wrong-guess-{i}", FLOOD_ADDRESS, f"flood-{os.getpid()}-{i}")
            checked += not result.blocked
            refused += result.blocked
            next_at += 0.1
            time.sleep(max(0.0, next_at - time.time()))
        with counts.get_lock():
            counts[0] += checked
            counts[1] += refused

    threads = [threading.Thread(target=session, args=(i,)) for i in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _get_in(gate, client: str, session: str, give_up: float, typo: bool) -> float | None:
    """Seconds from the organiser's first entry until admitted, from a new browser session;
    None after ``give_up`` s. As on the admin page: an entry refused unchecked is sent again
    when its wait is over (the countdown reruns every second); a typo, once checked, is
    followed by the right password."""
    started = time.time()
    entries = [PASSWORD + "x", PASSWORD] if typo else [PASSWORD]
    while time.time() - started < give_up:
        result = _attempt(gate, entries[0], client, session)
        if result.ok:
            return time.time() - started
        if not result.blocked and len(entries) > 1:
            entries = entries[1:]
        time.sleep(1.0)
    return None


def run(sessions: int, warmup: float, give_up: float, same_address: bool) -> dict[str, object]:
    from dkw_core.db import make_engine
    from dkw_core.study.access import AdminGate
    from dkw_core.study.models import init_db

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{os.path.join(tmp, 'study.sqlite')}"
        engine = make_engine(url, default_file="unused.sqlite")
        init_db(engine)
        gate = AdminGate(PASSWORD, engine=engine)
        stop = multiprocessing.Event()
        counts = multiprocessing.Array("l", 2)
        shares = [sessions // 2 + sessions % 2, sessions // 2]
        procs = [multiprocessing.Process(target=_flood, args=(url, n, stop, counts)) for n in shares if n]
        for p in procs:
            p.start()
        out: dict[str, object] = {"sessions": sessions}
        # each measurement after `warmup` s of flood: the organiser's success resets the server's count
        tries = [("right_at_once", ORGANISER_ADDRESS, False), ("after_a_typo", ORGANISER_ADDRESS, True)]
        if same_address:
            tries.append(("same_address", FLOOD_ADDRESS, False))
        for i, (name, client, typo) in enumerate(tries):
            time.sleep(warmup)
            out[f"{name}_count"] = gate.failures
            out[name] = _get_in(gate, client, f"organiser-{i}", give_up, typo=typo)
        stop.set()
        for p in procs:
            p.join()
        out["flood_checked"], out["flood_refused"] = counts[0], counts[1]
        engine.dispose()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 3, 10])
    parser.add_argument("--warmup", type=float, default=35.0, help="seconds of flood before the organiser tries")
    parser.add_argument("--give-up", type=float, default=60.0, help="seconds after which the organiser gives up")
    parser.add_argument("--same-address", action="store_true", help="also try from the flood's own address")
    args = parser.parse_args()

    def fmt(v: object) -> str:
        return "still out" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v)

    names = ["right_at_once", "after_a_typo"] + (["same_address"] if args.same_address else [])
    print("| sessions flooding | right password (s) | after a typo (s) |"
          + (" from the flood's address (s) |" if args.same_address else "")
          + " wrong attempts checked / refused unchecked |", flush=True)
    for n in args.sessions:
        r = run(n, args.warmup, args.give_up, args.same_address)
        cells = " | ".join(f"{fmt(r[k])} (count {r[k + '_count']})" for k in names)
        print(f"| {n} | {cells} | {r['flood_checked']} / {r['flood_refused']} |", flush=True)


if __name__ == "__main__":
    main()
