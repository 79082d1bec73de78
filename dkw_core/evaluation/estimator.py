"""scikit-learn transformer for the whole representation (paper §3 + §4.2.1).

``DiscriminativeKeywordVectorizer(metric=, k=, top=, vectors=None, neighbours="cosine")``:

* ``fit(texts, y)`` tags the texts with the core's tagger, builds phrase vectors and their
  nearest words (:meth:`dkw_core.keywords.KeywordModel.from_texts`) and the metric
  statistics from these training texts only;
* ``transform(texts)`` ranks every text's words **label-free** (maximum of the metric over
  categories — no label is read at transform time) and returns the normalised sum of its
  top-N keyword vectors, an array (n_texts x vector dimension).

It is a plain ``BaseEstimator`` + ``TransformerMixin``: ``get_params``/``set_params``/``clone``
work, so it fits in a ``Pipeline`` with any classifier and in ``GridSearchCV``. Prepared
models are memoised per (training texts, labels, vectors, k_max, neighbours) in the process, so a grid
over ``metric``, ``k`` and ``top`` tags and searches neighbours once per CV fold.
"""
from __future__ import annotations

import hashlib

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .. import cache
from ..errors import InputError
from ..types import DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP, NEW_TEXT_PROTOCOL, POSTERIOR_PROTOCOLS

_MODELS: cache.Memo = cache.Memo(maxsize=8)


def _texts(X) -> list[str]:
    if isinstance(X, str):
        raise InputError("expected a sequence of texts, got a single string")
    texts = list(X)
    bad = [i for i, t in enumerate(texts) if not isinstance(t, str)]
    if bad:
        raise InputError(f"text {bad[0]} is a {type(texts[bad[0]]).__name__}, not a string")
    return texts


class DiscriminativeKeywordVectorizer(TransformerMixin, BaseEstimator):
    """Texts -> discriminative-keyword document vectors that never read the texts' labels.

    Parameters
    ----------
    metric : str
        Word-weighting metric (``dkw_core.metrics.METRICS``), default ``DEFAULT_METRIC`` (lo-own, docs/method.md §9).
    k : int
        K nearest cropped-vocabulary words substituted for each phrase (paper §3.2).
    top : int
        N keywords per document.
    vectors : None, str, Path or Vectors
        None (default GloVe 6B 50d / ``DKW_VECTORS``), a path to a vector file, or a
        loaded :class:`dkw_core.vectors.Vectors`.
    k_max : int
        Neighbours prepared per phrase (>= k; default 90 so a grid over k reuses them).
    protocol : str
        ``"label-free-top1"`` (default: words weighted with the text's most probable
        category, as the paper weights with the gold one), ``"label-free-posterior"`` (by its
        category posterior) or ``"label-free"`` (maximum over categories); docs/method.md §3.
    neighbours : str
        How step 3 scores "nearest" (:mod:`dkw_core.neighbours`): ``"cosine"``
        (default, the paper's), ``"csls-k<k>"`` or ``"abtt-d<D>"``.
    """

    def __init__(self, metric: str = DEFAULT_METRIC, k: int = DEFAULT_K, top: int = DEFAULT_TOP, vectors=None,
                 k_max: int = DEFAULT_K,
                 protocol: str = NEW_TEXT_PROTOCOL, neighbours: str = "cosine"):
        self.metric = metric
        self.k = k
        self.top = top
        self.vectors = vectors
        self.k_max = k_max
        self.protocol = protocol
        self.neighbours = neighbours

    def _load_vectors(self):
        from ..vectors import Vectors, load_vectors

        if isinstance(self.vectors, Vectors):
            return self.vectors
        return load_vectors(self.vectors)

    def _check_params(self) -> None:
        from ..metrics import get_metric
        from ..neighbours import check_neighbours
        from ..validation import check_k, check_k_max, check_top

        get_metric(self.metric)
        if self.protocol not in ("label-free", *POSTERIOR_PROTOCOLS):
            raise InputError(f"protocol must be label-free, {' or '.join(POSTERIOR_PROTOCOLS)}, got {self.protocol!r}")
        check_neighbours(self.neighbours)
        check_top(self.top)
        check_k(self.k)
        check_k_max(self.k_max)

    def fit(self, X, y):
        """Prepare the keyword model on the training texts ``X`` with category labels ``y``."""
        from ..keywords import KeywordModel

        self._check_params()
        texts = _texts(X)
        labels = [str(v) for v in np.asarray(y).tolist()]
        if len(texts) != len(labels):
            raise InputError(f"{len(texts)} texts but {len(labels)} labels")
        if len(set(labels)) < 2:
            raise InputError("need training texts of at least two categories")
        vectors = self._load_vectors()
        k_max = max(int(self.k_max), int(self.k))
        digest = hashlib.sha1()
        for t, lab in zip(texts, labels):
            digest.update(lab.encode() + b"\x00" + t.encode("utf-8", "replace") + b"\x01")
        from ..neighbours import neighbours_spec

        spec = neighbours_spec(self.neighbours)
        key = f"{digest.hexdigest()}:{vectors.name}:{id(vectors)}:{k_max}:{spec}"
        self.model_ = _MODELS.get(key, lambda: KeywordModel.from_texts(texts, labels, vectors=vectors, k_max=k_max,
                                                                      name="estimator", neighbours=spec))
        self.classes_ = np.array(self.model_.categories)
        return self

    def fit_transform(self, X, y=None, **fit_params):
        """Fit, then the label-free vectors of the training texts (from the prepared counts, no re-tagging)."""
        if y is None:
            raise InputError("DiscriminativeKeywordVectorizer needs category labels y to fit")
        self.fit(X, y)
        idx = self.model_.rank("train", metric=self.metric, k=self.k, top=self.top, protocol=self.protocol)
        return np.asarray(self.model_.document_vectors(idx))

    def transform(self, X) -> np.ndarray:
        """Label-free keyword-sum vectors of new texts (texts without usable phrases -> zero vectors)."""
        check_is_fitted(self, "model_")
        texts = _texts(X)
        idx = self.model_.rank_texts(texts, metric=self.metric, k=self.k, top=self.top, protocol=self.protocol)
        return np.asarray(self.model_.document_vectors(idx))

    def keywords(self, X) -> list[list[str]]:
        """The top-N label-free keywords of each text (what ``transform`` sums)."""
        check_is_fitted(self, "model_")
        idx = self.model_.rank_texts(_texts(X), metric=self.metric, k=self.k, top=self.top, protocol=self.protocol)
        return self.model_.words(idx)

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        check_is_fitted(self, "model_")
        dim = self.model_.vectors.dim
        return np.array([f"dkw{i}" for i in range(dim)], dtype=object)
