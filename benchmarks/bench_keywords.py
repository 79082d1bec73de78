"""Benchmark keyword extraction: cold (nothing cached) and warm (tagging and neighbours cached)
time and peak memory for the keywords of every document of a corpus with one metric.

    .venv/bin/python benchmarks/bench_keywords.py --dataset 20ng --metric tf-rf --k 90 --top 10

Runs each phase in a fresh subprocess; the cold phase uses an empty DKW_DATA_DIR (the parsed
corpus cache is copied in, corpus parsing is not what is measured). Prints a JSON summary.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import TreeSampler  # noqa: E402  (benchmarks/measure.py)
from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


def phase(args) -> dict:
    from dkw_core import phrases
    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel
    from dkw_core.vectors import load_vectors

    corpus = load_corpus(args.dataset)
    memory = TreeSampler()  # this process and its tagging children
    t0 = time.perf_counter()
    vectors = load_vectors()
    model = KeywordModel.prepare(corpus, vectors, k_max=args.k)
    t_prep = time.perf_counter() - t0
    idx = model.rank("all", metric=args.metric, k=args.k, top=args.top, protocol=args.protocol)
    words = model.words(idx)
    total = time.perf_counter() - t0
    peak_pss = memory.stop().peak_pss_mb
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"documents": len(words), "seconds": round(total, 1), "prepare_seconds": round(t_prep, 1),
            "peak_pss_mb_process_tree": round(peak_pss), "peak_rss_mb_main": round(own), "peak_rss_mb_largest_child": round(kids),
            "tagged_words": phrases.LAST_TAGGING.words, "tagging_seconds": round(phrases.LAST_TAGGING.seconds, 1),
            "tagging_words_per_s": round(phrases.LAST_TAGGING.words_per_second),
            "unique_phrases": len(model.phrases), "unique_phrase_vectors": int(model.nbr_idx.shape[0]),
            "example": words[0]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="20ng")
    ap.add_argument("--metric", default="tf-rf")
    ap.add_argument("--k", type=int, default=90)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--protocol", default="label-aware")
    ap.add_argument("--phase", choices=["cold", "warm"])
    args = ap.parse_args()
    if args.phase:
        print(json.dumps(phase(args)))
        return
    from dkw_core.config import data_dir
    from dkw_core.corpora import load_corpus

    load_corpus(args.dataset)  # make sure the parsed corpus is cached
    tmp = Path(tempfile.mkdtemp(prefix="dkw-bench-"))
    shutil.copytree(data_dir() / "cache" / "corpora", tmp / "cache" / "corpora")
    env = {**os.environ, "DKW_DATA_DIR": str(tmp)}
    out = {"command": " ".join(sys.argv), "cores": os.cpu_count()}
    try:
        for ph in ("cold", "warm"):
            cmd = [sys.executable, __file__, "--phase", ph, "--dataset", args.dataset, "--metric", args.metric,
                   "--k", str(args.k), "--top", str(args.top), "--protocol", args.protocol]
            res = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
            out[ph] = json.loads(res.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
