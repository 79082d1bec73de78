"""Peak memory and time of ``python -m dkw_core keywords --text-file`` on long texts.

    .venv/bin/python benchmarks/bench_longtext.py --mb 1 5 20 --dataset 20ng --sample 20

Builds each text from real 20 Newsgroups documents (train then test, concatenated with blank
lines, cycling when the corpus is shorter than the text), then runs the command in a fresh
process and samples the PSS of its whole process tree (tagging workers included) every 0.2 s.
The statistics come from ``--dataset`` (``--sample N``: its first N documents per category
and split, which changes only the statistics, not the work done on the text). The model is
prepared once before the first measurement. Each row gives the tree's peak PSS and peak RSS
(summed over the tree), its CPU seconds, the wall time and the 1-minute load average before
and after the run (a loaded machine stretches the wall time, not the memory). A text above
``DKW_MAX_TEXT_MB``'s default is run with the limit raised to its size (the row's
``DKW_MAX_TEXT_MB`` says so); ``--keep-limit`` measures the refusal instead. Prints a JSON summary.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import TreeSampler  # noqa: E402  (benchmarks/measure.py)
from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


def build_text(mb: float, folder: Path) -> Path:
    from dkw_core.corpora import load_corpus

    path = folder / f"text-{mb:g}mb.txt"
    texts = [d.text for d in load_corpus("20ng").documents]
    parts, size = [], 0
    for t in itertools.cycle(texts):
        parts.append(t)
        size += len(t.encode("utf-8")) + 2
        if size >= mb * 1e6:
            break
    path.write_text("\n\n".join(parts), encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, nargs="+", default=[1, 5, 20])
    ap.add_argument("--dataset", default="20ng")
    ap.add_argument("--sample", type=int)
    ap.add_argument("--metric", default="rf")
    ap.add_argument("--keep-limit", action="store_true",
                    help="run a text above DKW_MAX_TEXT_MB's default as it is (measures the refusal)")
    args = ap.parse_args()
    from dkw_core.config import max_text_mb

    base = [sys.executable, "-m", "dkw_core"]
    slice_ = ["--sample", str(args.sample)] if args.sample else []
    subprocess.run([*base, "prepare", "--dataset", args.dataset, *slice_], check=True, cwd=ROOT)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.mb:
            path = build_text(mb, Path(tmp))
            cmd = [*base, "keywords", "--text-file", str(path), "--dataset", args.dataset, *slice_,
                   "--metric", args.metric, "--json"]
            env, limit = dict(os.environ), None
            if not args.keep_limit and path.stat().st_size > max_text_mb() * 1e6:
                limit = env["DKW_MAX_TEXT_MB"] = str(math.ceil(path.stat().st_size / 1e6) + 1)
            load_before = round(os.getloadavg()[0], 1)
            t = time.perf_counter()
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            tree = TreeSampler(proc.pid)
            out, err = proc.communicate()
            tree.stop()
            row = {"mb": mb, "bytes": path.stat().st_size, "seconds": round(time.perf_counter() - t, 1),
                   "cpu_seconds": round(tree.cpu_seconds, 1),
                   "peak_pss_gb": round(tree.peak_pss_mb * 2**20 / 1e9, 2),
                   "peak_rss_gb": round(tree.peak_rss_mb * 2**20 / 1e9, 2),
                   "load_1min": [load_before, round(os.getloadavg()[0], 1)], "exit": proc.returncode}
            if limit:
                row["DKW_MAX_TEXT_MB"] = limit  # raised above its default for this text
            if proc.returncode == 0:
                row["keywords"] = json.loads(out)["keywords"][args.metric]
            else:
                row["error"] = err.strip().splitlines()[-1:]
            results.append(row)
            print(json.dumps(row), file=sys.stderr)
    print(json.dumps({"command": " ".join(sys.argv), "results": results}, indent=2))


if __name__ == "__main__":
    main()
