"""Evaluation runs end to end: corpus -> model -> scores, every run stored and labelled.

Each ``run_*`` function builds a :class:`RunConfig`, returns the stored result if the same
configuration was run before (cache hit, ``cached=True``) and otherwise computes, stores and
returns it. Callers (CLI, ``scripts/bench_eval.py``, the app) only choose parameters.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import cache
from ..errors import InputError
from ..types import POSTERIOR_PROTOCOLS, Progress
from .baselines import bow_baseline, tfidf_baseline
from .classifiers import CLASSIFIER_LABELS, DEFAULT_CLASSIFIER
from .paired import prediction_record
from .protocols import RunConfig, RunResult, check_classifier, check_protocol, evaluate_model
from .results import ResultsStore
from .search import DEFAULT_K_GRID, DEFAULT_N_GRID, PAPER_SIZES, search_model

if TYPE_CHECKING:
    import numpy as np

    from ..corpora import Corpus
    from ..keywords import KeywordModel
    from .search import Setup



@dataclass
class Experiment:
    """A loaded corpus (possibly ``head(sample)``), the vectors and the prepared keyword model."""

    corpus: Corpus | PreparedCorpus
    vectors: Any                   # the loaded Vectors, or (in a Dask session) their name
    model: KeywordModel | None
    dataset: str
    sample: int | None
    k_max: int
    neighbours: str = "cosine"
    source: str | None = None        # the dataset as given (a name, a folder, a .csv)
    vectors_path: str | None = None  # the vectors file as given (None: DKW_VECTORS or the default)

    @property
    def ref(self):
        """How a Dask worker loads this experiment's prepared model (:class:`dkw_core.cluster.ModelRef`)."""
        from ..cluster import CorpusRef, ModelRef

        return ModelRef(CorpusRef(self.source or self.dataset, self.sample), self.vectors_path, self.k_max,
                        self.neighbours)

    @property
    def vectors_name(self) -> str:
        return getattr(self.vectors, "name", str(self.vectors))

    @property
    def retrieval_options(self) -> dict:
        """Run options naming the neighbours spec; plain cosine is the absence of the key, so
        stored cosine runs keep their keys and other specs never share one with them."""
        return {} if self.neighbours == "cosine" else {"neighbours": self.neighbours}


def load_experiment(
    dataset: str,
    *,
    sample: int | None = None,
    k_max: int = 90,
    vectors_path: str | None = None,
    prepare: bool = True,
    progress: Progress | None = None,
    neighbours: str | None = None,
) -> Experiment:
    """Load ``dataset`` (``corpus.head(sample)`` when given), the vectors and, if ``prepare``,
    the cached :class:`~dkw_core.keywords.KeywordModel` (tags + neighbours, built once)."""
    from ..corpora import load_corpus
    from ..keywords import KeywordModel
    from ..neighbours import neighbours_spec
    from ..vectors import load_vectors

    if sample is not None and sample < 1:
        raise InputError(f"--sample must be a positive number of documents per category, got {sample}")
    corpus = load_corpus(dataset)
    if sample:
        corpus = corpus.head(sample)
    from .classifiers import check_evaluable

    check_evaluable(corpus.categories, corpus.name)  # before any preparation
    spec = neighbours_spec(neighbours)
    vectors = load_vectors(vectors_path)
    model = KeywordModel.prepare(corpus, vectors, k_max=k_max, progress=progress, neighbours=spec) if prepare else None
    return Experiment(corpus=corpus, vectors=vectors, model=model, dataset=corpus.name, sample=sample, k_max=k_max,
                      neighbours=spec, source=str(dataset), vectors_path=vectors_path)


@dataclass(frozen=True)
class PreparedCorpus:
    """What the client of a Dask session knows of a corpus it never loads: its cache key."""

    key: str
    name: str


