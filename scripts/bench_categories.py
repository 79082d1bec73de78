"""Time to show a category's words (the Categories page / ``categories`` command), and the
top words of a few categories.

    nice -n 10 .venv/bin/python scripts/bench_categories.py --dataset 20ng \\
        --category comp.graphics --category sci.space --category rec.sport.hockey --metric rf --metric ig

Loads the prepared corpus from the cache (prepare it first), then times
``KeywordModel.category_keywords`` (top 10, 5 phrases of provenance per word, K = 90): the
first call of a fresh process (training statistics read from the cache or counted, the metric's
scores) and the following calls (another category, another metric). Prints Markdown.
"""
from __future__ import annotations

import argparse
import sys
import time

import repo_root  # noqa: F401  (puts the repository root first on sys.path)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="20ng")
    ap.add_argument("--category", action="append", required=True)
    ap.add_argument("--metric", action="append", required=True)
    ap.add_argument("--k", type=int, default=90)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()

    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel

    t0 = time.perf_counter()
    model = KeywordModel.prepare(load_corpus(args.dataset), k_max=max(90, args.k))
    print(f"load prepared {args.dataset}: {time.perf_counter() - t0:.2f} s\n")
    print("| metric | category | seconds | top words |\n| --- | --- | --- | --- |")
    for metric in args.metric:
        for cat in args.category:
            t = time.perf_counter()
            words = model.category_keywords(cat, metric=metric, k=args.k, top=args.top, phrases=5)
            dt = time.perf_counter() - t
            print(f"| {metric} | {cat} | {dt:.3f} | {', '.join(w.word for w in words)} |")
    t = time.perf_counter()
    model.category_keywords(args.category[0], metric=args.metric[0], k=args.k, top=args.top, phrases=0)
    print(f"\nwithout phrase provenance ({args.metric[0]}, {args.category[0]}, warm): "
          f"{time.perf_counter() - t:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
