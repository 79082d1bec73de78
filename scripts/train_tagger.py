"""Train the fast coarse tagger (``DKW_TAGGER=fast``, :mod:`dkw_core.fasttagger`) and write
``dkw_core/fast_tagger.npz``. The one training command:

    nice .venv/bin/python scripts/train_tagger.py

Training texts: the first ``--docs`` training-split texts of each of ``--datasets`` (R8, 20
Newsgroups, WebKB; first ``--chars`` characters each), tagged by spaCy's ``en_core_web_sm``
(``tok2vec`` and ``tagger``, as the spaCy path runs it) and mapped to coarse tags. The classifier
is an averaged perceptron (scikit-learn ``SGDClassifier(loss="perceptron", average=True)``)
over the features :data:`dkw_core.fasttagger.FEATURES`; a table keeps the keys seen at least
``--min-count`` times, at most ``--max-words`` words. Prints the token agreement with spaCy on
the first ``--held-out`` test-split texts of each corpus (benchmarks/bench_tagger.py measures
more). Deterministic for a given spaCy model and corpora (fixed seed).
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np
import repo_root  # noqa: F401  (puts the repository root first on sys.path)


def tagged(texts: list[str], chars: int):
    """(hashes, coarse labels) of ``texts`` tagged by spaCy, in batches."""
    from dkw_core.fasttagger import COARSE, token_hashes
    from dkw_core.phrases import Tagger, coarse_tag

    nlp = Tagger().nlp
    hashes, labels = [], []
    for doc in nlp.pipe((t[:chars] for t in texts), batch_size=64):
        h, _ = token_hashes([doc])
        hashes.append(h)
        labels.append(np.array([COARSE.index(coarse_tag(t.tag_)) for t in doc if not t.is_space], dtype=np.int8))
    return hashes, labels


def keys_of(hashes: list[np.ndarray], min_count: int, max_words: int) -> dict[str, np.ndarray]:
    from dkw_core.fasttagger import TABLES

    keys = {}
    for t, name in enumerate(TABLES):
        counts = Counter(int(v) for h in hashes for v in h[:, t] if v)
        kept = [k for k, c in counts.most_common(max_words) if c >= min_count]
        keys[name] = np.array(sorted(kept), dtype=np.uint64)
    return keys


def design(hashes: list[np.ndarray], keys: dict[str, np.ndarray]):
    from scipy.sparse import csr_matrix

    from dkw_core.fasttagger import CoarseModel, feature_columns, feature_rows, n_columns

    sizes = {name: len(k) + 2 for name, k in keys.items()}
    cols = np.concatenate([feature_columns(feature_rows(h, keys), sizes) for h in hashes])
    n, f = cols.shape
    matrix = csr_matrix((np.ones(n * f, dtype=np.float32), cols.reshape(-1), np.arange(0, n * f + 1, f)),
                        shape=(n, n_columns(sizes)))
    return matrix, CoarseModel


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=["r8", "20ng", "webkb"])
    ap.add_argument("--docs", type=int, default=3000)
    ap.add_argument("--chars", type=int, default=4000)
    ap.add_argument("--held-out", type=int, default=300)
    ap.add_argument("--min-count", type=int, default=3)
    ap.add_argument("--max-words", type=int, default=25000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)

    from sklearn.linear_model import SGDClassifier

    from dkw_core.corpora import load_corpus
    from dkw_core.fasttagger import MODEL_FILE, CoarseModel

    train_texts, test_texts = [], {}
    for name in args.datasets:
        corpus = load_corpus(name)
        train_texts += [d.text for d in corpus.split("train")[:args.docs]]
        test_texts[name] = [d.text for d in corpus.split("test")[:args.held_out]]
    t0 = time.perf_counter()
    hashes, labels = tagged(train_texts, args.chars)
    print(f"tagged {len(train_texts):,} training texts ({sum(map(len, labels)):,} tokens) with spaCy "
          f"in {time.perf_counter() - t0:.0f} s", flush=True)
    keys = keys_of(hashes, args.min_count, args.max_words)
    print("keys per table:", {k: len(v) for k, v in keys.items()}, flush=True)
    x, _ = design(hashes, keys)
    y = np.concatenate(labels)
    clf = SGDClassifier(loss="perceptron", average=True, max_iter=args.epochs, tol=None, alpha=1e-6,
                        random_state=0, shuffle=True)
    t0 = time.perf_counter()
    clf.fit(x, y)
    print(f"trained in {time.perf_counter() - t0:.0f} s; training agreement {clf.score(x, y):.4f}", flush=True)
    weights = np.zeros((x.shape[1], 4), dtype=np.float32)
    bias = np.zeros(4, dtype=np.float32)
    for row, cls in enumerate(clf.classes_):
        weights[:, int(cls)] = clf.coef_[row]
        bias[int(cls)] = clf.intercept_[row]
    out = args.out or MODEL_FILE
    CoarseModel(keys, weights, bias).save(out)
    model = CoarseModel.load(out)  # as shipped (float16 weights)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)")
    for name, texts in test_texts.items():
        h, lab = tagged(texts, 10**9)
        pred = np.concatenate([model.predict(x) for x in h])
        gold = np.concatenate(lab)
        print(f"held-out {name}: {len(texts)} test texts, token agreement with spaCy {np.mean(pred == gold):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
