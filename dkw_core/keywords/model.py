"""Steps 4–6 on word vectors: :class:`KeywordModel`, the paper's discriminative keywords.

Prepared once per (corpus content, vectors, k_max, neighbours spec) — see :mod:`.index` and
:mod:`dkw_core.neighbours` — then any metric, K
and N is a sparse product away. tf(w, d) is the number of phrase occurrences of d whose K
nearest words include w (one K for local and global counts). Metric statistics come from the
training split only. See docs/method.md for the method and the decisions it takes.
"""
from __future__ import annotations

import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..errors import InputError
from ..neighbours import check_prepare, neighbours_spec
from ..phrases import TaggedDoc, tag_corpus
from ..types import (
    DEFAULT_K,
    DEFAULT_PROTOCOL,
    DEFAULT_TOP,
    NEW_TEXT_PROTOCOL,
    Progress,
    check_protocol,
    report,
    scaled,
)
from ..validation import check_k, check_k_max, check_top
from ..vectors import Vectors, load_vectors
from .base import TermModel
from .index import (
    DamagedIndex,
    NeighbourIndex,
    build_index,
    document_problems,
    index_path,
    load_index,
    phrase_words,
    read_meta,
    save_index,
    verify_index,
)
from .ranking import Keyword, document_vectors
from .units import DocUnits, keywords_from_units, raise_unusable, text_units


