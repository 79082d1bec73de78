"""Steps 4–6 — weighting, top-N keywords and document vectors (paper §3.3, §4.2.1).

:class:`KeywordModel` is prepared once per (corpus, vectors, k_max): every document is tagged
(cached by :mod:`dkw_core.phrases`), its candidate phrases are mapped to unique phrase vectors
(Algorithm 1) and the ``k_max`` nearest cropped-vocabulary words of every unique vector are
found in batched matrix products (:mod:`dkw_core.neighbours`); all of that is cached on disk.
Any ``K <= k_max`` uses the first K neighbours, so trying a setup never re-tags or re-searches.

tf(w, d) is the number of phrase occurrences of d whose K nearest words include w (one K for
local and global counts, K1 = K2 = K). Metric statistics come from the training split only.

Protocols (METHOD.md §3): ``label-aware`` scores each document with its gold category (the
paper's setting, which writes the label into the keywords); ``label-free`` scores a word by its
maximum over categories and never reads the labels of the documents it ranks.
"""
from __future__ import annotations

import json
import os
import pickle
import re
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .config import cache_dir
from .errors import CorpusError, InputError
from .metrics import CategoryStats, category_scores, get_metric
from .neighbours import nearest
from .longtext import check_size, count_phrases
from .phrases import MAX_PHRASE_LEN, TaggedDoc, get_tagger, tag_corpus
from .vectors import Vectors, load_vectors, vectors_name

Progress = Callable[[float, str], None]
PROTOCOLS = ("label-aware", "label-free")
_FORMAT = 2  # bump when the cache layout changes


@dataclass(frozen=True)
class Provenance:
    """A phrase of the document that led to a keyword."""

    phrase: str
    similarity: float  # cosine similarity of the phrase vector and the keyword
    count: int         # occurrences of the phrase in the document


@dataclass(frozen=True)
class Keyword:
    word: str
    score: float
    tf: int
    provenance: tuple[Provenance, ...] = field(default=())


def check_protocol(protocol: str) -> str:
    if protocol not in PROTOCOLS:
        raise InputError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return protocol


def _scaled(progress: Progress | None, lo: float, hi: float) -> Progress | None:
    if progress is None:
        return None
    return lambda f, msg: progress(lo + (hi - lo) * min(max(f, 0.0), 1.0), msg)


def top_n(counts: sp.csr_matrix, scores: np.ndarray, *, labels: np.ndarray | None, use_tf: bool,
          top: int) -> np.ndarray:
    """Top-``top`` column indices per row of ``counts`` (words present in the document).

    ``scores`` is (categories x vocabulary). With ``labels`` each row is scored with its own
    category's row (label-aware); without, with the maximum over categories (label-free).
    The ``tf-`` variants multiply by the row's counts. Ties go to the lower (more frequent)
    column. Rows with fewer words are padded with -1.
    """
    counts = counts.tocsr()
    out = np.full((counts.shape[0], top), -1, dtype=np.int32)
    free = scores.max(axis=0) if labels is None else None
    indptr, indices, data = counts.indptr, counts.indices, counts.data
    for r in range(counts.shape[0]):
        lo, hi = indptr[r], indptr[r + 1]
        if lo == hi:
            continue
        cols = indices[lo:hi]
        s = (free[cols] if labels is None else scores[labels[r], cols]).astype(np.float64)
        if use_tf:
            s = s * data[lo:hi]
        if hi - lo > top:
            keep = np.argpartition(-s, top - 1)[:top]
            # widen to every column tied with the cut-off so the tie rule is exact
            cut = s[keep].min()
            keep = np.nonzero(s >= cut)[0]
            cols_k, s_k = cols[keep], s[keep]
        else:
            cols_k, s_k = cols, s
        order = np.lexsort((cols_k, -s_k))[:top]
        out[r, : len(order)] = cols_k[order]
    return out


