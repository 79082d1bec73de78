"""Sub-command ``hubness``: the k-occurrence distribution of step 3 over a prepared corpus."""
from __future__ import annotations

import argparse

from ..terminal import escape
from . import options
from .options import ProgressBar, print_json


def cmd_hubness(args) -> int:
    from ..hubness import model_hubness
    from ..keywords import KeywordModel
    from ..vectors import load_vectors
    from .corpus import corpus_for

    corpus = corpus_for(args.dataset, sample=args.sample)
    with ProgressBar(f"preparing {corpus.key}") as progress:
        model = KeywordModel.prepare(corpus, load_vectors(args.vectors), k_max=args.k_max, progress=progress,
                                     neighbours=args.neighbours)
    report = model_hubness(model, args.k)
    if args.json:
        print_json(report.to_dict())
        return 0
    print(f"hubness of {escape(report.dataset)}: vectors={report.vectors}, neighbours={report.neighbours}, K={report.k}, "
          f"{report.queries:,} unique phrase vectors, {report.vocabulary:,} cropped words")
    print(f"  k-occurrence skewness {report.skewness:.2f}; top 1 % of words hold {100 * report.top1_share:.1f} % "
          f"of neighbour slots; {100 * report.never_share:.1f} % of words are nobody's neighbour; "
          f"largest k-occurrence {report.max_k_occurrence:,}")
    print("  biggest hubs (share of phrase vectors that have the word among their K nearest):")
    for h in report.hubs:
        print(f"    {escape(h.word):<20} {h.k_occurrence:>9,}  {100 * h.query_share:5.1f} %")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hubness", help="k-occurrence skewness and the biggest hub words of a prepared corpus")
    options.add_dataset(p)
    options.add_k(p)
    options.add_k_max(p)
    options.add_neighbours(p)
    options.add_sample(p)
    options.add_vectors(p)
    options.add_json(p)
    p.set_defaults(handler=cmd_hubness)