class KeywordModel(TermModel):
    """Discriminative keywords in word-vector space for one corpus and one vector model."""

    counts_own_words = True

    def __init__(self, corpus, vectors: Vectors, index: NeighbourIndex | None, problems: dict[str, str],
                 neighbours: str | None = None, *, statistics=None):
        """``statistics``: a source of training statistics read instead of the corpus's own
        counts (then no ``corpus`` and no ``index``: a model of new texts, :meth:`of_statistics`)."""
        if statistics is None:
            self._init_docs(corpus)
        else:
            self._init_statistics(statistics)
        self.vectors = vectors
        self.neighbours = neighbours_spec(neighbours)  # how step 3 scored "nearest"
        self.index = index
        self.k_max = statistics.k if index is None else index.k_max
        self.vocabulary = vectors.cropped_words
        self.problems = problems  # doc id -> why it has no keywords
        self.cache_dir: Path | None = None  # set when the model lives in the disk cache
        self.doc_uid = None if index is None else index.doc_uid()
        self._counts_cache: dict[int, sp.csr_matrix] = {}
        self._own: sp.csr_matrix | None = None

    @classmethod
    def of_statistics(cls, statistics, vectors: Vectors) -> KeywordModel:
        """A model of new texts whose training statistics are read from ``statistics`` (the
        shipped statistics of a built-in corpus, :class:`~.shipped.ShippedStatistics`): a new
        text is tagged, searched and ranked exactly as with the prepared corpus; anything that
        reads the corpus's documents says what to prepare instead."""
        return cls(None, vectors, None, {}, statistics.neighbours, statistics=statistics)

    def _prepared(self) -> tuple[NeighbourIndex, sp.csr_matrix]:
        """The prepared corpus's index and its documents x phrase units matrix (a model reading
        its statistics from elsewhere has neither: the documents' gate says so)."""
        self._need_documents()
        assert self.index is not None and self.doc_uid is not None
        return self.index, self.doc_uid

    @property
    def source(self) -> str:
        """Where the statistics come from, for an answer's caption and JSON."""
        return "prepared corpus" if self.statistics is None else self.statistics.source

    # index parts under their historical names
    phrases = property(lambda self: self.index.phrases)
    doc_phrase = property(lambda self: self.index.doc_phrase)
    phrase_uid = property(lambda self: self.index.phrase_uid)
    nbr_idx = property(lambda self: self.index.nbr_idx)
    nbr_sim = property(lambda self: self.index.nbr_sim)

    # -- preparation and cache --------------------------------------------------------------
    @staticmethod
    def cache_path(corpus, vectors: Vectors | str | None = None, k_max: int = DEFAULT_K,
                   neighbours: str | None = None) -> Path:
        """Cache folder of a (corpus or corpus content key, vectors or vectors name, k_max, neighbours spec)."""
        return index_path(corpus if isinstance(corpus, str) else corpus.key, vectors, k_max, neighbours)

    @classmethod
    def is_prepared(cls, corpus, vectors: Vectors | str | None = None, k_max: int = DEFAULT_K,
                    neighbours: str | None = None) -> bool:
        return read_meta(cls.cache_path(corpus, vectors, k_max, neighbours)) is not None

    @classmethod
    def prepare(cls, corpus, vectors: Vectors | None = None, *, k_max: int = DEFAULT_K, n_process: int | None = None,
                progress: Progress | None = None, cache: bool = True,
                neighbours: str | None = None) -> KeywordModel:
        """Tag, extract phrases, build phrase vectors and their ``k_max`` nearest words under
        the ``neighbours`` spec (default plain cosine) — or load all of that from the cache.

        ``k_max`` and the spec are checked against the vectors before any tagging
        (:mod:`dkw_core.validation`): a ``k_max`` up to the default :data:`DEFAULT_K` is capped at
        the cropped vocabulary's size (a small vector model gets all its words), a larger one must
        fit in it."""
        check_k_max(k_max)
        vectors = vectors or load_vectors()
        k_max, spec = check_prepare(k_max, neighbours, vectors)
        path = cls.cache_path(corpus, vectors, k_max, spec)
        if cache:
            model = cls._load(corpus, vectors, path, spec)
            if model is not None:
                return model
        tagged = tag_corpus(corpus, n_process=n_process, progress=scaled(progress, 0.0, 0.6), cache=cache)
        docs = [tagged[d.id] for d in corpus.documents]
        index = build_index(docs, vectors, k_max, progress=scaled(progress, 0.6, 0.97), neighbours=spec)
        model = cls(corpus, vectors, index, problems={}, neighbours=spec)
        model.problems = document_problems(model._ids, [not t.text for t in docs], index, vectors.name)
        if cache:
            try:
                save_index(path, index, {"corpus": corpus.key, "vectors": vectors.name, "k_max": k_max,
                                         "neighbours": spec, "doc_ids": model._ids, "problems": model.problems,
                                         "vocabulary_size": len(model.vocabulary)})
                model.cache_dir = path
            except OSError as exc:  # a read-only data folder: the model works, it is just not kept
                from ..cache import unsaved

                unsaved(path, exc)
        report(progress, 1.0, f"prepared {corpus.name}: {len(corpus.documents):,} documents, "
                              f"{len(model.problems):,} without keywords")
        return model

    @classmethod
    def _load(cls, corpus, vectors: Vectors, path: Path, neighbours: str = "cosine") -> KeywordModel | None:
        meta = read_meta(path)
        if meta is None:
            return None
        try:
            if meta["doc_ids"] != [d.id for d in corpus.documents] or meta["vocabulary_size"] != len(vectors.cropped_words):
                raise ValueError("cache does not match the corpus or vectors")
            if meta.get("neighbours", "cosine") != neighbours:
                raise ValueError("cache was built with other neighbours")
            verify_index(path, meta)
            model = cls(corpus, vectors, load_index(path), problems=meta["problems"], neighbours=neighbours)
        except DamagedIndex as exc:
            from ..cache import notice

            notice(f"prepared cache of {corpus.name} is damaged ({exc}); rebuilding it")
            shutil.rmtree(path, ignore_errors=True)
            return None
        except (OSError, ValueError, KeyError, EOFError, Exception):  # noqa: BLE001 - damaged: rebuild
            shutil.rmtree(path, ignore_errors=True)
            return None
        model.cache_dir = path
        return model

    def _posterior_path(self) -> Path | None:
        from .. import cache
        from .posterior import SETTINGS

        if self.cache_dir is None:
            return None
        return self.cache_dir / f"posterior_{cache.key(sorted(SETTINGS.items()))}.pkl"

    def _load_posteriors(self):
        from .. import cache

        path = self._posterior_path()
        data = cache.read_pickle(path) if path is not None else None
        shape = (len(self._ids), len(self.categories))
        if isinstance(data, tuple) and len(data) == 2 and getattr(data[0], "shape", None) == shape:
            return data
        return None

    def _save_posteriors(self, post, fitted) -> None:
        from .. import cache

        path = self._posterior_path()
        if path is not None:
            cache.write_pickle(path, (post, fitted))

    def _stats_path(self, k: int | None) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"stats_k{self._check_k(k)}.npz"

    @classmethod
    def from_texts(cls, texts: Sequence[str], labels: Sequence[str], *, vectors: Vectors | None = None,
                   k_max: int = DEFAULT_K, name: str = "texts", neighbours: str | None = None) -> KeywordModel:
        """A model whose training split is the given texts (not cached on disk)."""
        from ..corpora import Corpus, Document

        if len(texts) != len(labels):
            raise InputError(f"{len(texts)} texts but {len(labels)} labels")
        docs = [Document(id=f"{name}/train/{lab}/{i}", text=t, label=str(lab), split="train")
                for i, (t, lab) in enumerate(zip(texts, labels))]
        corpus = Corpus(name=name, documents=docs, categories=sorted({str(x) for x in labels}))
        return cls.prepare(corpus, vectors, k_max=k_max, cache=False, neighbours=neighbours)

    # -- bulk -----------------------------------------------------------------------------------
    def _check_k(self, k: int | None) -> int:
        if self.statistics is not None:
            return self.statistics.check_k(k)
        if k is None:
            return self.k_max
        if self.k_max >= len(self.vocabulary):  # every word is a neighbour: the vocabulary is the bound
            return check_k(k, self.k_max, vocabulary=self.vectors.name)
        return check_k(k, self.k_max, why="the prepared k_max")

    def _all_counts(self, k: int | None) -> sp.csr_matrix:
        k = self._check_k(k)
        if k not in self._counts_cache:
            if len(self._counts_cache) >= 2:
                self._counts_cache.pop(next(iter(self._counts_cache)))
            index, doc_uid = self._prepared()
            counts = (doc_uid @ index.neighbour_matrix(k, len(self.vocabulary))).tocsr()
            counts.sort_indices()
            self._counts_cache[k] = counts
        return self._counts_cache[k]

    def _all_own(self) -> sp.csr_matrix:
        """(documents x cropped vocabulary) 1 where the word is itself a unit of one of the
        document's candidate phrases (``index.phrase_words``): its own words, for lo-own."""
        if self._own is None:
            self._prepared()
            path = None if self.cache_dir is None else self.cache_dir / "own_words.npz"
            own = _read_own(path, self.doc_phrase.shape[0], len(self.vocabulary)) if path is not None else None
            if own is None:
                own = (self.doc_phrase @ phrase_words(self.vectors, self.phrases)).tocsr()
                own.data = (own.data > 0).astype(np.float32)
                own.sort_indices()
                if path is not None:
                    _write_own(path, own)
            self._own = own
        return self._own

    def term_counts_rows(self, split: str, positions: np.ndarray, k: int | None = None) -> sp.csr_matrix:
        """tf(w, d) of the documents at ``positions`` within ``split``, computed for those rows
        only (cross-validation on a subsample never builds the corpus-wide matrix)."""
        k = self._check_k(k)
        rows = self.rows(split)[np.asarray(positions, dtype=np.int64)]
        if k in self._counts_cache:
            return self._counts_cache[k][rows]
        index, doc_uid = self._prepared()
        counts = (doc_uid[rows] @ index.neighbour_matrix(k, len(self.vocabulary))).tocsr()
        counts.sort_indices()
        return counts

    def document_vectors(self, index_rows: np.ndarray) -> np.ndarray:
        """Normalised sum of the keyword vectors of each row (paper §4.2.1); a row without
        keywords gives a zero vector."""
        return document_vectors(self.vectors.cropped_matrix, index_rows)

    # -- one document, with provenance ---------------------------------------------------------
    def _doc_units(self, doc) -> DocUnits:
        if self.has_doc(doc.id) and self.corpus.get(doc.id).text == doc.text:
            row = self.doc_phrase[self._row[doc.id]]
            pids, cnts = row.indices, row.data
            uids = self.phrase_uid[pids]
            ok = uids >= 0
            if not len(pids):
                raise_unusable(doc.id, doc.text)
            if not ok.any():
                raise InputError(f"document {doc.id}: none of its {len(pids)} phrases has a word known to {self.vectors.name}")
            return DocUnits([self.phrases[p] for p in pids[ok]], cnts[ok], self.nbr_idx[uids[ok]].astype(np.int64),
                            self.nbr_sim[uids[ok]].astype(np.float32))
        return self._text_units(doc.id, doc.text)

    def _text_units(self, name: str, text: str, progress: Progress | None = None) -> DocUnits:
        from .units import neighbour_cache

        return text_units(self.vectors, name, text, self.k_max, progress, neighbours=self.neighbours,
                          cache=neighbour_cache(self))

    def _keywords_from_units(self, units: DocUnits, *, metric: str, k: int | None, top: int,
                             label: int | np.ndarray | None, provenance: bool = True) -> list[Keyword]:
        k = self._check_k(k)
        return keywords_from_units(units, k=k, top=top, vocabulary=self.vocabulary,
                                   score=lambda cols, tf: self._score_row(cols, tf, metric=metric, k=k, label=label),
                                   provenance=provenance)

    def word_scores(self, metric: str, k: int | None, label: int | np.ndarray | None) -> np.ndarray:
        """One score per vocabulary word under a weighting (without the tf factor): the
        category's row, the posterior-weighted rows, or the maximum over categories."""
        scores = self.metric_scores(metric, k)
        if label is None:
            return scores.max(axis=0).astype(np.float64)
        if isinstance(label, np.ndarray):
            return (label @ scores).astype(np.float64)
        return scores[label].astype(np.float64)

    def _keyphrases_from_units(self, units: DocUnits, doc, *, metric: str, k: int | None, top: int,
                               label: int | np.ndarray | None, about: float) -> list[Keyword]:
        """A corpus document's keyphrases (docs/method.md §13) by the one ranking of a text's own
        noun phrases, :func:`~.relevance.text_keyphrases`, as a new text gets them: its text and
        its tagging (:meth:`_doc_tagging`), D from :meth:`word_scores` of the weighting at
        ``about``, its latent words (of ``units``) filling a short list; ``about`` 1 is the
        paper's list."""
        from .keyphrases import LATENT_CANDIDATES, check_about
        from .relevance import text_keyphrases

        k, about = self._check_k(k), check_about(about)
        latent = self._keywords_from_units(units, metric=metric, k=k, top=max(top, LATENT_CANDIDATES), label=label)
        if about >= 1.0:
            return latent[:top]
        tokens, tags = self._doc_tagging(doc)
        scores = self.word_scores(metric, k, label) if about > 0 else None
        return text_keyphrases(doc.text, tokens, tags, top=top, about=about, word_scores=scores,
                               word_index=self.word_index, latent=latent)

    def _doc_tagging(self, doc) -> tuple[list[str], str]:
        """A document's tokens and coarse tags as the corpus's preparation cached them
        (:func:`~dkw_core.phrases.tag_corpus`'s cache, read once per model), the corpus is never
        tagged again; a text the cache does not hold (a model prepared without the cache, an
        edited text) is tagged alone: by the corpus's tagger when it is the corpus's own text (its
        phrases were counted with it), else as a new text (:func:`~.model.KeywordModel._doc_units`
        tags it so). A news post's keyphrases come from the part of this tagging in its body
        (:func:`~.candidates.body_spans`)."""
        from .. import cache as disk_cache
        from ..phrases import corpus_tagger, get_tagger, load_tag_cache, tag_cache_file

        tagged = self.__dict__.get("_tagged")
        if tagged is None and self.corpus is not None:
            tagged = self.__dict__["_tagged"] = load_tag_cache(tag_cache_file(self.corpus.name))
        entry = (tagged or {}).get(disk_cache.text_hash(doc.text))
        if entry is not None:
            found = TaggedDoc(*entry)
        else:
            own = self.has_doc(doc.id) and self.corpus.get(doc.id).text == doc.text
            found = (corpus_tagger() if own else get_tagger()).tag(doc.text)
        return found.tokens, found.tags

    @property
    def word_index(self) -> dict[str, int]:
        """Each vocabulary word's column, built once per model (20,000 words: some 10 ms a time)."""
        cached = self.__dict__.get("_word_index")
        if cached is None or cached[0] is not self.vocabulary:
            cached = self.__dict__["_word_index"] = (self.vocabulary, {w: i for i, w in enumerate(self.vocabulary)})
        return cached[1]

    def text_artefacts(self, units: DocUnits):
        """What the corpus fit of a text reads (:class:`~.keyphrases.TextArtefacts`):
        its units, each phrase's vector by Algorithm 1, the unit-length vocabulary."""
        from .keyphrases import TextArtefacts, phrase_vectors

        return TextArtefacts(units, phrase_vectors(self.vectors, units.phrases), self.vectors.cropped_matrix)

    def keywords(self, doc, *, metric: str, k: int | None = None, top: int = DEFAULT_TOP,
                 protocol: str = DEFAULT_PROTOCOL, about: float | None = None) -> list[Keyword]:
        """Top-``top`` keywords of a corpus document (id or :class:`Document`) with provenance.
        ``about`` below 1 gives the document's own keyphrases (:meth:`_keyphrases_from_units`); ``None``
        or 1 the paper's category words."""
        top, _ = check_top(top), self._check_k(k)
        doc = self._document(doc)
        label = self._weighting(doc, protocol)
        if about is not None and about < 1.0:
            return self._keyphrases_from_units(self._doc_units(doc), doc, metric=metric, k=k, top=top, label=label,
                                               about=about)
        return self._keywords_from_units(self._doc_units(doc), metric=metric, k=k, top=top, label=label)

    def text_posteriors(self, texts: Sequence[str]) -> np.ndarray:
        """(texts x categories) P(c | text) of new texts, from the classifier fitted on the
        training split (docs/method.md §3)."""
        return self.posterior_model().predict(list(texts))

    def corpus_fit(self, units: DocUnits, posterior: np.ndarray, artefacts=None):
        """How well a text (its units and posterior row) fits the corpus (:mod:`.fit`);
        ``artefacts``: its :meth:`text_artefacts` when the caller has them already."""
        from .fit import category_centroids, corpus_fit

        if getattr(self, "_centroids", None) is None:
            own = self.category_stats(None).own_freq
            if own is None:
                raise InputError("these statistics do not count own words; prepare the corpus again")
            self._centroids = category_centroids(own, self.vectors.cropped_matrix)
        art = artefacts if artefacts is not None else self.text_artefacts(units)
        return corpus_fit(art.centroid, self._centroids, posterior, self.categories)

    def category_keywords(self, category: str, *, metric: str, k: int | None = None, top: int = DEFAULT_TOP,
                          phrases: int = 5) -> list:
        """The ``top`` most discriminative words of a category (:mod:`.categories`), from the
        training split's statistics only."""
        from .categories import category_keywords

        return category_keywords(self, category, metric=metric, k=k, top=top, phrases=phrases)

    def rank_texts(self, texts: Sequence[str], *, metric: str, k: int | None = None,
                   top: int = DEFAULT_TOP, protocol: str = NEW_TEXT_PROTOCOL) -> np.ndarray:
        """Keyword indices of new texts under a label-free ``protocol`` (default ``label-free-top1``),
        the paper's words through the one path of new texts (:func:`~.newtexts.text_keywords`;
        rows padded with -1; a text without keywords gives a row of -1)."""
        top, _ = check_top(top), self._check_k(k)  # before any tagging
        if check_protocol(protocol) == "label-aware":
            raise InputError("new texts have no gold category: use a label-free protocol")
        from .newtexts import text_keywords

        found = [f.keywords[metric] for f in text_keywords(self, ((f"text {i}", t) for i, t in enumerate(texts)),
                                                           metrics=[metric], k=k, top=top, protocol=protocol,
                                                           about=1.0, provenance=False, n_process=1)]
        index = self.word_index if found else {}
        out = np.full((len(found), top), -1, dtype=np.int32)
        for r, kws in enumerate(found):
            out[r, :len(kws)] = [index[kw.word] for kw in kws]
        return out


def _read_own(path: Path, n_docs: int, n_words: int) -> sp.csr_matrix | None:
    """The cached own-word matrix of a prepared corpus (``None``: missing or not this corpus's)."""
    try:
        own = sp.load_npz(path).tocsr()
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):  # missing or damaged: count again
        return None
    return own if own.shape == (n_docs, n_words) else None


def _write_own(path: Path, own: sp.csr_matrix) -> None:
    from .. import cache

    try:
        with cache.atomic_file(path) as tmp, tmp.open("wb") as fh:
            sp.save_npz(fh, own)
    except OSError:
        pass  # a read-only cache only costs speed
