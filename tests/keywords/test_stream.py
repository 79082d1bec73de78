"""Tests for dkw_core/keywords/stream.py: a JSONL of new texts streamed chunk by chunk, each bad
line named with its line number and skipped, the output valid JSONL / CSV, and a killed run
resumed from its last finished chunk with nothing lost or written twice."""
from __future__ import annotations

import csv
import io
import json
import tracemalloc

import pytest

from dkw_core.keywords import KeywordModel
from dkw_core.keywords.batch import read_jsonl, read_texts, text_records
from dkw_core.keywords.stream import state_path, stream_keywords

GOOD = ["The rocket left the planet for the moon.", "The coach of the team watched the game.",
        "The player kicked the ball past the goal.", "A mission to the star and the orbit of the earth.",
        "The league season starts with a new team.", "The launch of the rocket to the moon."]
SETTINGS = {"metrics": ["rf"], "k": 3, "top": 3}


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


def _runner(model):
    """Each chunk's records computed in this process, as a cluster worker computes them."""
    def run(chunks):
        for items in chunks:
            yield list(text_records(model, items, metrics=["rf"], k=3, top=3, n_process=1, block=len(items)))
    return run


def _write(path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def _good_lines(n: int = len(GOOD)) -> list[bytes]:
    return [json.dumps({"id": f"t{i}", "text": t}).encode() for i, t in enumerate(GOOD[:n])]


@pytest.mark.parametrize("bad,says", [
    (b"", "empty line"),
    (b"{not json", "not JSON"),
    (b'{"id": "nul", "text": "a rocket\x00 to the moon"}', "a NUL byte, not text"),
    (b'{"id": "nul2", "text": "a rocket\\u0000 to the moon"}', "a NUL byte, not text"),
    ('{"id": "latin", "text": "caf\u00e9 and the moon"}'.encode("latin-1"), "not UTF-8"),
    (b'{"id": "t0", "text": "the moon again"}', 'duplicate id "t0" (first on line 1)'),
    (b'{"id": "big", "text": "' + b"moon " * 1_000_000 + b'"}', "a text of 5.0 MB is above the limit of 4 MB"),
    (b'["text"]', 'expected an object with a string field "text"'),
    (b'{"id": "lone", "text": "the moon \\udc9b"}', "a lone surrogate (\\udc9b), not text"),
], ids=["empty", "not-json", "nul-byte", "nul-escaped", "latin-1", "duplicate-id", "5-mb", "not-an-object",
        "lone-surrogate"])
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_each_bad_line_is_named_with_its_line_number_and_skipped(model, tmp_path, monkeypatch, fmt, bad, says):
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "4")
    lines = [*_good_lines(3), bad, *(json.dumps({"id": f"after{i}", "text": t}).encode() for i, t in enumerate(GOOD))]
    src, out = tmp_path / "in.jsonl", tmp_path / f"out.{fmt}"
    _write(src, lines)
    warnings: list[str] = []
    result = stream_keywords(src, out, _runner(model), fmt=fmt, metrics=["rf"], settings=SETTINGS, chunk=2,
                             warn=warnings.append)
    assert len(warnings) == 1 == result["skipped"]
    assert warnings[0].startswith("in.jsonl, line 4: ") and says in warnings[0] and warnings[0].endswith("; skipped")
    if fmt == "jsonl":
        rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]  # every line valid JSON
    else:
        rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
        assert all(len(r) == 10 and None not in r for r in rows)
    assert [r["id"] for r in rows] == ["t0", "t1", "t2", *(f"after{i}" for i in range(len(GOOD)))]
    assert result["records"] == len(rows) and not state_path(out).exists()


def test_a_five_megabyte_text_under_the_limit_is_kept(tmp_path):
    src = tmp_path / "in.jsonl"
    _write(src, [b'{"id": "big", "text": "' + b"moon " * 1_000_000 + b'"}'])
    items = list(read_jsonl(src, warn=pytest.fail))
    assert [(i.id, len(i.text)) for i in items] == [("big", 5_000_000)]


def test_the_stream_and_keywords_texts_without_a_scheduler_read_a_jsonl_by_one_rule(model, tmp_path):
    from tests.keywords.test_batch import RULE_LINES, rule_says

    src, out = tmp_path / "rule.jsonl", tmp_path / "out.jsonl"
    _write(src, RULE_LINES)
    streamed: list[str] = []
    result = stream_keywords(src, out, _runner(model), fmt="jsonl", metrics=["rf"], settings=SETTINGS, chunk=2,
                             warn=streamed.append)
    batch: list[str] = []
    items = read_texts(src, warn=batch.append)
    # before: the batch reader stopped at line 3 and its JSON message ended on a dangling "at"
    assert streamed == batch == rule_says() and result["skipped"] == len(batch)
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == [i for i, _ in items] == ["a", "6"]