class _TermModel:
    """Shared by the vector model and the bag-of-words baseline: documents x terms counts,
    training-split statistics, metric scores and ranking."""

    vocabulary: list[str]
    categories: list[str]

    def _init_docs(self, corpus) -> None:
        self.corpus = corpus
        self.categories = list(corpus.categories)
        cat_index = {c: i for i, c in enumerate(self.categories)}
        self._ids = [d.id for d in corpus.documents]
        self._row = {d: i for i, d in enumerate(self._ids)}
        self._labels = np.array([cat_index[d.label] for d in corpus.documents], dtype=np.int64)
        splits = np.array([d.split for d in corpus.documents])
        self._split_rows = {s: np.nonzero(splits == s)[0] for s in ("train", "test")}
        self._split_rows["all"] = np.arange(len(self._ids))
        if len(self._split_rows["train"]) == 0:
            raise CorpusError(f"corpus {corpus.name} has no training documents")
        self._scores_cache: dict[tuple, np.ndarray] = {}
        self._stats_cache: dict[int | None, CategoryStats] = {}

    def rows(self, split: str) -> np.ndarray:
        if split not in self._split_rows:
            raise InputError(f"unknown split {split!r}; choose train, test or all")
        return self._split_rows[split]

    def doc_ids(self, split: str = "all") -> list[str]:
        return [self._ids[i] for i in self.rows(split)]

    def labels(self, split: str = "all") -> np.ndarray:
        """Gold category indices of a split (the label-free protocol never calls this for the
        split it ranks)."""
        return self._labels[self.rows(split)]

    def has_doc(self, doc_id: str) -> bool:
        return doc_id in self._row

    def _all_counts(self, k: int | None) -> sp.csr_matrix:  # pragma: no cover - abstract
        raise NotImplementedError

    def term_counts(self, split: str, k: int | None = None) -> sp.csr_matrix:
        """tf(w, d) for the documents of ``split`` (rows in corpus order)."""
        return self._all_counts(k)[self.rows(split)]

    def metric_scores(self, metric: str, k: int | None = None) -> np.ndarray:
        """(categories x vocabulary) scores of the metric's base, from the training split only."""
        base = get_metric(metric).base
        key = (base, k)
        if key not in self._scores_cache:
            self._scores_cache[key] = category_scores(base, self.category_stats(k))
        return self._scores_cache[key]

    def category_stats(self, k: int | None = None) -> CategoryStats:
        """ABCD statistics of the training split for this K (kept in memory and, for a cached
        model, on disk: a document's keywords then never need the whole corpus's counts)."""
        if k in self._stats_cache:
            return self._stats_cache[k]
        path = self._stats_path(k)
        stats = None
        if path is not None and path.exists():
            try:
                with np.load(path) as z:
                    stats = CategoryStats(doc_freq=z["doc_freq"], n_docs=z["n_docs"], term_freq=z["term_freq"])
            except (OSError, ValueError, KeyError):
                stats = None
        if stats is None:
            stats = CategoryStats.from_matrices(self.term_counts("train", k), self.labels("train"), len(self.categories))
            if path is not None:
                tmp = path.with_name(path.stem + f".tmp{os.getpid()}.npz")
                np.savez(tmp, doc_freq=stats.doc_freq, n_docs=stats.n_docs, term_freq=stats.term_freq)
                os.replace(tmp, path)
        self._stats_cache[k] = stats
        return stats

    def _stats_path(self, k: int | None) -> Path | None:
        return None

    def rank(self, split: str, *, metric: str, k: int | None = None, top: int = 10,
             protocol: str = "label-aware", labels: np.ndarray | None = None) -> np.ndarray:
        """(documents x top) vocabulary indices of each document's keywords, -1 padded.

        ``labels`` overrides the gold labels used by the label-aware protocol (e.g. to score
        with a predicted category)."""
        check_protocol(protocol)
        m = get_metric(metric)
        if protocol == "label-free":
            labels = None
        elif labels is None:
            labels = self.labels(split)
        return top_n(self.term_counts(split, k), self.metric_scores(metric, k), labels=labels, use_tf=m.tf, top=top)

    def words(self, index_rows: np.ndarray) -> list[list[str]]:
        return [[self.vocabulary[i] for i in row if i >= 0] for row in index_rows]

    def _score_row(self, cols: np.ndarray, tf: np.ndarray, *, metric: str, k: int | None, label: int | None):
        m = get_metric(metric)
        scores = self.metric_scores(metric, k)
        s = (scores.max(axis=0)[cols] if label is None else scores[label, cols]).astype(np.float64)
        return s * tf if m.tf else s

    def _label_of(self, doc, protocol: str) -> int | None:
        check_protocol(protocol)
        if protocol == "label-free":
            return None
        if doc.label not in self.categories:
            raise InputError(f"document {doc.id} has category {doc.label!r}, unknown to corpus {self.corpus.name}")
        return self.categories.index(doc.label)

    def _document(self, doc):
        if isinstance(doc, str):
            return self.corpus.get(doc)
        return doc


