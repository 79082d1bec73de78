"""Streamlit caches of the app: ``st.cache_resource`` for vectors, corpora
and prepared ``KeywordModel`` objects (one per server, shared by every page and session, so
moving between pages never reloads a model); ``st.cache_data`` for tables.

Every loader calls the app's loaders (:mod:`dkw_app.corpora_models`, :mod:`dkw_app.keywords_door`,
:mod:`dkw_app.stored_runs`) and ``dkw_core`` at call time, so tests can swap them for fakes.
"""
from __future__ import annotations

import hashlib
import json
import threading
import warnings
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dkw_core.cache import CacheWarning
from dkw_core.errors import DkwError
from dkw_core.evaluation import comparisons, wordlists
from dkw_core.keywords import BaselineModel, KeywordModel
from dkw_core.neighbours import DEFAULT_NEIGHBOURS
from dkw_core.study.schema import open_study_db
from dkw_core.types import DEFAULT_K, Progress

from . import browse, corpora_models, keywords_door, stored_runs


@st.cache_data(show_spinner=False)
def dataset_infos() -> list[dict[str, Any]]:
    """``dataset_info`` of every corpus the library knows."""
    return [corpora_models.dataset_info(name) for name in corpora_models.list_corpora()]


@st.cache_resource(show_spinner="Loading word vectors…")
def vectors() -> Any:
    """The word-vector model (loaded once per server)."""
    return corpora_models.load_vectors()


def loaded_vectors_name() -> str:
    """The name of the loaded word-vector model, as the captions show it."""
    return str(getattr(vectors(), "name", "vectors"))


@st.cache_resource(show_spinner="Loading the tagger…")
def tagger(kind: str | None = None) -> Any:
    """A tagger of ``dkw_core.phrases`` (loaded once per server and kind): new texts' by default
    (``DKW_TAGGER``), a corpus's preparation's with ``kind=corpora_models.prepare_tagger()``."""
    return corpora_models.get_tagger(kind)


@st.cache_resource(show_spinner="Loading corpus…")
def corpus(name: str, sample: int | None) -> Any:
    """A corpus, or its ``head(sample)`` slice when ``DKW_SAMPLE_PER_CATEGORY`` is set."""
    return corpora_models.open_corpus(name, sample=sample)


def notices(name: str, sample: int | None, k_max: int, neighbours: str = DEFAULT_NEIGHBOURS) -> list[str]:
    """What the preparation of that model had to say about the cache (e.g. nothing could be saved)."""
    return list(_model_store().notices.get((name, sample, k_max, neighbours), []))


def is_prepared(name: str, sample: int | None, k_max: int, neighbours: str = DEFAULT_NEIGHBOURS) -> bool:
    """Whether the corpus's neighbours (under the ``neighbours`` spec) are cached on disk.

    Not cached: it changes when a user prepares the corpus. A model this server prepared but
    could not save (a read-only data folder) counts as prepared too."""
    if (name, sample, k_max, neighbours) in _model_store().models:
        return True
    return KeywordModel.is_prepared(corpora_models.corpus_key(name, sample), corpora_models.vectors_name(), k_max=k_max,
                                    neighbours=neighbours)


