"""Benchmark a newcomer's first keywords: ``extract_keywords(text)`` in a fresh process with an
empty data folder and no corpus archive (the shipped statistics answer; the GloVe ``.kv`` is
converted and spaCy loaded on the way), then the time per text once loaded.

    .venv/bin/python benchmarks/bench_first_call.py            # prints a JSON summary

The measurement runs in a subprocess with ``DKW_DATA_DIR`` a new empty folder and
``DKW_ARCHIVES`` pointing nowhere, so nothing prepared or cached earlier is used.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

FIRST = ("NVIDIA's new graphics card renders 3D scenes with ray tracing; the driver update fixes texture "
         "flicker in older games and adds support for higher resolution displays.")
MORE = ("The shuttle launch was delayed because of a fuel leak in the orbiter's main engine.",
        "The goalie made forty saves as the team won the playoff game in overtime.",
        "Doctors say the new vaccine reduced infections by half in the clinical trial.",
        "He sold his motorcycle after the engine overheated on the highway.",
        "The encryption key escrow proposal worries privacy advocates.")


def measure() -> dict:
    start = time.perf_counter()
    from dkw_core import extract_keywords

    first = extract_keywords(FIRST)
    out = {"first_call_s": round(time.perf_counter() - start, 3), "first_words": [k.word for k in first],
           "per_text_s": []}
    for text in MORE:
        t = time.perf_counter()
        words = [k.word for k in extract_keywords(text)]
        out["per_text_s"].append(round(time.perf_counter() - t, 4))
        out.setdefault("words", []).append(words[:5])
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        print(json.dumps(measure()))
        return 0
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "DKW_DATA_DIR": data, "DKW_ARCHIVES": str(Path(data) / "no-archives"),
               "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, __file__, "--inner"], env=env, capture_output=True, text=True,
                              check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["load_average"] = os.getloadavg()[0]
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
