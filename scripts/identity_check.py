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

``--new-texts`` records instead the keywords of fixed new texts (the first ``--docs`` 20ng
test documents and a few of our own: one out of the corpus, one without a noun, an empty one)
through every door of the one path for texts: ``extract_keywords(text)`` and
``extract_keywords(list)`` for two metrics, and ``keywords --texts`` (JSONL, both metrics at
once), each at about = the default, 0 and 1 — words, scores, about, fit, weighting and the
category's words (the shipped statistics: nothing prepared)::

    .venv/bin/python scripts/identity_check.py --new-texts --out /tmp/texts-before.json
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


OWN_TEXTS = (
    "Lava flowed from the volcano and the ash cloud covered the village near the crater. Geologists measured "
    "the eruption and the magma beneath the mountain.",
    "The new graphics card renders polygons faster, but the driver crashes when the window is resized.",
    "The goalie stopped the puck twice in overtime and the fans cheered the team's playoff win.",
    "The senator said the bill on gun control will be debated in congress next week.",
    "and then, quickly.",
    "",
)
TEXT_METRICS = ("rf", "lo-own")
ABOUTS = {"default": None, "0": 0.0, "1": 1.0}


def _answer_of(kws) -> dict:
    """What a caller reads of ``extract_keywords``' answer for one text."""
    out: dict = {"words": [kw.word for kw in kws], "scores": [round(kw.score, 12) for kw in kws],
                 "tf": [kw.tf for kw in kws]}
    if hasattr(kws, "answer"):
        out.update(about=kws.about, describe=kws.describe(),
                   category_words=[kw.word for kw in kws.category_words],
                   fit=None if kws.fit is None else kws.fit.to_dict(),
                   weighting=None if kws.weighting is None else kws.weighting.to_dict())
    return out


def record_texts(n_docs: int) -> dict:
    """The keywords of fixed new texts through extract_keywords (one text, a list) and the CLI."""
    import contextlib
    import io
    import warnings

    from dkw_core import extract_keywords
    from dkw_core.cli import main as cli
    from dkw_core.corpora import load_corpus
    from dkw_core.errors import InputError

    texts = [d.text for d in load_corpus("20ng").split("test")[:n_docs]] + list(OWN_TEXTS)
    out: dict = {"texts": len(texts), "one": {}, "list": {}, "cli": {}}
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "texts.jsonl"
        jsonl.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n" for i, t in enumerate(texts)),
                         encoding="utf-8")
        for name, about in ABOUTS.items():
            for metric in TEXT_METRICS:
                one = []
                for t in texts:
                    try:
                        one.append(_answer_of(extract_keywords(t, metric=metric, about=about)))
                    except InputError as exc:
                        one.append({"error": str(exc)})
                out["one"][f"{name}/{metric}"] = one
                out["list"][f"{name}/{metric}"] = [_answer_of(kws) for kws in
                                                   extract_keywords(texts, metric=metric, about=about)]
            argv = ["keywords", "--texts", str(jsonl), *(a for m in TEXT_METRICS for a in ("--metric", m))]
            if about is not None:
                argv += ["--about", str(about)]
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                code = cli(argv)
            out["cli"][name] = {"exit": code, "lines": buf.getvalue().splitlines()}  # the bytes, field order included
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
    p.add_argument("--new-texts", action="store_true",
                   help="record the keywords of fixed new texts through extract_keywords and keywords --texts")
    args = p.parse_args(argv)
    rec = record_texts(args.docs) if args.new_texts else record(args.sample, args.docs)
    text = json.dumps(rec, indent=1, sort_keys=True)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.compare:
        before = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        diff = first_difference(before, rec)
        if diff:
            print(f"DIFFERENT: {diff}")
            return 1
        if args.new_texts:
            print(f"identical: {rec['texts']} texts through extract_keywords (one text, a list) x "
                  f"{len(rec['one'])} (about, metric) and keywords --texts at {len(rec['cli'])} abouts")
            return 0
        n_kw = sum(len(v) for v in rec["keywords"].values())
        print(f"identical: {len(rec['keywords'])} documents x {n_kw // max(len(rec['keywords']), 1)} "
              f"keyword lists, {len(rec['f1'])} F1 runs, Algorithm 2's choice")
        return 0
    if not args.out:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