class _ModelStore:
    """Prepared models of this server, keyed by (corpus, sample, k_max, neighbours); a lock so that two
    sessions clicking "Prepare" at once prepare the corpus only once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.models: dict[tuple[str, int | None, int, str], Any] = {}
        self.notices: dict[tuple[str, int | None, int, str], list[str]] = {}  # cache notices of a preparation


@st.cache_resource(show_spinner=False)
def _model_store() -> _ModelStore:
    return _ModelStore()


def model(name: str, sample: int | None, k_max: int, *, progress: Progress | None = None,
          neighbours: str = DEFAULT_NEIGHBOURS) -> Any:
    """The prepared ``KeywordModel`` of a corpus under a neighbours spec, kept in a
    ``st.cache_resource`` store.

    Prepares it (or loads it from the disk cache) on first use, reporting
    ``progress(fraction, message)``; later calls on any page return the same object at once.
    (A plain cached function cannot take the callback: it writes to an element created
    outside the cached call.)"""
    store = _model_store()
    key = (name, sample, k_max, neighbours)
    with store.lock:
        if key not in store.models:
            if not is_prepared(name, sample, k_max, neighbours):
                tagger(corpora_models.prepare_tagger())  # tagging needed: load the preparation's tagger once (Streamlit cache)
            with warnings.catch_warnings(record=True) as told:  # "nothing could be saved": shown on the page
                warnings.simplefilter("always", CacheWarning)
                store.models[key] = KeywordModel.prepare(corpus(name, sample), vectors(), k_max=k_max, progress=progress,
                                                          neighbours=neighbours)
            store.notices[key] = [str(w.message) for w in told if issubclass(w.category, CacheWarning)]
        return store.models[key]


def first_prepared(names: Sequence[str], sample: int | None, k_max: int) -> str | None:
    """The corpus a page opens on: the first of ``names`` already prepared (a cheap check on disk),
    else the first of them, so that nobody lands on an unprepared corpus beside prepared ones."""
    for name in names:
        try:
            if is_prepared(name, sample, k_max):
                return name
        except DkwError:
            continue
    return names[0] if names else None


def preload() -> str | None:
    """Load, from disk only, what the pages open on — the shipped reference results (Metrics),
    the word vectors and the prepared model of the first prepared corpus (Documents, Categories)
    — into this server's caches, so that the first visitor finds them loaded (called by the
    server's warm-up thread, ``dkw_app.streamlit_main``). Nothing is built, tagged or converted:
    without the default vectors' converted copy on disk (or with ``DKW_VECTORS`` set), or without
    a prepared corpus, no model is loaded, so a server that has never prepared anything starts
    and stops as fast as before. The corpus's name, or None when no model was loaded."""
    reference()  # files of the repository: always on disk
    if corpora_models.vectors_path() is not None or not corpora_models.describe_default()["cached"]:
        return None
    sample = corpora_models.sample_per_category()
    names = [str(i["name"]) for i in dataset_infos() if i.get("available")]
    name = first_prepared(names, sample, DEFAULT_K)
    if name is None or not is_prepared(name, sample, DEFAULT_K):
        return None
    model(name, sample, DEFAULT_K)
    return name


@st.cache_resource(show_spinner="Loading the shipped statistics…")
def shipped_model(name: str, k: int) -> Any:
    """A built-in corpus's shipped statistics as a model for new texts (no preparation)."""
    tagger()  # a new text is tagged: load new texts' tagger once, under the Streamlit cache
    return keywords_door.load_shipped(name, k=k)


@st.cache_resource(show_spinner="Counting the corpus's own words…")
def own_words_model(name: str, sample: int | None) -> Any:
    """The corpus's own words (bag-of-words model; what the peers score and NPMI reads)."""
    tagger(corpora_models.prepare_tagger())  # its tagging is read from the preparation's cache: load that tagger once
    return BaselineModel.prepare(corpus(name, sample))


@st.cache_data(show_spinner=False, max_entries=64)
def category_terms(name: str, sample: int | None, k_max: int, category: str, method: str, k: int, top: int) -> Any:
    """A category's list under a method, with the counts behind it: a metric on the prepared
    model's latent words, a peer on the category's own words (computed once per choice)."""
    if keywords_door.is_peer(method):
        return keywords_door.category_terms(own_words_model(name, sample), category, method=method, k=None, top=top)
    return keywords_door.category_terms(model(name, sample, k_max), category, method=method, k=k, top=top)


@st.cache_resource(show_spinner="Reading the corpus's word tokens…")
def _quality_texts(name: str, sample: int | None) -> Any:
    return keywords_door.quality_texts(own_words_model(name, sample))


@st.cache_data(show_spinner=False, max_entries=256)
def category_quality(name: str, sample: int | None, category: str, words: tuple[str, ...]) -> Any:
    """The quality of one list (also cached on disk by the library: NPMI takes seconds on a full corpus)."""
    return keywords_door.list_quality_of(corpus(name, sample).key, category, list(words),
                                    lambda: _quality_texts(name, sample))


@st.cache_data(show_spinner=False)
def quality() -> Any:
    """The shipped quality table of every method's category words (read once per server)."""
    return wordlists.load_quality()


@st.cache_data(show_spinner=False, max_entries=64)
def search(name: str, sample: int | None, split: str, category: str, query: str) -> list[str]:
    """Ids of the documents of a split and category whose id or text contains ``query``."""
    return browse.find_documents(corpus(name, sample).documents, split=split, category=category, query=query)


@st.cache_data(show_spinner=False)
def categories(name: str, sample: int | None, split: str) -> list[str]:
    """Sorted categories that have at least one document in ``split``."""
    return sorted({d.label for d in corpus(name, sample).split(split)})


@st.cache_data(show_spinner=False, ttl=60)
def runs() -> pd.DataFrame:
    """Every run of the results store (refreshed every minute or after an evaluation)."""
    return stored_runs.load_runs()


