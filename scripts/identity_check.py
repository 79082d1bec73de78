"""Identity check for refactorings: keywords and F1 that must not change.

Prepares a 20 Newsgroups slice (``--sample`` documents per category and split, default 2),
then prints one JSON record of

* the top-10 keywords of the first ``--docs`` test documents (default 20) under several
  metrics and protocols (K = 90; label-aware, label-free, label-free-top1);
* the evaluation F1 of a few (metric, K, N, protocol) runs on the slice (LinearSVC, computed,
  not read from a store);
* Algorithm 2's choice on the slice (small grid).

Run it before and after a change and compare the two outputs::

    .venv/bin/python scripts/identity_check.py --out /tmp/before.json
    ... change ...
    .venv/bin/python scripts/identity_check.py --compare /tmp/before.json

``--compare`` exits non-zero and names the first difference when they differ. Needs the 20ng
archive in ``DKW_ARCHIVES``.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

METRICS = ("rf", "tf-rf", "ig", "tds", "tf-idf")
PROTOCOLS = ("label-aware", "label-free", "label-free-top1")
RUNS = (("rf", 90, 10, "label-aware"), ("rf", 90, 10, "label-free"), ("tf-ig", 30, 20, "label-free"),
        ("ig", 50, 10, "label-aware"))


def record(sample: int, n_docs: int) -> dict:
    from dkw_core.evaluation.experiments import load_experiment, run_method, run_search, search_summary

    exp = load_experiment("20ng", sample=sample)
    model = exp.model
    out: dict = {"corpus_key": exp.corpus.key, "keywords": {}, "f1": {}}
    for doc_id in model.doc_ids("test")[:n_docs]:
        out["keywords"][doc_id] = {
            f"{metric}/{protocol}": [kw.word for kw in model.keywords(doc_id, metric=metric, k=90, top=10,
                                                                       protocol=protocol)]
            for metric in METRICS for protocol in PROTOCOLS}
    with tempfile.TemporaryDirectory() as tmp:
        store = f"sqlite:///{Path(tmp) / 'results.sqlite'}"
        for metric, k, top, protocol in RUNS:
            result = run_method(exp, metric=metric, k=k, top=top, protocol=protocol, store=store)
            out["f1"][f"{metric}/K{k}/N{top}/{protocol}"] = [round(result.scores.micro_f1, 10),
                                                             round(result.scores.macro_f1, 10)]
        search = run_search(exp, protocol="label-free", metrics=["rf", "ig"], ks=[10, 50], tops=[10, 20],
                            store=store)
        out["search"] = {"chosen": search.details["chosen"], "label": search_summary(search)["label"],
                         "micro_f1": round(search.scores.micro_f1, 10)}
    return out


def first_difference(a, b, path="") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}/{key}: present in only one"
            diff = first_difference(a[key], b[key], f"{path}/{key}")
            if diff:
                return diff
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sample", type=int, default=2)
    p.add_argument("--docs", type=int, default=20)
    p.add_argument("--out", help="write the record to this file")
    p.add_argument("--compare", help="compare with a record written before")
    args = p.parse_args(argv)
    rec = record(args.sample, args.docs)
    text = json.dumps(rec, indent=1, sort_keys=True)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.compare:
        before = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        diff = first_difference(before, rec)
        n_kw = sum(len(v) for v in rec["keywords"].values())
        if diff:
            print(f"DIFFERENT: {diff}")
            return 1
        print(f"identical: {len(rec['keywords'])} documents x {n_kw // max(len(rec['keywords']), 1)} "
              f"keyword lists, {len(rec['f1'])} F1 runs, Algorithm 2's choice")
        return 0
    if not args.out:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
