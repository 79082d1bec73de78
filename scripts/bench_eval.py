"""Full-corpus evaluation benchmark: every metric at N=10 with K chosen by Algorithm 2, under
both protocols, the tf-idf and bag-of-words baselines, Algorithm 2 over all setups, F1 against
N, leak checks, wall time and peak memory.

    nice .venv/bin/python scripts/bench_eval.py --dataset 20ng [--n-curve] [--full-search] \
        [--leakcheck rf:90,tf-rf:10] [--reference docs/results/20ng.json]

Nothing is chosen by a test score: the N-curve metrics are the ones Algorithm 2 over all
setups chose on the training split (per protocol; ``--full-search`` is implied by ``--n-curve``
without ``--curve-metrics``), or the metrics named by ``--curve-metrics`` (a fixed list, for
the significance tables). ``--reference FILE`` writes the machine-readable reference results
(every run of this dkw version on the corpus, significance, leak checks, with version, date,
machine and command) that the app and BENCHMARKS.md quote.

Every run goes through the results store (default data/results.sqlite, ``--db URL``), so an
interrupted benchmark resumes where it stopped (stored runs are cache hits). Prints one line
per run (labelled with protocol, split, vectors, K, N, metric, classifier) and a JSON summary
(written to ``--out``, default data/bench/eval_<dataset>[_sample<N>].json) with wall time and
peak RSS of this process (``resource.getrusage``, KiB → MiB). The Markdown tables come from
``python -m dkw_core report --db ...``.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)
from tqdm import tqdm  # noqa: E402

from dkw_core.errors import DkwError  # noqa: E402


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    from dkw_core.evaluation.experiments import load_experiment, run_bow, run_cv, run_search, run_tfidf
    from dkw_core.evaluation.protocols import PROTOCOLS
    from dkw_core.evaluation.search import DEFAULT_K_GRID, DEFAULT_N_GRID, PAPER_SIZES
    from dkw_core.metrics import PAPER_METRICS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--sample", type=int, default=None, help="corpus.head(N) instead of the full corpus")
    ap.add_argument("--db", default=None)
    ap.add_argument("--top", type=int, default=10, help="N for the per-metric table (default 10)")
    ap.add_argument("--metrics", default=",".join(PAPER_METRICS))
    ap.add_argument("--protocols", default=",".join(PROTOCOLS))
    ap.add_argument("--ks", default=",".join(map(str, DEFAULT_K_GRID)))
    ap.add_argument("--sizes", default=",".join(map(str, PAPER_SIZES)))
    ap.add_argument("--n-curve", action="store_true",
                    help="F1 against N=1..50 for the metrics Algorithm 2 chose (or --curve-metrics)")
    ap.add_argument("--curve-metrics", default=None,
                    help="comma-separated metrics for --n-curve (default: the metrics Algorithm 2 over all "
                         "setups chose on the training split)")
    ap.add_argument("--full-search", action="store_true", help="Algorithm 2 over all (K, metric, N) setups")
    ap.add_argument("--leakcheck", default=None, metavar="METRIC:K,...",
                    help="leak checks at N=--top, e.g. rf:90,tf-rf:10")
    ap.add_argument("--reference", default=None, metavar="FILE",
                    help="write the reference results of this corpus (JSON) to FILE")
    ap.add_argument("--cv", action="store_true",
                    help="the robust selection: one stratified k-fold CV of every (K, metric, N) setup on the "
                         "training split per protocol; its choice over all setups and, per (metric, N), its K "
                         "(the F1-against-N curves), each scored on the test split")
    ap.add_argument("--cv-folds", type=int, default=5)
    ap.add_argument("--k-choice", default="metric-n", choices=["metric-n", "metric"],
                    help="the curves' K: per (metric, N) or once per metric (mean CV F1 over N)")
    ap.add_argument("--cv-max-per-category", type=int, default=None,
                    help="CV on at most this many training documents per category (default: all)")
    ap.add_argument("--no-metric-table", action="store_true",
                    help="skip the per-metric Algorithm 2 runs at N=--top (the CV curves cover every metric)")
    ap.add_argument("--stability-seeds", default=None, metavar="S,S,...",
                    help="seed stability: Algorithm 2 over all setups and the CV choice for each seed "
                         "(protocols: --stability-protocols)")
    ap.add_argument("--stability-protocols", default="label-free-top1")
    ap.add_argument("--stability-selections", default="algorithm2,cv")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    ks = [int(x) for x in args.ks.split(",")]
    sizes = [int(x) for x in args.sizes.split(",")]
    metrics = [m for m in args.metrics.split(",") if m]
    protocols = [p for p in args.protocols.split(",") if p]
    summary: dict = {"dataset": args.dataset, "sample": args.sample,
                     "command": " ".join(["python", "scripts/bench_eval.py", *sys.argv[1:]]), "runs": []}
    t_start = time.perf_counter()

    def record(result, what: str) -> None:
        s = result.summary() if result.config.kind != "search" else __import__(
            "dkw_core.evaluation.experiments", fromlist=["search_summary"]).search_summary(result)
        s["what"] = what
        summary["runs"].append(s)
        hit = " (cached)" if result.cached else ""
        tqdm.write(f"{s['micro_f1']:6.2f} {s['macro_f1']:6.2f}  {s['label']}{hit}")

    bar = tqdm(total=1000, desc=f"prepare {args.dataset}", file=sys.stderr, disable=None, mininterval=20)

    def progress(f, msg):
        bar.n = int(1000 * max(0.0, min(1.0, f)))
        bar.set_postfix_str(msg[:50])
        bar.refresh()

    try:
        t0 = time.perf_counter()
        exp = load_experiment(args.dataset, sample=args.sample, k_max=max(ks), progress=progress)
        bar.close()
        summary["prepare_seconds"] = time.perf_counter() - t0
        summary["documents"] = {"train": len(exp.corpus.split("train")), "test": len(exp.corpus.split("test"))}
        summary["vectors"] = exp.vectors_name

        record(run_tfidf(exp, store=args.db), "baseline tf-idf + LinearSVC")
        if args.cv:
            summary["cv_choice"] = {}
            for p in protocols:
                cbar = tqdm(total=1000, desc=f"CV all setups ({p})", file=sys.stderr, disable=None, mininterval=20)

                def cprog(f, msg, cbar=cbar):
                    cbar.n = int(1000 * f)
                    cbar.set_postfix_str(msg[:50])
                    cbar.refresh()

                t_cv, c_cv = time.perf_counter(), time.process_time()
                out = run_cv(exp, protocol=p, ks=ks, metrics=metrics, tops=DEFAULT_N_GRID, folds=args.cv_folds,
                             seed=args.seed, max_per_category=args.cv_max_per_category, store=args.db,
                             k_choice=args.k_choice, progress=cprog)
                cbar.close()
                record(out["choice"], "CV over all setups")
                for r in out["curves"]:
                    record(r, f"N curve, K by CV ({args.k_choice})")
                summary["cv_choice"][p] = {**out["choice"].details.get("chosen", {}),
                                           "seconds": round(time.perf_counter() - t_cv, 1),
                                           "cpu_seconds": round(time.process_time() - c_cv, 1)}
                tqdm.write(f"CV {p}: {time.perf_counter() - t_cv:.0f} s wall, {time.process_time() - c_cv:.0f} s CPU")
        jobs = [] if args.no_metric_table else [(m, p) for m in metrics for p in protocols]
        for m, p in tqdm(jobs, desc=f"metrics at N={args.top}", file=sys.stderr, disable=None, mininterval=20):
            r = run_search(exp, protocol=p, ks=ks, metrics=[m], tops=[args.top], sizes=sizes, seed=args.seed,
                           store=args.db)
            record(r, f"metric table N={args.top}, K by Algorithm 2")
        for p in protocols:
            record(run_bow(exp, metric="tf-rf", top=args.top, protocol=p, store=args.db),
                   f"baseline bag-of-words keyword sets N={args.top}")
        chosen: dict[str, dict] = {}
        if args.full_search or (args.n_curve and not args.curve_metrics):
            for p in protocols:
                sbar = tqdm(total=1000, desc=f"Algorithm 2 all setups ({p})", file=sys.stderr, disable=None, mininterval=20)

                def sprog(f, msg, sbar=sbar):
                    sbar.n = int(1000 * f)
                    sbar.set_postfix_str(msg[:50])
                    sbar.refresh()

                r = run_search(exp, protocol=p, ks=ks, metrics=metrics, tops=DEFAULT_N_GRID, sizes=sizes,
                               seed=args.seed, store=args.db, progress=sprog)
                sbar.close()
                record(r, "Algorithm 2 over all setups")
                chosen[p] = r.details.get("chosen", {})
        summary["algorithm2_choice"] = chosen
        if args.n_curve:
            if args.curve_metrics:
                curve = [m for m in args.curve_metrics.split(",") if m]
            else:
                curve = list(dict.fromkeys(c["metric"] for c in chosen.values() if c.get("metric")))
            summary["curve_metrics"] = curve
            jobs = [(m, n, p) for m in curve for n in DEFAULT_N_GRID for p in protocols]
            for m, n, p in tqdm(jobs, desc="F1 against N", file=sys.stderr, disable=None, mininterval=20):
                record(run_search(exp, protocol=p, ks=ks, metrics=[m], tops=[n], sizes=sizes, seed=args.seed,
                                  store=args.db), "N curve, K by Algorithm 2")
        if args.stability_seeds:
            summary["stability"] = []
            for p in [x for x in args.stability_protocols.split(",") if x]:
                for seed in [int(x) for x in args.stability_seeds.split(",") if x]:
                    for sel in [x for x in args.stability_selections.split(",") if x]:
                        t_s, c_s = time.perf_counter(), time.process_time()
                        if sel == "cv":
                            r = run_cv(exp, protocol=p, ks=ks, metrics=metrics, tops=DEFAULT_N_GRID,
                                       folds=args.cv_folds, seed=seed, max_per_category=args.cv_max_per_category,
                                       curves=False, store=args.db)["choice"]
                        else:
                            r = run_search(exp, protocol=p, ks=ks, metrics=metrics, tops=DEFAULT_N_GRID,
                                           sizes=sizes, seed=seed, store=args.db)
                        record(r, f"seed stability ({sel})")
                        c = r.details.get("chosen", {})
                        summary["stability"].append({"protocol": p, "selection": sel, "seed": seed, **c,
                                                     "micro_f1": round(100 * r.micro_f1, 2),
                                                     "macro_f1": round(100 * r.macro_f1, 2),
                                                     "seconds": round(time.perf_counter() - t_s, 1),
                                                     "cpu_seconds": round(time.process_time() - c_s, 1),
                                                     "cached": r.cached})
        if args.leakcheck:
            from dkw_core.evaluation.leakcheck import leak_check
            from dkw_core.types import reads_labels

            summary["leakcheck"] = []
            checks: list[tuple[str, int, int, str, str]] = []
            for item in [x for x in args.leakcheck.split(",") if x]:
                if item == "chosen":  # the setups the CV selection chose (the headline table's), each
                    for p, c in (summary.get("cv_choice") or {}).items():  # under its own deployable protocol
                        checks.append((c["metric"], int(c["k"]), int(c["top"]), f"CV choice under {p}",
                                       "label-free" if reads_labels(p) else p))
                    continue
                m, k, *n = item.split(":")
                checks.append((m, int(k), int(n[0]) if n else args.top, "fixed", "label-free"))
            for m, k, n, why, deployable in dict.fromkeys(checks):
                res = leak_check(exp.model, metric=m, k=k, top=n, dataset=exp.dataset,
                                 sample=args.sample, seed=args.seed, protocol=deployable).to_dict()
                res["setup"] = why
                summary["leakcheck"].append(res)
                tqdm.write(f"leak check {m} K={k} N={n} ({why}): follows the wrong label label-aware "
                           f"{res['follow_wrong_label_aware']:.2f} %, {deployable} {res['follow_wrong_label_free']:.2f} %, "
                           f"expected without a leak {res['expected_no_leak']:.2f} %, chance {res['chance']:.2f} %")
    except DkwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary["wall_seconds"] = time.perf_counter() - t_start
    summary["peak_rss_mib"] = peak_mib()
    summary["cpu_seconds"] = round(time.process_time(), 1)
    out = Path(args.out) if args.out else ROOT / "data" / "bench" / (
        f"eval_{args.dataset}" + (f"_sample{args.sample}" if args.sample else "") + ".json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2, default=str))
    if args.reference:
        from reference_writer import write_reference

        write_reference(args.reference, dataset=exp.dataset, sample=args.sample, db=args.db,
                        command=summary["command"], extra={k: summary.get(k) for k in (
                            "documents", "vectors", "prepare_seconds", "wall_seconds", "cpu_seconds", "peak_rss_mib",
                            "algorithm2_choice", "cv_choice", "curve_metrics", "leakcheck")})
    print(json.dumps({k: summary.get(k) for k in ("dataset", "sample", "documents", "vectors", "prepare_seconds",
                                                  "wall_seconds", "peak_rss_mib", "algorithm2_choice", "cv_choice")},
                     indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
