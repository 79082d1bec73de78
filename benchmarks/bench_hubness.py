"""Hubness-aware nearest words (docs/method.md, step 3) against plain cosine, on one corpus.

    nice .venv/bin/python benchmarks/bench_hubness.py --dataset 20ng \
        [--neighbours cosine,csls-k10,abtt-d3] [--k 90] [--top 10] [--example 20ng/test/comp.graphics/38758] \
        [--time-prepare] [--search] [--db URL] [--out FILE]

Per neighbours spec, on the prepared corpus (prepared here when missing; tagging is shared):

* hubness of step 3 over all unique phrase vectors (``dkw_core.hubness``): k-occurrence
  skewness, share of neighbour slots held by the top 1 % of words, the biggest hubs;
* the *generic-word share*: the share of all top-N keywords of the test documents that are
  among the 500 most frequent English words (``wordfreq.top_n_list("en", 500)``), per metric,
  under the label-aware (paper's) and label-free protocols, statistics from the training split;
* the example document's keywords per metric (label-aware);
* preparation time: wall time of steps 1–3 from the cached tagging (phrases, Algorithm 1, the
  spec's set-up — r_w or the principal components — and the exact k_max-nearest search, plus
  saving the cache), measured when the spec is prepared here; ``--time-prepare`` measures a
  fresh build when it is already cached;
* ``--search``: Algorithm 2 (``run_search``, N fixed to ``--top``, K and metric chosen on the
  training split) under both protocols, scored on the test split; runs are stored in the
  results store keyed by the spec, so a re-run reads them back.

Prints Markdown tables and writes the figures as JSON (``--out``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

EXAMPLE_METRICS = ("tf-rf", "rf", "tf-idf", "ig")


def generic_share(model, *, metric: str, k: int, top: int, protocol: str, generic: set[str]) -> float:
    """Share of the test documents' top-N keywords that are among ``generic``."""
    rows = model.rank("test", metric=metric, k=k, top=top, protocol=protocol)
    ids = rows[rows >= 0]
    if not len(ids):
        return 0.0
    is_generic = [model.vocabulary[i] in generic for i in range(len(model.vocabulary))]
    return float(sum(is_generic[i] for i in ids.tolist()) / len(ids))


def time_prepare(corpus, vectors, k_max: int, spec: str) -> float:
    from dkw_core.keywords.index import build_index
    from dkw_core.phrases import tag_corpus

    tagged = tag_corpus(corpus)
    docs = [tagged[d.id] for d in corpus.documents]
    vectors.__dict__.pop("_neighbour_searchers", None)  # the spec's set-up (r_w, components) is timed too
    t0 = time.perf_counter()
    build_index(docs, vectors, k_max, neighbours=spec)
    return time.perf_counter() - t0


def time_search(corpus, vectors, specs: list[str], n: int, k_max: int) -> dict:
    """Seconds of each spec's set-up (r_w / components) and of the exact search of ``n`` phrase vectors."""
    from dkw_core.keywords import KeywordModel
    from dkw_core.keywords.index import unique_units
    from dkw_core.neighbours import NeighbourSearch

    model = KeywordModel.prepare(corpus, vectors, k_max=k_max)
    _, unit_lists = unique_units(vectors, model.phrases)
    queries = vectors.compose(unit_lists[:n])
    out = {"dataset": corpus.key, "queries": int(queries.shape[0]), "k_max": k_max, "seconds": {}}
    for spec in specs:
        t0 = time.perf_counter()
        search = NeighbourSearch(vectors.cropped_matrix, spec)
        t1 = time.perf_counter()
        search.nearest(queries, k_max)
        t2 = time.perf_counter()
        out["seconds"][spec] = {"setup": round(t1 - t0, 2), "search": round(t2 - t1, 2)}
    return out


