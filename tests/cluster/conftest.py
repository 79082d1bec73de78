"""One 2-worker Dask ``LocalCluster`` for every cluster test, and a 20ng slice prepared twice:
on one machine and on the cluster, each in its own data folder (``DKW_DATA_DIR``)."""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import archives_present

SLICE = 3  # documents per category and split: 120 documents, ~15k unique phrase vectors
needs_20ng = pytest.mark.skipif(not archives_present("20news-bydate.tar.gz"),
                                reason="20news-bydate.tar.gz not in DKW_ARCHIVES")


@contextlib.contextmanager
def data_dir(path: Path):
    """``DKW_DATA_DIR=path`` for the block (the cluster's tasks carry it to the workers)."""
    old = os.environ.get("DKW_DATA_DIR")
    os.environ["DKW_DATA_DIR"] = str(path)
    try:
        yield path
    finally:
        os.environ["DKW_DATA_DIR"] = old if old is not None else ""
        if old is None:
            del os.environ["DKW_DATA_DIR"]


@pytest.fixture(scope="session")
def client():
    """A client of 2 local worker processes, *not* made the active cluster: tests that want the
    joblib path open ``dkw_core.cluster.scheduler.using(client)`` themselves, so the rest of
    the suite keeps the single-machine path."""
    import logging

    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as c:
        yield c


@dataclass
class Twin:
    single_dir: Path
    cluster_dir: Path
    single: object    # KeywordModel prepared on one machine
    cluster: object   # KeywordModel read from the cache the cluster wrote
    prepared: object  # what prepare_on_cluster returned


@pytest.fixture(scope="session")
def twin(client, tmp_path_factory) -> Twin:
    """The 20ng slice prepared on one machine and on the 2-worker cluster (small partitions and
    blocks, so several tagging and nearest-words tasks run on both workers)."""
    from dkw_core.cluster import CorpusRef, prepare_on_cluster
    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel
    from dkw_core.vectors import load_vectors

    if not archives_present("20news-bydate.tar.gz"):
        pytest.skip("20news-bydate.tar.gz not in DKW_ARCHIVES")
    corpus = load_corpus("20ng").head(SLICE)
    vectors = load_vectors()
    with data_dir(tmp_path_factory.mktemp("single")) as single_dir:
        single = KeywordModel.prepare(corpus, vectors, k_max=90, n_process=1)
    with data_dir(tmp_path_factory.mktemp("cluster")) as cluster_dir:
        prepared = prepare_on_cluster(client, CorpusRef("20ng", SLICE), k_max=90, partition_docs=25, block=1024)
        clustered = KeywordModel._load(corpus, vectors, prepared.path)
    assert clustered is not None, "the cluster wrote no readable prepared corpus"
    return Twin(single_dir, cluster_dir, single, clustered, prepared)
