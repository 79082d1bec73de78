"""How much do statistics counted on the whole training split inflate Algorithm 2's CV scores?

For each metric, k-fold cross-validated micro-F1 on a corpus slice (first ``--sample`` training
documents per category), once with fold-local statistics (what ``dkw_core.evaluation.search``
does: A, B, C, D, idf from the fold's training part only) and once with statistics of the whole
training split (validation folds included: the leak). Prints a Markdown table and writes JSON.

    .venv/bin/python benchmarks/bench_foldlocal.py --dataset 20ng --sample 20 --k 10 --top 10 --folds 5
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import repo_root  # noqa: F401  (puts the repository root first on sys.path)


def main(argv: list[str] | None = None) -> int:
    from dkw_core.evaluation.experiments import load_experiment
    from dkw_core.evaluation.foldstats import rank_rows
    from dkw_core.evaluation.search import ModelPredictor, Setup, cross_validate
    from dkw_core.metrics import PAPER_METRICS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default="20ng")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--protocol", default="label-free")
    ap.add_argument("--metrics", default=",".join(PAPER_METRICS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    class WholeSplitPredictor(ModelPredictor):
        """The leak: scores from the whole training split, validation fold included."""

        def fold_ranks(self, metric, k, train_pos, val_pos):
            scores = self.model.metric_scores(metric, k)
            return tuple(rank_rows(self.model, pos, metric=metric, k=k, scores=scores,
                                   labels=self.labels[pos] if self.protocol == "label-aware" else None,
                                   top=self.max_top) for pos in (train_pos, val_pos))

    exp = load_experiment(args.dataset, sample=args.sample, k_max=max(90, args.k))
    labels = exp.model.labels("train")
    positions = np.arange(labels.size)
    rows = []
    for metric in [m for m in args.metrics.split(",") if m]:
        setup = Setup(args.k, metric, args.top)
        scores = {}
        for name, cls in (("fold-local", ModelPredictor), ("whole training split", WholeSplitPredictor)):
            predictor = cls(exp.model, protocol=args.protocol, max_top=args.top)
            scores[name] = 100 * cross_validate(setup, positions, labels, args.folds, predictor, seed=args.seed)
        rows.append({"metric": metric, **{k: round(v, 2) for k, v in scores.items()},
                     "inflation": round(scores["whole training split"] - scores["fold-local"], 2)})
    print(f"{args.dataset}, first {args.sample} training documents per category ({labels.size}), "
          f"{args.folds}-fold CV micro-F1 %, K = {args.k}, N = {args.top}, {args.protocol}, seed {args.seed}\n")
    print("| metric | fold-local statistics | whole-split statistics (leak) | inflation |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['metric']} | {r['fold-local']:.2f} | {r['whole training split']:.2f} | {r['inflation']:+.2f} |")
    order_local = [r["metric"] for r in sorted(rows, key=lambda r: -r["fold-local"])]
    order_leak = [r["metric"] for r in sorted(rows, key=lambda r: -r["whole training split"])]
    print(f"\nranking, fold-local: {', '.join(order_local)}\nranking, leak:       {', '.join(order_leak)}")
    if args.out:
        Path(args.out).write_text(json.dumps({"args": vars(args), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
