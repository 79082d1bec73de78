"""Keyphrases against people's gold keyphrases: Inspec, SemEval2017 and 500N-KPCrowd, every method in one
run with one scorer (docs/keyphrases.md).

    nice .venv/bin/python benchmarks/bench_keyphrases.py --test --update-docs          # the table in the docs
    .venv/bin/python benchmarks/bench_keyphrases.py --limit 50 --datasets inspec 500n   # a quick look
    .venv/bin/python benchmarks/bench_keyphrases.py --dev                               # the development part

The zips are read from ``DKW_KEYPHRASES`` (default ``data/keyphrases``), their SHA-256 checked
(benchmarks/keyphrase_gold.py). Methods, top 10 keyphrases of every document:

* YAKE! (``yake-n3``) and TextRank (``textrank``: pytextrank, its first 2,000 characters) from
  dkw's extractor registry; KeyBERT (all-MiniLM-L6-v2, n-grams 1–3, English stop words, MMR 0.5)
  only when ``keybert`` is importable (never required);
* dkw at its default ``about`` (DEFAULT_ABOUT), at 0 and at 1, through ``dkw_core.extract_keywords``
  on the batch of texts with the shipped 20 Newsgroups statistics (what a pasted text gets);
* on 500N-KPCrowd also cross-fitted: 5 folds stratified by category, a user corpus (CSV, the 10
  categories as labels) of four folds prepared by ``extract_keywords(texts, corpus=<csv>)`` gives
  the keyphrases of the fifth; every document is scored once, never with its own statistics.

Scores: F1@5 and F1@10, gold as given and present-only, macro over documents, 95 % bootstrap CI;
against the best peer (YAKE!, TextRank, KeyBERT: the highest F1@10) a paired bootstrap CI and a
Wilcoxon signed-rank p, Holm-adjusted over the methods compared.

``--dev``: only the development part (Inspec's first 500 documents, SemEval2017's first 120,
500N-KPCrowd's four training folds cross-fitted among themselves). ``--test``: only the other
documents, where results are reported (500N-KPCrowd's fold 0, with the statistics of the training
folds). ``--limit N``: the first N documents. ``--only-new`` runs only the research ranking
``dkw-new`` (dkw_core.keywords.candidates and .relevance, not the library default) at the abouts of
``--new-about``; a run without it has dkw-new beside every other method.
Results go to ``--out`` (default ``docs/results/keyphrases/`` for a full run, else
``data/bench-keyphrases/``): ``gold-standards.json`` and ``gold-standards-f1-at-10.png``; the table is printed, and
``--update-docs`` writes it into docs/keyphrases.md and BENCHMARKS.md (``--render``: from the JSON,
running nothing).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import tempfile
import time
from pathlib import Path

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

ROOT = Path(repo_root.ROOT)
TOP = 10
AS_SHIPPED = "TextRank as shipped"
"""pytextrank's phrases untrimmed (``the weather satellite``), the TextRank of the issue's table; the
row ``TextRank`` trims stop words at a phrase's ends (dkw's extractor, stronger)."""
PEERS = ("YAKE! (n 3)", "TextRank", AS_SHIPPED, "KeyBERT")


def _load() -> tuple[float, float, float]:
    return tuple(round(x, 2) for x in os.getloadavg())  # type: ignore[return-value]


def peer_methods() -> dict:
    """The peers that can run here: name → function(texts) → keyphrase lists."""
    from dkw_core.keywords import extractor_for

    yake = extractor_for("yake-n3")
    textrank = extractor_for("textrank")
    last: list = [None, None]

    def textrank_phrases(texts):  # one parse of the texts for both TextRank rows (the second's time ~0)
        if last[0] is not texts:
            last[:] = [texts, textrank.phrases_many(texts)]
        return last[1]

    methods = {"YAKE! (n 3)": lambda texts: [yake.extract(t, TOP) for t in texts],
               "TextRank": lambda texts: [textrank.tidy(p, TOP) for p in textrank_phrases(texts)],
               AS_SHIPPED: lambda texts: [textrank.as_shipped(p, TOP) for p in textrank_phrases(texts)]}
    try:
        from keybert import KeyBERT
    except ImportError:
        return methods
    model = KeyBERT("all-MiniLM-L6-v2")

    def keybert(texts):
        return [[kw for kw, _s in model.extract_keywords(t, keyphrase_ngram_range=(1, 3), stop_words="english",
                                                         use_mmr=True, diversity=0.5, top_n=TOP)] for t in texts]

    methods["KeyBERT"] = keybert
    return methods


def abouts() -> dict[str, float | None]:
    from dkw_core.types import DEFAULT_ABOUT

    return {f"about {DEFAULT_ABOUT} (default)": None, "about 0": 0.0, "about 1": 1.0}


def dkw_words(found) -> list[list[str]]:
    return [[k.word for k in f] for f in found]


def dkw_shipped(texts: list[str], about: float | None) -> list[list[str]]:
    from dkw_core import extract_keywords

    return dkw_words(extract_keywords(texts, corpus="20ng", top=TOP, about=about))


def dkw_crossfit(docs, about: float | None, folder: Path, folds: int):
    """Cross-fitted keyphrases of ``docs``: a CSV corpus of the other folds per fold."""
    from benchmarks.keyphrase_gold import cross_fit
    from dkw_core import extract_keywords

    counter = iter(range(folds))

    def extract(train, test):
        path = write_corpus(folder / f"500n-crossfit-{next(counter)}.csv", train)
        return dkw_words(extract_keywords([d.text for d in test], corpus=str(path), top=TOP, about=about))

    return cross_fit(docs, extract, folds=folds)


NEW = "dkw-new"
NEW_ABOUTS = (0.0, 0.2)
"""Abouts of the research ranking in a run (chosen on the development parts, docs/keyphrases.md)."""


def new_keyphrases(texts: list[str], about: float, model=None) -> list[list[str]]:
    """The research ranking (not the library default yet): whole noun phrases
    (dkw_core.keywords.candidates) of each text's body (a news post without header, quotes and
    signature) ranked by their relevance (dkw_core.keywords.relevance), blended with dkw's
    discriminative score D under ``about`` (D from ``model``'s statistics: the text's likeliest
    category's word scores under the default metric and K)."""
    from dkw_core.keywords.candidates import candidates, news_body
    from dkw_core.keywords.relevance import discrimination, top_candidates
    from dkw_core.phrases import get_tagger
    from dkw_core.types import DEFAULT_K, DEFAULT_METRIC

    bodies = [news_body(t) for t in texts]
    labels = None
    if model is not None and about > 0:
        labels = model.text_posteriors(texts).argmax(axis=1)
        index = {w: i for i, w in enumerate(model.vocabulary)}
        rows = {int(c): model.word_scores(DEFAULT_METRIC, DEFAULT_K, int(c)) for c in set(labels.tolist())}
    out = []
    for i, (body, tagged) in enumerate(zip(bodies, get_tagger().tag_many(bodies))):
        cands = candidates(body, tagged.tokens, tagged.tags)
        disc = None if labels is None else discrimination(cands, rows[int(labels[i])], index)
        out.append([c.text for c, _s in top_candidates(cands, TOP, discrimination=disc, about=about)])
    return out


def shipped_model():
    from dkw_core.keywords.shipped import load_shipped

    return load_shipped("20ng")


def csv_model(path: Path):
    """The prepared model of a user corpus (a CSV), as ``extract_keywords(corpus=path)`` prepares it."""
    from dkw_core.keywords.request import KeywordRequest, model_for

    return model_for(KeywordRequest(dataset=str(path)))


def write_corpus(path: Path, train) -> Path:
    import csv

    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "label", "split"])
        for d in train:
            w.writerow([d.id, d.text, d.category, "train"])
    return path