def cluster_experiment(
    dataset: str,
    *,
    sample: int | None = None,
    k_max: int = 90,
    vectors_path: str | None = None,
    progress: Progress | None = None,
    neighbours: str | None = None,
) -> Experiment:
    """The experiment as the client of a Dask session (``--scheduler``) holds it: the corpus
    prepared on the cluster, neither its texts nor the model loaded here (``model`` is None;
    :func:`run_methods` and :func:`run_search` send the work to the workers)."""
    from ..cluster import CorpusRef, active_client, prepare_on_cluster
    from ..neighbours import neighbours_spec
    from ..vectors import vectors_name

    if sample is not None and sample < 1:
        raise InputError(f"--sample must be a positive number of documents per category, got {sample}")
    spec = neighbours_spec(neighbours)
    done = prepare_on_cluster(active_client(), CorpusRef(str(dataset), sample), vectors_path=vectors_path,
                              k_max=k_max, neighbours=spec, progress=progress)
    return Experiment(corpus=PreparedCorpus(done.key, done.name), vectors=vectors_name(vectors_path), model=None,
                      dataset=done.name, sample=sample, k_max=k_max, neighbours=spec, source=str(dataset),
                      vectors_path=vectors_path)


def _store(store: ResultsStore | str | None) -> ResultsStore:
    return store if isinstance(store, ResultsStore) else ResultsStore(store)


def method_run_config(*, dataset: str, corpus_key: str, vectors: str, sample: int | None, k_max: int,
                      neighbours: str = "cosine", metric: str, k: int, top: int, protocol: str,
                      classifier: str = DEFAULT_CLASSIFIER) -> RunConfig:
    """The one builder of a method run's configuration (hence its stored key), used by the CLI
    (:func:`method_config`) and the app (``dkw_app.stored_runs.run_evaluation``) alike."""
    options: dict = {"k_max": int(k_max)}
    if neighbours and neighbours != "cosine":
        options["neighbours"] = neighbours
    return RunConfig(dataset=dataset, corpus_key=corpus_key, vectors=vectors, protocol=protocol,
                     metric=metric, k=int(k), top=int(top), classifier=classifier, kind="method",
                     sample=sample, options=options)


def method_config(exp: Experiment, *, metric: str, k: int, top: int, protocol: str,
                  classifier: str = DEFAULT_CLASSIFIER) -> RunConfig:
    return method_run_config(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name,
                             sample=exp.sample, k_max=exp.k_max, neighbours=exp.neighbours, metric=metric, k=k,
                             top=top, protocol=protocol, classifier=classifier)


def model_experiment(model, *, dataset: str, sample: int | None) -> Experiment:
    """An :class:`Experiment` around a model prepared elsewhere (the app's cached model)."""
    return Experiment(corpus=model.corpus, vectors=model.vectors, model=model, dataset=dataset, sample=sample,
                      k_max=int(model.k_max), neighbours=getattr(model, "neighbours", None) or "cosine")


def test_predictions(model, y_pred) -> dict:
    """The compact per-document record of a run's test predictions (:mod:`.paired`)."""
    return prediction_record(model.doc_ids("test"), model.labels("test"), y_pred)


def run_method(
    exp: Experiment,
    *,
    metric: str,
    k: int,
    top: int,
    protocol: str,
    classifier: str = DEFAULT_CLASSIFIER,
    store: ResultsStore | str | None = None,
    force: bool = False,
) -> RunResult:
    """The method (keyword-sum document vectors + classifier) on the test split."""
    from ..metrics import get_metric

    get_metric(metric)
    check_protocol(protocol)
    check_classifier(classifier)
    if exp.model is None:
        raise InputError("the experiment has no prepared keyword model")
    config = method_config(exp, metric=metric, k=k, top=top, protocol=protocol, classifier=classifier)

    def compute() -> RunResult:
        scores, seconds, y_pred = evaluate_model(exp.model, metric=metric, k=k, top=top, protocol=protocol,
                                                 classifier=classifier)
        return RunResult(config=config, scores=scores, seconds=seconds,
                         details={"predictions": test_predictions(exp.model, y_pred)})

    return _store(store).run(config, compute, force=force)


