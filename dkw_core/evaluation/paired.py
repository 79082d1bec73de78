"""Per-document comparison of two runs on the same test split (Dietterich 1998).

Every run stores its test predictions compactly (:func:`encode_labels`: one character per test
document, the category index in a 64-letter alphabet) together with a fingerprint of the test
split (:func:`split_fingerprint`: the test documents' ids and gold categories). Two runs with the
same fingerprint are compared document by document:

* **McNemar's exact test** on the discordant documents: ``b`` = documents run A classifies
  correctly and run B wrongly, ``c`` = the reverse; under the null hypothesis of equal error
  rates ``b ~ Binomial(b + c, 1/2)``, two-sided p from ``scipy.stats.binomtest`` (exact, no
  continuity correction, no normal approximation);
* a **paired bootstrap confidence interval** of the micro-F1 difference A − B (percentage
  points): test documents are resampled with replacement (the same resample for both runs),
  ``numpy.random.default_rng(seed)``, percentile interval. For single-label classification
  micro-F1 over all categories equals accuracy, so each resample's difference is the mean of
  ``correct_A − correct_B`` over the resampled documents;
* **Holm's step-down correction** across the pairs compared (:func:`holm`).
"""
from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from ..errors import InputError
from ..lazy import lazy_module

stats = lazy_module("scipy.stats")  # imported on first use: the app's pages import this module

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
#: Bootstrap defaults: resamples and the recorded seed.
DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0


def encode_labels(values: Sequence[int]) -> str:
    """Category indices as one character each (categories < 64), else comma-separated integers."""
    arr = np.asarray(values, dtype=np.int64)
    if arr.size and (arr.min() < 0 or arr.max() >= len(ALPHABET)):
        if arr.min() < 0:
            raise InputError("category indices must be non-negative")
        return ",".join(str(int(v)) for v in arr)
    return "".join(ALPHABET[int(v)] for v in arr)


def decode_labels(text: str) -> np.ndarray:
    """Inverse of :func:`encode_labels`."""
    if not isinstance(text, str):
        raise InputError("stored predictions are not a string")
    if "," in text:
        return np.asarray([int(v) for v in text.split(",")], dtype=np.int64)
    lookup = {c: i for i, c in enumerate(ALPHABET)}
    try:
        return np.asarray([lookup[c] for c in text], dtype=np.int64)
    except KeyError as exc:
        raise InputError(f"stored predictions hold an unknown symbol {exc.args[0]!r}") from None


def split_fingerprint(doc_ids: Sequence[str], gold: Sequence[int]) -> str:
    """Fingerprint of a test split: its documents, in order, and their gold categories."""
    h = hashlib.sha256()
    for d in doc_ids:
        h.update(str(d).encode("utf-8") + b"\0")
    h.update(encode_labels(gold).encode())
    return h.hexdigest()[:16]


def prediction_record(doc_ids: Sequence[str], gold: Sequence[int], pred: Sequence[int]) -> dict:
    """What a stored run keeps of its test predictions."""
    return {"split": split_fingerprint(doc_ids, gold), "gold": encode_labels(gold), "pred": encode_labels(pred)}


@dataclass
class Comparison:
    """Run A against run B on one test split (F1 in percent, differences A − B in points)."""

    a: str
    b: str
    documents: int
    f1_a: float
    f1_b: float
    diff: float
    ci_low: float
    ci_high: float
    only_a_right: int   # McNemar's b
    only_b_right: int   # McNemar's c
    p_mcnemar: float
    resamples: int
    seed: int
    confidence: float = 0.95

    @property
    def higher(self) -> str:
        return self.a if self.only_a_right > self.only_b_right else self.b if self.only_b_right > self.only_a_right \
            else "tie"

    def to_dict(self) -> dict:
        return {**asdict(self), "higher": self.higher}


