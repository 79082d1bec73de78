"""Train the fast coarse tagger (``DKW_TAGGER=fast``, :mod:`dkw_core.fasttagger`) and write
``dkw_core/fast_tagger.npz``. The one training command:

    nice .venv/bin/python scripts/train_tagger.py

Training texts, whole: every training-split text of R52 (R8's are among them), 20 Newsgroups and
WebKB, each once, and the development parts of two gold keyphrase sets as unlabelled scientific
text (Inspec's first 500 abstracts, SemEval 2017's first 120: ``keyphrase_gold.dev_part``; their
keyphrases are not read), all tagged by spaCy's ``en_core_web_sm`` as the spaCy path tags them
(the corpora through their tag cache, :func:`dkw_core.phrases.tag_corpus`) and mapped to coarse
tags. Features are read from each token's spaCy lexeme (the hashes ``Doc.to_array`` gives).

The classifier is a multiclass averaged perceptron over the features
:data:`dkw_core.fasttagger.FEATURES` and :data:`~dkw_core.fasttagger.CONJUNCTIONS`: ``--epochs``
epochs over the shuffled tokens in mini-batches of ``--batch`` (a batch's mistakes update the weights together; the averaging is
Daumé's lazy sum). scikit-learn's perceptron is
one-vs-rest: on the same 2.07 M tokens it agreed less with spaCy (97.71 % / 96.30 % of r8's /
20ng's held-out tokens against 97.90 % / 96.67 %) and trained 1.4× slower (149 s against 105 s). A table keeps the keys
seen at least ``--min-count`` times, at most ``--max-words`` of them; the conjunctions' tables
keep the ``--max-pairs`` most frequent pairs, all conjunctions together. Prints the token agreement
with spaCy on the first ``--held-out`` test-split texts of each corpus (benchmarks/bench_tagger.py
measures more). Deterministic for a given spaCy model and corpora (fixed seed).
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np
import repo_root  # noqa: F401  (puts the repository root first on sys.path)

#: Corpora whose training-split texts are the training text (R8's texts are R52's).
CORPORA = ("r52", "20ng", "webkb")
#: Gold keyphrase sets whose development part is read as unlabelled text.
GOLD_DEV = ("inspec", "semeval2017")


def lexeme_hashes(words: list[str], vocab, memo: dict) -> np.ndarray:  # noqa: ANN001 - a spaCy Vocab
    """The rows :func:`dkw_core.fasttagger.token_hashes` gives for these tokens (``LOWER, SUFFIX,
    SHAPE, PREFIX, ORTH`` of each one's lexeme)."""
    out = np.empty((len(words), 5), dtype=np.uint64)
    for i, w in enumerate(words):
        row = memo.get(w)
        if row is None:
            lex = vocab[w]
            row = memo[w] = (lex.lower, lex.suffix, lex.shape, lex.prefix, lex.orth)
        out[i] = row
    return out


def training_texts(held_out: int) -> tuple[list[tuple[list[str], str]], dict[str, list[tuple[list[str], str]]]]:
    """(tokens, coarse tags) of the training texts, and of the first ``held_out`` test texts of
    R8 and 20 Newsgroups, as spaCy tags them."""
    from benchmarks.keyphrase_gold import dev_part, load_gold
    from dkw_core import cache as disk_cache
    from dkw_core.corpora import load_corpus
    from dkw_core.phrases import get_tagger, tag_corpus

    spacy = get_tagger("spacy")
    train: list[tuple[list[str], str]] = []
    seen: set[str] = set()
    for name in CORPORA:
        corpus = load_corpus(name)
        tagged = tag_corpus(corpus, tagger=spacy)
        for doc in corpus.split("train"):
            key = disk_cache.text_hash(doc.text)
            if key not in seen:
                seen.add(key)
                t = tagged[doc.id]
                train.append((t.tokens, t.tags))
    for name in GOLD_DEV:
        texts = [d.text for d in dev_part(name, load_gold(name))]
        train += [(t.tokens, t.tags) for t in spacy.tag_many(texts)]
    test = {}
    for name in ("r8", "20ng"):
        corpus = load_corpus(name)
        tagged = tag_corpus(corpus, tagger=spacy)
        test[name] = [(tagged[d.id].tokens, tagged[d.id].tags) for d in corpus.split("test")[:held_out]]
    return train, test


def stacked(arrays: list[np.ndarray], width: int) -> np.ndarray:
    """Arrays of texts' token rows, one after another with :data:`fasttagger._WINDOW` rows of
    zeros (an edge) before, between and after them, as ``token_hashes`` lays out a batch."""
    from dkw_core.fasttagger import _WINDOW

    edge = np.zeros((_WINDOW, width), dtype=np.uint64)
    parts = [edge]
    for a in arrays:
        parts += [a, edge]
    return np.concatenate(parts)


def keys_of(hashes: list[np.ndarray], min_count: int, max_words: int) -> dict[str, np.ndarray]:
    from dkw_core.fasttagger import TABLES

    keys = {}
    for t, name in enumerate(TABLES):
        counts = Counter(np.concatenate([h[:, t] for h in hashes]).tolist())
        kept = [k for k, c in counts.most_common(max_words + 1) if c >= min_count and k][:max_words]
        keys[name] = np.array(sorted(kept), dtype=np.uint64)
    return keys


def pairs_of(rows: np.ndarray, sizes: dict[str, int], min_count: int, max_pairs: int) -> list[np.ndarray]:
    """Each conjunction's kept pairs (:data:`dkw_core.fasttagger.CONJUNCTIONS`, sorted keys): the
    ``max_pairs`` most frequent in the training tokens over all conjunctions at once, each seen at
    least ``min_count`` times. (Keeping instead the pairs whose most frequent tag most improves on
    each token's word's agreed less on held-out text: 97.96 / 97.07 % on r8 / 20ng.)"""
    from dkw_core.fasttagger import CONJUNCTIONS, pair_keys, real_tokens

    found = []
    for c, key in enumerate(pair_keys(rows, real_tokens(rows, sizes), sizes).T):
        kept, count = np.unique(key, return_counts=True)
        ok = count >= min_count
        found.append((np.full(ok.sum(), c), kept[ok], count[ok]))
    conj, key, count = (np.concatenate(x) for x in zip(*found))
    top = np.lexsort((key, conj, -count))[:max_pairs]
    print(f"conjunction pairs: {len(count):,} seen {min_count}+ times, kept {len(top):,} "
          f"(seen {count[top].min():,}+ times)", flush=True)
    return [np.sort(key[top][conj[top] == c]) for c in range(len(CONJUNCTIONS))]


def perceptron(cols: np.ndarray, y: np.ndarray, n_cols: int, *, epochs: int, batch: int,
               seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Multiclass averaged perceptron over one-hot ``cols`` (``[tokens, features]``): the
    averaged weights (``[n_cols, classes]``) and bias. A mini-batch's mistakes add their
    columns to the right class and take them from the predicted one, all at once."""
    from dkw_core.fasttagger import COARSE, scores

    k = len(COARSE)
    rng = np.random.default_rng(seed)
    with_bias = np.empty((len(cols), cols.shape[1] + 1), dtype=np.int32)  # int32: half the memory
    with_bias[:, :-1] = cols
    with_bias[:, -1] = n_cols
    w = np.zeros((n_cols + 1, k))
    u = np.zeros_like(w)  # every update times its step: the average is w - u / step
    step = 1
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), batch):
            rows = order[start:start + batch]
            c = with_bias[rows]
            guess = scores(c, w).argmax(axis=1)
            wrong = np.flatnonzero(guess != y[rows])
            if len(wrong):
                c = c[wrong].reshape(-1)
                right = np.repeat(y[rows][wrong], with_bias.shape[1])
                guessed = np.repeat(guess[wrong], with_bias.shape[1])
                for cls, sign in ((right, 1.0), (guessed, -1.0)):
                    np.add.at(w, (c, cls), sign)
                    np.add.at(u, (c, cls), sign * step)
            step += 1
    mean = w - u / step
    return mean[:n_cols].astype(np.float32), mean[n_cols].astype(np.float32)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--held-out", type=int, default=500)
    ap.add_argument("--min-count", type=int, default=3)
    ap.add_argument("--max-words", type=int, default=25000)
    ap.add_argument("--max-pairs", type=int, default=55000)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)

    from dkw_core.fasttagger import (
        COARSE,
        MODEL_FILE,
        CoarseModel,
        feature_columns,
        feature_rows,
        n_columns,
        real_tokens,
    )
    from dkw_core.phrases import get_tagger

    t0 = time.perf_counter()
    train, test = training_texts(args.held_out)
    vocab, memo = get_tagger("spacy").nlp.vocab, {}
    hashes = [lexeme_hashes(words, vocab, memo) for words, _ in train]
    y = np.array([COARSE.index(t) for _, tags in train for t in tags], dtype=np.int64)
    print(f"{len(train):,} training texts, {len(y):,} tokens, tagged by spaCy "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    keys = keys_of(hashes, args.min_count, args.max_words)
    sizes = {name: len(k) + 2 for name, k in keys.items()}
    print("keys per table:", {k: len(v) for k, v in keys.items()}, flush=True)
    rows = feature_rows(stacked(hashes, 5), keys)
    assert len(real_tokens(rows, sizes)) == len(y)
    pairs = pairs_of(rows, sizes, args.min_count, args.max_pairs)
    print("pairs per conjunction:", [len(p) for p in pairs], flush=True)
    w, b = perceptron(feature_columns(rows, sizes, pairs), y, n_columns(sizes, pairs), epochs=args.epochs,
                      batch=args.batch, seed=0)
    print(f"trained: {time.perf_counter() - t0:.0f} s", flush=True)
    model = CoarseModel(keys, pairs, w, b)
    out = args.out or MODEL_FILE
    model.save(out)
    model = CoarseModel.load(out)  # as shipped (float16 weights)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)")
    for name, texts in test.items():
        h = stacked([lexeme_hashes(words, vocab, memo) for words, _ in texts], 5)
        gold = np.array([COARSE.index(t) for _, tags in texts for t in tags])
        print(f"held-out {name}: {len(texts)} test texts, token agreement with spaCy "
              f"{np.mean(model.predict(h) == gold):.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
