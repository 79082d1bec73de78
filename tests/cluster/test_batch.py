"""dkw_core/cluster/batch.py: batch export through the cluster equals the single-machine export."""
from __future__ import annotations

import pytest

from tests.cluster.conftest import SLICE, data_dir, needs_20ng

pytestmark = needs_20ng


def _local_runner(model, **kw):
    """Each chunk of a stream computed in this process by the one path of new texts (as a worker does)."""
    from dkw_core.keywords.batch import text_records

    def run(chunks):
        for items in chunks:
            yield list(text_records(model, items, n_process=1, block=len(items), **kw))
    return run


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


def test_a_jsonl_stream_through_the_cluster_equals_the_stream_on_one_machine(client, twin, tmp_path):
    import json

    from dkw_core.cluster.batch import text_chunks_on_cluster
    from dkw_core.keywords.stream import stream_keywords

    docs = twin.single.corpus.documents[:11]
    lines = [json.dumps({"id": f"t{i}", "text": d.text}) for i, d in enumerate(docs)]
    lines[4:4] = ["", "{not json", json.dumps({"id": "t0", "text": "a duplicate"})]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kw = dict(metrics=["tf-rf"], k=50, top=8, protocol="label-free-top1")
    settings = {"k": 50}
    local, warned = tmp_path / "local.jsonl", []
    stream_keywords(src, local, _local_runner(twin.single, **kw), fmt="jsonl", metrics=["tf-rf"],
                    settings=settings, chunk=3, warn=warned.append)
    with data_dir(twin.cluster_dir):
        remote = tmp_path / "cluster.jsonl"
        result = stream_keywords(src, remote, text_chunks_on_cluster(client, _ref(), window=2, **kw), fmt="jsonl",
                                 metrics=["tf-rf"], settings=settings, chunk=3)
    assert remote.read_bytes() == local.read_bytes() and result["records"] == len(docs) == result["records"]
    assert [w.split(":")[0] for w in warned] == ["in.jsonl, line 5", "in.jsonl, line 6", "in.jsonl, line 7"]


def test_keywords_texts_jsonl_with_a_scheduler_streams_names_bad_lines_and_resumes(client, twin, tmp_path, capsys):
    import json

    from dkw_core.cli import main
    from dkw_core.keywords.stream import state_path

    docs = twin.single.corpus.documents[:5]
    lines = [json.dumps({"id": f"t{i}", "text": d.text}) for i, d in enumerate(docs)]
    lines.insert(2, "{not json")
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["keywords", "--dataset", "20ng", "--sample", str(SLICE), "--texts", str(src), "--metric", "tf-rf",
            "--k", "50", "--top", "8", "--scheduler", client.scheduler.address, "--out", str(out)]
    with data_dir(twin.cluster_dir):
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert "warning: in.jsonl, line 3: not JSON" in err and "1 lines skipped" in err
        first = out.read_bytes()
        assert [json.loads(x)["id"] for x in first.decode().splitlines()] == [f"t{i}" for i in range(5)]
        # a run killed after its first chunk of 1,000 texts: the state file says how far it got
        state = {"input": str(src.resolve()), "input_size": src.stat().st_size,
                 "input_mtime_ns": src.stat().st_mtime_ns, "offset": 0, "line": 0, "output_bytes": 0, "records": 0}
        out.write_text("torn", encoding="utf-8")
        settings = {"dataset": "20ng", "sample": SLICE, "vectors": None, "neighbours": "cosine", "metrics": ["tf-rf"],
                    "k": 50, "top": 8, "protocol": "label-free-top1", "format": "jsonl", "about": None}
        state_path(out).write_text(json.dumps({**state, "settings": settings}), encoding="utf-8")
        assert main(argv) == 0
        assert "resuming" in capsys.readouterr().err
    assert out.read_bytes() == first and not state_path(out).exists()


def test_keyphrases_through_the_cluster_equal_those_of_one_machine(client, twin, tmp_path):
    """The default about (and any below 1) reaches the workers: texts, a stream and a split give
    the records of this machine."""
    import json

    from dkw_core.cluster.batch import split_records_on_cluster, text_chunks_on_cluster, text_records_on_cluster
    from dkw_core.keywords.batch import split_records, text_records
    from dkw_core.keywords.stream import stream_keywords

    docs = twin.single.corpus.documents[:7]
    items = [(f"t{i}", d.text) for i, d in enumerate(docs)]
    items.append(("recipe", "Stir the risotto rice into the butter, add the white wine and the hot stock, then the "
                            "parmesan cheese and fresh basil before serving the risotto."))
    kw = dict(metrics=["tf-rf"], k=50, top=8, protocol="label-free-top1")
    for about in (None, 0.5):
        expected = list(text_records(twin.single, items, n_process=1, block=4, about=about, **kw))
        assert all("about" in r for r in expected)
        with data_dir(twin.cluster_dir):
            got = list(text_records_on_cluster(client, _ref(), iter(items), block=3, window=2, about=about, **kw))
        assert got == expected
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in items), encoding="utf-8")
    local, remote = tmp_path / "local.jsonl", tmp_path / "cluster.jsonl"
    stream_keywords(src, local, _local_runner(twin.single, about=None, **kw), fmt="jsonl",
                    metrics=["tf-rf"], settings={}, chunk=3)
    with data_dir(twin.cluster_dir):
        stream_keywords(src, remote, text_chunks_on_cluster(client, _ref(), window=2, about=None, **kw), fmt="jsonl",
                        metrics=["tf-rf"], settings={}, chunk=3)
    assert remote.read_bytes() == local.read_bytes()
    expected = split_records(twin.single, "test", metrics=["tf-rf"], k=30, top=5, protocol="label-free", stop=9,
                             about=0.4)
    with data_dir(twin.cluster_dir):
        got = list(split_records_on_cluster(client, _ref(), "test", metrics=["tf-rf"], k=30, top=5,
                                            protocol="label-free", block=4, window=2, about=0.4))
    assert got[:9] == expected and len(got) == len(twin.single.doc_ids("test"))
