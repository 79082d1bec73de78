"""Sub-command ``categories``: each category's most discriminative words (training split)."""
from __future__ import annotations

import argparse

from ..errors import InputError
from ..terminal import escape
from ..types import DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP, MAX_TOP
from . import options
from .options import ProgressBar, print_json


def cmd_categories(args) -> int:
    from ..keywords import KeywordModel
    from ..vectors import load_vectors
    from .corpus import corpus_for

    metrics = options.metrics_of(args)  # a one-line error before any heavy work
    if len(metrics) != 1:
        raise InputError("categories takes one --metric (the one that scores every (word, category) pair)")
    args.metric = metrics[0]
    corpus = corpus_for(args.dataset, sample=args.sample)
    if args.category is not None and args.category not in corpus.categories:
        raise InputError(f"unknown category {args.category!r} for corpus {corpus.key}; "
                         f"one of {', '.join(corpus.categories)}")
    cats = [args.category] if args.category else list(corpus.categories)
    if args.baseline:  # the documents' own words, no vectors: no K, no phrases but the word itself
        from ..keywords import BaselineModel
        from ..keywords.categories import category_keywords

        with ProgressBar(f"tagging {corpus.key}") as progress:
            own = BaselineModel.prepare(corpus, progress=progress)
        args.k = None
        words = {c: category_keywords(own, c, metric=args.metric, top=args.top, phrases=0) for c in cats}
        vectors, neighbours, labels, categories = "none (own words)", None, own.labels("train"), own.categories
    else:
        with ProgressBar(f"preparing {corpus.key}") as progress:
            model = KeywordModel.prepare(corpus, load_vectors(args.vectors), k_max=max(args.k, DEFAULT_K),
                                         progress=progress, neighbours=args.neighbours)
        words = {c: model.category_keywords(c, metric=args.metric, k=args.k, top=args.top, phrases=args.phrases)
                 for c in cats}
        vectors, neighbours, labels, categories = (model.vectors.name, model.neighbours, model.labels("train"),
                                                   model.categories)
    about = {"dataset": corpus.key, "metric": args.metric, "k": args.k, "top": args.top,
             "vectors": vectors, "neighbours": neighbours, "words": "own words" if args.baseline else "latent",
             "statistics": "training split",
             "train_documents": {c: int((labels == categories.index(c)).sum()) for c in cats}}
    if args.json:
        print_json({**about, "categories": {c: [w.to_dict() for w in ws] for c, ws in words.items()}})
        return 0
    setting = ("the documents' own words, no vectors" if args.baseline else
               f"K={args.k}, vectors={vectors}, neighbours={neighbours}")
    print(f"{escape(corpus.key)}: the {args.top} most discriminative words per category [metric={args.metric}, {setting}, "
          f"statistics from the training split]")
    for c, ws in words.items():
        print(f"\n{escape(c)} ({about['train_documents'][c]:,} training documents)")
        for w in ws:
            via = ", ".join(f"{escape(p)} ({n})" for p, n in w.phrases)
            print(f"  {escape(w.word):<16} {w.score:8.4g}   {w.documents:>5} docs ({100 * w.share:.0f} %, elsewhere "
                  f"{100 * w.elsewhere:.0f} %)" + (f"   via {via}" if via else ""))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("categories", help="each category's most discriminative words, from the training split "
                                          "(one --metric; a tf- metric multiplies by the word's occurrences in "
                                          "the category)")
    options.add_dataset(p)
    options.add_metric(p, default=[DEFAULT_METRIC])
    p.add_argument("--category", metavar="C", help="one category (default: every category)")
    options.add_k(p)
    options.add_top(p, default=DEFAULT_TOP)
    p.add_argument("--phrases", type=options.counted(0, MAX_TOP, "--phrases"), default=3, metavar="P",
                   help="phrases shown per word: those through which most of the category's documents reach it "
                        "(default 3; 0 = none)")
    options.add_sample(p)
    options.add_vectors(p)
    options.add_neighbours(p)
    p.add_argument("--baseline", action="store_true",
                   help="rank the training documents' own words, no vectors (e.g. --metric fw: Fightin' Words, "
                        "--metric ctfidf: c-TF-IDF); --k and --phrases do not apply")
    options.add_json(p)
    p.set_defaults(handler=cmd_categories)
