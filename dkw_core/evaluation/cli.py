"""Sub-commands ``evaluate``, ``search``, ``baseline`` and ``report`` (registered by dkw_core/cli.py).

``--json`` prints the issue's keys (``micro_f1``, ``macro_f1`` in percent, ``protocol``,
``dataset``, ``metric``, ``k``, ``top``, ``classifier``) plus ``split``, ``vectors`` and a
human ``label`` so every F1 carries its full configuration. ``--sample N`` evaluates
``corpus.head(N)`` (N documents per category and split). ``--db URL`` chooses the results store.
"""
from __future__ import annotations

import argparse
import sys

from ..progress import bars_enabled
from .classifiers import CLASSIFIERS, DEFAULT_CLASSIFIER
from .protocols import PROTOCOLS
from .search import DEFAULT_K_GRID, DEFAULT_N_GRID, PAPER_SIZES


def _ints(text: str) -> list[int]:
    from ..errors import InputError

    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"expected comma-separated integers, got {text!r}") from None
    if not values:
        raise InputError("empty list")
    return values


def _progress_bar(desc: str):
    """A ``progress(fraction, message)`` callback drawing a tqdm bar on stderr."""
    from tqdm import tqdm

    bar = tqdm(total=1000, desc=desc, file=sys.stderr, disable=not bars_enabled(), leave=False, bar_format="{l_bar}{bar}| {elapsed}<{remaining} {postfix}")
    state = {"n": 0}

    def progress(fraction: float, message: str) -> None:
        n = int(max(0.0, min(1.0, fraction)) * 1000)
        if n > state["n"]:
            bar.update(n - state["n"])
            state["n"] = n
        bar.set_postfix_str(message[:60], refresh=False)

    progress.close = bar.close  # type: ignore[attr-defined]
    return progress


