"""Throughput of ``keywords --texts big.jsonl --scheduler ...`` against the number of Dask workers.

    DKW_DATA_DIR=data DKW_TAGGER=fast nice -n 19 .venv/bin/python benchmarks/bench_stream.py \
        --input data/s45-stream/million-200.jsonl --make-input 1000000 --max-chars 200 --texts 0 \
        --mode local:2 --check --work data/s45-stream/million --out stream.json

The first ``--texts`` lines of ``--input`` (``0``: all of it; a JSONL of new texts; ``--make-input N``
writes it first: the 20ng and R8 texts repeated to N lines with new ids, each cut to its first
``--max-chars`` characters when given, never in the repository) are streamed through
:func:`dkw_core.keywords.stream.stream_keywords` exactly as the command line does (chunks of
1,000 texts, resumable output, two chunks per worker in flight), with the statistics of
``--dataset`` (prepared in ``DKW_DATA_DIR``):

* ``local:N`` — a Dask ``LocalCluster`` of N one-thread worker processes (``local:4`` on a
  2-core machine is the *simulated larger cluster*: more workers than cores, so it measures
  what the client and the scheduler sustain, not more compute);
* ``null`` — workers that return a fixed record at once: the client's own ceiling (read, parse,
  check, write, the resume state), the serial part no number of workers removes.

Each row: texts/s, the client's CPU seconds per 1,000 texts, wall seconds, the 1-minute load
average before and after, the client's resident memory (start, max, end) and, on a cluster, each
worker's CPU seconds, chunks and texts per CPU second — sampled between chunks every ``--every``
seconds (all samples in ``--out``), so they do not depend on the load. ``--work`` keeps the
output: the same command after a kill resumes from the last finished chunk (the row counts this
run's texts and says where it resumed); ``--check`` then compares the output with the input
(lines, distinct ids, none missing). ``--model`` prints what W workers would take for T texts
from the measured per-worker rate and the client's ceiling.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

import repo_root  # noqa: F401  (puts the repository root first on sys.path)


def _prefix(src: Path, n: int, folder: Path) -> Path:
    out = folder / f"prefix-{n}.jsonl"
    if not out.is_file():
        with src.open("rb") as fh, out.open("wb") as w:
            for i, line in enumerate(fh):
                if i >= n:
                    break
                w.write(line)
    return out


def _null_runner(chunks):
    for items in chunks:
        yield [{"id": i, "split": "", "label": "", "protocol": "label-free-top1", "k": 90, "top": 10,
                "keywords": {"lo-own": ["word"] * 10}} for i, _ in items]


def _cut(text: str, max_chars: int | None) -> str:
    """``text``'s first ``max_chars`` characters, cut back to the last whitespace inside them (no
    half word at the end; a text with no whitespace there keeps all ``max_chars``)."""
    if max_chars is None or len(text) <= max_chars:
        return text
    head = text[:max_chars]
    cut = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
    return head[:cut].rstrip() if cut > 0 else head


def make_input(out: Path, n: int, max_chars: int | None = None) -> None:
    """The benchmark's input: the texts of 20ng and R8 (both splits) repeated to ``n`` lines, ids
    changed (``{corpus}-{line}``), each text cut to its first ``max_chars`` characters (:func:`_cut`)
    when given; generated, never in the repository."""
    from dkw_core.corpora import load_corpus

    texts = [(name, _cut(d.text, max_chars)) for name in ("20ng", "r8") for d in load_corpus(name).documents]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for i in range(n):
            name, text = texts[i % len(texts)]
            fh.write(json.dumps({"id": f"{name}-{i}", "text": text}, ensure_ascii=False) + "\n")
    print(f"wrote {out}: {n:,} lines from {len(texts):,} distinct texts"
          + (f" cut to {max_chars} characters" if max_chars else ""))


def _worker_usage(dask_worker=None) -> dict:
    """This Dask worker process's CPU seconds (all its threads), resident MB and tasks executed."""
    import psutil

    proc = psutil.Process()
    cpu = proc.cpu_times()
    return {"pid": proc.pid, "cpu_s": cpu.user + cpu.system, "rss_mb": round(proc.memory_info().rss / 1e6, 1),
            "tasks": dask_worker.state.executed_count if dask_worker is not None else 0}


def _rss_mb() -> float:
    import psutil

    return round(psutil.Process().memory_info().rss / 1e6, 1)


