"""Topic and category measures of the keyphrase method against the paper's words and extractors.

Writes ``docs/results/keyphrases/<corpus>.json`` (docs/method.md §13). For every method:

* **topic MRR (vector)**: rank the test documents of a document's own category by the cosine
  between the mean vector of its keywords (the paper's keyword-vector sum, Algorithm 1 for a
  phrase) and each document's mean vector of content words; the reciprocal rank of the
  document itself, averaged over the test split (and the share ranked first);
* **keywords-alone micro/macro-F1**: the evaluation's own keyword-vector sums + LinearSVC at
  N = 10, every list computed under plain label-free (no classifier's category inside);
* **exclusivity**: of each test document's keywords (label-free-top1, as a reader gets them)
  for its gold category, over the training documents' content words (a phrase by its words).

The ``about`` of the keyphrase method is chosen on the training split only
(``--choose``: topic MRR on training documents, 3 folds of the training split for the F1).

    DKW_DATA_DIR=/work/data python scripts/keyphrase_measures.py --corpus r8
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dkw_core.corpora import load_corpus  # noqa: E402
from dkw_core.evaluation.keyword_methods import MethodKeywords, evaluate_keywords, keyword_vectors  # noqa: E402
from dkw_core.keywords.methods import model_for  # noqa: E402
from dkw_core.phrases import content_words, tag_corpus  # noqa: E402
from dkw_core.quality import exclusivity  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "results" / "keyphrases"


def content_vectors(vectors, tokens: list[list[str]]) -> np.ndarray:
    """Each document's mean unit vector of its content words (zero row: none known)."""
    out = np.zeros((len(tokens), vectors.dim), dtype=np.float64)
    kv = vectors.kv
    norms = None
    for i, words in enumerate(tokens):
        ids = [kv.key_to_index[w] for w in words if w in kv.key_to_index]
        if ids:
            m = np.asarray(kv.vectors[ids], dtype=np.float64)
            norms = np.linalg.norm(m, axis=1, keepdims=True)
            v = (m / np.where(norms == 0, 1, norms)).mean(axis=0)
            out[i] = v / (np.linalg.norm(v) or 1.0)
    return out


