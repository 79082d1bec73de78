"""Sub-commands ``evaluate``, ``search``, ``baseline``, ``report`` and ``leakcheck``.

``--json`` prints the keys (``micro_f1``, ``macro_f1`` in percent, ``protocol``,
``dataset``, ``metric``, ``k``, ``top``, ``classifier``) plus ``split``, ``vectors`` and a
human ``label`` so every F1 carries its full configuration. ``--sample N`` evaluates
``corpus.head(N)`` (N documents per category and split). ``--db URL`` chooses the results store.
"""
from __future__ import annotations

import argparse

from ..evaluation.classifiers import CLASSIFIERS, DEFAULT_CLASSIFIER
from ..evaluation.search import DEFAULT_K_GRID, DEFAULT_N_GRID, PAPER_SIZES
from ..terminal import escape
from ..types import NEW_TEXT_PROTOCOLS
from . import options
from .options import ProgressBar as _progress_bar
from .options import ints as _ints

BOTH = ("label-aware", "label-free")
"""``--protocol both``: the paper's protocol beside the plain label-free one."""


def _common(p: argparse.ArgumentParser, *, dataset: bool = True) -> None:
    if dataset:
        options.add_dataset(p)
        options.add_sample(p)
        options.add_vectors(p)
        options.add_neighbours(p)
        options.add_k_max(p)
        p.add_argument("--force", action="store_true", help="recompute even if the configuration is stored")
    options.add_db(p, "SQLAlchemy URL of the results store (default data/results.sqlite)")
    options.add_json(p)


def _print_result(summary: dict) -> None:
    hit = " (cached result)" if summary.get("cached") else ""
    print(f"{escape(summary['label'])}{hit}")
    print(f"  micro-F1 {summary['micro_f1']:.2f}  macro-F1 {summary['macro_f1']:.2f}")


def _print_all(results: list[dict], as_json: bool, show=_print_result) -> None:
    """``--json``: the one result, or the list of several; else ``show`` each."""
    if as_json:
        options.print_json(results[0] if len(results) == 1 else results)
    else:
        for result in results:
            show(result)


def _experiment(args, *, prepare: bool = True):
    """The experiment; inside a Dask session (``--scheduler``) the corpus is prepared on the
    cluster and this process loads neither its texts nor the model."""
    from ..cluster import active_client
    from ..evaluation.experiments import cluster_experiment, load_experiment

    if prepare and active_client() is not None:
        with _progress_bar(f"prepare {args.dataset} on {args.scheduler}") as progress:
            return cluster_experiment(args.dataset, sample=args.sample, k_max=args.k_max, vectors_path=args.vectors,
                                      progress=progress, neighbours=args.neighbours)
    bar = _progress_bar(f"prepare {args.dataset}") if prepare else None
    try:
        return load_experiment(args.dataset, sample=args.sample, k_max=args.k_max, vectors_path=args.vectors,
                               prepare=prepare, progress=bar, neighbours=args.neighbours)
    finally:
        if bar:
            bar.close()


def cmd_evaluate(args) -> int:
    from ..cluster import session

    metrics = options.metrics_of(args)  # checked before the (slow) model preparation
    with session(args.scheduler):
        return _evaluate(args, metrics)


def _check_methods(args) -> None:
    """``--method`` names a registered extractor and ``--import`` a readable file, before any work."""
    from ..errors import InputError
    from ..keywords.registry import check_method_spec, is_keyphrases, method_kind

    for spec in args.method or ():
        check_method_spec(spec)
        if method_kind(spec) != "extractor" and not is_keyphrases(spec):
            raise InputError(f"--method {spec}: not a keyword extractor; dkw's metrics go with --metric "
                             f"(e.g. --metric {spec.rsplit('-', 1)[-1]})")
    for path in args.imports or ():
        from pathlib import Path

        if not Path(path).is_file():
            raise InputError(f"--import {path}: no such file")


