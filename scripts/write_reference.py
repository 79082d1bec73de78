"""Rewrite a corpus's reference results file from the results store, keeping the runs of the
same dkw version it already holds that the store lacks (``merge_kept``): how a benchmark that
was stopped part-way still ships every run it finished (each run is stored as it completes).

    .venv/bin/python scripts/write_reference.py --dataset r8 [--db URL] [--summary data/bench/eval_r8.json]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


def main(argv=None) -> int:
    from reference_writer import write_reference

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--db", default=None)
    ap.add_argument("--reference", default=None, help="default docs/results/<dataset>.json")
    ap.add_argument("--command", default=None, help="the command that computed the runs (default: the file's)")
    ap.add_argument("--summary", default=None, help="a bench_eval JSON summary whose leak checks and timings to ship")
    args = ap.parse_args(argv)
    path = Path(args.reference or ROOT / "docs" / "results" / f"{args.dataset}.json")
    previous = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    extra = {}
    if args.summary and Path(args.summary).is_file():
        summary = json.loads(Path(args.summary).read_text(encoding="utf-8"))
        extra = {k: summary.get(k) for k in ("leakcheck", "cv_choice", "wall_seconds", "cpu_seconds", "peak_rss_mib")}
    write_reference(path, dataset=args.dataset, db=args.db, command=args.command or previous.get("command", "?"),
                    extra=extra, keep_previous=True)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