def run_methods(exp: Experiment, runs: Sequence[dict], *, classifier: str = DEFAULT_CLASSIFIER,
                store: ResultsStore | str | None = None, force: bool = False) -> list[RunResult]:
    """:func:`run_method` for every ``runs`` entry (``metric``, ``k``, ``top``, ``protocol``).
    Inside a Dask session (``--scheduler``) the runs
    not stored yet go through joblib's ``dask`` backend, each worker loading the prepared model
    from the shared cache; the numbers are those of the single-machine path."""
    from joblib import Parallel, delayed

    from ..cluster import active_client

    st = _store(store)
    if active_client() is None:
        return [run_method(exp, **r, classifier=classifier, store=st, force=force) for r in runs]
    from ..metrics import get_metric

    for r in runs:
        get_metric(r["metric"])
        check_protocol(r["protocol"])
    check_classifier(classifier)
    configs = [method_config(exp, **r, classifier=classifier) for r in runs]
    todo = [i for i, c in enumerate(configs) if force or st.get(c) is None]
    computed = Parallel(n_jobs=-1)(delayed(_evaluate_on_worker)(exp.ref, runs[i], classifier) for i in todo)
    fresh = dict(zip(todo, computed))
    out = []
    for i, config in enumerate(configs):
        if i in fresh:
            scores, seconds, record = fresh[i]
            out.append(st.run(config, _stored(config, scores, seconds, record), force=force))
        else:
            stored = st.get(config)
            assert stored is not None  # checked above: only missing configurations are computed
            out.append(stored)
    return out


def _stored(config: RunConfig, scores, seconds, predictions) -> Callable[[], RunResult]:
    return lambda: RunResult(config=config, scores=scores, seconds=seconds, details={"predictions": predictions})


def _train_labels(ref):
    return ref.load().labels("train")


def _evaluate_on_worker(ref, run: dict, classifier: str):
    model = ref.load()
    scores, seconds, y_pred = evaluate_model(model, **run, classifier=classifier)
    return scores, seconds, test_predictions(model, y_pred)


def run_tfidf(exp: Experiment, *, classifier: str = DEFAULT_CLASSIFIER, store: ResultsStore | str | None = None,
              force: bool = False) -> RunResult:
    """tf-idf (sublinear) + classifier on the full text (no protocol: features never use labels)."""
    check_classifier(classifier)
    config = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors="none", protocol="none",
                       metric="tf-idf-sublinear", k=0, top=0, classifier=classifier, kind="baseline-tfidf",
                       sample=exp.sample)

    def compute() -> RunResult:
        scores, seconds, y_pred = tfidf_baseline(exp.corpus, classifier=classifier)
        return RunResult(config=config, scores=scores, seconds=seconds,
                         details={"predictions": _corpus_predictions(exp.corpus, y_pred)})

    st = _store(store)
    return st.run(config, compute, force=force or _without_predictions(st, config))


def _corpus_predictions(corpus, y_pred) -> dict:
    """:func:`test_predictions` of a run on a corpus's own texts (no keyword model): the same
    test documents and gold categories, hence the same split fingerprint as the metric runs."""
    docs = corpus.split("test")
    index = {c: i for i, c in enumerate(corpus.categories)}
    return prediction_record([d.id for d in docs], [index[d.label] for d in docs], y_pred)


def _without_predictions(store: ResultsStore, config: RunConfig) -> bool:
    """A baseline stored before baselines kept their test predictions (dkw < 0.3.1): re-run it,
    so it can be compared per document like every method run."""
    stored = store.get(config)
    return stored is not None and not stored.details.get("predictions")


_BASELINE_MODELS: cache.Memo = cache.Memo(maxsize=2)


