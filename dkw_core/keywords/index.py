"""Steps 1–3 for a whole corpus: candidate phrases, unique phrase vectors (Algorithm 1) and
their ``k_max`` nearest cropped-vocabulary words, found in batched matrix products.

A :class:`NeighbourIndex` is what a prepared corpus is: documents x phrases counts, each
phrase's unique-vector id, and the neighbours of every unique vector. It is saved in one
atomic cache folder (:mod:`dkw_core.cache`) keyed by the corpus's content key, the vectors,
``k_max`` and the neighbours spec (:mod:`dkw_core.neighbours`: cosine, CSLS, all-but-the-top);
any ``K <= k_max`` reuses the first K neighbours. The plain-cosine index keeps the key it had
before the spec existed, so prepared corpora stay valid.
"""
from __future__ import annotations

import json
import pickle
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .. import cache, config
from ..neighbours import neighbours_spec, searcher
from ..phrases import TaggedDoc
from ..types import DEFAULT_K, Progress, report, scaled
from ..vectors import Vectors, vectors_name

FORMAT = 3  # bump when the folder layout changes


@dataclass
class NeighbourIndex:
    phrases: list[str]            # unique candidate phrases of the corpus
    doc_phrase: sp.csr_matrix     # documents x phrases occurrence counts
    phrase_uid: np.ndarray        # phrase -> unique phrase vector id (-1: no known word)
    nbr_idx: np.ndarray           # unique vector x k_max nearest word ids (cropped vocabulary)
    nbr_sim: np.ndarray           # their retrieval scores (cosine unless the spec says otherwise)

    @property
    def k_max(self) -> int:
        return int(self.nbr_idx.shape[1])

    def doc_uid(self) -> sp.csr_matrix:
        """documents x unique phrase vectors occurrence counts."""
        keep = self.phrase_uid >= 0
        p2u = sp.csr_matrix((np.ones(int(keep.sum()), dtype=np.float32), (np.nonzero(keep)[0], self.phrase_uid[keep])),
                            shape=(len(self.phrases), self.nbr_idx.shape[0]))
        return (self.doc_phrase @ p2u).tocsr()

    def neighbour_matrix(self, k: int, vocabulary_size: int) -> sp.csr_matrix:
        """unique vectors x vocabulary, 1 where the word is among the vector's K nearest."""
        n = self.nbr_idx.shape[0]
        return sp.csr_matrix((np.ones(n * k, dtype=np.float32), self.nbr_idx[:, :k].astype(np.int32).ravel(),
                              np.arange(0, n * k + 1, k, dtype=np.int64)), shape=(n, vocabulary_size))


def build_index(tagged_docs: list[TaggedDoc], vectors: Vectors, k_max: int, *,
                progress: Progress | None = None, neighbours: str | None = None) -> NeighbourIndex:
    """Phrases of every tagged document, their unique vectors and ``k_max`` nearest words
    under the ``neighbours`` spec (default plain cosine)."""
    report(progress, 0.0, "extracting candidate phrases")
    phrases, indptr, indices, data = count_phrases(tagged_docs)
    doc_phrase = sp.csr_matrix((data, indices, indptr), shape=(len(tagged_docs), len(phrases)))
    report(progress, 0.2, f"phrase vectors of {len(phrases):,} unique phrases (Algorithm 1)")
    phrase_uid, unit_lists = unique_units(vectors, phrases)
    report(progress, 0.3, f"{len(unit_lists):,} unique phrase vectors")
    search = searcher(vectors, neighbours)
    nbr_idx, nbr_sim = search.nearest(vectors.compose(unit_lists), k_max, progress=scaled(progress, 0.3, 1.0))
    nbr_idx = nbr_idx.astype(np.uint16 if len(vectors.cropped_words) < 65536 else np.int32)
    return NeighbourIndex(phrases, doc_phrase, phrase_uid, nbr_idx, nbr_sim.astype(np.float16))


def count_phrases(tagged_docs) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Candidate phrases of tagged documents as CSR parts of the documents x phrases counts:
    ``(phrases in order of first appearance, indptr int64, indices int64, data float32)``.
    A cluster partition calls it on its documents and the merge renumbers the ids
    (:mod:`dkw_core.cluster.prepare`), which keeps the single-machine order."""
    phrase_id: dict[str, int] = {}
    indptr, indices, data = [0], [], []
    for t in tagged_docs:
        for ph, c in Counter(t.phrases()).items():
            indices.append(phrase_id.setdefault(ph, len(phrase_id)))
            data.append(c)
        indptr.append(len(indices))
    return (list(phrase_id), np.asarray(indptr, dtype=np.int64), np.asarray(indices, dtype=np.int64),
            np.asarray(data, dtype=np.float32))


def document_problems(doc_ids: list[str], empty_text, index: NeighbourIndex, vectors_name: str) -> dict[str, str]:
    """Why a document will have no keywords: empty, no noun phrase, or no word the vectors know
    (``empty_text[i]``: document i's tagged text is empty)."""
    out: dict[str, str] = {}
    no_phrase = np.diff(index.doc_phrase.indptr) == 0
    for i in np.nonzero(np.diff(index.doc_uid().indptr) == 0)[0]:  # any usable phrase gives a non-empty row
        if empty_text[i]:
            out[doc_ids[i]] = "empty document"
        elif no_phrase[i]:
            out[doc_ids[i]] = "no candidate noun phrases"
        else:
            out[doc_ids[i]] = f"no phrase with a word known to {vectors_name}"
    return out


def phrase_words(vectors: Vectors, phrases: list[str]) -> sp.csr_matrix:
    """phrases x cropped vocabulary, 1 where the word is itself one of the phrase's units
    (Algorithm 1's split): a document's *own* words, as opposed to the substituted ones."""
    column = np.full(len(vectors.key_to_index), -1, dtype=np.int64)
    column[vectors.cropped_index] = np.arange(len(vectors.cropped_index))
    rows: list[int] = []
    cols: list[int] = []
    units_fn = vectors.units
    for i, ph in enumerate(phrases):
        for c in {int(column[u]) for u in units_fn(ph.split(" "))}:
            if c >= 0:
                rows.append(i)
                cols.append(c)
    return sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                         shape=(len(phrases), len(vectors.cropped_index)))


