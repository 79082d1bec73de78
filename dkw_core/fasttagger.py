"""A coarse tagger sized to the candidate grammar (``DKW_TAGGER=fast``; docs/configuration.md).

The phrase automaton (:mod:`dkw_core.phrases`) reads four coarse tags only: J (adjective),
N (noun), I (preposition) and O (anything else). This tagger gives them without spaCy's
``tok2vec``: spaCy's tokenizer (so the tokens are those of the spaCy path), then one linear
classifier over each token's window, two tokens either side (lower-cased word, three-letter
suffix, shape, first letter, all read as spaCy's hashes with ``Doc.to_array``), and over
conjunctions of two of them (the token's suffix with each next neighbour's suffix and shape:
:data:`CONJUNCTIONS`), scored for a whole batch of texts at
once with numpy. Its weights are a multiclass averaged perceptron
trained on shared-corpus texts tagged by ``en_core_web_sm`` (``scripts/train_tagger.py``; the
model ships as :data:`MODEL_FILE`, under 2 MB).

It runs as a spaCy pipeline component (:data:`COMPONENT`) that writes a Penn tag standing for
its coarse tag (``JJ``, ``NN``, ``IN``, ``XX``) into each token, so every caller of the spaCy
tagger (``nlp.pipe``, its worker pools, long texts piece by piece) runs it unchanged.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

MODEL_FILE = Path(__file__).with_name("fast_tagger.npz")
COMPONENT = "dkw_coarse_tagger"
COARSE = "JNIO"
#: The Penn tag written for each coarse tag (``phrases.coarse_tag`` maps it back).
PENN = ("JJ", "NN", "IN", "XX")
#: Token attributes read, one lookup table each (``LOWER`` words, ``SUFFIX``, ``SHAPE``, ``PREFIX``).
TABLES = ("word", "suffix", "shape", "prefix")
#: Features: (table, offset from the token).
FEATURES: tuple[tuple[str, int], ...] = (
    ("word", 0), ("word", -1), ("word", 1), ("word", -2), ("word", 2),
    ("suffix", 0), ("suffix", -1), ("suffix", 1),
    ("shape", 0), ("shape", -1), ("shape", 1),
    ("prefix", 0),
)
#: Conjunction features: two (table, offset) rows joined into one feature (its key: the first
#: row times the second table's size plus the second row), each looked up in its own table of
#: the pairs training kept (``scripts/train_tagger.py``: the most frequent); any other pair is
#: that table's unknown row.
CONJUNCTIONS: tuple[tuple[tuple[str, int], tuple[str, int]], ...] = (
    (("suffix", 0), ("suffix", -1)), (("suffix", 0), ("shape", -1)),
    (("suffix", 0), ("suffix", 1)), (("suffix", 0), ("shape", 1)),
)
_WINDOW = 2  # padding rows between texts: no feature reads across a text's edge


def token_hashes(docs: Iterable) -> tuple[np.ndarray, list[int]]:
    """The non-space tokens of ``docs`` as one array of spaCy hashes (``LOWER, SUFFIX, SHAPE,
    PREFIX, ORTH`` columns), the texts separated by :data:`_WINDOW` rows of zeros (an edge), and
    the number of non-space tokens of each doc."""
    from spacy.attrs import IS_SPACE, LOWER, ORTH, PREFIX, SHAPE, SUFFIX

    blocks = [np.zeros((_WINDOW, 5), dtype=np.uint64)]
    lengths = []
    for doc in docs:
        a = doc.to_array([LOWER, SUFFIX, SHAPE, PREFIX, ORTH, IS_SPACE]) if len(doc) else np.zeros((0, 6), np.uint64)
        a = a.reshape(-1, 6)
        a = a[a[:, 5] == 0, :5]
        lengths.append(len(a))
        blocks.append(a)
        blocks.append(np.zeros((_WINDOW, 5), dtype=np.uint64))
    return np.concatenate(blocks), lengths


def feature_rows(hashes: np.ndarray, keys: dict[str, np.ndarray]) -> np.ndarray:
    """Every row's index in each table (``[rows, tables]``): a known key's position, ``len(keys)``
    for an unknown one, ``len(keys) + 1`` for an edge (hash 0). Looked up once per distinct
    token (the ``ORTH`` column: every table's attribute is a function of it)."""
    orth, first, inverse = np.unique(hashes[:, 4], return_index=True, return_inverse=True)
    distinct = hashes[first]
    out = np.empty((len(distinct), len(TABLES)), dtype=np.int64)
    for t, name in enumerate(TABLES):
        k = keys[name]
        col = distinct[:, t]
        pos = np.searchsorted(k, col)
        pos[pos >= len(k)] = 0
        known = k[pos] == col if len(k) else np.zeros(len(col), bool)
        out[:, t] = np.where(known, pos, len(k))
        out[col == 0, t] = len(k) + 1
    return out[inverse.reshape(-1)]


def real_tokens(rows: np.ndarray, sizes: dict[str, int]) -> np.ndarray:
    """The positions of ``rows`` that are tokens, not edges (an edge: the word table's last row)."""
    return np.flatnonzero(rows[:, 0] != sizes["word"] - 1)


def pair_keys(rows: np.ndarray, idx: np.ndarray, sizes: dict[str, int]) -> np.ndarray:
    """Each of the tokens ``idx``'s conjunction keys (``[tokens, conjunctions]``, see
    :data:`CONJUNCTIONS`)."""
    out = np.empty((len(idx), len(CONJUNCTIONS)), dtype=np.int64)
    for c, ((ta, oa), (tb, ob)) in enumerate(CONJUNCTIONS):
        out[:, c] = rows[idx + oa, TABLES.index(ta)] * sizes[tb] + rows[idx + ob, TABLES.index(tb)]
    return out


def feature_columns(rows: np.ndarray, sizes: dict[str, int], pairs: Sequence[np.ndarray]) -> np.ndarray:
    """The sparse one-hot columns (``[tokens, features]``) of the real tokens (edges dropped):
    feature f of a token is its neighbour's row in f's table, offset past the earlier features'
    columns; then each conjunction's row in its table of kept pairs (``pairs``, sorted keys; the
    unknown row past them). ``sizes``: rows per table (keys + unknown + edge)."""
    idx = real_tokens(rows, sizes)
    cols = np.empty((len(idx), len(FEATURES) + len(pairs)), dtype=np.int64)
    offset = 0
    for f, (table, shift) in enumerate(FEATURES):
        cols[:, f] = rows[idx + shift, TABLES.index(table)] + offset
        offset += sizes[table]
    for c, (key, kept) in enumerate(zip(pair_keys(rows, idx, sizes).T, pairs)):
        pos = np.minimum(np.searchsorted(kept, key), max(len(kept) - 1, 0))
        known = kept[pos] == key if len(kept) else np.zeros(len(key), bool)
        cols[:, len(FEATURES) + c] = np.where(known, pos, len(kept)) + offset
        offset += len(kept) + 1
    return cols


def n_columns(sizes: dict[str, int], pairs: Sequence[np.ndarray]) -> int:
    return sum(sizes[table] for table, _ in FEATURES) + sum(len(kept) + 1 for kept in pairs)


def scores(cols: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row's summed weights over its one-hot ``cols`` (``np.take``: several times faster
    than fancy indexing here)."""
    return np.take(weights, cols, axis=0).sum(axis=1)


class CoarseModel:
    """The linear classifier: per table, its sorted keys; per conjunction, its sorted kept pairs;
    one weight row per feature column (weights without conjunctions, ``pairs`` empty, load too)."""

    def __init__(self, keys: dict[str, np.ndarray], pairs: Sequence[np.ndarray], weights: np.ndarray,
                 bias: np.ndarray):
        self.keys = keys
        self.pairs = [np.asarray(p, dtype=np.int64) for p in pairs]
        self.sizes = {name: len(keys[name]) + 2 for name in TABLES}
        if len(self.pairs) not in (0, len(CONJUNCTIONS)) or weights.shape != (n_columns(self.sizes, self.pairs), len(COARSE)):
            raise ValueError(f"tagger weights of shape {weights.shape} do not fit its keys")
        self.weights = weights.astype(np.float32)
        self.bias = bias.astype(np.float32)

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> CoarseModel:
        with np.load(path) as data:
            pairs = [data[f"pairs_{c}"] for c in range(len(CONJUNCTIONS)) if f"pairs_{c}" in data]
            return cls({name: data[f"keys_{name}"] for name in TABLES}, pairs, data["weights"], data["bias"])

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {"weights": self.weights.astype(np.float16), "bias": self.bias}
        arrays.update({f"keys_{name}": self.keys[name] for name in TABLES})
        if any(len(kept) and kept.max() >= 2 ** 32 for kept in self.pairs):
            raise ValueError("a conjunction key past 2 ** 32: the tables are too large to store pairs as uint32")
        arrays.update({f"pairs_{c}": kept.astype(np.uint32) for c, kept in enumerate(self.pairs)})
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def predict(self, hashes: np.ndarray) -> np.ndarray:
        """The coarse tag index (into :data:`COARSE`) of every real token of ``hashes``."""
        cols = feature_columns(feature_rows(hashes, self.keys), self.sizes, self.pairs)
        return (scores(cols, self.weights) + self.bias).argmax(axis=1)


@functools.cache
def shipped_model() -> CoarseModel:
    return CoarseModel.load()


class CoarseTagger:
    """The spaCy pipeline component: each token's ``tag_`` set to its coarse tag's Penn tag
    (space tokens get ``_SP``), a batch of docs scored at once."""

    def __init__(self, model: CoarseModel):
        self.model = model

    def __call__(self, doc):  # noqa: ANN001, ANN204 - spaCy Doc
        return next(iter(self.pipe([doc])))

    def pipe(self, docs: Iterable, batch_size: int = 256) -> Iterator:
        batch: list = []
        for doc in docs:
            batch.append(doc)
            if len(batch) >= batch_size:
                yield from self._tag(batch)
                batch = []
        if batch:
            yield from self._tag(batch)

    def _tag(self, docs: list) -> list:
        from spacy.attrs import IS_SPACE, TAG

        hashes, lengths = token_hashes(docs)
        tags = self.model.predict(hashes)
        strings = docs[0].vocab.strings
        penn = np.array([strings.add(t) for t in PENN] + [strings.add("_SP")], dtype=np.uint64)
        start = 0
        for doc, n in zip(docs, lengths):
            if not len(doc):
                continue
            space = doc.to_array([IS_SPACE]).astype(bool).reshape(-1)
            col = np.full(len(doc), penn[-1], dtype=np.uint64)
            col[~space] = penn[tags[start:start + n]]
            start += n
            doc.from_array([TAG], col.reshape(-1, 1))
        return docs


def add_to(nlp) -> None:  # noqa: ANN001 - a spaCy Language
    """Add the component, with the shipped model, to a tokenizer-only pipeline."""
    from spacy.language import Language

    if not Language.has_factory(COMPONENT):
        Language.factory(COMPONENT, func=lambda nlp, name: CoarseTagger(shipped_model()))
    nlp.add_pipe(COMPONENT)


def model_id() -> str:
    """A short fingerprint of the shipped weights (the tag cache's, the model index's and a stored
    run's key), hashed once per file version (size, modification time), not on every key asked."""
    st = MODEL_FILE.stat()
    return _digest(str(MODEL_FILE), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=4)
def _digest(path: str, _mtime_ns: int, _size: int) -> str:
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def agreement(reference: Sequence, other: Sequence) -> dict[str, float]:
    """Token tag agreement and candidate-phrase agreement of ``other`` with ``reference``
    (lists of :class:`~dkw_core.phrases.TaggedDoc` over the same tokens)."""
    from collections import Counter

    tokens = agree = same = inter = n_ref = n_other = 0
    for a, b in zip(reference, other):
        if a.text != b.text:
            raise ValueError("the taggers' tokens differ")
        tokens += len(a.tags)
        agree += sum(x == y for x, y in zip(a.tags, b.tags))
        pa, pb = Counter(a.phrases()), Counter(b.phrases())
        same += pa == pb
        inter += sum((pa & pb).values())
        n_ref += sum(pa.values())
        n_other += sum(pb.values())
    p, r = inter / max(1, n_other), inter / max(1, n_ref)
    return {"token_tag_agreement": round(agree / max(1, tokens), 4),
            "phrase_precision": round(p, 4), "phrase_recall": round(r, 4),
            "phrase_f1": round(2 * p * r / max(1e-12, p + r), 4),
            "texts_with_equal_phrases": round(same / max(1, len(reference)), 4)}