class _Sampler:
    """The client's resident memory, the load and (on a cluster) each worker's CPU seconds, RSS and
    tasks, taken between chunks at least ``every`` seconds apart while the stream runs."""

    def __init__(self, client, every: float) -> None:
        self.client, self.every, self.rows, self.texts = client, every, [], 0
        self.t0 = self.last = time.perf_counter()

    def take(self) -> dict:
        self.last = time.perf_counter()
        row = {"s": round(self.last - self.t0, 1), "texts": self.texts, "client_rss_mb": _rss_mb(),
               "load": round(os.getloadavg()[0], 2)}
        if self.client is not None:
            row["workers"] = dict(sorted(self.client.run(_worker_usage).items()))
        self.rows.append(row)
        return row

    def wrap(self, runner):
        def wrapped(chunks):
            for records in runner(chunks):
                self.texts += len(records)
                yield records
                if time.perf_counter() - self.last >= self.every:
                    row = self.take()
                    print(f"  {row['s']:>8.0f} s {row['texts']:>9,} texts client {row['client_rss_mb']:,.0f} MB "
                          f"load {row['load']}", flush=True)
        return wrapped


def _per_worker(first: dict, last: dict, chunk: int) -> dict:
    """Each worker's CPU seconds, tasks (chunks) and texts per CPU second between two samples."""
    rows = {}
    for addr, end in last.get("workers", {}).items():
        start = first.get("workers", {}).get(addr)
        if start is None or start["pid"] != end["pid"]:
            rows[addr] = {"restarted": True}
            continue
        cpu, tasks = end["cpu_s"] - start["cpu_s"], end["tasks"] - start["tasks"]
        rows[addr] = {"cpu_s": round(cpu, 1), "chunks": tasks,
                      "texts_per_cpu_s": round(tasks * chunk / cpu, 1) if cpu else None,
                      "rss_mb": [start["rss_mb"], end["rss_mb"]]}
    return rows


