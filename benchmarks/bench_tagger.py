"""The tagger's cost, and how far lighter taggers keep the candidate phrases of spaCy's.

    nice .venv/bin/python benchmarks/bench_tagger.py --datasets r8 20ng --docs 500 [--out tagger.json]
    nice .venv/bin/python benchmarks/bench_tagger.py --quality --datasets r8 20ng   # both taggers' quality
    # the same, one tagger per CPU at once:
    DKW_PREPARE_TAGGER=spacy DKW_TAGGER=spacy nice .venv/bin/python benchmarks/bench_tagger.py \
        --child spacy.json --datasets r8 20ng &
    DKW_PREPARE_TAGGER=fast DKW_TAGGER=fast nice .venv/bin/python benchmarks/bench_tagger.py \
        --child fast.json --datasets r8 20ng; wait
    nice .venv/bin/python benchmarks/bench_tagger.py --quality --results spacy.json fast.json
    # new texts: statistics prepared under spaCy, the test texts tagged by each tagger, one process
    nice -n 5 .venv/bin/python benchmarks/bench_tagger.py --quality --new-texts --datasets r8 20ng --out new.json

The phrase grammar (docs/method.md step 1) reads four coarse tags only: J (adjective), N (noun),
I (preposition) and O. For each corpus, on its first ``--docs`` test-split texts (held out: the
fast tagger is trained on training-split texts, scripts/train_tagger.py), one process:

* **time** (process CPU seconds and texts per CPU second) of spaCy's pipeline per component
  (the tokenizer, ``tok2vec``, ``tagger``: the reference, ``DKW_TAGGER=spacy``), of the fast
  tagger (spaCy's tokenizer, then the averaged perceptron of :mod:`dkw_core.fasttagger`,
  ``DKW_TAGGER=fast``) and of the lexicon tagger below;
* **agreement with spaCy** of each lighter tagger: coarse tags per token; candidate phrases as
  multisets (micro precision / recall / F1 over all texts, and the share of texts whose phrases
  with counts are equal);
* the **lexicon tagger** (tried and dropped): each word's most frequent coarse tag in the first
  ``--lexicon-docs`` training texts as spaCy tagged them (unknown words by shape: capitalised
  -> N, ``-ly`` -> O, ``-able/-ous/-ive/-al/-ful/-ic`` -> J, else N).
"""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

_J = ("able", "ous", "ive", "al", "ful", "ic")


def _shape_tag(word: str) -> str:
    if word[:1].isupper():
        return "N"
    low = word.lower()
    if low.endswith("ly"):
        return "O"
    if low.endswith(_J):
        return "J"
    return "N" if word.isalpha() else "O"


def _cpu() -> float:
    return time.process_time()


def measure(dataset: str, docs: int, lexicon_docs: int) -> dict:
    from dkw_core.corpora import load_corpus
    from dkw_core.fasttagger import agreement
    from dkw_core.phrases import TaggedDoc, get_tagger

    corpus = load_corpus(dataset)
    texts = [d.text for d in corpus.split("test")[:docs]]
    spacy_tagger, fast = get_tagger("spacy"), get_tagger("fast")
    nlp = spacy_tagger.nlp
    seconds: dict[str, float] = {}
    t = _cpu()
    made = [nlp.make_doc(x) for x in texts]
    seconds["spacy tokenizer"] = _cpu() - t
    for name, proc in nlp.pipeline:
        t = _cpu()
        made = list(proc.pipe(made, batch_size=64))
        seconds[f"spacy {name}"] = _cpu() - t
    t = _cpu()
    reference = list(spacy_tagger.tag_many(texts, batch_size=64))
    seconds["spacy tagger, whole (tag_many)"] = _cpu() - t
    t = _cpu()
    fast_docs = list(fast.tag_many(texts, batch_size=64))
    seconds["fast tagger, whole (tag_many)"] = _cpu() - t

    counts: dict[str, Counter] = defaultdict(Counter)
    for tagged in spacy_tagger.tag_many(d.text for d in corpus.split("train")[:lexicon_docs]):
        for w, tag in zip(tagged.tokens, tagged.tags):
            counts[w.lower()][tag] += 1
    lexicon = {w: c.most_common(1)[0][0] for w, c in counts.items()}
    t = _cpu()
    lexicon_docs_tagged = []
    for doc in (nlp.make_doc(x) for x in texts):
        words = [tok.text.replace(" ", "_") for tok in doc if not tok.is_space]
        tags = "".join(lexicon.get(w.lower()) or _shape_tag(w) for w in words)
        lexicon_docs_tagged.append(TaggedDoc(" ".join(words), tags))
    seconds["lexicon tagger, whole"] = _cpu() - t
    n = len(texts)
    return {"dataset": dataset, "texts": n,
            "cpu_seconds": {k: round(v, 2) for k, v in seconds.items()},
            "texts_per_cpu_second": {k: round(n / max(v, 1e-9), 1) for k, v in seconds.items() if "whole" in k},
            "fast": agreement(reference, fast_docs),
            "lexicon": agreement(reference, lexicon_docs_tagged)}