def run_bow(exp: Experiment, *, metric: str, top: int, protocol: str, classifier: str = DEFAULT_CLASSIFIER,
            store: ResultsStore | str | None = None, force: bool = False,
            progress: Progress | None = None) -> RunResult:
    """The same classifier on binary bag-of-words keyword sets (documents' own words, no vectors)."""
    from ..keywords import BaselineModel
    from ..metrics import get_metric

    get_metric(metric)
    check_protocol(protocol)
    check_classifier(classifier)
    config = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors="none", protocol=protocol,
                       metric=metric, k=0, top=int(top), classifier=classifier, kind="baseline-bow", sample=exp.sample)

    def compute() -> RunResult:
        t0 = time.perf_counter()
        base = _BASELINE_MODELS.get(exp.corpus.key, lambda: BaselineModel.prepare(exp.corpus, progress=progress))
        t1 = time.perf_counter()
        scores, seconds, y_pred = bow_baseline(base, metric=metric, top=top, protocol=protocol, classifier=classifier)
        return RunResult(config=config, scores=scores, seconds={"prepare": t1 - t0, **seconds},
                         details={"predictions": test_predictions(base, y_pred)})

    st = _store(store)
    return st.run(config, compute, force=force or _without_predictions(st, config))


def run_search(
    exp: Experiment,
    *,
    protocol: str,
    ks: Sequence[int] = DEFAULT_K_GRID,
    metrics: Sequence[str] | None = None,
    tops: Sequence[int] = DEFAULT_N_GRID,
    classifier: str = DEFAULT_CLASSIFIER,
    sizes: Sequence[int] = PAPER_SIZES,
    seed: int = 0,
    store: ResultsStore | str | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> RunResult:
    """Algorithm 2 on the training split, then the chosen setup trained on the whole training
    split and scored on the test split. The stored run (kind ``search``) records the chosen
    K/metric/N, the grids, the seed and the trace of every round."""
    from ..cluster import active_client
    from ..metrics import PAPER_METRICS

    check_protocol(protocol)
    check_classifier(classifier)
    client = active_client()
    if exp.model is None and client is None:
        raise InputError("the experiment has no prepared keyword model")
    metrics = list(metrics or PAPER_METRICS)
    ks = [int(k) for k in ks]
    if max(ks) > exp.k_max:
        raise InputError(f"K grid {ks} exceeds the prepared k_max={exp.k_max}")
    grid = {"ks": ks, "metrics": metrics, "tops": [int(n) for n in tops], "sizes": [int(s) for s in sizes],
            "seed": int(seed), "k_max": exp.k_max, **exp.retrieval_options}
    if protocol in POSTERIOR_PROTOCOLS:
        from ..keywords.posterior import FOLD_SCHEME

        grid["fold_posteriors"] = FOLD_SCHEME
    # the search run is keyed by its grid; metric/K/N of the key are placeholders
    key = _search_key(exp, protocol=protocol, classifier=classifier, grid=grid)
    st = _store(store)
    if not force:
        stored = st.get(key)
        if stored is not None:
            return stored

    t0 = time.perf_counter()
    ref = exp.ref if client is not None else None
    labels = client.submit(_train_labels, ref, pure=False).result() if exp.model is None else None
    result = search_model(exp.model, protocol=protocol, ks=ks, metrics=metrics, tops=tops, classifier=classifier,
                          sizes=sizes, seed=seed, progress=progress, ref=ref, labels=labels)
    t1 = time.perf_counter()
    best = result.best
    chosen_run: dict[str, Any] = dict(metric=best.metric, k=best.k, top=best.top, protocol=protocol)
    if exp.model is None:
        scores, seconds, record = client.submit(_evaluate_on_worker, ref, chosen_run, classifier, pure=False).result()
    else:
        scores, seconds, y_pred = evaluate_model(exp.model, **chosen_run, classifier=classifier)
        record = test_predictions(exp.model, y_pred)
    chosen = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name, protocol=protocol,
                       metric=best.metric, k=best.k, top=best.top, classifier=classifier, kind="search",
                       sample=exp.sample, options=grid)
    final = RunResult(config=chosen, key=key, scores=scores, seconds={"search": t1 - t0, **seconds},
                      details={"chosen": {"k": best.k, "metric": best.metric, "top": best.top}, "search": result.to_dict(),
                               "predictions": record})
    if force:
        st.delete(key)
    return st.save(final)