def run_mode(mode: str, path: Path, dataset: str, out: Path, chunk: int, about: float | None = None,
             every: float = 10.0) -> dict:
    """One mode's run; ``out`` resumes a killed run of the same mode and input (the texts counted
    are those of this run: ``resumed_from`` says where it started)."""
    from dkw_core.cluster import CorpusRef, ModelRef, prepare_on_cluster, session
    from dkw_core.cluster.batch import text_chunks_on_cluster
    from dkw_core.cluster.scheduler import parse_scheduler
    from dkw_core.keywords.stream import stream_keywords
    from dkw_core.types import DEFAULT_METRIC

    metrics = [DEFAULT_METRIC]
    kw = dict(fmt="jsonl", metrics=metrics, settings={"mode": mode, "about": about}, chunk=chunk)
    load = os.getloadavg()[0]
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    if mode == "null":
        sampler = _Sampler(None, every)
        sampler.take()
        t0 = time.perf_counter()
        result = stream_keywords(path, out, sampler.wrap(_null_runner), **kw)
        wall = time.perf_counter() - t0
    else:
        with session(parse_scheduler(mode)) as client:
            ref = ModelRef(CorpusRef(dataset))
            prepare_on_cluster(client, ref.corpus)  # a cache hit: prepared beforehand
            runner = text_chunks_on_cluster(client, ref, metrics=metrics, k=90, top=10, about=about)
            # the workers load the model on the first chunk: a warm-up chunk is not timed
            warm = Path(tempfile.mkdtemp()) / "warm.jsonl"
            with path.open("rb") as fh:
                warm.write_bytes(b"".join(next(fh) for _ in range(20)))
            # two chunks of 10 texts, so that each of two workers loads it
            stream_keywords(warm, None, runner, stdout=open(os.devnull, "w"), **{**kw, "chunk": 10})  # noqa: SIM115
            sampler = _Sampler(client, every)
            sampler.take()
            cpu0 = resource.getrusage(resource.RUSAGE_SELF)
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            result = stream_keywords(path, out, sampler.wrap(runner), **kw)
            wall = time.perf_counter() - t0
            sampler.take()
    if mode == "null":
        sampler.take()
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    n = result["records"] - result["resumed_from"]
    rss = [r["client_rss_mb"] for r in sampler.rows]
    row = {"mode": mode, "texts": n, "resumed_from": result["resumed_from"], "records": result["records"],
           "seconds": round(wall, 1), "texts_per_second": round(n / wall, 1),
           "client_cpu_s_per_1000": round(1000 * client_cpu / max(1, n), 2),
           "client_rss_mb": {"start": rss[0], "max": max(rss), "end": rss[-1]},
           "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}
    if mode != "null":
        row["workers"] = _per_worker(sampler.rows[0], sampler.rows[-1], chunk)
    row["samples"] = sampler.rows
    return row


def check_output(out: Path, path: Path) -> dict:
    """The output against the input: lines, distinct ids, ids not in the input, input ids missing."""
    ids = [json.loads(line)["id"] for line in out.open(encoding="utf-8")]
    wanted = {str(json.loads(line).get("id", i + 1)) for i, line in enumerate(path.open(encoding="utf-8"))}
    got = set(ids)
    return {"lines": len(ids), "distinct_ids": len(got), "not_in_input": len(got - wanted),
            "missing": len(wanted - got)}


def model(rows: list[dict], workers: int, texts: float) -> str:
    per_worker = max(r["texts_per_second"] / int(r["mode"].split(":")[1]) for r in rows
                     if r["mode"].startswith("local:") and int(r["mode"].split(":")[1]) <= (os.cpu_count() or 1))
    ceiling = next((r["texts_per_second"] for r in rows if r["mode"] == "null"), float("inf"))
    rate = min(workers * per_worker, ceiling)
    return (f"{workers} workers x {per_worker:,.1f} texts/s each, client ceiling {ceiling:,.0f} texts/s -> "
            f"{rate:,.0f} texts/s: {texts:,.0f} texts in {texts / rate / 3600:.2f} h")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", type=Path, help="a JSONL of new texts (field text, id)")
    ap.add_argument("--texts", type=int, default=4000, help="first lines of --input streamed")
    ap.add_argument("--dataset", default="r8", help="statistics (prepared in DKW_DATA_DIR)")
    ap.add_argument("--mode", action="append", help="null, local:N or a scheduler address (repeatable)")
    ap.add_argument("--chunk", type=int, default=1000, help="texts per chunk (the command line's: 1,000)")
    ap.add_argument("--out", type=Path, help="JSON summary")
    ap.add_argument("--model", type=Path, help="a JSON summary to model from (no measuring)")
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--total", type=float, default=10e6)
    ap.add_argument("--about", type=float, default=None,
                    help="as keywords --about (default: the command's default, keyphrases of each text)")
    ap.add_argument("--make-input", type=int, metavar="N", help="write --input with N lines first")
    ap.add_argument("--max-chars", type=int, help="with --make-input: each text cut to its first N characters")
    ap.add_argument("--work", type=Path,
                    help="folder of the streamed prefix and the outputs (default: a new temporary one); the same "
                         "folder again resumes a killed run from its last finished chunk")
    ap.add_argument("--every", type=float, default=10.0, help="seconds between samples of memory and worker CPU")
    ap.add_argument("--check", action="store_true",
                    help="after each run: the output's lines and ids against the input (none lost, none twice)")
    args = ap.parse_args(argv)
    if args.make_input:
        make_input(args.input, args.make_input, args.max_chars)
    if args.model:
        rows = json.loads(args.model.read_text())["rows"]
        print(model(rows, args.workers, args.total))
        return 0
    folder = args.work or Path(tempfile.mkdtemp(prefix="dkw-stream-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = _prefix(args.input, args.texts, folder) if args.texts > 0 else args.input
    rows = []
    for mode in args.mode or ["null", "local:1", "local:2"]:
        out = folder / f"out-{mode.replace(':', '')}.jsonl"
        row = run_mode(mode, path, args.dataset, out, args.chunk, args.about, args.every)
        if args.check:
            row["check"] = check_output(out, path)
        rows.append(row)
        rss = row["client_rss_mb"]
        print(f"{mode}: {row['texts']:,} texts (resumed from {row['resumed_from']:,}; output {row['records']:,}) "
              f"in {row['seconds']:,} s, {row['texts_per_second']:,.1f} texts/s, client CPU "
              f"{row['client_cpu_s_per_1000']} s per 1,000 texts, client RSS MB start {rss['start']:,} max "
              f"{rss['max']:,} end {rss['end']:,}, load {row['load_before']} -> {row['load_after']}", flush=True)
        for addr, w in row.get("workers", {}).items():
            print(f"  worker {addr}: {w}")
        if "check" in row:
            print(f"  output check: {row['check']}")
        if args.out:
            args.out.write_text(json.dumps({"input": str(args.input), "texts": args.texts, "dataset": args.dataset,
                                            "about": args.about, "chunk": args.chunk,
                                            "tagger": os.environ.get("DKW_TAGGER", "(default)"),
                                            "rows": rows}, indent=1) + "\n")
    if any(r["mode"].startswith("local:") for r in rows):
        print(model(rows, args.workers, args.total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
