"""The measures of a method's *document* keywords (docs/method.md §12): does a document's list
pick out that document among the documents of its own category (**topic**: by vectors and
literally; the share of its keywords that occur in it; the Jaccard similarity of two lists of one
category), and does it carry the document's category (**category**: the micro/macro-F1 of the
keywords alone; their exclusivity for the document's category)? :func:`document_quality` gives
them all as a :class:`DocumentQuality`; every measure keeps its per-document values so that a
bootstrap CI over documents (and a paired comparison) can be drawn.

They read keyword vectors (:mod:`dkw_core.keywords`) and the evaluation's classifiers, so they
sit in the evaluation, beside the word lists' measures (:mod:`dkw_core.evaluation.wordlists`);
the list measures they share (:func:`dkw_core.quality.exclusivity`, the reference tokens) stay in
:mod:`dkw_core.quality`, below the keywords.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..phrases import stop_words
from ..quality import DEFAULT_TOPN

#: Bootstrap resamples of every CI (percentile, seed 0).
BOOTSTRAP_RESAMPLES = 1000
#: Two cosines closer than this are a tie (float noise of identical vectors).
TIE_TOLERANCE = 1e-6
_TERM = re.compile(r"[^\W\d_]+")


def keyword_terms(keyword: str) -> tuple[str, ...]:
    """The content words of a keyword, the tokens :func:`dkw_core.quality.word_tokens` keeps: its runs of letters,
    lower-cased, longer than one character, not spaCy stop words (``"Nippon Steel"`` ->
    ``("nippon", "steel")``; ``"the"``, ``"1987"`` -> ``()``)."""
    stop = stop_words()
    return tuple(w for w in _TERM.findall(str(keyword).lower()) if len(w) > 1 and w not in stop)


def expected_reciprocal_rank(above: np.ndarray, tied: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reciprocal rank and the chance of rank 1 of an item with ``above`` items scored
    strictly higher and ``tied`` items (itself included) scored the same, expected under random
    tie-breaking: its rank is uniform on ``above + 1 .. above + tied``, so E[1/rank] =
    (H(above + tied) - H(above)) / tied and P(rank 1) = 1 / tied when nothing is above, else 0.
    Ties never flatter: n items all tied give the mean of 1/1 .. 1/n, as a random order does."""
    from scipy.special import digamma

    above = np.asarray(above, dtype=np.float64)
    tied = np.asarray(tied, dtype=np.float64)
    if np.any(tied < 1):
        raise InputError("an item is tied at least with itself")
    harmonic = digamma(above + tied + 1) - digamma(above + 1)  # H(a + t) - H(a)
    return harmonic / tied, np.where(above == 0, 1.0 / tied, 0.0)


def _ranks_within(scores: np.ndarray, self_index: np.ndarray, *, tolerance: float = 0.0):
    """Expected reciprocal rank and P(rank 1) of ``self_index[i]`` in row i of ``scores``."""
    own = scores[np.arange(len(scores)), self_index][:, None]
    above = (scores > own + tolerance).sum(axis=1)
    tied = (np.abs(scores - own) <= tolerance).sum(axis=1)
    return expected_reciprocal_rank(above, tied)


def _groups(categories: Sequence[str]) -> dict[str, np.ndarray]:
    out: defaultdict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(categories):
        out[c].append(i)
    return {c: np.asarray(rows, dtype=np.int64) for c, rows in out.items()}


def topic_ranks(query: np.ndarray, documents: np.ndarray, categories: Sequence[str], *,
                tolerance: float = TIE_TOLERANCE) -> tuple[np.ndarray, np.ndarray]:
    """Per document i: its expected reciprocal rank and P(rank 1) among the documents of its own
    category when they are ranked by ``query[i] · documents[j]`` (rows unit-length or zero: the
    cosine; a zero row ties with everything). A category with one document decides nothing: NaN."""
    query, documents = np.asarray(query, dtype=np.float64), np.asarray(documents, dtype=np.float64)
    if query.shape != documents.shape or len(query) != len(categories):
        raise InputError(f"{len(query)} queries, {len(documents)} documents and {len(categories)} categories")
    rr, top1 = np.full(len(query), np.nan), np.full(len(query), np.nan)
    for rows in _groups(categories).values():
        if len(rows) < 2:
            continue
        scores = query[rows] @ documents[rows].T
        rr[rows], top1[rows] = _ranks_within(scores, np.arange(len(rows)), tolerance=tolerance)
    return rr, top1


