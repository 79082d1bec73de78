"""dkw_core/cluster/batch.py: batch export through the cluster equals the single-machine export."""
from __future__ import annotations

import pytest

from tests.cluster.conftest import SLICE, data_dir, needs_20ng

pytestmark = needs_20ng


def _ref():
    from dkw_core.cluster import CorpusRef, ModelRef

    return ModelRef(CorpusRef("20ng", SLICE))


@pytest.mark.parametrize("protocol", ["label-aware", "label-free"])
def test_split_export_is_identical_and_in_order(client, twin, protocol):
    from dkw_core.cluster.batch import split_records_on_cluster
    from dkw_core.keywords.batch import split_records

    metrics = ["tf-rf", "rf"]
    expected = split_records(twin.single, "test", metrics=metrics, k=30, top=5, protocol=protocol)
    with data_dir(twin.cluster_dir):
        got = list(split_records_on_cluster(client, _ref(), "test", metrics=metrics, k=30, top=5, protocol=protocol,
                                            block=7, window=2))
    assert len(got) == 20 * SLICE and got == expected


def test_text_export_streams_in_order(client, twin):
    from dkw_core.cluster.batch import text_records_on_cluster
    from dkw_core.keywords.batch import text_records

    docs = twin.single.corpus.documents[:23]
    items = [(f"t{i}", d.text) for i, d in enumerate(docs)] + [("empty", "   "), ("nonouns", "and then it was .")]
    expected = list(text_records(twin.single, items, metrics=["tf-rf"], k=50, top=8, n_process=1, block=6))
    pulled = []

    def stream():  # a generator: the client reads it block by block, never all at once
        for item in items:
            pulled.append(item[0])
            yield item

    with data_dir(twin.cluster_dir):
        got = text_records_on_cluster(client, _ref(), stream(), metrics=["tf-rf"], k=50, top=8, block=6, window=2)
        first = next(got)
        assert len(pulled) <= 2 * 6 + 6  # at most the window (plus the block being cut) was read
        rest = list(got)
    assert [first, *rest] == expected
    assert {r["id"]: r.get("problem") for r in expected}["empty"] == "the document is empty"
