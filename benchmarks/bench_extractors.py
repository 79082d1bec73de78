"""Keywords per second of every keyword method of the registry, measured in one run on the same
texts, beside their F1 (docs/extractors.md).

    DKW_DATA_DIR=<data folder> nice .venv/bin/python benchmarks/bench_extractors.py --dataset r8 [--docs 200]
    .venv/bin/python benchmarks/bench_extractors.py --speed --docs 2000 [--datasets 20ng r8] [--out speed.json]

The texts are the first ``--docs`` documents of the corpus's test split, ``--top`` keywords each
(default 10), one process, nothing cached (the extractors' per-document cache is bypassed):

* dkw's default (DEFAULT_METRIC; with ``--speed`` twice: ``dkw``, new texts' default tagger, and
  ``dkw-spacy``, spaCy's tagger, the reference, ``DKW_TAGGER=spacy``) with K = 90 under
  label-free-top1, on new texts from the shipped statistics (``dkw_core.extract_keywords``:
  tagging, Algorithm 1, 90-nearest search, scoring);
* YAKE! (``yake``) and TextRank (``textrank``, pytextrank on spaCy) from the registry;
* tf-idf + LinearSVC, for reference: it gives no keywords; its documents per second (fit on the
  training split, then predict the same texts) stand beside its F1.

Loading (the shipped statistics, spaCy's pipeline) is timed apart, on one warm-up text. F1 at
N = 10 (micro / macro, percent) is read from ``docs/results/extractors/<corpus>.json``.

``--speed``: new texts at speed. The first ``--docs`` test texts of each of ``--datasets``, for
dkw (shipped statistics; ``dkw`` and ``dkw-spacy``), YAKE! and TextRank, one text at a time (a loop) and as a batch (dkw:
``extract_keywords(list)``, the batched path; TextRank: ``nlp.pipe``; YAKE! has none), on one
core and on two (the process pinned to that many CPUs; with two, two forked processes take a
half each). Every row runs in its own process: load apart (a warm-up text), then documents/s,
documents per CPU second of the process tree (what a loaded machine inflates least), keywords/s,
peak RSS and PSS of the process tree, and the 1-minute load average before and after.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

from dkw_core.config import DEFAULT_TAGGER


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


def _texts(dataset: str, n: int) -> list[str]:
    from dkw_core.corpora import load_corpus

    return [d.text for d in load_corpus(dataset).split("test")[:n + 1]]


#: dkw's rows by new texts' tagger (``DKW_TAGGER``): the default, spaCy's (the reference) and, by
#: the name older commands gave it, the fast tagger.
DKW = {"dkw": DEFAULT_TAGGER, "dkw-spacy": "spacy", "dkw-fast": "fast"}


def _run(method: str, mode: str, dataset: str, texts: list[str], top: int) -> list[list]:
    """One method over ``texts`` in this process: ``one`` a text at a time, ``batch`` as a batch."""
    from dkw_core import extract_keywords
    from dkw_core.keywords import extractor_for

    if method in DKW:  # the tagger is DKW_TAGGER's, set by child()
        kw = dict(corpus=dataset, top=top)
        if mode == "batch":
            return extract_keywords(texts, **kw)
        return [extract_keywords(t, **kw) if t.strip() else [] for t in texts]
    ext = extractor_for(method)
    if mode == "batch" and hasattr(ext, "extract_many"):
        return ext.extract_many(texts, top)
    return [ext.extract(t, top) for t in texts]


def _half(args: tuple) -> int:
    method, mode, dataset, texts, top = args
    return sum(len(f) for f in _run(method, mode, dataset, texts, top))


def child(args) -> int:
    """One measurement in a fresh process on ``--cores`` CPUs (pinned): load apart on a warm-up
    text, then the texts; with two cores, two forked processes take one half each."""
    import multiprocessing
    import os

    from measure import TreeSampler

    cores = args.cores
    os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:cores]))
    os.environ["DKW_N_PROCESS"] = "1"
    if args.method in DKW:
        os.environ["DKW_TAGGER"] = DKW[args.method]
    texts = _texts(args.dataset, args.docs)
    warm, texts = texts[0], texts[1:]
    t0 = time.perf_counter()
    _run(args.method, args.mode, args.dataset, [warm], args.top)
    t1 = time.perf_counter()
    load = os.getloadavg()[0]
    before = sum(os.times()[:2])  # this process's CPU so far (loading): not the measurement's
    with TreeSampler() as tree:
        if cores == 1:
            keywords = sum(len(f) for f in _run(args.method, args.mode, args.dataset, texts, args.top))
        else:
            step = -(-len(texts) // cores)
            parts = [(args.method, args.mode, args.dataset, texts[i:i + step], args.top)
                     for i in range(0, len(texts), step)]
            with multiprocessing.get_context("fork").Pool(cores) as pool:
                keywords = sum(pool.map(_half, parts))
        t2 = time.perf_counter()
    print(json.dumps({"dataset": args.dataset, "method": args.method, "mode": args.mode, "cores": cores,
                      "documents": len(texts), "keywords": keywords, "load_seconds": round(t1 - t0, 2),
                      "seconds": round(t2 - t1, 2), "documents_per_second": round(len(texts) / (t2 - t1), 1),
                      "keywords_per_second": round(keywords / (t2 - t1), 1),
                      "cpu_seconds": round(tree.cpu_seconds - before, 2),
                      "documents_per_cpu_second": round(len(texts) / max(tree.cpu_seconds - before, 1e-9), 1),
                      "peak_rss_mb": round(tree.peak_rss_mb), "peak_pss_mb": round(tree.peak_pss_mb),
                      "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}))
    return 0


def speed(args) -> int:
    """Every (corpus, method, mode, cores) in its own process, one after the other."""
    import subprocess
    import sys

    rows = []
    for dataset in args.datasets:
        for cores in args.cores_list:
            for method in args.methods:
                for mode in args.modes:
                    if method == "yake" and mode == "batch":
                        continue  # YAKE! has no batch: a batch is the same loop
                    cmd = [sys.executable, __file__, "--child", "--dataset", dataset, "--method", method,
                           "--mode", mode, "--cores", str(cores), "--docs", str(args.docs), "--top", str(args.top)]
                    res = subprocess.run(cmd, capture_output=True, text=True)
                    if res.returncode:
                        print(res.stderr[-2000:], file=sys.stderr)
                        return res.returncode
                    row = json.loads(res.stdout.strip().splitlines()[-1])
                    rows.append(row)
                    print(f"| {dataset} | {method} | {mode} | {cores} | {row['documents_per_second']:,.1f} | "
                          f"{row['documents_per_second'] / cores:,.1f} | {row['documents_per_cpu_second']:,.1f} | "
                          f"{row['keywords_per_second']:,.0f} | "
                          f"{row['peak_rss_mb']:,} / {row['peak_pss_mb']:,} | "
                          f"{row['load_before']} → {row['load_after']} |", flush=True)
    print(speed_table(rows))
    if args.out:
        Path(args.out).write_text(json.dumps({"docs": args.docs, "top": args.top, "rows": rows}, indent=1) + "\n")
    return 0


_MODES = {"one": "one at a time", "batch": "batch"}


def _label(method: str) -> str:
    if method in DKW:
        tagger = "spaCy tagger" if DKW[method] == "spacy" else "fast tagger"
        return f"dkw ({tagger}{', the default' if DKW[method] == DEFAULT_TAGGER else ''})"
    return {"yake": "YAKE!", "textrank": "TextRank"}.get(method, method)


def speed_table(rows: list[dict]) -> str:
    """The rows as docs/measurements.md's table: documents per CPU second, against YAKE!'s (one at
    a time, the same corpus and CPUs), peak RSS / PSS and the load beside each figure."""
    yake = {(r["dataset"], r["cores"]): r["documents_per_cpu_second"] for r in rows if r["method"] == "yake"}
    out = ["| corpus | method | mode | CPUs | documents per CPU second | × YAKE! | peak RSS / PSS (MB) "
           "| load before → after |", "| --- | --- | --- | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        base = yake.get((r["dataset"], r["cores"]))
        ratio = f"{r['documents_per_cpu_second'] / base:.2f}" if base else "–"
        out.append(f"| {r['dataset']} | {_label(r['method'])} | {_MODES.get(r['mode'], r['mode'])} | {r['cores']} | "
                   f"{r['documents_per_cpu_second']:,.1f} | {ratio} | {r['peak_rss_mb']:,} / {r['peak_pss_mb']:,} | "
                   f"{r['load_before']} → {r['load_after']} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default="r8")
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--out", default=None, help="JSON summary (default: print only)")
    ap.add_argument("--speed", action="store_true",
                    help="new texts one at a time and as a batch, one core and two, each run in its own process")
    ap.add_argument("--datasets", nargs="+", default=["20ng", "r8"], help="with --speed")
    ap.add_argument("--methods", nargs="+", default=["dkw", "dkw-spacy", "yake", "textrank"], help="with --speed")
    ap.add_argument("--modes", nargs="+", default=["one", "batch"], choices=("one", "batch"), help="with --speed")
    ap.add_argument("--cores-list", nargs="+", type=int, default=[1, 2], help="with --speed")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--method", help=argparse.SUPPRESS)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    ap.add_argument("--cores", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    if args.speed:
        print(f"{args.docs} test texts of each corpus, N = {args.top}; one process per row; load = 1-minute load "
              "average before → after")
        print("| corpus | method | mode | cores | documents/s | per core | documents per CPU second | keywords/s | "
              "peak RSS / PSS (MB) | load |")
        print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
        return speed(args)
    return reference(args)


def reference(args) -> int:
    from dkw_core import extract_keywords
    from dkw_core.corpora import load_corpus
    from dkw_core.evaluation.baselines import split_texts
    from dkw_core.evaluation.classifiers import fit_predict
    from dkw_core.keywords import extractor_for
    from dkw_core.types import DEFAULT_K, DEFAULT_METRIC, NEW_TEXT_PROTOCOL

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