def test_the_records_equal_the_batch_export(model, tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, _good_lines())
    stream_keywords(src, out, _runner(model), fmt="jsonl", metrics=["rf"], settings=SETTINGS, chunk=4)
    expected = list(text_records(model, [(f"t{i}", t) for i, t in enumerate(GOOD)], metrics=["rf"], k=3, top=3,
                                 n_process=1))
    assert [json.loads(x) for x in out.read_text().splitlines()] == expected


class Killed(Exception):
    pass


def _killed_after(runner, chunks: int):
    def run(it):
        for n, records in enumerate(runner(it)):
            if n == chunks:
                raise Killed
            yield records
    return run


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_killed_run_resumes_from_its_last_finished_chunk(model, tmp_path, fmt):
    src = tmp_path / "in.jsonl"
    lines = _good_lines() + [b'{"id": "t1", "text": "a duplicate after the restart"}']
    _write(src, lines)
    whole, out = tmp_path / f"whole.{fmt}", tmp_path / f"out.{fmt}"
    stream_keywords(src, whole, _runner(model), fmt=fmt, metrics=["rf"], settings=SETTINGS, chunk=2)
    with pytest.raises(Killed):
        stream_keywords(src, out, _killed_after(_runner(model), 2), fmt=fmt, metrics=["rf"], settings=SETTINGS,
                        chunk=2)
    state = json.loads(state_path(out).read_text())
    assert state["records"] == 4 and state["line"] == 4
    with out.open("a", encoding="utf-8") as fh:
        fh.write('{"id": "half a chunk written when the kill came')  # torn write past the last finished chunk
    warnings: list[str] = []
    progress: list[str] = []
    result = stream_keywords(src, out, _runner(model), fmt=fmt, metrics=["rf"], settings=SETTINGS, chunk=2,
                             warn=warnings.append, progress=lambda f, m: progress.append(m))
    assert result["resumed_from"] == 4 and result["records"] == len(GOOD)
    assert out.read_bytes() == whole.read_bytes()  # nothing lost, nothing twice, no torn line
    assert warnings == ['in.jsonl, line 7: duplicate id "t1" (first on line 2); skipped']
    assert any("texts/s, about" in m and m.endswith(" left") for m in progress)
    assert not state_path(out).exists()


def test_other_settings_start_afresh(model, tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, _good_lines())
    with pytest.raises(Killed):
        stream_keywords(src, out, _killed_after(_runner(model), 1), fmt="jsonl", metrics=["rf"], settings=SETTINGS,
                        chunk=2)
    result = stream_keywords(src, out, _runner(model), fmt="jsonl", metrics=["rf"], settings={**SETTINGS, "top": 2},
                             chunk=2)
    assert result["resumed_from"] == 0 and len(out.read_text().splitlines()) == len(GOOD)


def _echo(chunks):
    """Workers that return a fixed record at once: only the client's own work is left."""
    for items in chunks:
        yield [{"id": i, "keywords": {"rf": ["moon"]}} for i, _ in items]


def test_the_clients_memory_stays_flat_whatever_the_length_of_the_stream(tmp_path):
    """A stream of a million texts in constant client memory: the ids met so far (to name a
    duplicate) are not held in memory. Python's peak allocation is the same for 2,000 and 40,000
    texts (with a dict of the ids it grew by about 4 MB; 120 MB at a million)."""
    def peak(n: int) -> int:
        src = tmp_path / f"in-{n}.jsonl"
        src.write_text("".join(json.dumps({"id": f"text-{i}", "text": "the moon"}) + "\n" for i in range(n)))
        tracemalloc.start()
        try:
            result = stream_keywords(src, tmp_path / f"out-{n}.jsonl", _echo, fmt="jsonl", metrics=["rf"],
                                     settings=SETTINGS, chunk=100)
            assert result["records"] == n
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(2_000), peak(40_000)
    assert large - small < 500_000, (small, large)
    assert not list(tmp_path.glob("*.sqlite"))  # the ids' file is removed at the end


def test_the_ids_on_disk_answer_as_a_dict_and_their_file_is_removed(tmp_path):
    """The reader asks the ids met what it asked of a dict (a duplicate after a restart:
    test_a_killed_run_resumes_from_its_last_finished_chunk)."""
    from dkw_core.keywords.stream import SeenIds

    seen = SeenIds(tmp_path / "ids.sqlite")
    seen["a"] = 1
    assert "a" in seen and "b" not in seen and seen["a"] == 1 and len(seen) == 1 and list(seen) == ["a"]
    with pytest.raises(KeyError):
        seen["b"]  # noqa: B018
    seen.close()
    assert not (tmp_path / "ids.sqlite").exists()
