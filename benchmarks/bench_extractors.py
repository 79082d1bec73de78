"""Keywords per second of every keyword method of the registry, measured in one run on the same
texts, beside their F1 (docs/extractors.md).

    DKW_DATA_DIR=<data folder> nice .venv/bin/python benchmarks/bench_extractors.py --dataset r8 [--docs 200]

The texts are the first ``--docs`` documents of the corpus's test split, ``--top`` keywords each
(default 10), one process, nothing cached (the extractors' per-document cache is bypassed):

* dkw's default (DEFAULT_METRIC) with K = 90 under label-free-top1, on new texts from the shipped statistics
  (``dkw_core.extract_keywords``: tagging, Algorithm 1, 90-nearest search, scoring);
* YAKE! (``yake``) and TextRank (``textrank``, pytextrank on spaCy) from the registry;
* tf-idf + LinearSVC, for reference: it gives no keywords; its documents per second (fit on the
  training split, then predict the same texts) stand beside its F1.

Loading (the shipped statistics, spaCy's pipeline) is timed apart, on one warm-up text. F1 at
N = 10 (micro / macro, percent) is read from ``docs/results/extractors/<corpus>.json``.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import repo_root  # noqa: F401  (puts the repository root first on sys.path)


def _f1(dataset: str) -> dict[str, tuple[float, float]]:
    path = Path(repo_root.ROOT) / "docs" / "results" / "extractors" / f"{dataset}.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    out = {r["metric"]: (r["micro_f1"], r["macro_f1"]) for r in data["runs"] if r["top"] == 10}
    for r in data["dkw_default"]["runs"]:
        if r["top"] == 10:
            out["dkw"] = (r["micro_f1"], r["macro_f1"])
    out["tfidf"] = (data["baseline"]["micro_f1"], data["baseline"]["macro_f1"])
    return out


def main(argv: list[str] | None = None) -> int:
    from dkw_core import extract_keywords
    from dkw_core.corpora import load_corpus
    from dkw_core.evaluation.baselines import split_texts
    from dkw_core.evaluation.classifiers import fit_predict
    from dkw_core.keywords import extractor_for
    from dkw_core.types import DEFAULT_K, DEFAULT_METRIC, NEW_TEXT_PROTOCOL

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default="r8")
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--out", default=None, help="JSON summary (default: print only)")
    args = ap.parse_args(argv)

    corpus = load_corpus(args.dataset)
    texts = [d.text for d in corpus.split("test")[:args.docs + 1]]
    warm, texts = texts[0], texts[1:]
    rows = []

    def measure(name: str, load, run) -> None:
        t0 = time.perf_counter()
        load()
        t1 = time.perf_counter()
        found = run()
        t2 = time.perf_counter()
        keywords = sum(len(f) for f in found) if found is not None else 0
        rows.append({"method": name, "documents": len(texts), "load_seconds": round(t1 - t0, 2),
                     "seconds": round(t2 - t1, 2), "documents_per_second": round(len(texts) / (t2 - t1), 1),
                     "keywords": keywords, "keywords_per_second": round(keywords / (t2 - t1), 1) if keywords else None})

    kw = dict(corpus=args.dataset, metric=DEFAULT_METRIC, k=DEFAULT_K, top=args.top, protocol=NEW_TEXT_PROTOCOL)
    measure(f"dkw {DEFAULT_METRIC} K{DEFAULT_K} ({NEW_TEXT_PROTOCOL}, shipped statistics)",
            lambda: extract_keywords(warm, **kw), lambda: [extract_keywords(t, **kw) for t in texts])
    yake = extractor_for("yake")
    measure("yake", lambda: yake.extract(warm, args.top), lambda: [yake.extract(t, args.top) for t in texts])
    textrank = extractor_for("textrank")
    measure("textrank", lambda: textrank.extract(warm, args.top),
            lambda: textrank.extract_many(texts, args.top))  # type: ignore[attr-defined]
    train_texts, y_train = split_texts(corpus, "train")
    from sklearn.feature_extraction.text import TfidfVectorizer

    state = {}

    def fit():
        state["vec"] = TfidfVectorizer(sublinear_tf=True)
        state["X"] = state["vec"].fit_transform(train_texts)

    measure("tf-idf + LinearSVC (classifier; no keywords)", fit,
            lambda: (fit_predict(state["X"], y_train, state["vec"].transform(texts)), None)[1])
    f1 = _f1(args.dataset)
    keys = ["dkw", "yake", "textrank", "tfidf"]
    print(f"{args.dataset}: {len(texts)} test documents, N = {args.top}, one process")
    print("| method | keywords/s | documents/s | load (s) | micro / macro F1 at N = 10 |")
    print("| --- | --- | --- | --- | --- |")
    for key, row in zip(keys, rows):
        row["f1_n10"] = f1.get(key)
        score = f"{f1[key][0]:.2f} / {f1[key][1]:.2f}" if key in f1 else "—"
        kps = f"{row['keywords_per_second']:,.0f}" if row["keywords_per_second"] else "—"
        print(f"| {row['method']} | {kps} | {row['documents_per_second']:,.1f} | {row['load_seconds']} | {score} |")
    if args.out:
        Path(args.out).write_text(json.dumps({"dataset": args.dataset, "top": args.top, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
