"""Category vocabularies a reader accepts: dkw's metrics against Fightin' Words over own words
(docs/method.md §11), on the full corpora.

    DKW_DATA_DIR=/path/with/prepared/corpora nice .venv/bin/python benchmarks/bench_latent.py \\
        [--dataset 20ng --dataset r8 ...] [--metric ig --metric lo-own ...] [--k 90] [--top 10] \\
        [--no-f1] [--show r8:acq,earn,crude --show 20ng:comp.graphics,sci.space] [--out FILE]

Per corpus (prepared first when it is not cached), for each dkw metric and for Fightin' Words
over the documents' own words (``dkw_core.peers.fightin_words`` on the bag-of-words baseline's
own-word document counts, i.e. the registry's ``lo`` on ``BaselineModel``):

* every category's top ``--top`` words on the training split (``category_keywords``, K =
  ``--k``), measured by ``dkw_core.quality.list_quality``: NPMI (gensim ``c_npmi`` over the test
  split's word tokens), the share of words absent from it, exclusivity over the training
  documents;
* the test documents' top ``--top`` keywords under label-free-top1: the share that occur among the
  document's own word tokens, and how many distinct words they hold over the whole test split;
* micro-F1 (%) at N = ``--top`` on the test split under label-free-top1 and label-aware
  (``evaluate_model``: LinearSVC on keyword-sum document vectors, K fixed at ``--k``, no
  parameter search; Fightin' Words: the same classifier on binary own-word keyword sets,
  ``bow_baseline``). The baseline reuses the prepared model's category posteriors (the same
  classifier on the same texts and labels), so they are fitted once.

Prints Markdown tables (the figures and the ``--show`` categories' top words) and writes the
figures as JSON (``--out``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

CORPORA = ("20ng", "r8", "r52", "webkb")
METRICS = ("ig", "rf", "lo", "lo-own")
FW = "Fightin' Words (own words)"
PROTOCOLS = ("label-free-top1", "label-aware")
SHOW = ("r8:acq,earn,crude", "20ng:comp.graphics,sci.space")


def measure(name: str, *, metrics, k: int, top: int, f1: bool) -> tuple[dict, dict]:
    """Figures per method and the top words of every category per method, for one corpus."""
    from dkw_core.corpora import load_corpus
    from dkw_core.evaluation.baselines import bow_baseline
    from dkw_core.evaluation.protocols import evaluate_model
    from dkw_core.keywords import BaselineModel, KeywordModel
    from dkw_core.keywords.categories import category_keywords
    from dkw_core.phrases import tag_corpus
    from dkw_core.quality import list_quality, word_tokens

    corpus = load_corpus(name)
    model = KeywordModel.prepare(corpus, k_max=max(90, k))
    base = BaselineModel.prepare(corpus)
    tagged = tag_corpus(corpus)
    train = [d for d in corpus.documents if d.split == "train"]
    reference = [word_tokens(tagged[d.id]) for d in corpus.documents if d.split == "test"]
    test_own = [set(tokens) for tokens in reference]
    train_tokens, train_labels = [word_tokens(tagged[d.id]) for d in train], [d.label for d in train]

    methods = {m: (model, m, k) for m in metrics}
    methods[FW] = (base, "lo", None)
    figures: dict[str, dict] = {}
    words: dict[str, dict] = {}
    for label, (source, metric, kk) in methods.items():
        t0 = time.perf_counter()
        lists = {c: [w.word for w in category_keywords(source, c, metric=metric, k=kk, top=top, phrases=0)]
                 for c in source.categories}
        q = list_quality(lists, reference, train_tokens, train_labels, topn=top)
        row = {"npmi": q.npmi, "absent_share": q.absent_share, "exclusivity": q.exclusivity}
        if source is base:
            base._posterior = model._posteriors_all()  # same texts, labels and classifier
        ranked = source.words(source.rank("test", metric=metric, k=kk, top=top, protocol=PROTOCOLS[0]))
        row["in_document"] = sum(sum(w in own for w in ws) / len(ws) for ws, own in zip(ranked, test_own)
                                 if ws) / len(ranked)
        row["distinct_keywords"] = len({w for ws in ranked for w in ws})
        if f1:
            for protocol in PROTOCOLS:
                if source is base:
                    scores, _, _ = bow_baseline(base, metric=metric, top=top, protocol=protocol)
                else:
                    scores, _, _ = evaluate_model(model, metric=metric, k=kk, top=top, protocol=protocol)
                row[f"f1_{protocol}"] = 100 * scores.micro_f1
        row["seconds"] = round(time.perf_counter() - t0, 1)
        figures[label], words[label] = row, lists
        print(f"{name} {label}: {json.dumps(row)}", file=sys.stderr, flush=True)
    return figures, words


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", action="append", help=f"default: {' '.join(CORPORA)}")
    ap.add_argument("--metric", action="append", help=f"dkw metrics (default: {' '.join(METRICS)})")
    ap.add_argument("--k", type=int, default=90)
    ap.add_argument("--top", type=int, default=10, help="words per category list and keywords per document (N)")
    ap.add_argument("--no-f1", action="store_true", help="list quality only (no classification)")
    ap.add_argument("--show", action="append", help="corpus:category,category… whose top words to print "
                                                    f"(default: {' '.join(SHOW)})")
    ap.add_argument("--out", help="write the figures and the shown lists as JSON")
    args = ap.parse_args(argv)
    datasets = args.dataset or list(CORPORA)
    show = {}
    for item in args.show or SHOW:
        corpus, _, cats = item.partition(":")
        show[corpus] = cats.split(",")

    result: dict[str, dict] = {"k": args.k, "top": args.top, "corpora": {}}
    cols = ["NPMI", "absent", "exclusivity", "keywords in the document", "distinct keywords"]
    cols += [] if args.no_f1 else [f"F1 {p}" for p in PROTOCOLS]
    table = ["| corpus | method | " + " | ".join(cols) + " |", "| --- | --- |" + " --- |" * len(cols)]
    shown = ["| corpus | category | method | top words |", "| --- | --- | --- | --- |"]
    for name in datasets:
        figures, words = measure(name, metrics=args.metric or list(METRICS), k=args.k, top=args.top,
                                 f1=not args.no_f1)
        result["corpora"][name] = {"figures": figures, "lists": {m: {c: words[m][c] for c in show.get(name, [])
                                                                     if c in words[m]} for m in words}}
        for method, row in figures.items():
            cells = [f"{row['npmi']:+.3f}", f"{row['absent_share']:.1%}", f"{row['exclusivity']:.3f}",
                     f"{row['in_document']:.1%}", str(row["distinct_keywords"])]
            cells += [] if args.no_f1 else [f"{row[f'f1_{p}']:.2f}" for p in PROTOCOLS]
            table.append(f"| {name} | {method} | " + " | ".join(cells) + " |")
        for cat in show.get(name, []):
            for method in words:
                if cat in words[method]:
                    shown.append(f"| {name} | {cat} | {method} | {', '.join(words[method][cat])} |")
    print(f"Category top {args.top} (training split, K {args.k}); NPMI and absent share over the test split's "
          f"word tokens; test documents' keywords under {PROTOCOLS[0]}; F1 micro (%) at N = {args.top}, K {args.k}\n")
    print("\n".join(table) + "\n\n" + "\n".join(shown))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
