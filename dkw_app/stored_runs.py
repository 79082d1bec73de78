"""The evaluation runs the Metrics page reads (no Streamlit): the results store and the shipped
reference results as DataFrames with the page's columns, tables kept on disk, an evaluation run
from the page with its progress.

The loaders AppTests replace with fakes (``tests/app/fakes.py``) are named here as ``dkw_core``
names them; pure tables (``dkw_core.evaluation.comparisons``) are called by the pages directly.
"""
from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from dkw_core.errors import InputError
from dkw_core.evaluation import comparisons, experiments, leakcheck, protocols, reference, results, verdict
from dkw_core.evaluation.classifiers import CLASSIFIER_LABELS, DEFAULT_CLASSIFIER, check_evaluable
from dkw_core.evaluation.comparisons import per_document  # noqa: F401  (faked loader)
from dkw_core.evaluation.protocols import run_variant
from dkw_core.evaluation.reference import load_reference_hubness, load_reference_leakchecks  # noqa: F401  (faked)
from dkw_core.types import Progress

#: Columns of the results store the Metrics page reads.
RUN_COLUMNS = ["dataset", "protocol", "split", "vectors", "metric", "k", "top", "classifier",
               "micro_f1", "macro_f1", "kind", "sample"]
#: Run kinds of the results store drawn as reference lines.
BASELINE_KINDS = tuple(k for k in protocols.KINDS if k.startswith("baseline-"))


def disk_cached(kind: str, parts: Sequence[object], compute):
    """``compute()``, kept on disk (``dkw_core.cache``, kind ``app-<kind>``) under the key of
    ``parts`` and of the code that computes the Metrics page's tables: a fresh server answers a
    table a visitor has seen before without recomputing it (the verdict's bootstrap took most of
    the page's first open). A result that cannot be stored is still returned."""
    from dkw_core import cache

    target = cache.path(f"app-{kind}", cache.key(*parts, _tables_code_key(), readable=kind) + ".pkl")
    found = cache.read_pickle(target)
    if found is not None:
        return found[0]
    value = compute()
    cache.write_pickle(target, (value,))
    return value


_CODE_KEY: list[str] = []


def _tables_code_key() -> str:
    """The content of the modules that compute the cached tables, and dkw's version: a change to
    either is a new key, never a stale table."""
    if not _CODE_KEY:
        from pathlib import Path

        from dkw_core import __version__, cache
        from dkw_core.evaluation import paired

        _CODE_KEY.append(cache.key(__version__, *(Path(str(m.__file__)).read_bytes()
                                                  for m in (verdict, comparisons, paired))))
    return _CODE_KEY[0]


def _with_run_columns(frame: pd.DataFrame) -> pd.DataFrame:
    for column in RUN_COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    frame["variant"] = [run_variant(o) for o in (frame["options"] if "options" in frame.columns
                                                  else [None] * len(frame))]
    return frame


def load_runs(*, dataset: str | None = None) -> pd.DataFrame:
    """Every stored evaluation run (the results store), F1 in percent, with at least
    ``RUN_COLUMNS`` (``sample`` = documents per category and split, NaN = full corpus)."""
    frame = _with_run_columns(pd.DataFrame(results.load_runs(dataset=dataset)).copy())
    frame["kind"] = frame["kind"].fillna("method")
    if "stale" not in frame.columns:
        frame["stale"] = False
    return frame


def reference_runs() -> pd.DataFrame:
    """The reference results shipped in ``docs/results`` (every corpus), shaped like
    :func:`load_runs` plus ``source`` ("reference results of dkw <version>") and ``chosen_by``."""
    return _with_run_columns(reference.load_reference().copy())


def leak_check(model, *, dataset: str, sample: int | None, metric: str, k: int, top: int) -> dict:
    """Leak check on a prepared model (``dkw_core.evaluation.leakcheck``) as a dict: share of test
    predictions that follow a random wrong category written into each document (label-aware),
    beside the label-free share and chance, in percent."""
    return leakcheck.leak_check(model, metric=metric, k=int(k), top=int(top), dataset=dataset,
                                sample=sample).to_dict()


def verdict_dict(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str | None = None,
                 classifier: str | None = None) -> dict | None:
    """The verdict of one corpus and protocol (``dkw_core.evaluation.verdict``) as a dict with
    its ``headline`` and ``details`` texts, or None when no run chose over all setups."""
    found = verdict.verdict(runs, dataset=dataset, protocol=protocol, selection=selection, classifier=classifier)
    return None if found is None else found.to_dict()


def classifier_label(name: str) -> str:
    """Human name of a classifier id (``svm-ovr`` → linear SVM one-vs-rest); an unknown id as it is."""
    return str(CLASSIFIER_LABELS.get(name, name))


def run_evaluation(model, *, dataset: str, sample: int | None, protocol: str, metrics: Sequence[str],
                   k: int, top: int, progress: Progress | None = None) -> list[protocols.RunResult]:
    """Evaluate one (K, N) setup per metric on a prepared model and store each run (the
    store; a configuration already stored is a cache hit). Default classifier (linear SVM
    one-vs-rest, paper §4.2), train → test split. The run's configuration, hence its stored
    key, is built by the same function as the CLI's (``experiments.method_config``).
    Reports ``progress(fraction, message)``."""
    if not metrics:
        raise InputError("choose at least one metric to evaluate")
    check_evaluable(model.categories, dataset)
    store = results.ResultsStore()
    exp = experiments.model_experiment(model, dataset=dataset, sample=sample)
    out = []
    for i, metric in enumerate(metrics):
        if progress:
            progress(i / len(metrics), f"{metric}: K={k}, N={top}, protocol {protocol}")
        out.append(experiments.run_method(exp, metric=metric, k=int(k), top=int(top), protocol=protocol,
                                          classifier=DEFAULT_CLASSIFIER, store=store))
    if progress:
        progress(1.0, f"{len(out)} run(s) stored")
    return out
