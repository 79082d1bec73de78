"""Algorithm 2 of the paper (§4.2.2 "Parameter setup"): choose the best (K, metric, N) setup.

For every ``max_doc_count`` in (5, 10, 20, 100, 1000) take at most that many *training*
documents per category; run k-fold cross-validation with ratios (2, 3, 5) at the smallest
size only, then 5; after each cross-validation keep every setup whose micro-F1 (a fraction
in [0, 1]) is ``>= best - tolerance`` with

    tolerance = ratio / (2 * max_doc_count * categories)

and stop as soon as one setup is left. (The paper's pseudo-code tests
``cross_validation_ratio > 5`` where ``max_doc_count > 5`` is meant — the text says
"multiple ratios just with the smallest max_doc_count".) chi2 and tf-chi2 are left out of
the metric choice (paper: they won early rounds and then tested poorly).

:func:`parameter_search` is generic: it knows nothing of keywords, only of setups, the
training labels and an injected ``predict(setup, train_idx, val_idx) -> y_pred`` function.
:class:`~.predictor.ModelPredictor` (module :mod:`.predictor`) is that function for a prepared ``KeywordModel``: it ranks the
training split once per (metric, K) from the model's cached term counts (never re-tagging
nor re-searching neighbours) and slices the first N keywords per setup.

Statistics are **fold-local**: inside every cross-validation fold the category statistics
(A, B, C, D, per-category term frequencies, hence idf and every metric score) are counted
from the fold's training part only, and the classifier is fitted on that part only. A
validation document's own words and label never enter the scores it is ranked with (with
statistics from the whole training split its rare words would already score highest in its
own category, inflating CV F1 differently per metric; docs/method.md, evaluation protocols).
Validation documents are weighted with their own label under the label-aware protocol (the
paper's), with the maximum over categories under label-free, and with category posteriors
under label-free-posterior — fitted on every training-split document outside the fold's
validation part, never on a validation label (docs/method.md §3); the fold's training
documents the same way (out-of-fold posteriors).
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from ..errors import InputError
from ..expected_warnings import fit_warnings_expected
from ..types import Progress
from .classifiers import DEFAULT_CLASSIFIER
from .predictor import ModelPredictor, Setup

PAPER_SIZES: tuple[int, ...] = (5, 10, 20, 100, 1000)
PAPER_RATIOS: tuple[int, ...] = (2, 3, 5)
DEFAULT_K_GRID: tuple[int, ...] = (10, 30, 50, 70, 90)
DEFAULT_N_GRID: tuple[int, ...] = (1, 2, 5, 10, 20, 50)
#: Metrics the paper leaves out of the metric choice (§4.2.2); also ``dkw_core.metrics.SEARCH_EXCLUDED``.
DEFAULT_EXCLUDED: frozenset[str] = frozenset({"chi2", "tf-chi2"})

Predict = Callable[["Setup", np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Stage:
    """One cross-validation round of Algorithm 2."""

    max_doc_count: int
    ratio: int
    n_docs: int
    tolerance: float
    best_score: float
    scores: dict[str, float]  # str(setup) -> micro-F1 fraction
    kept: int


@dataclass
class SearchResult:
    best: Setup
    survivors: list[Setup]
    stages: list[Stage] = field(default_factory=list)
    seed: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {
            "best": asdict(self.best),
            "survivors": [asdict(s) for s in self.survivors],
            "stages": [asdict(s) for s in self.stages],
            "seed": self.seed,
            "seconds": self.seconds,
        }


def make_setups(
    ks: Iterable[int], metrics: Iterable[str], tops: Iterable[int], *, exclude: Iterable[str] = DEFAULT_EXCLUDED
) -> list[Setup]:
    """Cartesian product of the grids, without the excluded metrics (chi2, tf-chi2)."""
    excluded = set(exclude)
    setups = [Setup(int(k), m, int(n)) for k, m, n in itertools.product(ks, metrics, tops) if m not in excluded]
    if not setups:
        raise InputError("no setups to search: every metric was excluded or a grid is empty")
    for s in setups:
        if s.k < 1 or s.top < 1:
            raise InputError(f"K and N must be positive, got {s}")
    return setups


def tolerance(ratio: int, max_doc_count: int, categories: int) -> float:
    """Paper's tolerance: ``ratio / (2 * max_doc_count * categories)`` (micro-F1 as a fraction)."""
    return ratio / (2 * max_doc_count * categories)