def unique_units(vectors: Vectors, phrases: list[str]) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Map phrases to unique unit tuples (identical tuples give identical vectors)."""
    uid_of: dict[tuple[int, ...], int] = {}
    phrase_uid = np.full(len(phrases), -1, dtype=np.int64)
    units_fn = vectors.units
    for i, ph in enumerate(phrases):
        u = units_fn(ph.split(" "))
        if u:
            phrase_uid[i] = uid_of.setdefault(u, len(uid_of))
    return phrase_uid, list(uid_of)


# -- the cache folder ---------------------------------------------------------------------------
def index_path(corpus_key: str, vectors: Vectors | str | None = None, k_max: int = DEFAULT_K,
               neighbours: str | None = None) -> Path:
    """Cache folder of a (corpus content key, vectors or vectors name, k_max, neighbours spec);
    a corpus prepared under the fast tagger (``DKW_PREPARE_TAGGER=fast``) is kept apart from spaCy's."""
    vname = vectors.name if isinstance(vectors, Vectors) else (vectors or vectors_name())
    spec = neighbours_spec(neighbours)
    if config.prepare_tagger() == "fast":  # whatever the default: spaCy-tagged caches keep the key they always had
        from ..fasttagger import model_id

        spec = f"{spec}__fast-tagger-{model_id()}"  # retrained weights: another tagging, another model
    if spec == "cosine":  # the key it had before the spec existed
        return cache.path("models", cache.key(FORMAT, corpus_key, vname, k_max,
                                              readable=f"{corpus_key}__{vname}__k{k_max}"))
    return cache.path("models", cache.key(FORMAT, corpus_key, vname, k_max, spec,
                                          readable=f"{corpus_key}__{vname}__k{k_max}__{spec}"))


def read_meta(path: Path) -> dict | None:
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    return meta if meta.get("format") == FORMAT else None


def save_index(path: Path, index: NeighbourIndex, meta: dict) -> None:
    with cache.atomic_dir(path) as tmp:
        sp.save_npz(tmp / "doc_phrase.npz", index.doc_phrase, compressed=False)
        np.save(tmp / "phrase_uid.npy", index.phrase_uid)
        np.save(tmp / "nbr_idx.npy", index.nbr_idx)
        np.save(tmp / "nbr_sim.npy", index.nbr_sim)
        with (tmp / "phrases.pkl").open("wb") as fh:
            pickle.dump(index.phrases, fh, protocol=pickle.HIGHEST_PROTOCOL)
        sums = {f: cache.file_checksum(tmp / f) for f in ARRAY_FILES}
        (tmp / "meta.json").write_text(json.dumps({**meta, "format": FORMAT, "checksums": sums}))


ARRAY_FILES = ("doc_phrase.npz", "phrase_uid.npy", "nbr_idx.npy", "nbr_sim.npy", "phrases.pkl")


class DamagedIndex(ValueError):
    """A cached array does not match the checksum written with it."""


VERIFIED = "verified.json"
"""Beside a folder's arrays once their checksums matched: each file's size and modification time
then. A later load whose files still have them is not hashed again (the arrays are 70-260 MB:
hashing them was a second of every page's first open); any rewrite, truncation or copy changes
them and the checksums are verified again."""


def _signature(path: Path, names) -> dict[str, list[int]]:
    out = {}
    for name in names:
        st = (path / name).stat()
        out[name] = [st.st_size, st.st_mtime_ns]
    return out


def verify_index(path: Path, meta: dict) -> None:
    """Check every cached array against the checksum in ``meta`` (folders written before
    checksums existed have none and are read as they are), unless they are unchanged since they
    last matched (:data:`VERIFIED`)."""
    sums = meta.get("checksums") or {}
    if not sums:
        return
    try:
        signature = _signature(path, sums)
    except OSError as exc:
        raise DamagedIndex(f"a cached array cannot be read ({exc.strerror or exc})") from None
    try:
        if json.loads((path / VERIFIED).read_text()) == signature:
            return
    except (OSError, ValueError):
        pass
    for name, expected in sums.items():
        if cache.file_checksum(path / name) != expected:
            raise DamagedIndex(f"{name} does not match its checksum")
    try:
        (path / VERIFIED).write_text(json.dumps(signature))
    except OSError:  # a read-only data folder: verified again next time
        pass


def load_index(path: Path) -> NeighbourIndex:
    with (path / "phrases.pkl").open("rb") as fh:
        phrases = pickle.load(fh)
    return NeighbourIndex(phrases, sp.load_npz(path / "doc_phrase.npz").tocsr(), np.load(path / "phrase_uid.npy"),
                          np.load(path / "nbr_idx.npy"), np.load(path / "nbr_sim.npy"))
