"""Throughput of ``keywords --texts big.jsonl --scheduler ...`` against the number of Dask workers.

    DKW_DATA_DIR=/work/data .venv/bin/python benchmarks/bench_stream.py --input /work/data/h37/million.jsonl \
        --make-input 1000000 --texts 2000 --chunk 250 --dataset r8 --mode null --mode local:1 --mode local:2 \
        --mode local:4 --out stream.json

The first ``--texts`` lines of ``--input`` (a JSONL of new texts; ``--make-input N`` writes it first:
the 20ng and R8 texts repeated to N lines with new ids, never in the repository) are streamed
through :func:`dkw_core.keywords.stream.stream_keywords`
exactly as the command line does (chunks of 1,000 texts, resumable output, two chunks per worker
in flight), with the statistics of ``--dataset`` (prepared in ``DKW_DATA_DIR``):

* ``local:N`` — a Dask ``LocalCluster`` of N one-thread worker processes (``local:4`` on a
  2-core machine is the *simulated larger cluster*: more workers than cores, so it measures
  what the client and the scheduler sustain, not more compute);
* ``null`` — workers that return a fixed record at once: the client's own ceiling (read, parse,
  check, write, the resume state), the serial part no number of workers removes.

Each row: texts/s, the client's CPU seconds per 1,000 texts, wall seconds, and the 1-minute
load average before and after. ``--model`` prints what W workers would take for T texts from
the measured per-worker rate and the client's ceiling.
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


def make_input(out: Path, n: int) -> None:
    """The benchmark's input: the texts of 20ng and R8 (both splits) repeated to ``n`` lines, ids
    changed (``{corpus}-{line}``); generated, never in the repository."""
    from dkw_core.corpora import load_corpus

    texts = [(name, d.text) for name in ("20ng", "r8") for d in load_corpus(name).documents]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for i in range(n):
            name, text = texts[i % len(texts)]
            fh.write(json.dumps({"id": f"{name}-{i}", "text": text}, ensure_ascii=False) + "\n")
    print(f"wrote {out}: {n:,} lines from {len(texts):,} distinct texts")


def run_mode(mode: str, path: Path, dataset: str, out: Path, chunk: int, about: float | None = None) -> dict:
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
        t0 = time.perf_counter()
        result = stream_keywords(path, out, _null_runner, **kw)
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
            stream_keywords(warm, None, runner, stdout=open(os.devnull, "w"), **kw)  # noqa: SIM115
            cpu0 = resource.getrusage(resource.RUSAGE_SELF)
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            result = stream_keywords(path, out, runner, **kw)
            wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    n = result["records"]
    return {"mode": mode, "texts": n, "seconds": round(wall, 1), "texts_per_second": round(n / wall, 1),
            "client_cpu_s_per_1000": round(1000 * client_cpu / max(1, n), 2),
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}


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
    args = ap.parse_args(argv)
    if args.make_input:
        make_input(args.input, args.make_input)
    if args.model:
        rows = json.loads(args.model.read_text())["rows"]
        print(model(rows, args.workers, args.total))
        return 0
    folder = Path(tempfile.mkdtemp(prefix="dkw-stream-"))
    path = _prefix(args.input, args.texts, folder)
    rows = []
    print("| mode | texts | wall s | texts/s | client CPU s / 1,000 texts | load before → after |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for mode in args.mode or ["null", "local:1", "local:2"]:
        row = run_mode(mode, path, args.dataset, folder / f"out-{mode.replace(':', '')}.jsonl", args.chunk, args.about)
        rows.append(row)
        print(f"| {mode} | {row['texts']:,} | {row['seconds']} | {row['texts_per_second']:,.1f} | "
              f"{row['client_cpu_s_per_1000']} | {row['load_before']} → {row['load_after']} |", flush=True)
    if args.out:
        args.out.write_text(json.dumps({"input": str(args.input), "texts": args.texts, "dataset": args.dataset,
                                        "about": args.about,
                                        "chunk": args.chunk,
                                        "rows": rows}, indent=1) + "\n")
    if any(r["mode"].startswith("local:") for r in rows):
        print(model(rows, args.workers, args.total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