def mcnemar_exact(correct_a: np.ndarray, correct_b: np.ndarray) -> tuple[int, int, float]:
    """(b, c, two-sided exact p) of McNemar's test; p = 1 without discordant documents."""
    ca, cb = np.asarray(correct_a, dtype=bool), np.asarray(correct_b, dtype=bool)
    if ca.shape != cb.shape:
        raise InputError("the two runs were scored on test splits of different sizes")
    b = int(np.sum(ca & ~cb))
    c = int(np.sum(~ca & cb))
    if b + c == 0:
        return b, c, 1.0
    return b, c, float(stats.binomtest(b, b + c, 0.5, alternative="two-sided").pvalue)


def bootstrap_diff(correct_a: np.ndarray, correct_b: np.ndarray, *, resamples: int = DEFAULT_RESAMPLES,
                   seed: int = DEFAULT_SEED, confidence: float = 0.95) -> tuple[float, float]:
    """Percentile interval of the micro-F1 difference A − B (points) over ``resamples`` paired
    bootstrap resamples of the test documents (``numpy.random.default_rng(seed)``)."""
    d = np.asarray(correct_a, dtype=np.float64) - np.asarray(correct_b, dtype=np.float64)
    return bootstrap_diffs([d], resamples=resamples, seed=seed, confidence=confidence)[0]


_DRAWS: dict[tuple[int, int, int], list[tuple[int, int, np.ndarray]]] = {}
_DRAWS_LIMIT = 64_000_000  # bytes of resampled indices kept (one 20ng test split at 2,000 resamples: 30 MB)


