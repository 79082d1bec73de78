"""Give the runs of a shipped reference file their per-document test predictions.

Reference files of format 1 hold each run's scores but not its test predictions, which the
per-document comparison needs. This re-evaluates the setups those runs chose on the training
split (Algorithm 2 is deterministic: the same K, metric and N), stores each run with its
predictions in the results store under the key it had, and refuses when the re-evaluated
micro-F1 differs from the shipped one (or the configuration's settings hash does): nothing is
re-chosen, only re-scored. Then ``--reference`` rewrites the file, keeping the runs not
re-evaluated.

    nice -n 10 .venv/bin/python scripts/backfill_predictions.py --dataset 20ng --protocols label-aware \
        --metrics rf,ig,tds,tf-idf --tops 10 --reference docs/results/20ng.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


def main(argv=None) -> int:
    from reference_writer import write_reference

    from dkw_core.evaluation.experiments import load_experiment, test_predictions
    from dkw_core.evaluation.protocols import RunConfig, RunResult, evaluate_tops
    from dkw_core.evaluation.results import ResultsStore

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--source", default=None, help="reference file to read (default docs/results/<dataset>.json)")
    ap.add_argument("--protocols", default="label-aware,label-free")
    ap.add_argument("--metrics", default=None, help="comma-separated (default: every per-metric run)")
    ap.add_argument("--tops", default="10")
    ap.add_argument("--full-search", action="store_true", help="also the runs that chose over all setups")
    ap.add_argument("--db", default=None)
    ap.add_argument("--reference", default=None, metavar="FILE", help="rewrite this reference file afterwards")
    args = ap.parse_args(argv)
    source = Path(args.source or ROOT / "docs" / "results" / f"{args.dataset}.json")
    data = json.loads(source.read_text(encoding="utf-8"))
    protocols = set(args.protocols.split(","))
    metrics = set(args.metrics.split(",")) if args.metrics else None
    tops = {int(n) for n in args.tops.split(",")}
    todo = []
    for rec in data["runs"]:
        opts = rec.get("options") or {}
        if rec.get("kind") != "search" or rec.get("protocol") not in protocols or opts.get("selection"):
            continue
        per_metric = len(opts.get("metrics", [])) == 1
        if per_metric and (rec["top"] in tops and (metrics is None or rec["metric"] in metrics)) \
                or (not per_metric and args.full_search):
            todo.append(rec)
    t0, c0 = time.perf_counter(), time.process_time()
    exp = load_experiment(args.dataset, k_max=90)
    store = ResultsStore(args.db)
    groups: dict[tuple, list[dict]] = {}
    for rec in todo:
        groups.setdefault((rec["protocol"], rec["metric"], int(rec["k"])), []).append(rec)
    done = 0
    for (protocol, metric, k), recs in groups.items():
        results = evaluate_tops(exp.model, metric=metric, k=k, tops={int(r["top"]) for r in recs}, protocol=protocol,
                                classifier=recs[0]["classifier"])
        for rec in recs:
            scores, seconds, y_pred = results[int(rec["top"])]
            key = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name,
                            protocol=protocol, metric="*", k=0, top=0, classifier=rec["classifier"], kind="search",
                            sample=None, options=rec["options"])
            if key.settings_hash() != rec["settings_hash"]:
                print(f"error: {protocol} {metric}: the configuration differs from the shipped run's", file=sys.stderr)
                return 2
            if abs(100 * scores.micro_f1 - rec["micro_f1"]) > 1e-3:
                print(f"error: {protocol} {metric} K={k} N={rec['top']}: micro-F1 {100 * scores.micro_f1:.4f} "
                      f"re-evaluated, {rec['micro_f1']} shipped", file=sys.stderr)
                return 2
            config = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name,
                               protocol=protocol, metric=metric, k=k, top=int(rec["top"]),
                               classifier=rec["classifier"], kind="search", sample=None, options=rec["options"])
            store.delete(key)
            store.save(RunResult(config=config, key=key, scores=scores, seconds=seconds, details={
                "chosen": {"k": k, "metric": metric, "top": int(rec["top"])},
                "predictions": test_predictions(exp.model, y_pred),
                "backfilled": f"test predictions of the shipped choice re-evaluated (run of {data.get('date')})"}))
            done += 1
            print(f"{protocol:16s} {metric:9s} K={k:<3d} N={rec['top']:<3d} micro-F1 {100 * scores.micro_f1:.2f} "
                  "(matches the shipped run)")
    print(f"{done} run(s) given their predictions: {time.perf_counter() - t0:.0f} s wall, "
          f"{time.process_time() - c0:.0f} s CPU")
    if args.reference:
        extra = {k: data.get(k) for k in ("documents", "vectors", "prepare_seconds", "wall_seconds", "peak_rss_mib",
                                          "algorithm2_choice", "curve_metrics", "leakcheck")}
        extra["backfill_command"] = " ".join(["python", "scripts/backfill_predictions.py", *sys.argv[1:]])
        write_reference(args.reference, dataset=exp.dataset, db=args.db, command=data["command"], extra=extra,
                        keep_previous=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