class KeywordModel(_TermModel):
    """Discriminative keywords in word-vector space for one corpus and one vector model."""

    def __init__(self, corpus, vectors: Vectors, k_max: int, *, phrases: list[str], doc_phrase: sp.csr_matrix,
                 phrase_uid: np.ndarray, nbr_idx: np.ndarray, nbr_sim: np.ndarray, problems: dict[str, str]):
        self._init_docs(corpus)
        self.vectors = vectors
        self.k_max = k_max
        self.vocabulary = vectors.cropped_words
        self.phrases = phrases
        self.doc_phrase = doc_phrase
        self.phrase_uid = phrase_uid
        self.nbr_idx = nbr_idx
        self.nbr_sim = nbr_sim
        self.problems = problems  # doc id -> why it has no keywords
        self.cache_dir: Path | None = None  # set when the model lives in the disk cache
        keep = phrase_uid >= 0
        p2u = sp.csr_matrix((np.ones(int(keep.sum()), dtype=np.float32), (np.nonzero(keep)[0], phrase_uid[keep])),
                            shape=(len(phrases), nbr_idx.shape[0]))
        self.doc_uid = (doc_phrase @ p2u).tocsr()
        self._counts_cache: dict[int, sp.csr_matrix] = {}

    # -- preparation and cache --------------------------------------------------------------
    @staticmethod
    def cache_path(corpus, vectors: Vectors | str | None = None, k_max: int = 90) -> Path:
        """Cache folder of a (corpus or corpus key, vectors or vectors name, k_max)."""
        vname = vectors.name if isinstance(vectors, Vectors) else (vectors or vectors_name())
        key = corpus if isinstance(corpus, str) else corpus.key
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{key}__{vname}__k{k_max}")
        return cache_dir("models") / safe

    @classmethod
    def is_prepared(cls, corpus, vectors: Vectors | str | None = None, k_max: int = 90) -> bool:
        meta = cls.cache_path(corpus, vectors, k_max) / "meta.json"
        if not meta.exists():
            return False
        try:
            return json.loads(meta.read_text()).get("format") == _FORMAT
        except (OSError, ValueError):
            return False

    @classmethod
    def prepare(cls, corpus, vectors: Vectors | None = None, *, k_max: int = 90, n_process: int | None = None,
                progress: Progress | None = None, cache: bool = True) -> "KeywordModel":
        """Tag, extract phrases, build phrase vectors and their ``k_max`` nearest words — or
        load all of that from the cache."""
        vectors = vectors or load_vectors()
        if k_max < 1:
            raise InputError("k_max must be at least 1")
        path = cls.cache_path(corpus, vectors, k_max)
        if cache and cls.is_prepared(corpus, vectors, k_max):
            try:
                return cls._load(corpus, vectors, k_max, path)
            except (OSError, ValueError, KeyError, pickle.UnpicklingError, EOFError):
                shutil.rmtree(path, ignore_errors=True)  # damaged cache: rebuild
        tagged = tag_corpus(corpus, n_process=n_process, progress=_scaled(progress, 0.0, 0.6), cache=cache)
        if progress:
            progress(0.6, "extracting candidate phrases")
        phrase_id: dict[str, int] = {}
        indptr, indices, data = [0], [], []
        problems: dict[str, str] = {}
        for doc in corpus.documents:
            t = tagged[doc.id]
            counts = Counter(t.phrases())
            if not t.text:
                problems[doc.id] = "empty document"
            elif not counts:
                problems[doc.id] = "no candidate noun phrases"
            for ph, c in counts.items():
                indices.append(phrase_id.setdefault(ph, len(phrase_id)))
                data.append(c)
            indptr.append(len(indices))
        phrases = list(phrase_id)
        doc_phrase = sp.csr_matrix((np.asarray(data, dtype=np.float32), np.asarray(indices, dtype=np.int64),
                                    np.asarray(indptr, dtype=np.int64)), shape=(len(corpus.documents), len(phrases)))
        if progress:
            progress(0.68, f"phrase vectors of {len(phrases):,} unique phrases (Algorithm 1)")
        phrase_uid, unit_lists = _unique_units(vectors, phrases)
        if progress:
            progress(0.72, f"{len(unit_lists):,} unique phrase vectors")
        qv = vectors.compose(unit_lists)
        nbr_idx, nbr_sim = nearest(qv, vectors.cropped_matrix, k_max, progress=_scaled(progress, 0.72, 0.97))
        nbr_idx = nbr_idx.astype(np.uint16 if len(vectors.cropped_words) < 65536 else np.int32)
        nbr_sim = nbr_sim.astype(np.float16)
        model = cls(corpus, vectors, k_max, phrases=phrases, doc_phrase=doc_phrase, phrase_uid=phrase_uid,
                    nbr_idx=nbr_idx, nbr_sim=nbr_sim, problems={})
        empty_rows = np.diff(model.doc_uid.indptr) == 0
        for i in np.nonzero(empty_rows)[0]:
            problems.setdefault(model._ids[i], f"no phrase with a word known to {vectors.name}")
        model.problems = problems
        if cache:
            model._save(path)
            model.cache_dir = path
        if progress:
            progress(1.0, f"prepared {corpus.name}: {len(corpus.documents):,} documents, {len(problems):,} without keywords")
        return model

    def _save(self, path: Path) -> None:
        tmp = path.with_name(path.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        sp.save_npz(tmp / "doc_phrase.npz", self.doc_phrase, compressed=False)
        np.save(tmp / "phrase_uid.npy", self.phrase_uid)
        np.save(tmp / "nbr_idx.npy", self.nbr_idx)
        np.save(tmp / "nbr_sim.npy", self.nbr_sim)
        with (tmp / "phrases.pkl").open("wb") as fh:
            pickle.dump(self.phrases, fh, protocol=pickle.HIGHEST_PROTOCOL)
        meta = {"format": _FORMAT, "corpus": self.corpus.key, "vectors": self.vectors.name, "k_max": self.k_max,
                "doc_ids": self._ids, "problems": self.problems, "vocabulary_size": len(self.vocabulary)}
        (tmp / "meta.json").write_text(json.dumps(meta))
        shutil.rmtree(path, ignore_errors=True)
        os.replace(tmp, path)

    @classmethod
    def _load(cls, corpus, vectors: Vectors, k_max: int, path: Path) -> "KeywordModel":
        meta = json.loads((path / "meta.json").read_text())
        if meta["doc_ids"] != [d.id for d in corpus.documents] or meta["vocabulary_size"] != len(vectors.cropped_words):
            raise ValueError("cache does not match the corpus or vectors")
        with (path / "phrases.pkl").open("rb") as fh:
            phrases = pickle.load(fh)
        model = cls(corpus, vectors, k_max, phrases=phrases, doc_phrase=sp.load_npz(path / "doc_phrase.npz").tocsr(),
                    phrase_uid=np.load(path / "phrase_uid.npy"), nbr_idx=np.load(path / "nbr_idx.npy"),
                    nbr_sim=np.load(path / "nbr_sim.npy"), problems=meta["problems"])
        model.cache_dir = path
        return model

    def _stats_path(self, k: int | None) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"stats_k{self._check_k(k)}.npz"

    @classmethod
    def from_texts(cls, texts: Sequence[str], labels: Sequence[str], *, vectors: Vectors | None = None,
                   k_max: int = 90, name: str = "texts") -> "KeywordModel":
        """A model whose training split is the given texts (not cached on disk)."""
        from .datasets import Corpus, Document

        if len(texts) != len(labels):
            raise InputError(f"{len(texts)} texts but {len(labels)} labels")
        docs = [Document(id=f"{name}/train/{lab}/{i}", text=t, label=str(lab), split="train")
                for i, (t, lab) in enumerate(zip(texts, labels))]
        corpus = Corpus(name=name, documents=docs, categories=sorted({str(x) for x in labels}))
        return cls.prepare(corpus, vectors, k_max=k_max, cache=False)

    # -- bulk -----------------------------------------------------------------------------------
    def _check_k(self, k: int | None) -> int:
        k = self.k_max if k is None else int(k)
        if not 1 <= k <= self.k_max:
            raise InputError(f"K must be between 1 and {self.k_max} (the prepared k_max), got {k}")
        return k

    def _neighbour_matrix(self, k: int) -> sp.csr_matrix:
        n = self.nbr_idx.shape[0]
        return sp.csr_matrix((np.ones(n * k, dtype=np.float32), self.nbr_idx[:, :k].astype(np.int32).ravel(),
                              np.arange(0, n * k + 1, k, dtype=np.int64)), shape=(n, len(self.vocabulary)))

    def _all_counts(self, k: int | None) -> sp.csr_matrix:
        k = self._check_k(k)
        if k not in self._counts_cache:
            if len(self._counts_cache) >= 2:
                self._counts_cache.pop(next(iter(self._counts_cache)))
            counts = (self.doc_uid @ self._neighbour_matrix(k)).tocsr()
            counts.sort_indices()
            self._counts_cache[k] = counts
        return self._counts_cache[k]

    def document_vectors(self, index_rows: np.ndarray) -> np.ndarray:
        """Normalised sum of the keyword vectors of each row (paper §4.2.1); a row without
        keywords gives a zero vector."""
        mat = np.vstack([self.vectors.cropped_matrix, np.zeros((1, self.vectors.dim), dtype=np.float32)])
        rows = np.where(index_rows < 0, len(self.vocabulary), index_rows)
        summed = mat[rows].sum(axis=1)
        norms = np.linalg.norm(summed, axis=1, keepdims=True)
        return summed / np.where(norms == 0, 1, norms)

    # -- one document, with provenance ---------------------------------------------------------
    def _doc_units(self, doc) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """(phrases, counts, neighbour idx, neighbour sims) of one document."""
        if self.has_doc(doc.id) and self.corpus.get(doc.id).text == doc.text:
            row = self.doc_phrase[self._row[doc.id]]
            pids, cnts = row.indices, row.data
            uids = self.phrase_uid[pids]
            ok = uids >= 0
            if not len(pids):
                _raise_unusable(doc.id, doc.text)
            if not ok.any():
                raise InputError(f"document {doc.id}: none of its {len(pids)} phrases has a word known to {self.vectors.name}")
            return ([self.phrases[p] for p in pids[ok]], cnts[ok], self.nbr_idx[uids[ok]].astype(np.int64),
                    self.nbr_sim[uids[ok]].astype(np.float32))
        return self._text_units(doc.id, doc.text)

    def _text_units(self, name: str, text: str, progress=None):
        if not text or not text.strip():
            raise InputError(f"{name}: the document is empty")
        check_size(len(text.encode("utf-8", "surrogatepass")), name)  # before any heavy work
        # tagged piece by piece, counts streamed: bounded memory for long texts (longtext.py)
        return self._counted_units(name, text, count_phrases(text, progress=progress))

    def _tagged_units(self, name: str, text: str, tagged: TaggedDoc):
        return self._counted_units(name, text, Counter(tagged.phrases()))

    def _counted_units(self, name: str, text: str, counts: Counter):
        if not counts:
            _raise_unusable(name, text)
        phrases = list(counts)
        units = [self.vectors.units(p.split(" ")) for p in phrases]
        keep = [i for i, u in enumerate(units) if u]
        if not keep:
            raise InputError(f"{name}: none of its {len(phrases)} candidate phrases has a word known to {self.vectors.name}")
        idx, sims = nearest(self.vectors.compose([units[i] for i in keep]), self.vectors.cropped_matrix, self.k_max)
        return ([phrases[i] for i in keep], np.array([counts[phrases[i]] for i in keep], dtype=np.float32),
                idx.astype(np.int64), sims)

    def _keywords_from_units(self, units, *, metric: str, k: int | None, top: int, label: int | None) -> list[Keyword]:
        k = self._check_k(k)
        phrases, counts, idx, sims = units
        idx, sims = idx[:, :k], sims[:, :k]
        flat = idx.ravel()
        weights = np.repeat(counts, k)
        cols, inv = np.unique(flat, return_inverse=True)
        tf = np.bincount(inv, weights=weights)
        s = self._score_row(cols, tf, metric=metric, k=k, label=label)
        order = np.lexsort((cols, -s))[:top]
        out = []
        for j in order:
            w = cols[j]
            rows, pos = np.nonzero(idx == w)
            prov = sorted((Provenance(phrases[r], float(sims[r, p]), int(counts[r])) for r, p in zip(rows, pos)),
                          key=lambda pr: (-pr.similarity, pr.phrase))
            out.append(Keyword(self.vocabulary[w], float(s[j]), int(tf[j]), tuple(prov)))
        return out

    def keywords(self, doc, *, metric: str, k: int | None = None, top: int = 10,
                 protocol: str = "label-aware") -> list[Keyword]:
        """Top-``top`` keywords of a corpus document (id or :class:`Document`) with provenance."""
        doc = self._document(doc)
        label = self._label_of(doc, protocol)
        return self._keywords_from_units(self._doc_units(doc), metric=metric, k=k, top=top, label=label)

    def keywords_for_text(self, text: str, *, metric: str, k: int | None = None, top: int = 10,
                          label: str | None = None, name: str = "text", progress=None) -> list[Keyword]:
        """Keywords of a new text: label-free unless a category ``label`` is given. Texts up to
        ``DKW_MAX_TEXT_MB`` are tagged in pieces, in bounded memory (:mod:`dkw_core.longtext`)."""
        lab = None
        if label is not None:
            if label not in self.categories:
                raise InputError(f"unknown category {label!r} for corpus {self.corpus.name}")
            lab = self.categories.index(label)
        key = (name, len(text), hash(text))
        last = getattr(self, "_last_text", None)
        if last is None or last[0] != key or last[1] is not text and last[1] != text:
            self._last_text = last = (key, text, self._text_units(name, text, progress))  # several metrics, one tagging
        return self._keywords_from_units(last[2], metric=metric, k=k, top=top, label=lab)

    def counts_for_texts(self, texts: Sequence[str], k: int | None = None) -> sp.csr_matrix:
        """tf(w, d) rows for new texts (tagged now, not cached); texts without usable phrases
        give empty rows."""
        k = self._check_k(k)
        tagger = get_tagger()
        rows, cols, vals = [], [], []
        for r, tagged in enumerate(tagger.tag_many(texts)):
            try:
                _, counts, idx, _ = self._tagged_units(f"text {r}", tagged.text, tagged)
            except InputError:
                continue
            rows.append(np.full(idx.shape[0] * k, r))
            cols.append(idx[:, :k].ravel())
            vals.append(np.repeat(counts, k))
        if not rows:
            return sp.csr_matrix((len(texts), len(self.vocabulary)), dtype=np.float32)
        m = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                          shape=(len(texts), len(self.vocabulary)), dtype=np.float32)
        m.sum_duplicates()
        return m

    def rank_texts(self, texts: Sequence[str], *, metric: str, k: int | None = None, top: int = 10) -> np.ndarray:
        """Label-free keyword indices of new texts."""
        counts = self.counts_for_texts(texts, k)
        return top_n(counts, self.metric_scores(metric, k), labels=None, use_tf=get_metric(metric).tf, top=top)


