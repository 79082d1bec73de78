"""The robust parameter choice (``--selection cv``): stratified k-fold cross-validation of every
(K, metric, N) setup on the whole training split, fold-local statistics.

Algorithm 2 (:mod:`.search`, ``--selection algorithm2``) is the paper's and stays as it is;
it can stop after a round on a handful of documents per category, so its choice varies with
its seed. Here every setup is scored by one stratified k-fold cross-validation
(``sklearn.model_selection.StratifiedKFold``, shuffled with the recorded seed) over the whole
training split — or, where the cost demands it, over at most ``max_per_category`` training
documents per category (recorded with the run) — with the same keyword predictor as Algorithm 2
(:class:`~.predictor.ModelPredictor`: statistics counted on each fold's training part only, one
ranking per (metric, K) sliced for every N). The scores of that single pass give

* the choice over all setups (:meth:`CVResult.best`, chi2 and tf-chi2 left out as in the paper),
* K for every fixed (metric, N) (:meth:`CVResult.best_k`): the F1-against-N curves, with K
  chosen per (metric, N) or once per metric (the best mean CV F1 over the N grid).

Ties go to the setup listed first (smaller K, the grid's metric order, smaller N).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..types import Progress
from .search import Setup, score_round, subsample

SELECTION_LABELS = {
    "algorithm2": "Algorithm 2 (the paper's)",
    "cv": "stratified k-fold CV on the training split",
}
DEFAULT_FOLDS = 5
#: How the curves' K is chosen: per (metric, N), or once per metric over every N.
#: How a reader is told which selection chose a setup (charts, tables, the verdict).
SELECTION_NAMES = {"algorithm2": "Algorithm 2 (paper)", "cv": "cross-validation on the training split"}


def selection_name(selection: str, *, folds: int | None = None, max_per_category: int | None = None,
                   detail: bool = False) -> str:
    """A selection in words: ``"Algorithm 2 (paper)"``, ``"cross-validation on the training split"``;
    with ``detail`` a CV also says its folds and whether it ran on the whole training split or on
    at most ``max_per_category`` documents per category ("3-fold cross-validation on the whole
    training split", "… on at most 50 training documents per category")."""
    name = SELECTION_NAMES.get(str(selection), str(selection))
    if not detail or selection != "cv":
        return name
    def plain(v):  # pandas gives NaN for a missing number
        return None if v is None or v != v else int(v)
    folds, cap = plain(folds), plain(max_per_category)
    how = f"{folds}-fold cross-validation" if folds else "cross-validation"
    return (f"{how} on at most {cap} training documents per category" if cap
            else f"{how} on the whole training split")


K_CHOICES: tuple[str, ...] = ("metric-n", "metric")


@dataclass
class CVResult:
    """CV micro-F1 (fraction) of every setup, and how it was computed."""

    scores: dict[Setup, float]
    folds: int
    documents: int
    seed: int
    max_per_category: int | None = None
    seconds: float = 0.0
    order: list[Setup] = field(default_factory=list)

    def best(self, *, metrics: Sequence[str] | None = None, tops: Sequence[int] | None = None,
             exclude: Sequence[str] = ()) -> Setup:
        """The best-scoring setup among those with a metric in ``metrics`` and N in ``tops``."""
        pool = [s for s in (self.order or list(self.scores)) if (metrics is None or s.metric in metrics)
                and (tops is None or s.top in tops) and s.metric not in set(exclude)]
        if not pool:
            raise InputError("no cross-validated setup matches")
        return max(pool, key=lambda s: self.scores[s])  # max keeps the first of equal scores

    def best_k(self, metric: str, top: int, *, k_choice: str = "metric-n") -> Setup:
        """The setup of (``metric``, N = ``top``) with the K chosen per (metric, N)
        (``k_choice="metric-n"``: best CV F1 at that N) or once per metric (``"metric"``: best
        mean CV F1 over every N of the grid, the same K for the whole curve)."""
        if k_choice == "metric-n":
            return self.best(metrics=[metric], tops=[top])
        if k_choice != "metric":
            raise InputError(f"unknown K choice {k_choice!r}; one of {', '.join(K_CHOICES)}")
        mine = [s for s in (self.order or list(self.scores)) if s.metric == metric]
        if not mine:
            raise InputError(f"no cross-validated setup of {metric}")
        ks = list(dict.fromkeys(s.k for s in mine))
        mean = {k: float(np.mean([self.scores[s] for s in mine if s.k == k])) for k in ks}
        k = max(ks, key=lambda k: mean[k])
        return Setup(k, metric, int(top))

    def describe(self) -> str:
        where = (f"at most {self.max_per_category} training documents per category ({self.documents} documents)"
                 if self.max_per_category else f"the whole training split ({self.documents} documents)")
        return f"stratified {self.folds}-fold CV on {where}, fold-local statistics, seed {self.seed}"

    def to_dict(self, setups: Sequence[Setup] | None = None) -> dict:
        chosen = setups if setups is not None else (self.order or list(self.scores))
        return {"method": "stratified k-fold CV", "folds": self.folds, "documents": self.documents,
                "seed": self.seed, "max_per_category": self.max_per_category, "seconds": self.seconds,
                "scores": {str(s): round(self.scores[s], 6) for s in chosen}}


def cv_search(setups: Sequence[Setup], labels: np.ndarray, predict, *, folds: int = DEFAULT_FOLDS, seed: int = 0,
              max_per_category: int | None = None, progress: Progress | None = None) -> CVResult:
    """Score every setup by one stratified ``folds``-fold CV (pooled micro-F1) on the training
    documents with ``labels`` (or a subsample of at most ``max_per_category`` per category)."""
    start = time.perf_counter()
    labels = np.asarray(labels)
    setups = list(dict.fromkeys(setups))
    if not setups:
        raise InputError("no setups to cross-validate")
    if folds < 2:
        raise InputError(f"cross-validation needs at least 2 folds, got {folds}")
    if max_per_category is not None and max_per_category < 1:
        raise InputError(f"max documents per category must be positive, got {max_per_category}")
    if max_per_category:
        positions = subsample(labels, max_per_category, order=np.random.default_rng(seed).permutation(labels.size))
    else:
        positions = np.arange(labels.size)
    if positions.size < folds:
        raise InputError(f"{positions.size} training documents cannot be split into {folds} folds")
    # K-major order: the predictor keeps one K's fold statistics at a time
    ordered = sorted(setups, key=lambda s: (s.k, setups.index(s)))

    def step(j: int, setup: Setup) -> None:
        if progress:
            progress((j + 1) / len(ordered), f"{folds}-fold CV: {setup}")

    scores = score_round(ordered, positions, labels, folds, predict, seed=seed, step=step)
    return CVResult(scores=scores, folds=folds, documents=int(positions.size), seed=seed,
                    max_per_category=max_per_category, seconds=time.perf_counter() - start, order=setups)