def _common(p: argparse.ArgumentParser, *, dataset: bool = True) -> None:
    if dataset:
        p.add_argument("--dataset", required=True, help="20ng, r52, r8, webkb, webkb4, 7sectors or a corpus path")
        p.add_argument("--sample", type=int, default=None, metavar="N",
                       help="evaluate corpus.head(N): N documents per category and split")
        p.add_argument("--vectors", default=None, metavar="PATH", help="word2vec/GloVe/fastText file (default GloVe 6B 50d)")
        p.add_argument("--k-max", type=int, default=90, help="neighbours prepared per phrase (default 90)")
        p.add_argument("--force", action="store_true", help="recompute even if the configuration is stored")
    p.add_argument("--db", default=None, metavar="URL", help="SQLAlchemy URL of the results store (default data/results.sqlite)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _print_result(summary: dict, as_json: bool) -> None:
    from ..cli import print_json

    if as_json:
        print_json(summary)
        return
    hit = " (cached result)" if summary.get("cached") else ""
    print(f"{summary['label']}{hit}")
    print(f"  micro-F1 {summary['micro_f1']:.2f}  macro-F1 {summary['macro_f1']:.2f}")


def _experiment(args, *, prepare: bool = True):
    from .experiments import load_experiment

    progress = _progress_bar(f"prepare {args.dataset}") if prepare else None
    try:
        return load_experiment(args.dataset, sample=args.sample, k_max=args.k_max, vectors_path=args.vectors,
                               prepare=prepare, progress=progress)
    finally:
        if progress:
            progress.close()


def _check_early(args, *, metrics=(), ks=()) -> None:
    """Reject bad parameters before the (slow) model preparation."""
    from ..errors import InputError
    from ..metrics import get_metric

    for m in metrics:
        get_metric(m)
    for k in ks:
        if not 1 <= k <= args.k_max:
            raise InputError(f"K={k} must be between 1 and the prepared k_max={args.k_max}")
    if getattr(args, "sample", None) is not None and args.sample < 1:
        raise InputError(f"--sample must be a positive number of documents per category, got {args.sample}")


def cmd_evaluate(args) -> int:
    from ..errors import InputError
    from .experiments import run_method

    _check_early(args, metrics=[args.metric], ks=[args.k])
    if args.top < 1:
        raise InputError(f"--top must be at least 1, got {args.top}")
    exp = _experiment(args)
    protocols = PROTOCOLS if args.protocol == "both" else (args.protocol,)
    results = [run_method(exp, metric=args.metric, k=args.k, top=args.top, protocol=p, classifier=args.classifier,
                          train_protocol=args.train_protocol,
                          decoding=args.decoding if p == "label-free" else "max",
                          store=args.db, force=args.force) for p in protocols]
    summaries = [r.summary() for r in results]
    if args.json:
        from ..cli import print_json

        print_json(summaries[0] if len(summaries) == 1 else summaries)
    else:
        for s in summaries:
            _print_result(s, False)
    return 0


def cmd_search(args) -> int:
    from .experiments import run_search, search_summary

    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
    _check_early(args, metrics=metrics or (), ks=_ints(args.ks))
    exp = _experiment(args)
    summaries = []
    protocols = PROTOCOLS if args.protocol == "both" else (args.protocol,)
    for proto in protocols:
        progress = _progress_bar(f"Algorithm 2 ({proto})")
        try:
            result = run_search(exp, protocol=proto, ks=_ints(args.ks), metrics=metrics, tops=_ints(args.tops),
                                classifier=args.classifier, sizes=_ints(args.sizes), seed=args.seed, store=args.db,
                                force=args.force, progress=progress)
        finally:
            progress.close()
        summaries.append(search_summary(result))
    if args.json:
        from ..cli import print_json

        print_json(summaries[0] if len(summaries) == 1 else summaries)
    else:
        for s in summaries:
            _print_result(s, False)
            for r in s["search_rounds"]:
                print(f"    max_doc_count={r['max_doc_count']:>4} {r['ratio']}-fold on {r['docs']} docs: "
                      f"best CV micro-F1 {r['best_cv_micro_f1']:.2f}, {r['kept']} setups kept")
    return 0


def cmd_baseline(args) -> int:
    from .experiments import run_bow, run_tfidf

    if args.kind == "tfidf":
        exp = _experiment(args, prepare=False)
        result = run_tfidf(exp, classifier=args.classifier, store=args.db, force=args.force)
    else:
        exp = _experiment(args, prepare=False)
        progress = _progress_bar(f"tag {args.dataset}")
        try:
            result = run_bow(exp, metric=args.metric, top=args.top, protocol=args.protocol, classifier=args.classifier,
                             store=args.db, force=args.force, progress=progress)
        finally:
            progress.close()
    _print_result(result.summary(), args.json)
    return 0


def cmd_report(args) -> int:
    from .report import markdown_report
    from .results import load_runs

    runs = load_runs(args.db, dataset=args.dataset)
    text = markdown_report(runs, significance=not args.no_significance)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


def register(subparsers) -> None:
    """Add the evaluation sub-commands to ``python -m dkw_core``."""
    p = subparsers.add_parser("evaluate", help="classify test documents by their keyword vectors; micro/macro F1")
    _common(p)
    p.add_argument("--metric", required=True)
    p.add_argument("--k", type=int, required=True, help="K nearest words per phrase")
    p.add_argument("--top", type=int, required=True, help="N keywords per document")
    p.add_argument("--protocol", required=True, choices=[*PROTOCOLS, "both"])
    p.add_argument("--train-protocol", choices=PROTOCOLS, default=None,
                   help="how training documents are weighted (default: as --protocol)")
    p.add_argument("--decoding", choices=["max", "hypotheses"], default="max",
                   help="label-free only: max over categories (default) or category-hypothesis decoding")
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    p.set_defaults(handler=cmd_evaluate)

    p = subparsers.add_parser("search", help="Algorithm 2: choose K, metric and N on the training split, score the test split")
    _common(p)
    p.add_argument("--protocol", default="label-free", choices=[*PROTOCOLS, "both"])
    p.add_argument("--ks", default=",".join(map(str, DEFAULT_K_GRID)), help="K grid (default 10,30,50,70,90)")
    p.add_argument("--metrics", default=None, help="comma-separated metrics (default: the paper's 13; chi2/tf-chi2 are excluded)")
    p.add_argument("--tops", default=",".join(map(str, DEFAULT_N_GRID)), help="N grid (default 1,2,5,10,20,50)")
    p.add_argument("--sizes", default=",".join(map(str, PAPER_SIZES)), help="max_doc_count sequence (default 5,10,20,100,1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    p.set_defaults(handler=cmd_search)

    p = subparsers.add_parser("baseline", help="tf-idf (sublinear) + LinearSVC, or bag-of-words keyword sets")
    _common(p)
    p.add_argument("--kind", default="tfidf", choices=["tfidf", "bow"])
    p.add_argument("--metric", default="tf-rf", help="keyword metric for --kind bow")
    p.add_argument("--top", type=int, default=10, help="N keywords for --kind bow")
    p.add_argument("--protocol", default="label-free", choices=PROTOCOLS, help="for --kind bow")
    p.add_argument("--classifier", default=DEFAULT_CLASSIFIER, choices=sorted(CLASSIFIERS))
    p.set_defaults(handler=cmd_baseline)

    p = subparsers.add_parser("report", help="Markdown tables of the stored evaluation runs")
    _common(p, dataset=False)
    p.add_argument("--dataset", default=None)
    p.add_argument("--output", default=None, metavar="FILE")
    p.add_argument("--no-significance", action="store_true")
    p.set_defaults(handler=cmd_report)