def _evaluate(args, metrics: list[str]) -> int:
    from ..evaluation.experiments import run_methods

    if args.method or args.imports:
        _check_methods(args)
        return _evaluate_methods(args, metrics)
    exp = _experiment(args)
    protocols = BOTH if args.protocol == "both" else (args.protocol,)
    runs = [dict(metric=m, k=args.k, top=args.top, protocol=p) for m in metrics for p in protocols]
    results = run_methods(exp, runs, classifier=args.classifier, store=args.db, force=args.force)
    _print_all([r.summary() for r in results], args.json)
    return 0


def _evaluate_methods(args, metrics: list[str]) -> int:
    """``evaluate --method … --import …``: every method (extractors, imported keywords) and every
    dkw metric at every N of ``--tops``, the tf-idf + LinearSVC baseline, and the per-document
    comparison of all of them at N = ``--top`` (docs/extractors.md)."""
    from ..evaluation.experiments import run_methods
    from ..evaluation.keyword_methods import (
        comparison_table,
        extractor_keywords,
        imported_keywords,
        keyphrase_keywords,
        method_summary,
        run_keywords,
    )
    from ..keywords.imports import read_imported

    tops = sorted(set(_ints(args.tops)) | {args.top})
    exp = _experiment(args)
    protocols = BOTH if args.protocol == "both" else (args.protocol,)
    runs = [dict(metric=m, k=args.k, top=n, protocol=p) for m in metrics for p in protocols for n in tops]
    dkw = run_methods(exp, runs, classifier=args.classifier, store=args.db, force=args.force)
    methods = []
    for spec in args.method or ():
        bar = _progress_bar(f"{spec} keywords of {exp.dataset}")
        try:
            from ..keywords.registry import is_keyphrases

            methods.append(keyphrase_keywords(exp.corpus, spec) if is_keyphrases(spec)
                           else extractor_keywords(exp.corpus, spec, progress=bar))
        finally:
            bar.close()
    for path in args.imports or ():
        methods += imported_keywords(exp.corpus, read_imported(path), source=path)
    others = [r for m in methods for r in run_keywords(exp, m, tops=tops, classifier=args.classifier, store=args.db,
                                                       force=args.force)]
    from ..keywords.registry import READS, reads_labels

    summaries = [{**r.summary(), "reads": READS[reads_labels("dkw", protocol=r.config.protocol)]} for r in dkw]
    summaries += [method_summary(r) for r in others]
    compared = {p: comparison_table(exp, [r for r in dkw if r.config.protocol == p] + others, top=args.top,
                                    classifier=args.classifier)
                for p in protocols}
    if args.json:
        options.print_json({"runs": summaries, "comparisons": {p: t.to_dict(orient="records") for p, t in compared.items()}})
        return 0
    print(f"{escape(exp.dataset)}: micro / macro F1 (%) on the test split; classifier "
          f"{args.classifier}; dkw metrics at K={args.k}")
    print(f"  {'method':<34} {'reads':<30} " + " ".join(f"{'N=' + str(n):>13}" for n in tops))
    rows: dict[tuple[str, str], dict[int, str]] = {}
    for s in summaries:
        name = s["metric"] if s["kind"] != "method" else f"{s['metric']} (dkw, {s['protocol']})"
        reads = s["reads"]
        rows.setdefault((name, reads), {})[int(s["top"])] = f"{s['micro_f1']:.2f}/{s['macro_f1']:.2f}"
    for (name, reads), cells in rows.items():
        print(f"  {escape(name):<34} {escape(reads):<30} " + " ".join(f"{cells.get(n, '-'):>13}" for n in tops))
    for p, table in compared.items():
        print(f"per document at N={args.top} ({p} dkw runs): McNemar exact, paired bootstrap 95 % CI of the "
              "micro-F1 difference A - B (points), Holm over the pairs")
        for r in table.to_dict(orient="records"):
            print(f"  {escape(r['a'])} vs {escape(r['b'])}: {r['diff']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}], "
                  f"p={r['p_mcnemar']:.3g}, Holm p={r['p_holm']:.3g}{' *' if r['significant'] else ''}")
    return 0