def run_dataset(name: str, docs, *, dev: bool, log, new_abouts: tuple[float, ...] = (),
                only_new: bool = False, scored: set[str] | None = None, scope: str | None = None) -> dict:
    """Every method on ``docs``, scored on those whose id is in ``scored`` (default all): a
    cross-fitted data set is run whole, so that its test fold gets the statistics of the others."""
    from benchmarks.keyphrase_gold import gold_set, score, summarise

    spec = gold_set(name)
    found: dict[str, list[list[str]]] = {}
    timing: dict[str, dict] = {}

    def measure(method: str, run) -> None:
        before, t0 = _load(), time.perf_counter()
        found[method] = [list(f) for f in run()]
        seconds = round(time.perf_counter() - t0, 1)
        timing[method] = {"seconds": seconds, "load_before": before[0], "load_after": _load()[0]}
        log(f"{spec.title}: {method}: {len(docs)} documents in {seconds} s (load {before[0]} → {_load()[0]})")

    texts = [d.text for d in docs]
    folds_n = 4 if dev else 5
    folds = None
    for about in new_abouts:
        if about == 0:
            measure(f"{NEW} about 0, no statistics", lambda: new_keyphrases(texts, 0.0))
            continue
        measure(f"{NEW} about {about}, 20ng statistics",
                lambda about=about: new_keyphrases(texts, about, shipped_model()))
        if spec.categories:
            with tempfile.TemporaryDirectory(prefix="dkw-keyphrases-") as tmp:
                counter = iter(range(folds_n))

                def extract(train, test, about=about, tmp=tmp, counter=counter):
                    model = csv_model(write_corpus(Path(tmp) / f"500n-crossfit-{next(counter)}.csv", train))
                    return new_keyphrases([d.text for d in test], about, model)

                def run_cf(extract=extract):
                    from benchmarks.keyphrase_gold import cross_fit

                    words, _fold = cross_fit(docs, extract, folds=folds_n)
                    return words

                measure(f"{NEW} about {about}, cross-fitted statistics", run_cf)
    for method, run in ({} if only_new else peer_methods()).items():
        measure(method, lambda run=run: run(texts))
    for label, about in ({} if only_new else abouts()).items():
        measure(f"dkw {label}, 20ng statistics", lambda about=about: dkw_shipped(texts, about))
    if spec.categories and not only_new:
        with tempfile.TemporaryDirectory(prefix="dkw-keyphrases-") as tmp:
            for label, about in abouts().items():
                result: dict = {}

                def run(about=about, result=result):
                    words, fold = dkw_crossfit(docs, about, Path(tmp), folds_n)
                    result["fold"] = fold
                    return words

                measure(f"dkw {label}, cross-fitted statistics", run)
                folds = result["fold"]
    keep = [i for i, d in enumerate(docs) if scored is None or d.id in scored]
    per_doc = {m: [score(lists[i], docs[i]) for i in keep] for m, lists in found.items()}
    return {"name": name, "title": spec.title, "documents": len(keep),
            "scope": scope or ("development part" if dev else "all documents"),
            "folds": (folds.tolist() if folds is not None else None),
            "timing": timing, "summary": summarise(per_doc, PEERS)}  # no text and no keyphrase of it: never committed