@st.cache_data(show_spinner=False)
def reference() -> pd.DataFrame:
    """The reference results shipped with dkw (read once per server)."""
    return stored_runs.reference_runs()


@st.cache_data(show_spinner=False)
def reference_leaks() -> pd.DataFrame:
    """The leak checks of the shipped reference results."""
    return stored_runs.load_reference_leakchecks()


def runs_key(frame: pd.DataFrame) -> str:
    """A fingerprint of a runs table, the cache key of the tables computed from it.

    Streamlit cannot hash a DataFrame whose cells are dicts (``options``, the packed per-document
    ``predictions``): it logged a warning and pickled the whole table on every rerun. Here every
    cell is hashed by pandas, a dict or list cell as its sorted JSON."""
    def cell(value: Any) -> Any:
        return json.dumps(value, sort_keys=True, default=str) if isinstance(value, (dict, list)) else value

    parts = frame.copy()
    for column in parts.columns:
        if parts[column].dtype == object:
            parts[column] = parts[column].map(cell)
    digest = hashlib.sha256(",".join(map(str, parts.columns)).encode())
    digest.update(pd.util.hash_pandas_object(parts, index=True).to_numpy().tobytes())
    return digest.hexdigest()


#: How the cached tables below hash a runs table: by :func:`runs_key` (recomputed only when the runs change).
BY_RUNS_KEY = {pd.DataFrame: runs_key}


@st.cache_data(show_spinner="Bootstrapping the F1 intervals…", max_entries=32, hash_funcs=BY_RUNS_KEY)
def curves(proto_runs: pd.DataFrame, dataset: str, protocol: str, selection: str, classifier: str | None
           ) -> pd.DataFrame:
    """F1 against N with bootstrap intervals."""
    return comparisons.curve_table(proto_runs, dataset=dataset, protocol=protocol, selection=selection,
                                   classifier=classifier)


@st.cache_data(show_spinner="Bootstrapping the chosen setups' intervals…", max_entries=32, hash_funcs=BY_RUNS_KEY)
def overview(runs: pd.DataFrame, dataset: str, classifier: str | None) -> pd.DataFrame:
    """The Overview's chosen setups with their bootstrap CIs (bootstrapped once per runs table)."""
    return stored_runs.disk_cached("overview", (runs_key(runs), dataset, classifier),
                                   lambda: comparisons.overview(runs, dataset=dataset, classifier=classifier))


@st.cache_data(show_spinner="Comparing every pair of metrics per document…", max_entries=32, hash_funcs=BY_RUNS_KEY)
def per_document(proto_runs: pd.DataFrame, dataset: str, protocol: str, top: int, selection: str) -> pd.DataFrame:
    """Every metric pair at one N compared per test document."""
    return stored_runs.per_document(proto_runs, dataset=dataset, protocol=protocol, top=top, selection=selection)


@st.cache_data(show_spinner="Comparing the chosen setup with the runner-up and the baseline…", max_entries=32,
               hash_funcs=BY_RUNS_KEY)
def verdict(runs: pd.DataFrame, dataset: str, protocol: str, selection: str | None, classifier: str | None
            ) -> dict | None:
    """The verdict of one corpus and protocol."""
    return stored_runs.disk_cached("verdict", (runs_key(runs), dataset, protocol, selection, classifier),
                                   lambda: stored_runs.verdict_dict(runs, dataset=dataset, protocol=protocol,
                                                                    selection=selection, classifier=classifier))


@st.cache_data(show_spinner=False)
def reference_hubness() -> pd.DataFrame:
    """The hubness of step 3 of the shipped reference results."""
    return stored_runs.load_reference_hubness()


@st.cache_data(show_spinner="Ranking every document of the split…", max_entries=8)
def split_keywords(name: str, sample: int | None, k_max: int, split: str, metrics: tuple[str, ...], k: int,
                   top: int, protocol: str, fmt: str) -> bytes:
    """The keywords of a whole split as a JSONL / CSV file (computed once per choice)."""
    return keywords_door.split_keywords(model(name, sample, k_max), split, metrics=metrics, k=k, top=top,
                                  protocol=protocol, fmt=fmt)


@st.cache_resource(show_spinner=False)
def study_store(url: str | None, data_dir: str) -> Any:
    """The study database engine, schema current (one per server and database; ``data_dir``
    is part of the key so that a changed ``DKW_DATA_DIR`` opens the right default file)."""
    return open_study_db(url)
