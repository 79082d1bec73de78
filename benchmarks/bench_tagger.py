"""The tagger's cost, and whether a lighter tagger keeps the candidate phrases equal.

    DKW_DATA_DIR=/work/data .venv/bin/python benchmarks/bench_tagger.py --datasets r8 webkb r52 20ng --docs 500

The phrase grammar (docs/method.md step 1) reads four coarse tags only: J (adjective), N (noun),
I (preposition) and O. For each corpus (its tag cache in ``DKW_DATA_DIR``: prepare it first):

* **time per component** of spaCy's pipeline on the first ``--docs`` test texts, one process:
  the tokenizer, ``tok2vec`` and ``tagger`` (the only components dkw runs);
* **a lighter tagger**: spaCy's tokenizer, then each word's most frequent coarse tag in the
  corpus's *training* split as spaCy tagged it (unknown words: by shape, capitalised -> N,
  ``-ly`` -> O, ``-able/-ous/-ive/-al/-ful/-ic`` -> J, else N). Agreement with spaCy on the test
  split: coarse tags per token, and documents whose candidate phrases (with counts) are equal.

The lighter tagger becomes the default only if its candidate phrases equal spaCy's on every
corpus; the figures say whether they do.
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


def measure(dataset: str, docs: int) -> dict:
    from dkw_core.cache import text_hash
    from dkw_core.corpora import load_corpus
    from dkw_core.phrases import TaggedDoc, get_tagger, load_tag_cache, tag_cache_file

    corpus = load_corpus(dataset)
    tagger = get_tagger()
    cached = load_tag_cache(tag_cache_file(corpus.name, tagger))
    if not cached:
        raise SystemExit(f"{dataset}: no tag cache in DKW_DATA_DIR; prepare the corpus first")
    counts: dict[str, Counter] = defaultdict(Counter)
    for d in corpus.split("train"):
        entry = cached.get(text_hash(d.text))
        if entry:
            for w, t in zip(entry[0].split(" "), entry[1]):
                counts[w.lower()][t] += 1
    lexicon = {w: c.most_common(1)[0][0] for w, c in counts.items()}

    test = corpus.split("test")
    texts = [d.text for d in test[:docs]]
    nlp = tagger.nlp
    t0 = time.perf_counter()
    made = [nlp.make_doc(t) for t in texts]
    t1 = time.perf_counter()
    seconds = {"tokenizer": t1 - t0}
    for name, proc in nlp.pipeline:
        t = time.perf_counter()
        made = list(proc.pipe(made, batch_size=64))
        seconds[name] = time.perf_counter() - t
    t = time.perf_counter()
    for doc in (nlp.make_doc(x) for x in texts):
        "".join(lexicon.get(tok.text.lower()) or _shape_tag(tok.text) for tok in doc if not tok.is_space)
    seconds["lighter (tokenizer + lexicon)"] = time.perf_counter() - t

    tokens = agree = same_docs = n_docs = 0
    for d in test:
        entry = cached.get(text_hash(d.text))
        if not entry or not entry[0]:
            continue
        words, tags = entry[0].split(" "), entry[1]
        light = "".join(lexicon.get(w.lower()) or _shape_tag(w) for w in words)
        tokens += len(tags)
        agree += sum(a == b for a, b in zip(tags, light))
        n_docs += 1
        same_docs += Counter(TaggedDoc(entry[0], tags).phrases()) == Counter(TaggedDoc(entry[0], light).phrases())
    return {"dataset": dataset, "documents_timed": len(texts),
            "seconds": {k: round(v, 2) for k, v in seconds.items()},
            "test_documents": n_docs, "token_tag_agreement": round(agree / max(1, tokens), 4),
            "documents_with_equal_phrases": round(same_docs / max(1, n_docs), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=["r8"])
    ap.add_argument("--docs", type=int, default=500)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    rows = []
    for dataset in args.datasets:
        row = measure(dataset, args.docs)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
