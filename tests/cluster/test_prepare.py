"""dkw_core/cluster/prepare.py: the cluster writes the single-machine cache, bit for bit."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from tests.cluster.conftest import SLICE, data_dir
from tests.conftest import SPACE, SPORT

ARRAYS = ("phrase_uid.npy", "nbr_idx.npy", "nbr_sim.npy")


def test_cached_arrays_are_identical(twin):
    a, b = twin.single.cache_dir, twin.cluster.cache_dir
    assert a != b and a.name == b.name  # same cache key, two data folders
    for name in ARRAYS:
        x, y = np.load(a / name), np.load(b / name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), name
    x, y = twin.single.doc_phrase, twin.cluster.doc_phrase
    for part in ("data", "indices", "indptr"):
        assert np.array_equal(getattr(x, part), getattr(y, part)), part
    with (a / "phrases.pkl").open("rb") as fa, (b / "phrases.pkl").open("rb") as fb:
        assert pickle.load(fa) == pickle.load(fb)
    assert json.loads((a / "meta.json").read_text()) == json.loads((b / "meta.json").read_text())
    assert twin.prepared.documents == 40 * SLICE and twin.prepared.tagged == 40 * SLICE
    assert twin.prepared.unique_vectors == twin.single.nbr_idx.shape[0] > 4 * 1024  # several nearest blocks


def test_tag_caches_are_identical(twin):
    from dkw_core.cache import read_pickle
    from dkw_core.phrases import tag_cache_file

    caches = []
    for folder in (twin.single_dir, twin.cluster_dir):
        with data_dir(folder):
            caches.append(read_pickle(tag_cache_file("20ng")))  # checksum verified
    assert len(caches[0]) == 40 * SLICE and caches[0] == caches[1]


@pytest.mark.parametrize("protocol", ["label-aware", "label-free", "label-free-posterior"])
def test_keywords_of_every_document_are_identical(twin, protocol):
    for metric in ("tf-rf", "ig", "tf-idf"):
        a = twin.single.rank("all", metric=metric, k=50, top=10, protocol=protocol)
        b = twin.cluster.rank("all", metric=metric, k=50, top=10, protocol=protocol)
        assert a.shape == (40 * SLICE, 10) and (a >= 0).any() and np.array_equal(a, b), (metric, protocol)


def test_a_second_prepare_is_a_cache_hit(client, twin):
    from dkw_core.cluster import CorpusRef, prepare_on_cluster

    with data_dir(twin.cluster_dir):
        again = prepare_on_cluster(client, CorpusRef("20ng", SLICE), k_max=90)
    assert again.cached and again.path == twin.prepared.path


def test_worker_settings_follow_the_client(client, tmp_path):
    """Tasks carry the client's folders: a relative DKW_DATA_DIR becomes absolute on the workers."""
    from dkw_core.cluster.scheduler import run, worker_env

    with data_dir(tmp_path / "rel"):
        env = worker_env()
    assert env["DKW_DATA_DIR"] == str((tmp_path / "rel").resolve())
    seen = client.submit(run, env, lambda: __import__("os").environ["DKW_DATA_DIR"], pure=False).result()
    assert seen == env["DKW_DATA_DIR"]


def test_k_max_beyond_the_vectors_is_refused_before_any_task(client, tmp_path, monkeypatch):
    """As on one machine (KeywordModel.prepare): a k_max above the default that the cropped
    vocabulary cannot hold is one line, before the cluster is given any work; the corpus is never
    loaded (no archive needed), the default k_max is capped at the vocabulary as on one machine."""
    from dkw_core.cluster import CorpusRef, prepare_on_cluster
    from dkw_core.errors import InputError

    words = SPORT + SPACE
    lines = [f"{len(words)} 4"] + [f"{w} {i + 1} {i % 3} 1 {len(w)}" for i, w in enumerate(words)]
    vectors = tmp_path / "tiny.txt"
    vectors.write_text("\n".join(lines) + "\n", encoding="utf-8")
    submitted = []
    monkeypatch.setattr(client, "submit", lambda *a, **kw: submitted.append(a) or pytest.fail("a task was submitted"))
    with pytest.raises(InputError, match=r"K and k_max must be between 1 and 16 \(the words in the cropped vocabulary of tiny-"):
        prepare_on_cluster(client, CorpusRef("no-such-corpus"), vectors_path=str(vectors), k_max=100)
    with pytest.raises(InputError, match="CSLS neighbourhood k"):
        prepare_on_cluster(client, CorpusRef("no-such-corpus"), vectors_path=str(vectors), neighbours="csls-k20")
    assert submitted == []