def search_summary(result: RunResult) -> dict:
    """JSON for ``search``: the chosen setup and its test scores (percent), labelled."""
    chosen = result.details.get("chosen", {})
    summary = result.summary()
    summary.update({"metric": chosen.get("metric"), "k": chosen.get("k"), "top": chosen.get("top")})
    c = result.config
    sample = f", sample={c.sample}/category" if c.sample else ""
    nbrs = c.options.get("neighbours", "cosine")
    summary["neighbours"] = nbrs
    if c.options.get("selection") == "cv":
        cap = c.options.get("max_per_category")
        how = (f"stratified {c.options.get('folds')}-fold CV on the training split"
               + (f" (at most {cap} per category)" if cap else "") + f", seed {c.options.get('seed')}")
    else:
        how = f"Algorithm 2, seed {c.options.get('seed')}"
    summary["selection"] = c.options.get("selection", "algorithm2")
    summary["label"] = (f"[{c.protocol}] {c.dataset} test split{sample}, vectors={c.vectors}, neighbours={nbrs}, "
                        f"K={chosen.get('k')}, N={chosen.get('top')}, metric={chosen.get('metric')} (chosen by "
                        f"{how}), classifier={CLASSIFIER_LABELS.get(c.classifier, c.classifier)}")
    stages = result.details.get("search", {}).get("stages", [])
    summary["search_rounds"] = [{"max_doc_count": s["max_doc_count"], "ratio": s["ratio"], "docs": s["n_docs"],
                                 "best_cv_micro_f1": round(100 * s["best_score"], 2), "kept": s["kept"]} for s in stages]
    return summary


def _cv_grid(exp: Experiment, *, protocol: str, ks, metrics, tops, seed: int, folds: int,
             max_per_category: int | None) -> dict:
    grid = {"ks": [int(k) for k in ks], "metrics": list(metrics), "tops": [int(n) for n in tops], "seed": int(seed),
            "k_max": exp.k_max, "selection": "cv", "folds": int(folds), "max_per_category": max_per_category,
            **exp.retrieval_options}
    if protocol in POSTERIOR_PROTOCOLS:
        from ..keywords.posterior import FOLD_SCHEME

        grid["fold_posteriors"] = FOLD_SCHEME
    return grid


def _search_key(exp: Experiment, *, protocol: str, classifier: str, grid: dict) -> RunConfig:
    return RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name, protocol=protocol,
                     metric="*", k=0, top=0, classifier=classifier, kind="search", sample=exp.sample, options=grid)