def main(argv: list[str] | None = None) -> int:
    from wordfreq import top_n_list

    from dkw_core.corpora import load_corpus
    from dkw_core.errors import DkwError
    from dkw_core.evaluation.experiments import Experiment, run_search, search_summary
    from dkw_core.hubness import model_hubness
    from dkw_core.keywords import KeywordModel
    from dkw_core.metrics import METRICS
    from dkw_core.neighbours import neighbours_spec
    from dkw_core.phrases import tag_corpus
    from dkw_core.types import PROTOCOLS
    from dkw_core.vectors import load_vectors

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--neighbours", default="cosine,csls-k10,abtt-d3", help="comma-separated specs")
    ap.add_argument("--k", type=int, default=90, help="K for hubness, generic share and the example (default 90)")
    ap.add_argument("--top", type=int, default=10, help="N keywords (default 10)")
    ap.add_argument("--metrics", default=",".join(METRICS), help="metrics of the generic-word table")
    ap.add_argument("--example", default=None, help="a document id whose keywords are listed")
    ap.add_argument("--time-prepare", action="store_true", help="time steps 1-3 per spec from cached tagging")
    ap.add_argument("--search", action="store_true", help="Algorithm 2 at N = --top under both protocols")
    ap.add_argument("--time-search", type=int, default=0, metavar="N",
                    help="only time each spec's set-up and its k_max-nearest search of the corpus's first N unique "
                         "phrase vectors, back to back in this process (needs the cosine preparation)")
    ap.add_argument("--db", default=None, help="results store (default data/results.sqlite)")
    ap.add_argument("--out", default=None, help="write the figures as JSON")
    args = ap.parse_args(argv)

    try:
        specs = [neighbours_spec(s) for s in args.neighbours.split(",") if s.strip()]
        metrics = [m for m in args.metrics.split(",") if m.strip()]
        generic = set(top_n_list("en", 500))
        corpus = load_corpus(args.dataset)
        vectors = load_vectors()
        out: dict = {"dataset": corpus.key, "vectors": vectors.name, "k": args.k, "top": args.top, "runs": {}}
        if args.time_search:
            timings = time_search(corpus, vectors, specs, args.time_search, max(args.k, 90))
            print(json.dumps(timings, indent=2))
            if args.out:
                with open(args.out, "w", encoding="utf-8") as fh:
                    json.dump(timings, fh, indent=2)
            return 0
        for spec in specs:
            print(f"[{spec}] preparing {corpus.key}", file=sys.stderr, flush=True)
            row: dict = {}
            k_max = max(args.k, 90)
            if KeywordModel.is_prepared(corpus, vectors, k_max, neighbours=spec):
                if args.time_prepare:
                    row["prepare_seconds"] = round(time_prepare(corpus, vectors, k_max, spec), 1)
                model = KeywordModel.prepare(corpus, vectors, k_max=k_max, neighbours=spec)
            else:  # tagging is shared by every spec: prepare it first, then time steps 1-3
                tag_corpus(corpus)
                vectors.__dict__.pop("_neighbour_searchers", None)
                t0 = time.perf_counter()
                model = KeywordModel.prepare(corpus, vectors, k_max=k_max, neighbours=spec)
                row["prepare_seconds"] = round(time.perf_counter() - t0, 1)
            row["hubness"] = model_hubness(model, args.k).to_dict()
            print(f"[{spec}] generic-word share", file=sys.stderr, flush=True)
            row["generic_share"] = {p: {m: generic_share(model, metric=m, k=args.k, top=args.top, protocol=p,
                                                         generic=generic) for m in metrics} for p in PROTOCOLS}
            if args.example:
                row["example"] = {m: [kw.word for kw in model.keywords(args.example, metric=m, k=args.k,
                                                                        top=args.top, protocol="label-aware")]
                                  for m in EXAMPLE_METRICS}
            if args.search:
                exp = Experiment(corpus=corpus, vectors=vectors, model=model, dataset=corpus.name, sample=None,
                                 k_max=model.k_max, neighbours=spec)
                row["search"] = {}
                for p in PROTOCOLS:
                    print(f"[{spec}] Algorithm 2, {p}", file=sys.stderr, flush=True)
                    s = search_summary(run_search(exp, protocol=p, tops=[args.top], store=args.db))
                    row["search"][p] = {key: s[key] for key in ("micro_f1", "macro_f1", "metric", "k", "top", "label")}
            out["runs"][spec] = row
            del model
    except DkwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(markdown(out, metrics))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)
    return 0


def markdown(out: dict, metrics: list[str]) -> str:
    runs = out["runs"]
    specs = list(runs)
    lines = [f"{out['dataset']}, vectors {out['vectors']}, K = {out['k']}, N = {out['top']}", "",
             "| neighbours | skewness of N_k | slots held by top 1 % of words | words never a neighbour | "
             "5 biggest hubs (share of phrase vectors) | steps 1–3 from cached tagging |",
             "| --- | --- | --- | --- | --- | --- |"]
    for s in specs:
        h = runs[s]["hubness"]
        hubs = ", ".join(f"{x['word']} ({100 * x['query_share']:.0f} %)" for x in h["hubs"][:5])
        t = runs[s].get("prepare_seconds")
        lines.append(f"| {s} | {h['skewness']:.2f} | {100 * h['top1_share']:.1f} % | {100 * h['never_share']:.1f} % | "
                     f"{hubs} | {'' if t is None else f'{t:.0f} s'} |")
    lines += ["", "Generic-word share of the test split's top-N keywords (label-aware / label-free):", "",
              "| metric | " + " | ".join(specs) + " |", "| --- |" + " --- |" * len(specs)]
    for m in metrics:
        cells = [f"{100 * runs[s]['generic_share']['label-aware'][m]:.1f} / "
                 f"{100 * runs[s]['generic_share']['label-free'][m]:.1f} %" for s in specs]
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    if any("example" in runs[s] for s in specs):
        lines += ["", "Example document, label-aware:", ""]
        for s in specs:
            for m, words in runs[s].get("example", {}).items():
                lines.append(f"- {s}, {m}: {', '.join(words)}")
    if any("search" in runs[s] for s in specs):
        lines += ["", f"Algorithm 2 at N = {out['top']} (K and metric chosen on the training split), test split, "
                      "micro / macro-F1:", "", "| neighbours | label-aware | label-free |", "| --- | --- | --- |"]
        for s in specs:
            cells = []
            for p in ("label-aware", "label-free"):
                r = runs[s].get("search", {}).get(p)
                cells.append("" if r is None else f"{r['micro_f1']:.2f} / {r['macro_f1']:.2f} ({r['metric']}, K {r['k']})")
            lines.append(f"| {s} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
