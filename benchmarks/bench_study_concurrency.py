"""Study database under concurrent judges, on SQLite and on PostgreSQL.

    .venv/bin/python benchmarks/bench_study_concurrency.py [--threads 50] [--processes 4] [--kills 5]
    .venv/bin/python benchmarks/bench_study_concurrency.py --judges 30 --judge-processes 6 [--sqlite-only]
    .venv/bin/python benchmarks/bench_study_concurrency.py --crowd 100 --window 60 [--crowd-processes 4] [--crowd-kills 2]

For each backend (a SQLite file; a throw-away PostgreSQL server started from Debian's
``postgresql`` package as in the tests, skipped when its binaries are missing): 16 concurrent
first starts on an empty database; then a study of 24 articles x 3 judges (72 judgements)
judged to the end by ``--threads`` threads (one judge each), by ``--processes`` processes
(five judges each), and by a process killed with SIGKILL ``--kills`` times while it submits,
the rest finished by other judges. Prints, per run: wall time, judgements submitted,
duplicates, over-assigned articles, submitted judgements with a wrong number of answers,
unsubmitted judgements holding answers, and failures.

``--judges N --judge-processes P`` runs only the judge-page load instead: N judges spread
over P processes (a thread per judge, as a server's sessions), each doing what the judge
page does — reserve an article, save every answer as a draft as soon as it is given, submit
— until the study (the paper's shape: 100 articles x 3 judges, 10 keywords each) is judged. A service call that raises is what the
page shows a judge as an error (the judge reloads and goes on); the run prints the errors
shown, their first message, and the median / p95 / max latency of a submission and of a
reservation.

``--crowd N`` runs only the crowd load: N participants of a crowd platform open the study link
(``?study=1&PROLIFIC_PID=...``) at random moments within ``--window`` seconds, spread over
``--crowd-processes`` server processes (a thread each); each judges two articles as the judge
page does (join by platform id, reserve, a draft per answer, submit) and reads her completion
code. ``--crowd-kills`` of the processes are SIGKILLed while their participants submit; those
participants come back with the same id through a new process. The study is the paper's shape
(100 articles x 3 judges, 5 + 5 keywords, a tenth with an attention check). The audit: errors a
participant would have seen, participants with exactly two judgements, over-assigned articles,
and answers counted for the wrong participant (each participant gives her own answer value).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
from datetime import timedelta

import repo_root  # noqa: F401  (puts the repository root first on sys.path)
from sqlalchemy import func, select, update  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from dkw_core.db import make_engine  # noqa: E402
from dkw_core.study import service as S  # noqa: E402
from dkw_core.study.models import QUESTIONS, Answer, Judgement, init_db, utcnow  # noqa: E402
from dkw_core.study.simulate import all_answers, take_turns  # noqa: E402

CATS = ["c1", "c2", "c3", "c4", "c5", "c6"]


def _study(url):
    from tests.study.fakes import disjoint_provider, make_docs  # the study tests' fake documents and keywords

    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    sid = S.create_study(engine, documents=make_docs(CATS), categories=CATS, provider=disjoint_provider,
                         config=S.StudyConfig(name="bench", corpus="fake", articles_per_category=4,
                                              categories_per_batch=2, judges_per_article=3,
                                              keywords_per_method=3, seed=7))
    return engine, sid


def _work(engine, judges, tick=None):
    return len(take_turns(engine, judges, all_answers(2), on_submit=(lambda _j, _i: tick()) if tick else None))


def _audit(engine):
    with Session(engine) as s:
        rows = s.execute(select(Judgement.id, Judgement.article_id, Judgement.judge_id, Judgement.submitted_at)).all()
        answers = dict(s.execute(select(Answer.judgement_id, func.count()).group_by(Answer.judgement_id)).all())
    per_article: dict[int, int] = {}
    for r in rows:
        if r.submitted_at:
            per_article[r.article_id] = per_article.get(r.article_id, 0) + 1
    pairs = [(r.article_id, r.judge_id) for r in rows]
    return {"submitted": sum(1 for r in rows if r.submitted_at),
            "duplicates": len(pairs) - len(set(pairs)),
            "over_assigned": sum(1 for v in per_article.values() if v > 3),
            "wrong_answer_counts": sum(1 for r in rows if r.submitted_at and answers.get(r.id, 0) != 6 * len(QUESTIONS)),
            "answers_without_submission": sum(1 for r in rows if not r.submitted_at and answers.get(r.id))}


def _first(url, out):
    engine = make_engine(url, default_file="unused.sqlite")
    try:
        init_db(engine)
        out.put("ok")
    except Exception as exc:  # noqa: BLE001
        out.put(repr(exc))


def bench_first_starts(url):
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    t0 = time.perf_counter()
    procs = [ctx.Process(target=_first, args=(url, out)) for _ in range(16)]
    for p in procs:
        p.start()
    res = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join()
    return {"ok": res.count("ok"), "failed": 16 - res.count("ok"), "seconds": time.perf_counter() - t0}


def bench_threads(url, n):
    engine, sid = _study(url)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(n)]
    errors = []
    barrier = threading.Barrier(n)

    def go(j):
        try:
            barrier.wait()
            _work(engine, [j])
        except Exception as exc:  # noqa: BLE001
            errors.append(repr(exc))

    t0 = time.perf_counter()
    threads = [threading.Thread(target=go, args=(j,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {**_audit(engine), "failed": len(errors), "seconds": time.perf_counter() - t0}


def _proc(url, judges, start, out):
    engine = make_engine(url, default_file="unused.sqlite")
    start.wait()
    try:
        out.put(("ok", _work(engine, judges)))
    except Exception as exc:  # noqa: BLE001
        out.put(("error", repr(exc)))


def bench_processes(url, n):
    engine, sid = _study(url)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(5 * n)]
    engine.dispose()
    res, seconds = _run_in_processes(_proc, url, judges, n, timeout=600)
    return {**_audit(engine), "failed": sum(r[0] != "ok" for r in res), "seconds": seconds}


def _run_in_processes(target, url, judges, n, *, timeout):
    """``target(url, judges[i::n], start, out)`` in ``n`` forked processes released together;
    each puts one result on ``out``. Returns the results and the seconds from the release."""
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=target, args=(url, judges[i::n], start, out)) for i in range(n)]
    for p in procs:
        p.start()
    t0 = time.perf_counter()
    start.set()
    res = [out.get(timeout=timeout) for _ in procs]
    for p in procs:
        p.join()
    return res, time.perf_counter() - t0


def _doomed(url, judges, count):
    engine = make_engine(url, default_file="unused.sqlite")

    def tick():
        with count.get_lock():
            count.value += 1

    _work(engine, judges, tick)


def bench_kills(url, kills):
    engine, sid = _study(url)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(6)]
    engine.dispose()
    ctx = multiprocessing.get_context("fork")
    done = 0
    t0 = time.perf_counter()
    for k in range(kills):
        count = ctx.Value("i", 0)
        p = ctx.Process(target=_doomed, args=(url, judges[k % 3: k % 3 + 4], count))
        p.start()
        while count.value < 2 + k and p.is_alive():
            time.sleep(0.0005 * (k + 1))
        if p.is_alive():
            os.kill(p.pid, signal.SIGKILL)
            done += 1
        p.join()
    mid = _audit(engine)
    with Session(engine) as s:
        s.execute(update(Judgement).where(Judgement.submitted_at.is_(None))
                  .values(last_seen_at=utcnow() - timedelta(days=1)))
        s.commit()
    finishers = [S.invite_judge(engine, sid, name=f"f{i}")[0] for i in range(3)]
    _work(engine, finishers + judges)
    end = _audit(engine)
    return {**end, "kills": done, "after_kills_submitted": mid["submitted"],
            "after_kills_partial": mid["wrong_answer_counts"] + mid["answers_without_submission"],
            "failed": 0, "seconds": time.perf_counter() - t0}


def _judge_process(url, judges, start, out):
    from dkw_core.study.submission import save_draft, submit
    from dkw_core.study.tasks import next_task

    engine = make_engine(url, default_file="unused.sqlite")
    start.wait()
    lock = threading.Lock()
    stats = {"errors": [], "submit": [], "reserve": [], "submitted": 0}

    def timed(kind, fn):
        t0 = time.perf_counter()
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - shown to the judge on the page
            with lock:
                stats["errors"].append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
            return None
        finally:
            with lock:
                stats[kind].append(time.perf_counter() - t0)

    def judge(j):
        failures = 0
        while failures < 20:
            state = timed("reserve", lambda: next_task(engine, j))
            if state is None:
                failures += 1
                continue
            if state.status == "wait":
                time.sleep(0.05)
                continue
            if state.task is None:
                return
            task = state.task
            for pos, _w in task.keywords:
                for q in QUESTIONS:
                    timed("draft", lambda pos=pos, q=q, t=task: save_draft(
                        engine, judge_id=j, judgement_id=t.judgement_id, answers={(pos, q): 2}, token=t.token))
            res = timed("submit", lambda t=task: submit(engine, judge_id=j, judgement_id=t.judgement_id,
                                                        answers=all_answers(2)(j, t), token=t.token))
            if res is None:
                failures += 1
            else:
                with lock:
                    stats["submitted"] += 1

    stats["draft"] = []
    threads = [threading.Thread(target=judge, args=(j,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    engine.dispose()
    out.put(stats)


def _pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def bench_judges(url, n_judges, n_procs):
    from tests.study.fakes import disjoint_provider, make_docs

    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    cats = [f"c{i}" for i in range(20)]  # the paper's shape: 20 categories x 5 articles, 5 + 5 keywords
    sid = S.create_study(engine, documents=make_docs(cats, per_split=5), categories=cats,
                         provider=disjoint_provider,
                         config=S.StudyConfig(name="bench", corpus="fake", articles_per_category=5,
                                              categories_per_batch=5, judges_per_article=3,
                                              keywords_per_method=5, seed=7))
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(n_judges)]
    engine.dispose()
    res, seconds = _run_in_processes(_judge_process, url, judges, n_procs, timeout=1800)
    errors = [e for r in res for e in r["errors"]]
    submit_t = [t for r in res for t in r["submit"]]
    reserve_t = [t for r in res for t in r["reserve"]]
    draft_t = [t for r in res for t in r["draft"]]
    audit = _audit(engine)
    return {"judges": n_judges, "processes": n_procs, "submitted": audit["submitted"],
            "duplicates": audit["duplicates"], "over_assigned": audit["over_assigned"],
            "errors_shown": len(errors), "drafts": len(draft_t),
            "submit_p50": _pct(submit_t, 0.5), "submit_p95": _pct(submit_t, 0.95), "submit_max": max(submit_t or [0.0]),
            "reserve_p95": _pct(reserve_t, 0.95), "reserve_max": max(reserve_t or [0.0]),
            "draft_p95": _pct(draft_t, 0.95), "draft_max": max(draft_t or [0.0]),
            "seconds": seconds, "first_error": errors[0] if errors else "-"}


def _crowd_study(url):
    """The paper's shape for a crowd: 100 articles x 3 judges, 5 + 5 keywords, a tenth with an
    attention check; platform participants judge two articles each."""
    from dkw_core.study.participants import PlatformSettings, set_platform
    from tests.study.fakes import make_docs

    cats = [f"c{i}" for i in range(10)]
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)

    def provider(spec, doc_ids, top, protocol="label-aware"):
        prefix = "alpha" if spec == "tf-rf" else "beta"
        return {d: [f"{prefix}{i}{d.split('/')[1]}" for i in range(1, top + 1)] for d in doc_ids}

    sid = S.create_study(engine, documents=make_docs(cats, per_split=10), categories=cats,
                         provider=provider,
                         config=S.StudyConfig(name="crowd", corpus="fake", articles_per_category=10,
                                              categories_per_batch=10, judges_per_article=3, keywords_per_method=5,
                                              seed=7, attention_share=0.1))
    set_platform(engine, sid, PlatformSettings("PROLIFIC_PID", "BENCH1", "https://example.org/done", 2))
    return engine, sid


def _expected(pid: str) -> int:
    """The answer participant ``pid`` gives to every question: the audit checks it per judge."""
    import zlib

    return zlib.crc32(pid.encode()) % 3 + 1


def _crowd_process(url, sid, pids, window, seed, out, count):
    """One server process: a thread per participant, arriving at a random moment of the window,
    doing what the judge page does (join by platform id, reserve, a draft per answer, submit)
    until her completion code."""
    import random

    from dkw_core.errors import DkwError
    from dkw_core.study.participants import completion, join
    from dkw_core.study.submission import save_draft, submit
    from dkw_core.study.tasks import next_task

    engine = make_engine(url, default_file="unused.sqlite")
    rng = random.Random(seed)
    errors: list[str] = []
    latencies: list[float] = []
    codes = []

    def participant(pid, delay):
        time.sleep(delay)
        value = _expected(pid)
        for _ in range(20):
            try:
                jid = join(engine, sid, pid)
                state = next_task(engine, jid)
                if state.status == "done":
                    codes.append((completion(engine, jid) or {}).get("code"))
                    return
                if state.task is None:
                    time.sleep(0.2)
                    continue
                task = state.task
                answers = {(p, q): value for p, _w in task.keywords for q in QUESTIONS}
                for key, v in answers.items():
                    save_draft(engine, judge_id=jid, judgement_id=task.judgement_id, token=task.token,
                               answers={key: v})
                t0 = time.perf_counter()
                submit(engine, judge_id=jid, judgement_id=task.judgement_id, token=task.token, answers=answers)
                latencies.append(time.perf_counter() - t0)
                with count.get_lock():
                    count.value += 1
            except DkwError as exc:  # what the judge page would show her
                errors.append(str(exc))
            except Exception as exc:  # noqa: BLE001  (anything else: the page would show a traceback)
                errors.append(f"{type(exc).__name__}: {exc}")
        errors.append(f"{pid}: not done after 20 page loads")

    threads = [threading.Thread(target=participant, args=(pid, rng.uniform(0, window))) for pid in pids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put({"errors": errors, "latencies": latencies, "codes": codes})


def _crowd_audit(engine, sid, pids):
    from dkw_core.study.models import Participant, StudyKeyword

    with Session(engine) as s:
        judge_of = dict(s.execute(select(Participant.participant_id, Participant.judge_id)
                                  .where(Participant.study_id == sid)).all())
        rows = s.execute(select(Judgement.id, Judgement.article_id, Judgement.judge_id, Judgement.submitted_at)).all()
        answers = s.execute(select(Answer.judgement_id, Answer.value, StudyKeyword.id)
                            .join(StudyKeyword, StudyKeyword.id == Answer.keyword_id)).all()
    pid_of = {j: p for p, j in judge_of.items()}
    owner = {r.id: r.judge_id for r in rows}
    per_article: dict[int, int] = {}
    per_judge: dict[int, int] = {}
    for r in rows:
        if r.submitted_at:
            per_article[r.article_id] = per_article.get(r.article_id, 0) + 1
            per_judge[r.judge_id] = per_judge.get(r.judge_id, 0) + 1
    wrong = sum(1 for jd, value, _k in answers if value != _expected(pid_of.get(owner[jd], "?")))
    return {"participants": len(judge_of), "missing_participants": len(set(pids) - set(judge_of)),
            "submitted": sum(per_judge.values()),
            "participants_with_2": sum(1 for j in judge_of.values() if per_judge.get(j) == 2),
            "over_assigned": sum(1 for v in per_article.values() if v > 3),
            "answers": len(answers), "answers_of_wrong_participant": wrong}


def bench_crowd(url, n, window, n_procs, kills):
    """``n`` participants open the study link within ``window`` seconds, spread over
    ``n_procs`` server processes; ``kills`` of those processes are SIGKILLed while their
    participants submit, and those participants come back (same id) through a new process."""
    engine, sid = _crowd_study(url)
    engine.dispose()
    pids = [f"5f{i:04d}abcdef{i:06d}" for i in range(n)]  # Prolific-like ids
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    count = ctx.Value("i", 0)
    groups = [pids[i::n_procs] for i in range(n_procs)]
    t0 = time.perf_counter()
    procs = [ctx.Process(target=_crowd_process, args=(url, sid, g, window, i, out, count))
             for i, g in enumerate(groups)]
    for p in procs:
        p.start()
    killed = 0
    for k in range(min(kills, n_procs)):
        while count.value < 5 + 10 * k and procs[k].is_alive():
            time.sleep(0.001)
        if procs[k].is_alive():
            os.kill(procs[k].pid, signal.SIGKILL)
            killed += 1
        procs[k].join()
        back = ctx.Process(target=_crowd_process, args=(url, sid, groups[k], 1.0, 100 + k, out, count))
        back.start()
        procs.append(back)
    results = [out.get(timeout=1800) for _ in range(len(procs) - killed)]
    for p in procs:
        p.join()
    seconds = time.perf_counter() - t0
    engine = make_engine(url, default_file="unused.sqlite")
    audit = _crowd_audit(engine, sid, pids)
    engine.dispose()
    errors = [e for r in results for e in r["errors"]]
    lat = [x for r in results for x in r["latencies"]]
    codes = [c for r in results for c in r["codes"]]
    return {**audit, "kills": killed, "errors_shown": len(errors), "first_error": errors[0][:80] if errors else "",
            "completion_codes": sum(1 for c in codes if c == "BENCH1"), "submit_median_s": _pct(lat, 0.5),
            "submit_p95_s": _pct(lat, 0.95), "submit_max_s": max(lat, default=0.0), "seconds": seconds}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=50)
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--judges", type=int, default=0, help="judge-page load: N judges (only this run)")
    ap.add_argument("--judge-processes", type=int, default=6, help="processes the judges are spread over")
    ap.add_argument("--sqlite-only", action="store_true")
    ap.add_argument("--postgresql-only", action="store_true")
    ap.add_argument("--crowd", type=int, default=0, help="crowd load: N platform participants (only this run)")
    ap.add_argument("--window", type=float, default=60.0, help="seconds within which the crowd arrives")
    ap.add_argument("--crowd-processes", type=int, default=4, help="server processes the crowd is spread over")
    ap.add_argument("--crowd-kills", type=int, default=2, help="server processes SIGKILLed while participants submit")
    args = ap.parse_args()
    from tests.support import pg_server as postgres

    backends = [] if args.postgresql_only else [("sqlite", None)]
    if args.sqlite_only:
        pass
    elif postgres.pg_bin() is not None:
        backends.append(("postgresql", "pg"))
    else:
        print("PostgreSQL binaries not found: SQLite only", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind in backends:
            ctxm = postgres.postgres_server() if kind else None
            base = ctxm.__enter__() if ctxm else None

            def fresh(tag, base=base):
                return postgres.new_database(base) if base else f"sqlite:///{tmp}/{tag}.sqlite"

            try:
                runs = (((f"{args.crowd} crowd", lambda: bench_crowd(fresh("crowd"), args.crowd, args.window,
                                                                     args.crowd_processes, args.crowd_kills)),)
                        if args.crowd else
                        ((f"{args.judges} judges", lambda: bench_judges(fresh("judges"), args.judges,
                                                                        args.judge_processes)),)
                        if args.judges else
                        (("16 first starts", lambda: bench_first_starts(fresh("first"))),
                                  (f"{args.threads} threads", lambda: bench_threads(fresh("threads"), args.threads)),
                                  (f"{args.processes} processes", lambda: bench_processes(fresh("procs"), args.processes)),
                                  (f"SIGKILL x{args.kills}", lambda: bench_kills(fresh("kills"), args.kills))))
                for label, fn in runs:
                    res = fn()
                    print(f"{name:<10} {label:<16} " + " ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                                                              for k, v in res.items()), flush=True)
            finally:
                if ctxm:
                    ctxm.__exit__(None, None, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