def topic_mrr(kw_vecs: np.ndarray, doc_vecs: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """MRR and top-1 share of each document among its category's documents."""
    rr = np.zeros(len(labels))
    for c in np.unique(labels):
        rows = np.flatnonzero(labels == c)
        sim = kw_vecs[rows] @ doc_vecs[rows].T
        own = sim[np.arange(len(rows)), np.arange(len(rows))]
        rank = 1 + (sim > own[:, None]).sum(axis=1)
        rr[rows] = 1.0 / rank
    return float(rr.mean()), float((rr == 1.0).mean())


def excl(lists: dict[str, list[str]], gold: dict[str, str], train_tokens, train_labels) -> float:
    words = {d: [w for kw in ws[:10] for w in kw.lower().split()] for d, ws in lists.items()}
    words = {d: ws for d, ws in words.items() if ws}
    value, _ = exclusivity(words, train_tokens, train_labels, categories=gold, topn=100)
    return float(value)


def dkw_lists(model, ids, *, metric, k, protocol, about, top=10):
    return {d: [kw.word for kw in model.keywords(d, metric=metric, k=k, top=top, protocol=protocol,
                                                 about=None if about is None or about >= 1 else about)]
            for d in ids}


def choose(corpus, model, *, metric: str, k: int, grid: list[float], per: int) -> dict:
    """``about`` chosen on the training split only: on the first ``per`` training documents of
    each category, the largest ``about`` whose topic MRR (among those documents) is at least
    YAKE's on the same documents — the most category-discriminative list that still picks out its
    own text as well as YAKE does; exclusivity over the training documents, reported beside it."""
    from dkw_core.keywords.extractors import extract_cached

    tagged = tag_corpus(corpus)
    train = [d for d in corpus.documents if d.split == "train"]
    seen: dict[str, int] = {}
    sample = []
    for d in train:
        if d.id not in model.problems and seen.get(d.label, 0) < per:
            seen[d.label] = seen.get(d.label, 0) + 1
            sample.append(d)
    ids = [d.id for d in sample]
    cat = {c: i for i, c in enumerate(corpus.categories)}
    labels = np.array([cat[d.label] for d in sample])
    gold = {d.id: d.label for d in sample}
    docvecs = content_vectors(model.vectors, [content_words(tagged[d.id]) for d in sample])
    tokens, tlabels = [content_words(tagged[d.id]) for d in train], [d.label for d in train]
    rows = []

    def row(name, lists, about=None):
        kv = keyword_vectors(model.vectors, [lists[d] for d in ids], 10)
        mrr, first = topic_mrr(kv, docvecs, labels)
        r = {"method": name, "about": about, "topic_mrr": round(mrr, 4), "topic_top1": round(first, 4),
             "exclusivity": round(excl(lists, gold, tokens, tlabels), 4)}
        print(json.dumps(r), flush=True)
        rows.append(r)
        return r

    found = extract_cached("yake", [d.text for d in sample], top=10)
    yake = row("yake", {d.id: ws[:10] for d, ws in zip(sample, found)})
    best = None
    for a in grid:
        r = row(f"keyphrases a={a:g}", dkw_lists(model, ids, metric=metric, k=k, protocol="label-free-top1", about=a), a)
        if r["topic_mrr"] >= yake["topic_mrr"] and (best is None or a > best):
            best = a
    return {"split": "train", "per_category": per, "documents": len(ids), "rule": choose.__doc__.split("only: ")[1],
            "rows": rows, "chosen_about": best}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--metric", default="lo-own")
    ap.add_argument("--k", type=int, default=90)
    ap.add_argument("--about", default="0,0.25,0.5,0.75,1")
    ap.add_argument("--extractors", default="yake,textrank")
    ap.add_argument("--own-words", default="fw", help="metrics over the documents' own words (Fightin' Words: fw)")
    ap.add_argument("--sample", type=int, default=0,
                    help="first N documents per category and split (0: all): the same documents for every method")
    ap.add_argument("--out", default=None)
    ap.add_argument("--choose", type=int, default=0, metavar="PER",
                    help="choose about on PER training documents per category (training split only) and stop")
    args = ap.parse_args(argv)
    full = load_corpus(args.corpus)
    model = model_for(full, f"latent-5word-knn{args.k}-{args.metric}")  # statistics: the whole training split
    corpus = full.head(args.sample) if args.sample else full
    if args.choose:
        grid = [float(x) for x in args.about.split(",") if x]
        result = choose(corpus, model, metric=args.metric, k=args.k, grid=grid, per=args.choose)
        out = Path(args.out) if args.out else OUT / f"{args.corpus}-choice.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"corpus": args.corpus, "metric": args.metric, "k": args.k, **result}, indent=1) + "\n")
        return 0
    vectors = model.vectors
    tagged = tag_corpus(full)
    train = [d for d in corpus.documents if d.split == "train"]
    test = [d for d in corpus.documents if d.split == "test" and d.id not in model.problems]
    train_ids = [d.id for d in train if d.id not in model.problems]
    test_ids = [d.id for d in test]
    gold = {d.id: d.label for d in test}
    cat = {c: i for i, c in enumerate(corpus.categories)}
    labels = np.array([cat[d.label] for d in test])
    full_train = [d for d in full.documents if d.split == "train"]  # exclusivity: the whole training split
    train_tokens = [content_words(tagged[d.id]) for d in full_train]
    train_labels = [d.label for d in full_train]
    doc_vecs = content_vectors(vectors, [content_words(tagged[d.id]) for d in test])

    rows = []

    def measure(name: str, topic_lists: dict, free_lists: dict | None) -> None:
        t0 = time.time()
        kv = keyword_vectors(vectors, [topic_lists.get(d, []) for d in test_ids], 10)
        mrr, first = topic_mrr(kv, doc_vecs, labels)
        row = {"method": name, "topic_mrr": round(mrr, 4), "topic_top1": round(first, 4),
               "exclusivity": round(excl(topic_lists, gold, train_tokens, train_labels), 4)}
        if free_lists is not None:
            mk = MethodKeywords(name=name, kind="dkw", reads_labels=False, source="", lists=free_lists)
            scores = evaluate_keywords(corpus, vectors, mk, tops=[10])[10][0]
            row.update(micro_f1=round(100 * float(scores.micro_f1), 2), macro_f1=round(100 * float(scores.macro_f1), 2))
        rows.append(row)
        print(json.dumps(row), f"({time.time() - t0:.0f} s)", flush=True)

    for a in [float(x) for x in args.about.split(",") if x]:
        name = f"keyphrases a={a:g}" if a < 1 else f"{args.metric} (latent words)"
        top1 = dkw_lists(model, test_ids, metric=args.metric, k=args.k, protocol="label-free-top1", about=a)
        free = dkw_lists(model, train_ids + test_ids, metric=args.metric, k=args.k, protocol="label-free", about=a)
        measure(name, top1, free)
    for peer in [s for s in args.own_words.split(",") if s]:  # a metric over the document's own words
        from dkw_core.keywords.methods import keywords_by_method

        top1 = keywords_by_method(peer, dataset=full, doc_ids=test_ids, top=10, protocol="label-free-top1")
        free = keywords_by_method(peer, dataset=full, doc_ids=train_ids + test_ids, top=10, protocol="label-free")
        measure(f"{peer} (own words)", top1, free)
    for spec in [s for s in args.extractors.split(",") if s]:
        from dkw_core.keywords.extractors import CACHED_TOP, extract_cached

        docs = train + test
        found = extract_cached(spec, [d.text for d in docs], top=CACHED_TOP)
        lists = {d.id: ws[:10] for d, ws in zip(docs, found)}
        measure(spec, {d: lists[d] for d in test_ids}, lists)
    out = Path(args.out) if args.out else OUT / f"{args.corpus}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"corpus": args.corpus, "metric": args.metric, "k": args.k, "sample": args.sample,
                               "train_documents": len(train_ids), "test_documents": len(test_ids),
                               "command": "python scripts/keyphrase_measures.py " + " ".join(argv or sys.argv[1:]),
                               "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