def literal_ranks(counts, categories: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`topic_ranks`, documents ranked by ``counts[i, j]``: how many of document i's
    keywords occur in document j (ties broken at random, in expectation)."""
    counts = counts.toarray() if hasattr(counts, "toarray") else np.asarray(counts)
    rr, top1 = np.full(len(counts), np.nan), np.full(len(counts), np.nan)
    for rows in _groups(categories).values():
        if len(rows) < 2:
            continue
        rr[rows], top1[rows] = _ranks_within(counts[np.ix_(rows, rows)].astype(np.float64), np.arange(len(rows)))
    return rr, top1


def within_category_jaccard(lists: Sequence[Sequence[str]], categories: Sequence[str]) -> np.ndarray:
    """Per document: the mean Jaccard similarity of its keyword set with each other list of its
    category (NaN in a category of one)."""
    import scipy.sparse as sp

    vocab: dict[str, int] = {}
    rows, cols = [], []
    for r, words in enumerate(lists):
        for w in dict.fromkeys(words):
            rows.append(r)
            cols.append(vocab.setdefault(w, len(vocab)))
    binary = sp.csr_matrix((np.ones(len(rows), dtype=np.float64), (rows, cols)), shape=(len(lists), max(1, len(vocab))))
    sizes = np.asarray(binary.sum(axis=1)).ravel()
    out = np.full(len(lists), np.nan)
    for group in _groups(categories).values():
        if len(group) < 2:
            continue
        sub = binary[group]
        inter = (sub @ sub.T).toarray()
        union = sizes[group][:, None] + sizes[group][None, :] - inter
        jac = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        np.fill_diagonal(jac, 0.0)
        out[group] = jac.sum(axis=1) / (len(group) - 1)
    return out


def _postings(token_sets: Sequence[set[str] | frozenset[str]], wanted: set[str]) -> dict[str, set[int]]:
    post: dict[str, set[int]] = {w: set() for w in wanted}
    for i, tokens in enumerate(token_sets):
        for w in wanted.intersection(tokens):
            post[w].add(i)
    return post


def _containing(terms: tuple[str, ...], post: Mapping[str, set[int]]) -> set[int]:
    """The documents containing every term (none for a keyword without content words)."""
    if not terms:
        return set()
    found = set(post.get(terms[0], ()))
    for t in terms[1:]:
        found &= post.get(t, set())
    return found


def keyword_exclusivity(keywords: Iterable[str], train_tokens: Sequence[Iterable[str]],
                        train_labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """For each keyword, ``{category: share}``: the share of the training documents containing it
    (every content word of it, :func:`keyword_terms`) that belong to the category. A keyword no
    training document contains is in no category's share (it counts 0 for every category)."""
    keywords = list(dict.fromkeys(keywords))
    terms = {k: keyword_terms(k) for k in keywords}
    sets = [set(t) for t in train_tokens]
    post = _postings(sets, {t for ts in terms.values() for t in ts})
    out: dict[str, dict[str, float]] = {}
    for k in keywords:
        docs = _containing(terms[k], post)
        counts = Counter(train_labels[i] for i in docs)
        out[k] = {c: n / len(docs) for c, n in counts.items()}
    return out


def percentile_ci(values: np.ndarray, *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                  level: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap CI of the mean of ``values`` over documents (NaN left out)."""
    v = np.asarray(values, dtype=np.float64)
    v = v[~np.isnan(v)]
    if len(v) == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, len(v), size=(resamples, len(v)))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def _macro_f1(gold: np.ndarray, pred: np.ndarray, n: int) -> float:
    """Macro-F1 over the categories present in ``gold`` or ``pred`` (scikit-learn's default)."""
    tp = np.bincount(gold[gold == pred], minlength=n).astype(np.float64)
    support = np.bincount(gold, minlength=n).astype(np.float64)
    predicted = np.bincount(pred, minlength=n).astype(np.float64)
    present = (support + predicted) > 0
    f1 = np.divide(2 * tp, support + predicted, out=np.zeros(n), where=present)
    return float(f1[present].mean()) if present.any() else math.nan


def macro_f1_ci(gold: np.ndarray, pred: np.ndarray, n: int, *, resamples: int = BOOTSTRAP_RESAMPLES,
                seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap CI of the macro-F1 over test documents."""
    rng = np.random.default_rng(seed)
    values = [_macro_f1(gold[idx], pred[idx], n) for idx in rng.integers(0, len(gold), size=(resamples, len(gold)))]
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


#: The figures of :class:`DocumentQuality`, by key: (plain name, what it is).
DOCUMENT_MEASURES: dict[str, tuple[str, str]] = {
    "topic_mrr": ("topic MRR (vectors)", "mean reciprocal rank of the document among its category's documents, "
                                         "by the cosine of its keywords' mean vector to each document's mean "
                                         "content-word vector"),
    "topic_top1": ("topic top-1 (vectors)", "share of documents ranked first by the same cosine"),
    "literal_mrr": ("topic MRR (literal)", "mean reciprocal rank when the category's documents are ranked by how "
                                           "many of the keywords occur in each"),
    "literal_top1": ("topic top-1 (literal)", "share of documents ranked first by that count"),
    "occurrence": ("keywords in their document", "share of a document's keywords that occur in it"),
    "jaccard": ("Jaccard within category", "mean Jaccard similarity of a document's keyword set with the other "
                                           "lists of its category"),
    "exclusivity": ("exclusivity", "share of the training documents containing a keyword that belong to the "
                                   "document's category (0 for a keyword no training document contains), "
                                   "averaged over its keywords"),
    "micro_f1": ("keywords-alone micro-F1", "micro-F1 of LinearSVC on the keywords' vectors alone (plain "
                                            "label-free: no classifier's category inside any vector)"),
    "macro_f1": ("keywords-alone macro-F1", "macro-F1 of the same classification"),
}


@dataclass(frozen=True)
class DocumentQuality:
    """How a method's document keywords answer the paper's two questions, per test document.

    Arrays are aligned with ``ids``; a value that cannot be measured is NaN (a category with one
    test document has no topic rank; a document without a known keyword has a zero vector, which
    ties with every document). ``predicted`` is None when no training keywords were given."""

    ids: list[str]
    categories: list[str]
    top: int
    topic_rr: np.ndarray
    topic_top1: np.ndarray
    literal_rr: np.ndarray
    literal_top1: np.ndarray
    occurrence: np.ndarray
    jaccard: np.ndarray
    exclusivity: np.ndarray
    gold: np.ndarray | None = None
    predicted: np.ndarray | None = None
    category_names: tuple[str, ...] = ()
    classifier: str = ""

    def values(self) -> dict[str, np.ndarray]:
        """The per-document values whose mean each figure is (F1: whether the document is
        classified right; its mean is the micro-F1 of single-label documents)."""
        out = {"topic_mrr": self.topic_rr, "topic_top1": self.topic_top1, "literal_mrr": self.literal_rr,
               "literal_top1": self.literal_top1, "occurrence": self.occurrence, "jaccard": self.jaccard,
               "exclusivity": self.exclusivity}
        if self.predicted is not None and self.gold is not None:
            out["micro_f1"] = (self.predicted == self.gold).astype(np.float64)
        return out

    def summary(self, *, ci: bool = True, resamples: int = BOOTSTRAP_RESAMPLES) -> dict[str, dict[str, float]]:
        """``{measure: {"value", "low", "high"}}`` (shares in [0, 1]; the CI a percentile
        bootstrap over documents, seed 0; ``ci=False`` skips it, for tuning)."""
        out = {}
        for key, v in self.values().items():
            value = float(np.nanmean(v)) if np.any(~np.isnan(v)) else math.nan
            lo, hi = percentile_ci(v, resamples=resamples) if ci else (math.nan, math.nan)
            out[key] = {"value": value, "low": lo, "high": hi}
        if self.predicted is not None and self.gold is not None:
            n = len(self.category_names) or int(max(self.gold.max(), self.predicted.max())) + 1
            lo, hi = macro_f1_ci(self.gold, self.predicted, n, resamples=resamples) if ci else (math.nan, math.nan)
            out["macro_f1"] = {"value": _macro_f1(self.gold, self.predicted, n), "low": lo, "high": hi}
        return out

    def describe(self) -> str:
        """One line per measure: its value (with its CI) and what it is."""
        lines = [f"{len(self.ids):,} test documents, top {self.top} keywords each"]
        for key, fig in self.summary().items():
            name, what = DOCUMENT_MEASURES[key]
            ci = "" if math.isnan(fig["low"]) else f" [{fig['low']:.3f}, {fig['high']:.3f}]"
            lines.append(f"{name}: {fig['value']:.3f}{ci} ({what})")
        if self.classifier:
            lines.append(f"classifier: {self.classifier}")
        return "\n".join(lines)


def _check_document_lists(lists: Mapping[str, Sequence[str]], ids: Sequence[str], top: int) -> list[list[str]]:
    """Each document's distinct keywords, best first (all of them: the vector measures read the
    first ``top`` that have a vector, the others the first ``top``)."""
    if top < 1:
        raise InputError(f"top must be at least 1, not {top}")
    if not ids:
        raise InputError("no test documents to measure")
    missing = [d for d in ids if d not in lists]
    if missing:
        raise InputError(f"no keyword list for {len(missing)} of the {len(ids)} test documents, e.g. {missing[0]!r}")
    return [list(dict.fromkeys(str(w) for w in lists[d])) for d in ids]


def content_vectors(vectors, token_lists: Sequence[Sequence[str]]) -> np.ndarray:
    """(documents x dim): each document's mean unit-length word vector of its content words
    (every occurrence), normalised; a document without a known word is a zero row."""
    unique: dict[int, int] = {}
    rows, cols = [], []
    for r, tokens in enumerate(token_lists):
        for idx in vectors.units(list(tokens)) if tokens else ():
            rows.append(r)
            cols.append(unique.setdefault(int(idx), len(unique)))
    import scipy.sparse as sp

    if not unique:
        return np.zeros((len(token_lists), vectors.dim), dtype=np.float64)
    words = vectors.compose([(i,) for i in unique])
    counts = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(token_lists), len(unique)))
    summed = np.asarray(counts @ words, dtype=np.float64)
    norms = np.linalg.norm(summed, axis=1, keepdims=True)
    return summed / np.where(norms == 0, 1, norms)


def document_quality(lists: Mapping[str, Sequence[str]], *, ids: Sequence[str], categories: Sequence[str],
                     tokens: Sequence[Sequence[str]], train_tokens: Sequence[Sequence[str]],
                     train_labels: Sequence[str], vectors, top: int = DEFAULT_TOPN,
                     train_lists: Mapping[str, Sequence[str]] | None = None, train_ids: Sequence[str] = (),
                     classifier: str | None = None, document_vectors: np.ndarray | None = None) -> DocumentQuality:
    """Every measure of the test documents' keyword ``lists`` (``{doc id: keywords best first}``;
    the first ``top`` distinct ones are read) at once.

    ``ids``, ``categories`` and ``tokens`` describe the test documents (their gold category and
    content words, :func:`dkw_core.quality.word_tokens`), ``train_tokens``/``train_labels`` the training documents
    (exclusivity). ``vectors`` is a :class:`~dkw_core.vectors.Vectors` (a keyword's vector by
    Algorithm 1; the vector measures read a document's first ``top`` keywords that have a vector,
    as the paper's document vectors do, the literal ones its first ``top``). With ``train_lists``
    (``{train doc id: keywords}``, for every id of ``train_ids``) the keywords alone are
    classified: the normalised sum of the top-``top`` keyword vectors of each document,
    ``classifier`` (LinearSVC) trained on the training documents' and scoring the test
    documents'. ``document_vectors`` (the test documents' :func:`content_vectors`) saves
    recomputing them when several methods are measured."""
    from ..keywords.ranking import keyword_vectors

    distinct = _check_document_lists(lists, ids, top)
    heads = [ws[:top] for ws in distinct]
    if not (len(ids) == len(categories) == len(tokens)):
        raise InputError(f"{len(ids)} test documents, {len(categories)} categories and {len(tokens)} token lists")
    if len(train_tokens) != len(train_labels):
        raise InputError(f"{len(train_tokens)} training documents but {len(train_labels)} labels")
    cats = [str(c) for c in categories]
    # topic, vectors
    query = keyword_vectors(vectors, distinct, top)  # the first `top` keywords with a vector, as the paper's
    docs = content_vectors(vectors, tokens) if document_vectors is None else np.asarray(document_vectors)
    topic_rr, topic_top1 = topic_ranks(query, docs, cats)
    # topic, literal: count[i, j] = keywords of i occurring in document j
    import scipy.sparse as sp

    sets = [set(t) for t in tokens]
    unique = list(dict.fromkeys(w for ws in heads for w in ws))
    terms = {w: keyword_terms(w) for w in unique}
    post = _postings(sets, {t for ts in terms.values() for t in ts})
    col = {w: i for i, w in enumerate(unique)}
    o_rows, o_cols = [], []
    for w in unique:
        for j in _containing(terms[w], post):
            o_rows.append(col[w])
            o_cols.append(j)
    occurs = sp.csr_matrix((np.ones(len(o_rows)), (o_rows, o_cols)), shape=(max(1, len(unique)), len(ids)))
    k_rows = [r for r, ws in enumerate(heads) for _ in ws]
    k_cols = [col[w] for ws in heads for w in ws]
    chosen = sp.csr_matrix((np.ones(len(k_rows)), (k_rows, k_cols)), shape=(len(ids), max(1, len(unique))))
    counts = (chosen @ occurs).tocsr()
    literal_rr, literal_top1 = literal_ranks(counts, cats)
    sizes = np.asarray([len(ws) for ws in heads], dtype=np.float64)
    own = np.asarray(counts.diagonal(), dtype=np.float64)
    occurrence = np.divide(own, sizes, out=np.full(len(ids), np.nan), where=sizes > 0)
    jaccard = within_category_jaccard(heads, cats)
    shares = keyword_exclusivity(unique, train_tokens, [str(x) for x in train_labels])
    exclusivity_ = np.asarray([sum(shares[w].get(c, 0.0) for w in ws) / len(ws) if ws else np.nan
                               for ws, c in zip(heads, cats)])
    gold = predicted = None
    names: tuple[str, ...] = ()
    clf_label = ""
    if train_lists is not None:
        from .classifiers import CLASSIFIER_LABELS, DEFAULT_CLASSIFIER, fit_predict

        clf = classifier or DEFAULT_CLASSIFIER
        train_heads = _check_document_lists(train_lists, train_ids, top)  # keyword_vectors reads the first `top`
        names = tuple(sorted(set(str(x) for x in train_labels) | set(cats)))
        index = {c: i for i, c in enumerate(names)}
        y_train = np.asarray([index[str(x)] for x in train_labels], dtype=np.int64)
        if len(y_train) != len(train_heads):
            raise InputError(f"{len(train_heads)} training keyword lists but {len(y_train)} training labels")
        predicted = np.asarray(fit_predict(keyword_vectors(vectors, train_heads, top), y_train, query, classifier=clf))
        gold = np.asarray([index[c] for c in cats], dtype=np.int64)
        clf_label = CLASSIFIER_LABELS.get(clf, clf)
    return DocumentQuality(ids=list(ids), categories=cats, top=top, topic_rr=topic_rr, topic_top1=topic_top1,
                           literal_rr=literal_rr, literal_top1=literal_top1, occurrence=occurrence, jaccard=jaccard,
                           exclusivity=exclusivity_, gold=gold, predicted=predicted, category_names=names,
                           classifier=clf_label)
