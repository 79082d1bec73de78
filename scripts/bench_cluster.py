"""Preparation on one machine and on a Dask cluster: wall time and peak memory, client and workers.

    python scripts/bench_cluster.py --dataset 20ng --mode single --mode local:1 --mode local:2 \\
        --data-dir ../bench-cluster --out cluster_20ng.json
    python scripts/bench_cluster.py --dataset 20ng --synthetic 5 --mode local:2 \\
        --data-dir ../bench-cluster --out cluster_20ng_x5.json

Each mode runs ``python -m dkw_core prepare --dataset D [--scheduler MODE]`` in a subprocess on
a cold cache (the tag and neighbour caches under ``--data-dir`` are removed first; the converted
vectors stay) and samples, every 0.25 s, the resident memory of the command's own process (the
client) and of all its descendants (spaCy processes, Dask scheduler and workers). ``--synthetic
N`` first writes ``<data-dir>/<dataset>-x<N>.csv``: the corpus N times, every copy with its own
ids (``copy<r>-<id>``), texts unchanged.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def synthetic_corpus(dataset: str, copies: int, folder: Path) -> Path:
    from dkw_core.corpora import load_corpus

    path = folder / f"{dataset}-x{copies}.csv"
    if path.is_file():
        return path
    corpus = load_corpus(dataset)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "label", "split"])
        for r in range(copies):
            for d in corpus.documents:
                w.writerow([f"copy{r}-{d.id.split('/', 3)[-1]}", d.text, d.label, d.split])
    tmp.replace(path)
    return path


def _rss(proc: psutil.Process) -> int:
    try:
        return proc.memory_info().rss
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0


def measure(argv: list[str], env: dict[str, str]) -> dict:
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc = psutil.Process(child.pid)
    peak_client = peak_total = peak_workers = 0
    while child.poll() is None:
        client = _rss(proc)
        try:
            others = sum(_rss(p) for p in proc.children(recursive=True))
        except psutil.NoSuchProcess:
            others = 0
        peak_client = max(peak_client, client)
        peak_workers = max(peak_workers, others)
        peak_total = max(peak_total, client + others)
        time.sleep(0.25)
    out, err = child.communicate()
    seconds = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}):\n{err[-2000:]}")
    return {"seconds": round(seconds, 1), "peak_client_mb": round(peak_client / 2**20),
            "peak_descendants_mb": round(peak_workers / 2**20), "peak_total_mb": round(peak_total / 2**20),
            "output": out.strip().splitlines()[-1] if out.strip() else ""}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="20ng")
    ap.add_argument("--mode", action="append", help="single, local:N or a scheduler address (repeatable)")
    ap.add_argument("--synthetic", type=int, help="prepare the dataset repeated N times (perturbed ids)")
    ap.add_argument("--data-dir", required=True, help="DKW_DATA_DIR for the runs (its caches are cleared per run)")
    ap.add_argument("--n-process", type=int, default=2, help="tagging processes of the single-machine path")
    ap.add_argument("--out", help="write the results as JSON")
    args = ap.parse_args()
    data = Path(args.data_dir).resolve()
    data.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DKW_DATA_DIR": str(data), "DKW_N_PROCESS": str(args.n_process)}
    env.pop("DKW_DASK_SCHEDULER", None)
    dataset = args.dataset
    if args.synthetic:
        os.environ["DKW_DATA_DIR"] = str(data)
        dataset = str(synthetic_corpus(args.dataset, args.synthetic, data))
    results = []
    for mode in args.mode or ["single"]:
        for kind in ("tagged", "models"):
            shutil.rmtree(data / "cache" / "v3" / kind, ignore_errors=True)
        argv = [sys.executable, "-m", "dkw_core", "prepare", "--dataset", dataset]
        if mode != "single":
            argv += ["--scheduler", mode]
        row = {"dataset": args.dataset, "copies": args.synthetic or 1, "mode": mode, **measure(argv, env),
               "load_average": os.getloadavg()[0], "cpus": os.cpu_count()}
        print(json.dumps(row), flush=True)
        results.append(row)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