def gold_f1(name: str, limit: int | None) -> dict:
    """F1@10 of dkw's default keyphrases (``extract_keywords(texts, corpus="20ng")``, the shipped
    20 Newsgroups statistics, new texts' tagger ``DKW_TAGGER``) on a gold keyphrase set, gold as
    given, macro over documents."""
    import numpy as np

    from benchmarks.keyphrase_gold import load_gold, score
    from dkw_core import extract_keywords

    docs = load_gold(name, limit=limit)
    t = _cpu()
    found = extract_keywords([d.text for d in docs], corpus="20ng", top=10)
    cpu = _cpu() - t
    f1 = [score([k.word for k in f], d)["f1@10"] for f, d in zip(found, docs)]
    row = {"mean": round(100 * float(np.mean(f1)), 2), "documents": len(docs), "cpu_seconds": round(cpu, 1),
           "per_document": [round(x, 4) for x in f1]}
    print(json.dumps({name: {k: v for k, v in row.items() if k != "per_document"}}), flush=True)
    return row


def quality(datasets: list[str], gold: list[str], limit: int | None) -> dict:
    """This process's tagger (``DKW_TAGGER`` and ``DKW_PREPARE_TAGGER``, the same): keywords-alone
    micro / macro F1 of dkw's default (DEFAULT_METRIC, K = DEFAULT_K, top 10; each corpus
    prepared with the tagger) and :func:`gold_f1` on the gold keyphrase sets."""
    from dkw_core import config
    from dkw_core.corpora import load_corpus
    from dkw_core.evaluation.wordlists import method_document_quality
    from dkw_core.keywords import KeywordModel
    from dkw_core.types import DEFAULT_K, DEFAULT_METRIC

    kind = config.tagger()
    if config.prepare_tagger() != kind:
        raise SystemExit("--child: DKW_TAGGER and DKW_PREPARE_TAGGER name the same tagger (the corpus prepared "
                         "under the tagger measured)")
    out: dict = {"tagger": kind}
    for name in gold:
        out[f"{name} F1@10"] = gold_f1(name, limit)
    for name in datasets:
        t = _cpu()
        model = KeywordModel.prepare(load_corpus(name))
        q = method_document_quality(model, metric=DEFAULT_METRIC, k=DEFAULT_K, top=10)
        summary = q.summary(ci=False)
        out[f"{name} keywords-alone"] = {"micro_f1": round(100 * summary["micro_f1"]["value"], 2),
                                         "macro_f1": round(100 * summary["macro_f1"]["value"], 2),
                                         "cpu_seconds": round(_cpu() - t, 1)}
        print(json.dumps({name: out[f"{name} keywords-alone"]}), flush=True)
    return out


def _load() -> float:
    import os

    return round(os.getloadavg()[0], 2)