def _raise_unusable(name: str, text: str):
    """A document without candidate phrases: empty, or no nouns."""
    if not text or not text.strip():
        raise InputError(f"{name}: the document is empty")
    raise InputError(f"{name}: no candidate noun phrases (the tagger found no nouns)")


def _unique_units(vectors: Vectors, phrases: list[str]) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Map phrases to unique unit tuples (identical tuples give identical vectors)."""
    uid_of: dict[tuple[int, ...], int] = {}
    phrase_uid = np.full(len(phrases), -1, dtype=np.int64)
    units_fn = vectors.units
    for i, ph in enumerate(phrases):
        u = units_fn(ph.split(" "))
        if u:
            phrase_uid[i] = uid_of.setdefault(u, len(uid_of))
    return phrase_uid, list(uid_of)


# -- the bag-of-words baseline -------------------------------------------------------------------
_STOP: frozenset[str] | None = None


def _content_words(tagged: TaggedDoc) -> list[str]:
    global _STOP
    if _STOP is None:
        from spacy.lang.en.stop_words import STOP_WORDS

        _STOP = frozenset(STOP_WORDS)
    return [w for w in (t.lower() for t in tagged.tokens) if len(w) > 1 and w.isalpha() and w not in _STOP]


class BaselineModel(_TermModel):
    """The same metrics over each document's own words, no vectors (the human study's method A,
    ``tf-rf`` after Lan et al. 2006; and the bag-of-words baseline of the evaluation).

    Words are the document's alphabetic, lower-cased tokens that are not stop words; the
    vocabulary is that of the training split (test words unseen in training have no statistics).
    """

    def __init__(self, corpus, counts: sp.csr_matrix, vocabulary: list[str], tagged: dict[str, TaggedDoc]):
        self._init_docs(corpus)
        self._counts = counts
        self.vocabulary = vocabulary
        self._tagged = tagged
        self._vocab_index = {w: i for i, w in enumerate(vocabulary)}

    @classmethod
    def prepare(cls, corpus, *, n_process: int | None = None, progress: Progress | None = None,
                cache: bool = True) -> "BaselineModel":
        from sklearn.feature_extraction.text import CountVectorizer

        tagged = tag_corpus(corpus, n_process=n_process, progress=progress, cache=cache)
        words = {d.id: _content_words(tagged[d.id]) for d in corpus.documents}
        vec = CountVectorizer(analyzer=lambda ws: ws, dtype=np.float32)
        vec.fit([words[d.id] for d in corpus.documents if d.split == "train"])
        counts = vec.transform([words[d.id] for d in corpus.documents]).tocsr()
        counts.sort_indices()
        return cls(corpus, counts, list(vec.get_feature_names_out()), tagged)

    def _all_counts(self, k: int | None) -> sp.csr_matrix:
        return self._counts

    def keywords(self, doc, *, metric: str = "tf-rf", k: int | None = None, top: int = 10,
                 protocol: str = "label-aware") -> list[Keyword]:
        doc = self._document(doc)
        label = self._label_of(doc, protocol)
        tagged = self._tagged.get(doc.id) if self.has_doc(doc.id) else None
        if tagged is None:
            if not doc.text.strip():
                raise InputError(f"{doc.id}: the document is empty")
            tagged = get_tagger().tag(doc.text)
        tf = Counter(w for w in _content_words(tagged) if w in self._vocab_index)
        if not tf:
            raise InputError(f"{doc.id}: none of its words occurs in the training split of {self.corpus.name}")
        cols = np.array([self._vocab_index[w] for w in tf])
        tfv = np.array(list(tf.values()), dtype=np.float64)
        s = self._score_row(cols, tfv, metric=metric, k=None, label=label)
        order = np.lexsort((cols, -s))[:top]
        return [Keyword(self.vocabulary[cols[j]], float(s[j]), int(tfv[j]),
                        (Provenance(self.vocabulary[cols[j]], 1.0, int(tfv[j])),)) for j in order]


# -- method specs (human study) ------------------------------------------------------------------
_LATENT = re.compile(r"^latent-(\d+)word-knn(\d+)-(.+)$")
_MODELS: dict[tuple, _TermModel] = {}


def parse_method(spec: str) -> dict:
    """``latent-5word-knn90-rf`` → the method with phrases of at most 5 words, K = 90 and rf;
    a bare metric name (``tf-rf``) → that metric over the document's own words."""
    m = _LATENT.match(spec)
    if m:
        max_len, k, metric = int(m.group(1)), int(m.group(2)), m.group(3)
        if max_len != MAX_PHRASE_LEN:
            raise InputError(f"{spec}: only {MAX_PHRASE_LEN}-word phrases are supported")
        get_metric(metric)
        return {"kind": "latent", "k": k, "metric": metric}
    get_metric(spec)
    return {"kind": "baseline", "k": None, "metric": spec}


def model_for(corpus, spec: str, *, progress: Progress | None = None) -> _TermModel:
    """The (process-cached) model a method spec needs for ``corpus``."""
    p = parse_method(spec)
    key = (corpus.key, p["kind"], max(90, p["k"] or 0))
    if key not in _MODELS:
        if p["kind"] == "latent":
            _MODELS[key] = KeywordModel.prepare(corpus, k_max=max(90, p["k"]), progress=progress)
        else:
            _MODELS[key] = BaselineModel.prepare(corpus, progress=progress)
    return _MODELS[key]


def keywords_by_method(spec: str, *, dataset, doc_ids: Sequence[str], top: int,
                       protocol: str = "label-aware", progress: Progress | None = None) -> dict[str, list[str]]:
    """Keywords of the given documents by a method spec (see :func:`parse_method`).
    ``dataset`` is a corpus name or a loaded corpus."""
    from .datasets import load_corpus

    corpus = load_corpus(dataset) if isinstance(dataset, str) else dataset
    p = parse_method(spec)
    model = model_for(corpus, spec, progress=progress)
    return {d: [kw.word for kw in model.keywords(d, metric=p["metric"], k=p["k"], top=top, protocol=protocol)]
            for d in doc_ids}