def run_cv(
    exp: Experiment,
    *,
    protocol: str,
    ks: Sequence[int] = DEFAULT_K_GRID,
    metrics: Sequence[str] | None = None,
    tops: Sequence[int] = DEFAULT_N_GRID,
    classifier: str = DEFAULT_CLASSIFIER,
    folds: int = 5,
    seed: int = 0,
    max_per_category: int | None = None,
    curves: bool = True,
    k_choice: str = "metric-n",
    store: ResultsStore | str | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The robust selection (``--selection cv``, :mod:`.selection`): one stratified k-fold CV of
    every (K, metric, N) setup on the training split, then

    * ``"choice"``: the best setup over all metrics (chi2, tf-chi2 excluded as in the paper),
      trained on the whole training split and scored once on the test split;
    * ``"curves"`` (when ``curves``): for every metric and every N, the best K of that (metric, N)
      on the same CV, trained and scored the same way — the F1-against-N curves.

    Each is stored as a ``search`` run (options ``selection="cv"``, the grids, folds, seed) with
    its CV scores and its per-document test predictions; stored runs are cache hits, and the CV
    runs only when a run is missing."""
    from ..metrics import PAPER_METRICS, SEARCH_EXCLUDED
    from .predictor import ModelPredictor
    from .protocols import evaluate_tops
    from .search import make_setups
    from .selection import cv_search

    check_protocol(protocol)
    check_classifier(classifier)
    if exp.model is None:
        raise InputError("the CV selection needs the prepared model on this machine (no --scheduler)")
    metrics = list(dict.fromkeys(metrics or PAPER_METRICS))
    ks = [int(k) for k in ks]
    tops = [int(n) for n in tops]
    if max(ks) > exp.k_max:
        raise InputError(f"K grid {ks} exceeds the prepared k_max={exp.k_max}")
    st = _store(store)
    grid = _cv_grid(exp, protocol=protocol, ks=ks, metrics=metrics, tops=tops, seed=seed, folds=folds,
                    max_per_category=max_per_category)
    choice_key = _search_key(exp, protocol=protocol, classifier=classifier, grid=grid)
    curve_keys = {(m, n): _search_key(exp, protocol=protocol, classifier=classifier,
                                      grid={**grid, "metrics": [m], "tops": [n], "k_choice": k_choice,
                                            "cv_tops": grid["tops"]})
                  for m in metrics for n in tops} if curves else {}
    stored = {key: (None if force else st.get(c)) for key, c in [("choice", choice_key), *curve_keys.items()]}
    if all(v is not None for v in stored.values()):
        return {"choice": stored["choice"], "curves": [stored[k] for k in curve_keys], "cv": None}

    setups = make_setups(ks, metrics, tops, exclude=())
    predictor = ModelPredictor(exp.model, protocol=protocol, classifier=classifier, max_top=max(tops))
    cv = cv_search(setups, predictor.labels, predictor, folds=folds, seed=seed, max_per_category=max_per_category,
                   progress=progress)
    excluded = [m for m in SEARCH_EXCLUDED if m in metrics] if len(metrics) > 1 else []
    wanted: dict[Any, Setup] = {"choice": cv.best(exclude=excluded)}
    for (m, n) in curve_keys:
        wanted[(m, n)] = cv.best_k(m, n, k_choice=k_choice)
    # evaluate every distinct (metric, K) once, all its N from one ranking
    plan: dict[tuple[str, int], set[int]] = {}
    for key, setup in wanted.items():
        if stored[key] is None:
            plan.setdefault((setup.metric, setup.k), set()).add(setup.top)
    tested: dict[tuple[str, int, int], tuple[Any, dict[str, float], np.ndarray]] = {}
    for (metric, k), ns in plan.items():
        for n, result in evaluate_tops(exp.model, metric=metric, k=k, tops=ns, protocol=protocol,
                                       classifier=classifier).items():
            tested[(metric, k, n)] = result
    keys: dict[Any, RunConfig] = {"choice": choice_key, **curve_keys}
    out: dict[Any, RunResult] = {}
    for key, setup in wanted.items():
        kept = stored[key]
        if kept is not None:
            out[key] = kept
            continue
        scores, seconds, y_pred = tested[(setup.metric, setup.k, setup.top)]
        considered = [s for s in setups if key == "choice" and s.metric not in excluded
                      or key != "choice" and s.metric == key[0] and (s.top == key[1] or k_choice == "metric")]
        config = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name,
                           protocol=protocol, metric=setup.metric, k=setup.k, top=setup.top, classifier=classifier,
                           kind="search", sample=exp.sample, options=keys[key].options)
        run = RunResult(config=config, key=keys[key], scores=scores,
                           seconds={"cv": cv.seconds, **seconds},
                           details={"chosen": {"k": setup.k, "metric": setup.metric, "top": setup.top},
                                    "cv": cv.to_dict(considered), "predictions": test_predictions(exp.model, y_pred)})
        if force:
            st.delete(keys[key])
        out[key] = st.save(run)
    return {"choice": out["choice"], "curves": [out[k] for k in curve_keys], "cv": cv}