def chart(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    datasets = results["datasets"]
    methods = list(dict.fromkeys(m for ds in datasets for m in ds["summary"]["methods"]))
    fig, ax = plt.subplots(figsize=(10, 5), dpi=80)
    width = 0.8 / max(1, len(methods))
    x = np.arange(len(datasets))
    for j, m in enumerate(methods):
        means, low, high = [], [], []
        for ds in datasets:
            f = ds["summary"]["methods"].get(m, {}).get("f1@10")
            means.append(f["mean"] if f else np.nan)
            low.append(f["mean"] - f["ci"][0] if f else 0)
            high.append(f["ci"][1] - f["mean"] if f else 0)
        ax.bar(x + (j - (len(methods) - 1) / 2) * width, means, width, yerr=[low, high], capsize=2, label=m)
    ax.set_xticks(x, [f"{ds['title']} ({ds['summary']['documents']:,})" for ds in datasets])
    ax.set_ylabel("F1@10 (gold as given), %")
    ax.set_title("Keyphrases against people's gold keyphrases: F1@10 with 95 % bootstrap CI")
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def update_docs(results: dict) -> None:
    """The full table into docs/keyphrases.md, its summary into BENCHMARKS.md."""
    from benchmarks.keyphrase_gold import results_table, summary_table, with_table

    for page, table in ((ROOT / "docs" / "keyphrases.md", results_table(results)),
                        (ROOT / "BENCHMARKS.md", summary_table(results))):
        text = page.read_text(encoding="utf-8")
        page.write_text(with_table(text, table), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=["inspec", "semeval2017", "500n"],
                    choices=("inspec", "semeval2017", "500n"))
    ap.add_argument("--limit", type=int, default=None, help="only the first N documents of each data set")
    ap.add_argument("--dev", action="store_true", help="only the development part (parameters are chosen there)")
    ap.add_argument("--test", action="store_true",
                    help="only the documents outside the development part (what results are reported on)")
    ap.add_argument("--new-about", type=float, nargs="*", default=list(NEW_ABOUTS),
                    help=f"abouts of the research ranking {NEW} (0: the text alone; above 0: blended with D of the "
                         "20ng statistics, and on 500N-KPCrowd of the cross-fitted ones)")
    ap.add_argument("--only-new", action="store_true", help=f"run only {NEW} (no peers, no library default)")
    ap.add_argument("--out", default=None, help="results folder (default: docs/results/keyphrases for a full run, "
                                                "else data/bench-keyphrases)")
    ap.add_argument("--update-docs", action="store_true",
                    help="write the table into docs/keyphrases.md and its summary into BENCHMARKS.md")
    ap.add_argument("--render", action="store_true",
                    help="run nothing: regenerate the table, the chart (and with --update-docs the pages) from "
                         "the results folder's gold-standards.json")
    args = ap.parse_args(argv)
    from benchmarks.keyphrase_gold import dev_part, gold_set, load_gold
    from dkw_core import __version__

    partial = args.limit is not None or args.dev or args.only_new
    out = Path(args.out) if args.out else ROOT / ("data/bench-keyphrases" if partial else "docs/results/keyphrases")
    out.mkdir(parents=True, exist_ok=True)
    if args.render:
        return render(json.loads((out / "gold-standards.json").read_text(encoding="utf-8")), out, args.update_docs)
    started = time.time()

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)

    os.environ.setdefault("DKW_N_PROCESS", "1")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    results: dict = {"dkw_version": __version__, "commit": commit, "top": TOP, "limit": args.limit, "dev": args.dev,
                     "test": args.test,
                     "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                 "load_at_start": _load()},
                     "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started)), "datasets": []}
    for name in args.datasets:
        docs = load_gold(name)
        scored = None
        if args.dev or args.test:
            dev_ids = {d.id for d in dev_part(name, docs)}
            if args.test and gold_set(name).categories:  # run whole: fold 0 gets the training folds' statistics
                scored = {d.id for d in docs if d.id not in dev_ids}
            else:
                docs = [d for d in docs if (d.id in dev_ids) == args.dev]
        docs = docs[:args.limit] if args.limit else docs
        results["datasets"].append(run_dataset(name, docs, dev=args.dev, log=log, new_abouts=tuple(args.new_about),
                                               only_new=args.only_new, scored=scored,
                                               scope="outside the development part" if args.test else None))
        results["seconds"] = round(time.time() - started)
        results["machine"]["load_at_end"] = _load()
        (out / "gold-standards.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    render(results, out, args.update_docs)
    log(f"done in {round(time.time() - started)} s; results in {out}")
    return 0


def render(results: dict, out: Path, docs: bool) -> int:
    """The chart (``gold-standards-f1-at-10.png``) of ``results`` in ``out``, the table printed, and with ``docs``
    the table in docs/keyphrases.md and its summary in BENCHMARKS.md (a Markdown file in docs/results
    would be a page of the site outside its nav)."""
    from benchmarks.keyphrase_gold import results_table

    table = results_table(results)
    chart(results, out / "gold-standards-f1-at-10.png")
    if docs:
        update_docs(results)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