def new_text_quality(datasets: list[str], gold: list[str], limit: int | None) -> list[dict]:
    """Both taggers as the taggers of NEW texts, in this process: each corpus prepared as usual
    (``DKW_PREPARE_TAGGER``, spaCy), its training documents' keywords those the quality table's
    keyphrase row ranks (``KeywordModel.keywords(doc, about=DEFAULT_ABOUT)``, keywords alone, from
    the preparation's tagging: the same for both), each TEST document's keywords through the
    new-text path (:func:`~dkw_core.keywords.newtexts.text_keywords`, what ``extract_keywords(texts,
    corpus=model, top=10, protocol="label-free")`` runs: dkw's default metric, K and about) once
    with ``DKW_TAGGER=spacy`` and once with ``fast``; the quality table's classifier on the
    keywords alone (:func:`~dkw_core.evaluation.wordlists.keywords_quality`), micro-F1 of each and
    the paired bootstrap 95 % CI of fast − spaCy over the test documents
    (:func:`~dkw_core.evaluation.paired.bootstrap_diffs`). The gold sets (new texts already):
    :func:`gold_f1` of both taggers, the same CI over documents."""
    import os

    import numpy as np

    from dkw_core.corpora import load_corpus
    from dkw_core.errors import InputError
    from dkw_core.evaluation.paired import bootstrap_diffs
    from dkw_core.evaluation.wordlists import KEYWORDS_ALONE, keywords_quality, reference_tokens
    from dkw_core.keywords import KeywordModel
    from dkw_core.keywords.newtexts import text_keywords
    from dkw_core.types import DEFAULT_ABOUT, DEFAULT_K, DEFAULT_METRIC

    kinds = ("spacy", "fast")
    before = os.environ.get("DKW_TAGGER")
    rows: list[dict] = []

    def row(measure: str, values: dict, cpu: dict, load: list) -> dict:
        d = np.asarray(values["fast"], dtype=np.float64) - np.asarray(values["spacy"], dtype=np.float64)
        (low, high), = bootstrap_diffs([d])
        out = {"measure": measure, "documents": int(d.size),
               **{k: round(100 * float(np.mean(values[k])), 2) for k in kinds},
               "fast - spacy": round(100 * float(d.mean()), 2), "ci": [round(low, 2), round(high, 2)],
               "cpu_seconds": [round(cpu[k], 1) for k in kinds], "load": load}
        print(json.dumps(out), flush=True)
        return out

    try:
        for name in gold:
            values, cpu, load = {}, {}, [_load()]
            for kind in kinds:
                os.environ["DKW_TAGGER"] = kind
                got = gold_f1(name, limit)
                values[kind], cpu[kind] = got["per_document"], got["cpu_seconds"]
            rows.append(row(f"{name} F1@10", values, cpu, load + [_load()]))
        for name in datasets:
            load = [_load()]
            corpus = load_corpus(name)
            model = KeywordModel.prepare(corpus)  # the preparation's tagger (spaCy unless DKW_PREPARE_TAGGER)
            tokens = reference_tokens(corpus)

            def corpus_keywords(doc, model=model) -> list[str]:
                try:
                    return [k.word for k in model.keywords(doc.id, metric=DEFAULT_METRIC, k=DEFAULT_K, top=10,
                                                           protocol=KEYWORDS_ALONE, about=DEFAULT_ABOUT)]
                except InputError:  # no usable phrase: no keywords, as in the quality table
                    return []
            t = _cpu()
            train = {d.id: corpus_keywords(d) for d in corpus.split("train")}
            print(json.dumps({name: f"training keywords in {_cpu() - t:.0f} CPU s"}), flush=True)
            test = corpus.split("test")
            values, cpu = {}, {}
            for kind in kinds:
                os.environ["DKW_TAGGER"] = kind
                t = _cpu()
                found = {f.name: [k.word for k in f.keywords[DEFAULT_METRIC]]
                         for f in text_keywords(model, [(d.id, d.text) for d in test], metrics=[DEFAULT_METRIC],
                                                k=DEFAULT_K, top=10, protocol=KEYWORDS_ALONE, provenance=False)}
                cpu[kind] = _cpu() - t
                q = keywords_quality({**train, **found}, tokens, model.vectors, top=10)
                values[kind] = q.values()["micro_f1"]
            rows.append(row(f"{name} keywords-alone micro-F1, new texts", values, cpu, load + [_load()]))
    finally:
        if before is None:
            os.environ.pop("DKW_TAGGER", None)
        else:
            os.environ["DKW_TAGGER"] = before
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="*", default=["r8"])
    ap.add_argument("--docs", type=int, default=500)
    ap.add_argument("--lexicon-docs", type=int, default=1000)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--quality", action="store_true",
                    help="the quality of both taggers instead (one process each): --datasets keywords-alone F1, "
                         "--gold F1@10")
    ap.add_argument("--gold", nargs="*", default=["inspec", "semeval2017", "500n"])
    ap.add_argument("--limit", type=int, default=None, help="with --quality: the first N gold documents")
    ap.add_argument("--child", metavar="OUT", help="one tagger's (DKW_TAGGER) quality alone, written to OUT")
    ap.add_argument("--new-texts", action="store_true",
                    help="with --quality: both taggers as new texts' tagger in this process, the corpora prepared "
                         "under spaCy (new_text_quality)")
    ap.add_argument("--results", nargs=2, metavar=("SPACY", "FAST"),
                    help="with --quality: the differences of two --child outputs instead of running them")
    args = ap.parse_args(argv)
    if args.child:
        result = quality(args.datasets, args.gold, args.limit)
        Path(args.child).write_text(json.dumps(result) + "\n")
        return 0
    if args.quality and args.new_texts:
        import subprocess

        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        rows = new_text_quality(args.datasets, args.gold, args.limit)
        if args.out:
            args.out.write_text(json.dumps({"commit": commit, "rows": rows}, indent=1) + "\n")
        return 0
    if args.quality:
        return compare_quality(args)
    rows = []
    for dataset in args.datasets:
        row = measure(dataset, args.docs, args.lexicon_docs)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def compare_quality(args) -> int:
    """Both taggers' :func:`quality`, each in its own process, and the differences (fast - spaCy;
    F1@10 with a paired bootstrap 95 % CI over documents)."""
    import os
    import subprocess
    import sys
    import tempfile

    import numpy as np

    results = {}
    if args.results:  # two children's outputs, run apart (e.g. at once, one per CPU)
        results = {kind: json.loads(Path(path).read_text()) for kind, path in zip(("spacy", "fast"), args.results)}
    else:
        with tempfile.TemporaryDirectory() as tmp:
            for kind in ("spacy", "fast"):
                path = Path(tmp) / f"{kind}.json"
                cmd = [sys.executable, __file__, "--child", str(path), "--datasets", *args.datasets,
                       "--gold", *args.gold]
                if args.limit:
                    cmd += ["--limit", str(args.limit)]
                subprocess.run(cmd, check=True, env={**os.environ, "DKW_TAGGER": kind, "DKW_PREPARE_TAGGER": kind})
                results[kind] = json.loads(path.read_text())
    if results["spacy"].get("tagger") != "spacy" or results["fast"].get("tagger") != "fast":
        raise SystemExit("--results: the spaCy child's output first, then the fast one's")
    from dkw_core.evaluation.paired import bootstrap_diffs

    rows = []
    for key in results["spacy"]:
        if key == "tagger":
            continue
        a, b = results["spacy"][key], results["fast"][key]
        if "per_document" in a:
            d = np.array(b["per_document"]) - np.array(a["per_document"])
            (low, high), = bootstrap_diffs([d])
            row = {"measure": key, "spacy": a["mean"], "fast": b["mean"], "fast - spacy": round(100 * d.mean(), 2),
                   "ci": [round(low, 2), round(high, 2)],
                   "cpu_seconds": [a["cpu_seconds"], b["cpu_seconds"]]}
        else:
            row = {"measure": key, "spacy": a["micro_f1"], "fast": b["micro_f1"],
                   "fast - spacy": round(b["micro_f1"] - a["micro_f1"], 2), "macro": [a["macro_f1"], b["macro_f1"]],
                   "cpu_seconds": [a["cpu_seconds"], b["cpu_seconds"]]}
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