def cmd_search(args) -> int:
    from ..cluster import session

    metrics = options.metrics_of(args) or None  # checked before the (slow) model preparation
    with session(args.scheduler):
        return _search(args, metrics)


def _search(args, metrics: list[str] | None) -> int:
    from ..evaluation.experiments import run_search, search_summary

    exp = _experiment(args)
    summaries = []
    protocols = BOTH if args.protocol == "both" else (args.protocol,)
    for proto in protocols:
        cv = getattr(args, "selection", "algorithm2") == "cv"
        progress = _progress_bar(f"{'CV' if cv else 'Algorithm 2'} ({proto})")
        try:
            if cv:
                from ..evaluation.experiments import run_cv

                result = run_cv(exp, protocol=proto, ks=_ints(args.ks), metrics=metrics, tops=_ints(args.tops),
                                classifier=args.classifier, folds=args.cv_folds, seed=args.seed,
                                max_per_category=args.cv_max_per_category, curves=False, store=args.db,
                                force=args.force, progress=progress)["choice"]
            else:
                result = run_search(exp, protocol=proto, ks=_ints(args.ks), metrics=metrics, tops=_ints(args.tops),
                                    classifier=args.classifier, sizes=_ints(args.sizes), seed=args.seed,
                                    store=args.db, force=args.force, progress=progress)
        finally:
            progress.close()
        summaries.append(search_summary(result))
    _print_all(summaries, args.json, show=_print_search)
    return 0


def _print_search(summary: dict) -> None:
    _print_result(summary)
    for r in summary.get("search_rounds", []):
        print(f"    max_doc_count={r['max_doc_count']:>4} {r['ratio']}-fold on {r['docs']} docs: "
              f"best CV micro-F1 {r['best_cv_micro_f1']:.2f}, {r['kept']} setups kept")


def cmd_baseline(args) -> int:
    from ..evaluation.experiments import run_bow, run_tfidf

    exp = _experiment(args, prepare=False)
    if args.kind == "tfidf":
        result = run_tfidf(exp, classifier=args.classifier, store=args.db, force=args.force)
    else:
        progress = _progress_bar(f"tag {args.dataset}")
        try:
            result = run_bow(exp, metric=options.metrics_of(args)[0], top=args.top, protocol=args.protocol,
                             classifier=args.classifier,
                             store=args.db, force=args.force, progress=progress)
        finally:
            progress.close()
    _print_all([result.summary()], args.json)
    return 0


def cmd_report(args) -> int:
    from ..evaluation.report import markdown_report
    from ..evaluation.results import load_runs

    runs = load_runs(args.db, dataset=args.dataset)
    text = markdown_report(runs, significance=not args.no_significance)
    options.write_text(text, args.out)
    return 0


def cmd_leakcheck(args) -> int:
    from ..evaluation.leakcheck import leak_check

    metrics = options.metrics_of(args)  # checked before the (slow) model preparation
    exp = _experiment(args)
    results = [leak_check(exp.model, metric=m, k=args.k, top=args.top, classifier=args.classifier,
                          seed=args.seed, dataset=exp.dataset, sample=args.sample,
                          protocol=args.deployable).to_dict() for m in metrics]
    _print_all(results, args.json, show=_print_leakcheck)
    return 0


def _print_leakcheck(result: dict) -> None:
    print(escape(result["label"]))
    print(f"  predictions following the wrong label: label-aware {result['follow_wrong_label_aware']:.2f} %, "
          f"{result['protocol']} {result['follow_wrong_label_free']:.2f} %, chance {result['chance']:.2f} %")
    print(f"  {escape(result['verdict'])}")