def _draws(n: int, resamples: int, seed: int) -> list[tuple[int, int, np.ndarray]]:
    """The resampled document indices of ``numpy.random.default_rng(seed)`` in batches of at most
    2,000,000 indices (bounded memory on big test splits), drawn once per (n, resamples, seed) and
    kept while they fit :data:`_DRAWS_LIMIT`: every table of pairs and every verdict resamples the
    same test documents with the same seed, and drawing is most of a bootstrap's cost."""
    key = (n, resamples, seed)
    if key in _DRAWS:
        return _DRAWS[key]
    rng = np.random.default_rng(seed)
    step = max(1, 2_000_000 // n)
    dtype = np.int16 if n <= np.iinfo(np.int16).max else np.int32 if n <= np.iinfo(np.int32).max else np.int64
    batches = []
    for start in range(0, resamples, step):
        stop = min(resamples, start + step)
        batches.append((start, stop, rng.integers(0, n, size=(stop - start, n)).astype(dtype)))
    if n * resamples * np.dtype(dtype).itemsize <= _DRAWS_LIMIT:
        if sum(b[2].nbytes for v in _DRAWS.values() for b in v) + n * resamples * np.dtype(dtype).itemsize \
                > _DRAWS_LIMIT:
            _DRAWS.clear()
        _DRAWS[key] = batches
    return batches


def bootstrap_diffs(differences: Sequence[np.ndarray], *, resamples: int = DEFAULT_RESAMPLES,
                    seed: int = DEFAULT_SEED, confidence: float = 0.95) -> list[tuple[float, float]]:
    """:func:`bootstrap_diff` of several per-document differences (``correct_a − correct_b``, one
    array each, all over the same test documents) on the same resamples: each interval is the one
    :func:`bootstrap_diff` gives alone (same seed, same draws), the resamples drawn once for all —
    drawing them is most of the cost of a table of pairs."""
    if resamples < 1:
        raise InputError("the bootstrap needs at least one resample")
    ds = [np.asarray(d, dtype=np.float64) for d in differences]
    if not ds:
        return []
    n = ds[0].size
    if n == 0:
        raise InputError("no test documents to resample")
    if any(d.size != n for d in ds):
        raise InputError("the runs were scored on test splits of different sizes")
    means = np.empty((len(ds), resamples))
    for start, stop, idx in _draws(n, resamples, seed):
        for j, d in enumerate(ds):
            means[j, start:stop] = d[idx].mean(axis=1)
    alpha = (1 - confidence) / 2
    out = []
    for row in means:
        low, high = np.quantile(row, [alpha, 1 - alpha])
        out.append((100 * float(low), 100 * float(high)))
    return out


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error), in the input order, capped at 1."""
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def bootstrap_pairs(correct: dict[str, np.ndarray], pairs: Sequence[tuple[str, str]], *,
                    resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                    confidence: float = 0.95) -> list[tuple[float, float]]:
    """:func:`bootstrap_diffs` of ``correct[a] − correct[b]`` for every pair, the same intervals
    to the last bit, at the cost of one gather per method instead of one per pair: a resample's
    mean difference is (correct documents of a − those of b) / n, and the counts are exact integers
    (so is NumPy's sum of the −1/0/1 differences before its one division)."""
    if resamples < 1:
        raise InputError("the bootstrap needs at least one resample")
    if not pairs:
        return []
    used = list(dict.fromkeys(name for pair in pairs for name in pair))
    ok = {name: np.asarray(correct[name], dtype=bool) for name in used}
    n = next(iter(ok.values())).size
    if n == 0:
        raise InputError("no test documents to resample")
    if any(c.size != n for c in ok.values()):
        raise InputError("the runs were scored on test splits of different sizes")
    means = np.empty((len(pairs), resamples))
    for start, stop, idx in _draws(n, resamples, seed):
        counts = {name: ok[name][idx].sum(axis=1, dtype=np.int64) for name in used}
        for j, (a, b) in enumerate(pairs):
            means[j, start:stop] = (counts[a] - counts[b]) / n
    alpha = (1 - confidence) / 2
    return [(100 * float(low), 100 * float(high)) for low, high in
            (np.quantile(row, [alpha, 1 - alpha]) for row in means)]


def compare_all(gold: np.ndarray, predictions: dict[str, np.ndarray], *, resamples: int = DEFAULT_RESAMPLES,
                seed: int = DEFAULT_SEED, alpha: float = 0.05):
    """Every pair of ``predictions`` (name -> predicted categories on the same test split):
    a DataFrame with the difference A − B and its CI, McNemar's b, c and p, and the p
    Holm-corrected over all pairs (``p_holm``, ``significant`` at ``alpha``)."""
    import pandas as pd

    names = list(predictions)
    pairs = list(itertools.combinations(names, 2))
    gold = np.asarray(gold)
    for name in names:
        if np.asarray(predictions[name]).shape != gold.shape:
            raise InputError("the two runs' predictions do not cover the same test documents")
    correct = {name: np.asarray(predictions[name]) == gold for name in names}
    intervals = bootstrap_pairs(correct, pairs, resamples=resamples, seed=seed) if pairs else []
    rows = []
    for (x, y), (low, high) in zip(pairs, intervals):  # the resamples drawn once for every pair
        only_a, only_b, p = mcnemar_exact(correct[x], correct[y])
        f1_a, f1_b = 100 * float(correct[x].mean()), 100 * float(correct[y].mean())
        rows.append(Comparison(a=x, b=y, documents=int(gold.size), f1_a=f1_a, f1_b=f1_b, diff=f1_a - f1_b,
                               ci_low=low, ci_high=high, only_a_right=only_a, only_b_right=only_b, p_mcnemar=p,
                               resamples=resamples, seed=seed).to_dict())
    frame = pd.DataFrame(rows, columns=[*Comparison.__dataclass_fields__, "higher"])
    frame["p_holm"] = holm(frame["p_mcnemar"].tolist()) if len(frame) else []
    frame["significant"] = frame["p_holm"] < alpha
    frame["pairs"] = len(frame)
    return frame


def bootstrap_f1(correct: np.ndarray, *, resamples: int = 1000, seed: int = DEFAULT_SEED,
                 confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of one run's micro-F1 (percent) over its test documents."""
    c = np.asarray(correct, dtype=np.float64)
    return bootstrap_diff(c, np.zeros_like(c), resamples=resamples, seed=seed, confidence=confidence)
