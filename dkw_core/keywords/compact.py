"""The category posterior in a few hundred kilobytes: :class:`CompactPosterior`.

A fitted :class:`~dkw_core.keywords.posterior.CategoryPosterior` (tf-idf + LinearSVC, Platt
scaling on 3 calibration folds) pickles to ~29 MB on 20ng: three dense (categories x 56k
words) coefficient matrices. Shipped with the repository (:mod:`.shipped`, files under 2 MB),
it keeps

* the tf-idf vocabulary and each word's training document frequency (the idf is recomputed
  exactly from them, so a text's tf-idf row and its norm are the fitted one's);
* per calibration fold, the intercepts, the sigmoid calibrators (``a``, ``b``) and only the
  largest coefficients by magnitude (``keep`` of them, as integers of ``bits`` bits scaled per
  category row; the rest are taken as 0);

and predicts as scikit-learn's ``CalibratedClassifierCV.predict_proba`` does (each fold's
sigmoids, normalised, averaged over the folds). With every coefficient kept (``keep=None``,
float64) it equals the fitted posterior to round-off; the pruned files' agreement with the
full classifier is measured by ``scripts/ship_stats.py`` and stated in ``dkw_core/shipped/README.md``.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..errors import InputError


def _words_blob(words: Sequence[str]) -> np.ndarray:
    return np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8)


def _blob_words(blob: np.ndarray) -> list[str]:
    text = bytes(np.asarray(blob, dtype=np.uint8)).decode("utf-8")
    return text.split("\n") if text else []


class CompactPosterior:
    """P(c | d) over ``n_categories`` columns, with the fitted posterior's features and a
    pruned copy of its classifiers (see the module docstring)."""

    def __init__(self, n_categories: int, arrays: dict[str, np.ndarray]) -> None:
        self.n_categories = int(n_categories)
        self._arrays = arrays
        self._vectorizer: Any = None
        self._folds: list[tuple[sp.csr_matrix, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None = None

    # -- from a fitted posterior -----------------------------------------------------------
    @classmethod
    def from_fitted(cls, posterior, train_texts: Sequence[str], *, keep: int | None = None, bits: int = 16) -> CompactPosterior:
        """Compact form of a fitted ``CategoryPosterior`` (``train_texts``: the texts it was
        fitted on, for the words' document frequencies). ``keep``: coefficients kept per
        calibration fold (largest magnitude first, float16); ``None`` keeps all, exactly."""
        n = int(posterior.n_categories)
        if posterior._constant is not None:
            return cls(n, {"constant": np.asarray(posterior._constant, dtype=np.float64)})
        tfidf, calibrated = posterior._pipe.steps[0][1], posterior._pipe.steps[1][1]
        vocab = sorted(tfidf.vocabulary_, key=tfidf.vocabulary_.get)
        counts = tfidf.__class__(vocabulary=vocab, use_idf=False, norm=None).fit_transform(list(train_texts))
        df = np.bincount(counts.indices, minlength=len(vocab))
        arrays: dict[str, np.ndarray] = {
            "vocabulary": _words_blob(vocab), "df": df.astype(np.uint32),
            "n_fit_docs": np.array([len(train_texts)]),
            "classes": np.asarray(posterior._classes, dtype=np.int64),
            "calibrated_classes": np.asarray(calibrated.classes_, dtype=np.int64),
            "n_folds": np.array([len(calibrated.calibrated_classifiers_)]),
        }
        if not np.allclose(np.log((1 + len(train_texts)) / (1 + df)) + 1, tfidf.idf_):
            raise InputError("the training texts given are not those the posterior was fitted on")
        for f, cc in enumerate(calibrated.calibrated_classifiers_):
            coef = np.asarray(cc.estimator.coef_, dtype=np.float64)
            if keep is not None and keep < coef.size:
                cut = np.partition(np.abs(coef).ravel(), coef.size - keep)[coef.size - keep]
                coef = np.where(np.abs(coef) >= cut, coef, 0.0)
            flat = np.flatnonzero(coef)  # row-major positions, ascending: stored as gaps (they compress)
            values = coef.ravel()[flat]
            if keep is not None:  # integers of ``bits`` bits per class row, scaled by its largest magnitude
                top = 2 ** (bits - 1) - 1
                scale = np.abs(coef).max(axis=1) / top
                scale[scale == 0] = 1.0
                values = np.rint(values / scale[flat // coef.shape[1]]).astype(np.int8 if bits == 8 else np.int16)
            else:
                scale = np.ones(coef.shape[0])
            arrays.update({
                f"f{f}_gaps": np.diff(flat, prepend=0).astype(np.uint32), f"f{f}_values": values,
                f"f{f}_scale": scale,
                f"f{f}_shape": np.array(coef.shape), f"f{f}_intercept": np.asarray(cc.estimator.intercept_, np.float64),
                f"f{f}_estimator_classes": np.asarray(cc.estimator.classes_, dtype=np.int64),
                f"f{f}_a": np.array([c.a_ for c in cc.calibrators], dtype=np.float64),
                f"f{f}_b": np.array([c.b_ for c in cc.calibrators], dtype=np.float64),
            })
        return cls(n, arrays)

    # -- storage ---------------------------------------------------------------------------
    def arrays(self) -> dict[str, Any]:
        """Everything it is made of (plain arrays, for ``np.savez_compressed``)."""
        return {"n_categories": np.array([self.n_categories]), **self._arrays}

    @classmethod
    def from_arrays(cls, arrays) -> CompactPosterior:
        data = {k: np.asarray(arrays[k]) for k in arrays}
        return cls(int(data.pop("n_categories")[0]), data)

    def nbytes(self) -> int:
        """Size of the compressed ``.npz`` it is stored as."""
        buf = io.BytesIO()
        np.savez_compressed(buf, **self.arrays())
        return buf.getbuffer().nbytes

    # -- prediction ------------------------------------------------------------------------
    def _ready(self) -> None:
        if self._folds is not None:
            return
        from sklearn.feature_extraction.text import TfidfVectorizer

        a = self._arrays
        vocab = _blob_words(a["vocabulary"])
        vec = TfidfVectorizer(sublinear_tf=True, vocabulary=vocab)
        vec.idf_ = np.log((1 + float(a["n_fit_docs"][0])) / (1 + a["df"].astype(np.float64))) + 1
        self._vectorizer = vec
        folds = []
        for f in range(int(a["n_folds"][0])):
            shape = tuple(int(x) for x in a[f"f{f}_shape"])
            flat = np.cumsum(a[f"f{f}_gaps"].astype(np.int64))
            rows, cols = flat // shape[1], flat % shape[1]
            values = a[f"f{f}_values"].astype(np.float64) * a[f"f{f}_scale"][rows]
            coef = sp.csr_matrix((values, (rows, cols)), shape=shape)
            positions = np.searchsorted(a["calibrated_classes"], a[f"f{f}_estimator_classes"])
            folds.append((coef.T.tocsr(), a[f"f{f}_intercept"], positions, a[f"f{f}_a"], a[f"f{f}_b"]))
        self._folds = folds

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        """(texts x categories) posteriors; every row sums to 1 (as ``CategoryPosterior.predict``)."""
        from scipy.special import expit

        out = np.zeros((len(texts), self.n_categories))
        if not len(texts):
            return out
        if "constant" in self._arrays:
            out[:] = self._arrays["constant"]
            return out
        self._ready()
        assert self._folds is not None
        x = self._vectorizer.transform(list(texts))
        n_classes = len(self._arrays["calibrated_classes"])
        mean = np.zeros((len(texts), n_classes))
        for coef_t, intercept, positions, a, b in self._folds:
            decision = np.asarray((x @ coef_t).toarray()) + intercept
            proba = np.zeros((len(texts), n_classes))
            if n_classes == 2:  # scikit-learn's binary case: one decision column, for the second class
                proba[:, 1] = expit(-(a[0] * decision[:, 0] + b[0]))
                proba[:, 0] = 1.0 - proba[:, 1]
            else:
                for j, pos in enumerate(positions):
                    proba[:, pos] = expit(-(a[j] * decision[:, j] + b[j]))
                total = proba.sum(axis=1, keepdims=True)
                proba = np.divide(proba, total, out=np.full_like(proba, 1 / n_classes), where=total != 0)
            proba[(proba > 1.0) & (proba <= 1.0 + 1e-5)] = 1.0
            mean += proba
        mean /= len(self._folds)
        out[:, self._arrays["classes"]] = mean
        return out