def subsample(labels: np.ndarray, max_doc_count: int, *, order: np.ndarray) -> np.ndarray:
    """Positions of at most ``max_doc_count`` documents per category.

    ``order`` is one fixed random permutation of all positions: taking the first documents of
    each category in that order makes the subsamples of growing size nested and reproducible.
    """
    taken: dict[int, int] = {}
    keep = []
    for pos in order:
        c = int(labels[pos])
        if taken.get(c, 0) < max_doc_count:
            taken[c] = taken.get(c, 0) + 1
            keep.append(pos)
    return np.sort(np.asarray(keep, dtype=np.int64))


def folds(labels: np.ndarray, ratio: int, *, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """k-fold splits (stratified when possible) of positions ``0..len(labels)-1``."""
    from sklearn.model_selection import KFold, StratifiedKFold  # on use, not at import

    n = len(labels)
    if n < ratio:
        raise InputError(f"{n} documents cannot be split into {ratio} folds")
    X = np.zeros((n, 1))
    with fit_warnings_expected():  # a category smaller than the number of folds
        try:
            splitter = StratifiedKFold(n_splits=ratio, shuffle=True, random_state=seed)
            return list(splitter.split(X, labels))
        except ValueError:
            return list(KFold(n_splits=ratio, shuffle=True, random_state=seed).split(X))


def cross_validate(
    setup: Setup, positions: np.ndarray, labels: np.ndarray, ratio: int, predict: Predict, *, seed: int
) -> float:
    """Micro-F1 (fraction) of ``ratio``-fold CV over the documents at ``positions``.

    Predictions of all folds are pooled, then scored once (ComputeScore of the CV result).
    """
    from sklearn.metrics import f1_score  # on use, not at import

    y = labels[positions]
    truth, pred = [], []
    for tr, va in folds(y, ratio, seed=seed):
        truth.append(y[va])
        pred.append(np.asarray(predict(setup, positions[tr], positions[va])))
    return float(f1_score(np.concatenate(truth), np.concatenate(pred), average="micro"))


def score_round(setups: Sequence[Setup], positions: np.ndarray, labels: np.ndarray, ratio: int, predict: Predict,
                *, seed: int, step: Callable[[int, Setup], None] | None = None) -> dict[Setup, float]:
    """CV micro-F1 of every setup of one round of Algorithm 2.

    On one machine the setups run one after another. Inside a Dask session
    (:func:`dkw_core.cluster.session`, ``--scheduler``) they go through joblib's ``dask``
    backend, one task per (K, metric) — its N values share the fold's ranking — and ``predict``
    travels as a reference the workers resolve (:meth:`ModelPredictor.__reduce__`). Every setup
    is scored by the same deterministic function either way, so the scores are identical.
    """
    from ..cluster import active_client

    setups = list(setups)
    if active_client() is None:
        scores = {}
        for j, setup in enumerate(setups):
            scores[setup] = cross_validate(setup, positions, labels, ratio, predict, seed=seed)
            if step:
                step(j, setup)
        return scores
    from joblib import Parallel, delayed

    groups: dict[tuple, list[Setup]] = {}
    for s in setups:
        groups.setdefault((s.k, s.metric), []).append(s)
    results = Parallel(n_jobs=-1)(delayed(_cross_validate_group)(group, positions, labels, ratio, predict, seed)
                                  for group in groups.values())
    found = {s: v for group, values in zip(groups.values(), results) for s, v in zip(group, values)}
    scores = {}
    for j, s in enumerate(setups):  # the setups' order, as on one machine
        scores[s] = found[s]
        if step:
            step(j, s)
    return scores


def _cross_validate_group(group: list[Setup], positions, labels, ratio: int, predict: Predict, seed: int) -> list[float]:
    return [cross_validate(s, positions, labels, ratio, predict, seed=seed) for s in group]


def parameter_search(
    setups: Sequence[Setup],
    labels: np.ndarray,
    predict: Predict,
    *,
    sizes: Sequence[int] = PAPER_SIZES,
    seed: int = 0,
    progress: Progress | None = None,
) -> SearchResult:
    """Algorithm 2 over ``setups`` on the training documents with ``labels`` (category ints).

    ``predict(setup, train_positions, validation_positions)`` returns the predicted category
    of every validation document; positions index ``labels``. Returns the chosen setup and a
    trace of every round (scores, tolerance, survivors) so the choice can be audited.
    """
    start = time.perf_counter()
    labels = np.asarray(labels)
    setups = list(dict.fromkeys(setups))
    if not setups:
        raise InputError("no setups to search")
    if labels.size == 0:
        raise InputError("no training documents to search parameters on")
    n_categories = int(np.unique(labels).size)
    order = np.random.default_rng(seed).permutation(labels.size)
    rounds = [(m, r) for i, m in enumerate(sizes) for r in (PAPER_RATIOS if i == 0 else (5,))]  # then 5
    stages: list[Stage] = []
    previous = None
    total_work = len(rounds)
    for i, (m, ratio) in enumerate(rounds):
        if len(setups) == 1:
            break
        positions = subsample(labels, m, order=order)
        if previous is not None and previous[0] == ratio and np.array_equal(previous[1], positions):
            continue  # every category already complete: a bigger max_doc_count changes nothing
        previous = (ratio, positions)
        if positions.size < ratio:
            continue
        n_setups = len(setups)

        def step(j: int, setup: Setup, _i=i, _m=m, _ratio=ratio, _n=n_setups) -> None:
            if progress:
                progress((_i + (j + 1) / _n) / total_work, f"max_doc_count={_m}, {_ratio}-fold: {setup}")

        scores = score_round(setups, positions, labels, ratio, predict, seed=seed, step=step)
        best = max(scores.values())
        tol = tolerance(ratio, m, n_categories)
        setups = [s for s in setups if scores[s] >= best - tol - 1e-12]
        stages.append(
            Stage(m, ratio, int(positions.size), tol, best, {str(s): v for s, v in scores.items()}, len(setups))
        )
    if stages:
        last = {str(s): 0.0 for s in setups} | {k: v for k, v in stages[-1].scores.items()}
        winner = max(setups, key=lambda s: last.get(str(s), 0.0))  # GetAnyElement: the best-scoring, first on ties
    else:
        winner = setups[0]
    if progress:
        progress(1.0, f"chosen: {winner}")
    return SearchResult(best=winner, survivors=setups, stages=stages, seed=seed, seconds=time.perf_counter() - start)


def search_model(
    model,
    *,
    protocol: str,
    ks: Sequence[int] = DEFAULT_K_GRID,
    metrics: Sequence[str] | None = None,
    tops: Sequence[int] = DEFAULT_N_GRID,
    classifier: str = DEFAULT_CLASSIFIER,
    sizes: Sequence[int] = PAPER_SIZES,
    seed: int = 0,
    progress: Progress | None = None,
    ref=None,
    labels: np.ndarray | None = None,
) -> SearchResult:
    """Algorithm 2 on a prepared ``KeywordModel``'s training split (``ref``: how Dask workers
    load the same model, needed inside a cluster session; there ``model`` may be None, with
    ``labels`` the training labels, and only the workers load the model)."""
    if metrics is None:
        from ..metrics import PAPER_METRICS

        metrics = list(PAPER_METRICS)
    from ..metrics import SEARCH_EXCLUDED as excluded
    metrics = list(dict.fromkeys(metrics))
    # chi2/tf-chi2 are left out of the *metric choice*; a search with the metric fixed (choosing
    # K and/or N for chi2 alone, as the paper's per-metric figures do) keeps it.
    setups = make_setups(ks, metrics, tops, exclude=excluded if len(metrics) > 1 else ())
    predictor = ModelPredictor(model, protocol=protocol, classifier=classifier, max_top=max(s.top for s in setups),
                               ref=ref, labels=labels)
    return parameter_search(setups, predictor.labels, predictor, sizes=sizes, seed=seed, progress=progress)