def register(subparsers) -> None:
    """Add the evaluation sub-commands to ``python -m dkw_core``."""
    p = subparsers.add_parser("evaluate", help="classify test documents by their keyword vectors; micro/macro F1")
    _common(p)
    options.add_metric(p, required=True)
    options.add_k(p, default=None)
    options.add_top(p, default=None)
    options.add_protocol(p, both=True)
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    p.add_argument("--method", action="append", metavar="SPEC",
                   help="repeatable: a keyword extractor evaluated the paper's way beside the metrics (yake, "
                        "yake-n3, textrank, or one added with register_extractor; docs/extractors.md)")
    p.add_argument("--import", dest="imports", action="append", metavar="FILE",
                   help="repeatable: keywords computed elsewhere (CSV or JSONL, as the study's import), covering "
                        "both splits")
    p.add_argument("--tops", default=",".join(map(str, DEFAULT_N_GRID)),
                   help="with --method/--import: every N evaluated (default 1,2,5,10,20,50); the methods are "
                        "compared per document at --top")
    options.add_scheduler(p)
    p.set_defaults(handler=cmd_evaluate)

    p = subparsers.add_parser("search", help="Algorithm 2 (or --selection cv): choose K, metric and N on the training "
                                             "split, score the test split")
    _common(p)
    p.add_argument("--selection", default="algorithm2", choices=["algorithm2", "cv"],
                   help="algorithm2: the paper's Algorithm 2 (default); cv: stratified k-fold CV of every setup on "
                        "the training split, fold-local statistics (robust to the seed)")
    p.add_argument("--cv-folds", type=options.counted(2, 100, "--cv-folds"), default=5,
                   help="folds of --selection cv (default 5)")
    p.add_argument("--cv-max-per-category", type=options.positive, default=None,
                   help="--selection cv on at most this many training documents per category (default: all)")
    options.add_protocol(p, both=True)
    p.add_argument("--ks", default=",".join(map(str, DEFAULT_K_GRID)), help="K grid (default 10,30,50,70,90)")
    options.add_metric(p)  # default: the paper's 13 (chi2/tf-chi2 are excluded)
    p.add_argument("--tops", default=",".join(map(str, DEFAULT_N_GRID)), help="N grid (default 1,2,5,10,20,50)")
    p.add_argument("--sizes", default=",".join(map(str, PAPER_SIZES)), help="max_doc_count sequence (default 5,10,20,100,1000)")
    p.add_argument("--seed", type=options.seed_value, default=0)
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    options.add_scheduler(p)
    p.set_defaults(handler=cmd_search)

    p = subparsers.add_parser("baseline", help="tf-idf (sublinear) + LinearSVC, or bag-of-words keyword sets")
    _common(p)
    p.add_argument("--kind", default="tfidf", choices=["tfidf", "bow"])
    options.add_metric(p, default=["tf-rf"])
    options.add_top(p)
    options.add_protocol(p)
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    p.set_defaults(handler=cmd_baseline)

    p = subparsers.add_parser("leakcheck", help="share of predictions that follow a random wrong label written "
                                                "into each test document (label-aware vs label-free vs chance)")
    _common(p)
    options.add_metric(p, required=True)
    options.add_k(p, default=None)
    options.add_top(p, default=None)
    p.add_argument("--seed", type=options.seed_value, default=0, help="seed of the random wrong categories")
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    p.add_argument("--deployable", default="label-free", choices=list(NEW_TEXT_PROTOCOLS),
                   help="the deployable protocol checked beside label-aware (default label-free; the protocol of "
                        "the setup you deploy, e.g. label-free-top1)")
    p.set_defaults(handler=cmd_leakcheck)

    p = subparsers.add_parser("report", help="Markdown tables of the stored evaluation runs")
    _common(p, dataset=False)
    options.add_dataset(p, required=False, help="only the runs of this corpus")
    options.add_out(p)
    p.add_argument("--no-significance", action="store_true")
    p.set_defaults(handler=cmd_report)
