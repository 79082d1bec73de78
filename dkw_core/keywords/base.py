"""What the vector model and the bag-of-words baseline share: documents x terms counts,
training-split statistics, metric scores (step 4) and ranking (step 5).

Statistics always come from the training split; which protocol weights a document is stated
by every call (docs/method.md, "Two protocols").
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .. import cache
from ..errors import CorpusError, InputError
from ..metrics import CategoryStats, category_scores, get_metric
from ..types import DEFAULT_PROTOCOL, DEFAULT_TOP, POSTERIOR_PROTOCOLS, check_protocol
from ..validation import check_top
from .ranking import top_n


class TermModel:
    """A corpus as a (documents x terms) count matrix with training-split statistics."""

    vocabulary: list[str]
    categories: list[str]
    counts_own_words = False  # whether _all_own gives the words each document itself contains
    statistics = None
    """Where the training statistics come from: ``None``, this corpus's own counts; else a source
    read instead (:class:`~.shipped.ShippedStatistics`: a model of new texts, no documents)."""

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
        self._posterior = None  # (all-document posteriors, fitted CategoryPosterior), on demand

    def _init_statistics(self, statistics) -> None:
        """No documents: the categories and the training statistics are read from ``statistics``
        (``.corpus``, ``.categories``, ``.category_stats(k)``, ``.posterior_model()``,
        ``.check_k(k)``, ``.documents_refusal()``)."""
        self.statistics = statistics
        self.corpus = statistics.corpus
        self.categories = list(statistics.categories)
        self._ids, self._row = [], {}
        self._labels = np.zeros(0, dtype=np.int64)
        self._split_rows = {}
        self._scores_cache = {}
        self._stats_cache = {}
        self._posterior = None

    def _need_documents(self) -> None:
        """The one gate of everything that reads the corpus's documents: a model whose statistics
        come from elsewhere has none, and says what to prepare instead."""
        if self.statistics is not None:
            raise InputError(self.statistics.documents_refusal())

    # -- documents -------------------------------------------------------------------------
    def rows(self, split: str) -> np.ndarray:
        self._need_documents()
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

    def _document(self, doc):
        self._need_documents()
        return self.corpus.get(doc) if isinstance(doc, str) else doc

    def _weighting(self, doc, protocol: str) -> int | np.ndarray | None:
        """How one document is weighted: its gold category index (label-aware), its category
        posterior (label-free-posterior; one-hot under label-free-top1) or ``None`` (label-free:
        maximum over categories)."""
        check_protocol(protocol)
        if protocol == "label-free":
            return None
        if protocol in POSTERIOR_PROTOCOLS:
            from .posterior import as_weights

            if self.has_doc(doc.id) and self.corpus.get(doc.id).text == doc.text:
                return as_weights(protocol, self.posteriors("all")[[self._row[doc.id]]])[0]
            return as_weights(protocol, self.posterior_model().predict([doc.text]))[0]
        if doc.label not in self.categories:
            raise InputError(f"document {doc.id} has category {doc.label!r}, unknown to corpus {self.corpus.name}")
        return self.categories.index(doc.label)

    # -- category posteriors (label-free-posterior) ---------------------------------------------
    def _posteriors_all(self):
        self._need_documents()
        if self._posterior is None:
            self._posterior = self._load_posteriors() or self._fit_posteriors()
        return self._posterior

    def _fit_posteriors(self):
        from .posterior import corpus_posteriors

        texts = [d.text for d in self.corpus.documents]
        post, fitted = corpus_posteriors(texts, self._labels, self.rows("train"), len(self.categories))
        self._save_posteriors(post, fitted)
        return post, fitted

    def _load_posteriors(self):
        return None

    def _save_posteriors(self, post: np.ndarray, fitted) -> None:
        pass

    def use_posteriors_of(self, other: TermModel) -> None:
        """Take the category posteriors of another model of the same corpus (they depend on the
        texts, labels and split only), so a second model of a corpus never fits them again."""
        if other.corpus.key != self.corpus.key:
            raise InputError(f"posteriors of {other.corpus.name} cannot weight {self.corpus.name}")
        self._posterior = other._posteriors_all()

    def posteriors(self, split: str = "all") -> np.ndarray:
        """(documents x categories) P(c | d) of a split from a classifier fitted on the training
        split only; training documents get out-of-fold posteriors (docs/method.md §3)."""
        return self._posteriors_all()[0][self.rows(split)]

    def posterior_model(self):
        """The category posterior fitted on the whole training split (for new texts). Fitted
        alone when the corpus's own posteriors are not needed yet: a new text never waits for
        the out-of-fold posteriors of every training document."""
        if self.statistics is not None:
            return self.statistics.posterior_model()
        if self._posterior is None:
            loaded = self._load_posteriors()
            if loaded is not None:
                self._posterior = loaded
            else:
                if getattr(self, "_new_text_posterior", None) is None:
                    from .posterior import CategoryPosterior

                    train = self.rows("train")
                    self._new_text_posterior = CategoryPosterior(len(self.categories)).fit(
                        [self.corpus.documents[i].text for i in train], self._labels[train])
                return self._new_text_posterior
        return self._posterior[1]

    # -- counts, statistics, scores -----------------------------------------------------------
    def _check_k(self, k: int | None) -> int | None:
        """K as the model allows it (the bag-of-words baseline has none; see ``KeywordModel``)."""
        return k

    def _all_counts(self, k: int | None) -> sp.csr_matrix:  # pragma: no cover - abstract
        raise NotImplementedError

    def term_counts(self, split: str, k: int | None = None) -> sp.csr_matrix:
        """tf(w, d) for the documents of ``split`` (rows in corpus order)."""
        rows = self.rows(split)
        return self._all_counts(k)[rows]

    def _all_own(self) -> sp.csr_matrix | None:
        """(documents x vocabulary) the words each document itself contains (any positive
        entry), or ``None`` when the model does not count them."""
        return None

    def own_counts_rows(self, split: str, positions: np.ndarray) -> sp.csr_matrix | None:
        """The own words of the documents at ``positions`` within ``split`` (``None``: not counted)."""
        own = self._all_own()
        return None if own is None else own[self.rows(split)[np.asarray(positions, dtype=np.int64)]]

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
        if self.statistics is not None:
            return self.statistics.category_stats(self._check_k(k))
        if k in self._stats_cache:
            return self._stats_cache[k]
        path = self._stats_path(k)
        stats = _read_stats(path) if path is not None else None
        if stats is None or (stats.own_freq is None and self.counts_own_words):  # a file from before own_freq
            own, train = self._all_own(), self.rows("train")
            stats = CategoryStats.from_matrices(self.term_counts("train", k), self.labels("train"), len(self.categories),
                                                own=None if own is None else own[train])
            if path is not None:
                _write_stats(path, stats)
        self._stats_cache[k] = stats
        return stats

    def _stats_path(self, k: int | None) -> Path | None:
        return None

    # -- ranking ----------------------------------------------------------------------------
    def rank(self, split: str, *, metric: str, k: int | None = None, top: int = DEFAULT_TOP,
             protocol: str = DEFAULT_PROTOCOL, labels: np.ndarray | None = None,
             positions: np.ndarray | slice | None = None) -> np.ndarray:
        """(documents x top) vocabulary indices of each document's keywords, -1 padded.

        ``labels`` overrides the gold labels used by the label-aware protocol (e.g. to score
        with a predicted category; one per ranked document). ``positions`` ranks only those
        documents of the split (each row is ranked on its own, so a slice gives the same rows
        as the whole split)."""
        check_protocol(protocol)
        top = check_top(top)
        self._check_k(k)
        m = get_metric(metric)
        pick = (lambda a: a) if positions is None else (lambda a: a[positions])
        weights = None
        if protocol == "label-free":
            labels = None
        elif protocol in POSTERIOR_PROTOCOLS:
            from .posterior import rank_arguments

            labels, weights = rank_arguments(protocol, pick(self.posteriors(split)))
        elif labels is None:
            labels = pick(self.labels(split))
        return top_n(pick(self.term_counts(split, k)), self.metric_scores(metric, k), labels=labels, use_tf=m.tf,
                     top=top, weights=weights)

    def words(self, index_rows: np.ndarray) -> list[list[str]]:
        return [[self.vocabulary[i] for i in row if i >= 0] for row in index_rows]

    def _score_row(self, cols: np.ndarray, tf: np.ndarray, *, metric: str, k: int | None,
                   label: int | np.ndarray | None):
        """Scores of one document's words: ``label`` is a category index (label-aware), a
        posterior vector (label-free-posterior) or ``None`` (label-free)."""
        m = get_metric(metric)
        scores = self.metric_scores(metric, k)
        if label is None:
            s = scores.max(axis=0)[cols]
        elif isinstance(label, np.ndarray):
            s = label @ scores[:, cols].astype(np.float64)
        else:
            s = scores[label, cols]
        s = np.asarray(s, dtype=np.float64)
        return s * tf if m.tf else s


def _read_stats(path: Path) -> CategoryStats | None:
    try:
        with np.load(path) as z:
            return CategoryStats(doc_freq=z["doc_freq"], n_docs=z["n_docs"], term_freq=z["term_freq"],
                                 own_freq=z["own_freq"] if "own_freq" in z.files else None)
    except (OSError, ValueError, KeyError):
        return None


def _write_stats(path: Path, stats: CategoryStats) -> None:
    try:
        with cache.atomic_file(path) as tmp, tmp.open("wb") as fh:
            arrays: dict[str, Any] = {"doc_freq": stats.doc_freq, "n_docs": stats.n_docs, "term_freq": stats.term_freq}
            if stats.own_freq is not None:
                arrays["own_freq"] = stats.own_freq
            np.savez(fh, **arrays)
    except OSError:
        pass  # a read-only cache only costs speed
