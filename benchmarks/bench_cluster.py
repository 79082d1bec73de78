"""Preparation on one machine and on a Dask cluster: wall time and peak memory, client and workers.

    python benchmarks/bench_cluster.py --dataset 20ng --mode single --mode local:1 --mode local:2 \\
        --data-dir ../bench-cluster --out cluster_20ng.json
    python benchmarks/bench_cluster.py --dataset 20ng --synthetic 5 --mode local:2 \\
        --data-dir ../bench-cluster --out cluster_20ng_x5.json

Run it under ``nice -n -10`` (as root) when other work shares the machine. Each mode runs
``python -m dkw_core prepare --dataset D [--scheduler MODE]`` in a subprocess on
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
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from measure import TreeSampler  # noqa: E402  (benchmarks/measure.py)
from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


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


def measure(argv: list[str], env: dict[str, str]) -> dict:
    """Wall time, peak resident memory and CPU seconds of a command and of its descendants.

    CPU seconds (the last sample of every process) are what a loaded machine does not inflate
    much: the scaling model is built on them."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tree = TreeSampler(child.pid, interval=0.25)
    out, err = child.communicate()
    tree.stop()
    seconds = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}):\n{err[-2000:]}")
    return {"seconds": round(seconds, 1), "peak_client_mb": round(tree.peak_root_rss_mb),
            "peak_descendants_mb": round(tree.peak_descendants_rss_mb), "peak_total_mb": round(tree.peak_rss_mb),
            "cpu_client_s": round(tree.root_cpu_seconds, 1),
            "cpu_descendants_s": round(tree.cpu_seconds - tree.root_cpu_seconds, 1),
            "output": out.strip().splitlines()[-1] if out.strip() else ""}


_PHASES = re.compile(r"in ([\d.]+) s \(tag ([\d.]+) s, merge ([\d.]+) s, nearest ([\d.]+) s, write ([\d.]+) s\)")
_COUNTS = re.compile(r"([\d,]+) documents, ([\d,]+) unique phrases, ([\d,]+) unique phrase vectors.*\(([\d,]+) words\)")


def throughput_model(rows: list[dict], *, words: tuple[float, ...] = (1e8, 1e9), workers: tuple[int, ...] = (16, 64),
                     heaps: float = 0.75) -> list[dict]:
    """Predicted preparation wall time from a measured ``local:N`` run.

    * tagging and the phrase counts per partition: the measured tag phase x N workers, per word,
      divided by the workers (embarrassingly parallel);
    * merge (one task, serial): the measured merge phase, linear in the words (its input, the
      documents x phrases entries, grows with the corpus);
    * nearest words: the measured phase x N, per unique phrase vector, divided by the workers;
      unique vectors grow as words ** ``heaps`` (Heaps' law; 0.75 is the exponent of 20ng's
      sample against the full corpus: 37,440 vectors in 221,056 words, 511,244 in 7.1 M);
    * write (one task): linear in the words.
    """
    out = []
    for row in rows:
        m, c = _PHASES.search(row.get("output", "")), _COUNTS.search(row.get("output", ""))
        if not (m and c) or not str(row["mode"]).startswith("local:"):
            continue
        n = int(str(row["mode"]).split(":")[1])
        tag, merge, nearest, write = (float(x) for x in m.groups()[1:])
        w0 = float(c.group(4).replace(",", ""))
        u0 = float(c.group(3).replace(",", ""))
        for w in words:
            for k in workers:
                scale = w / w0
                u = u0 * scale ** heaps
                parts = {"tag": tag * n * scale / k, "merge": merge * scale, "nearest": nearest * n * (u / u0) / k,
                         "write": write * scale}
                out.append({"from": row["mode"], "words": w, "workers": k, "unique_vectors": round(u),
                            "hours": round(sum(parts.values()) / 3600, 2),
                            **{f"{p}_h": round(v / 3600, 2) for p, v in parts.items()}})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="20ng")
    ap.add_argument("--mode", action="append", help="single, local:N or a scheduler address (repeatable)")
    ap.add_argument("--synthetic", type=int, help="prepare the dataset repeated N times (perturbed ids)")
    ap.add_argument("--data-dir", help="DKW_DATA_DIR for the runs (its caches are cleared per run)")
    ap.add_argument("--n-process", type=int, default=2, help="tagging processes of the single-machine path")
    ap.add_argument("--out", help="write the results as JSON")
    ap.add_argument("--model", metavar="JSON", help="print the throughput model of a measured --out file and stop")
    args = ap.parse_args()
    if args.model:
        for row in throughput_model(json.loads(Path(args.model).read_text())):
            print(json.dumps(row))
        return
    if not args.data_dir:
        ap.error("--data-dir is required to measure")
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
