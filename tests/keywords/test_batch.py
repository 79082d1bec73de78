"""Tests for dkw_core/keywords/batch.py and ``keywords --split/--texts``: a whole split and
collections of new texts (folder, JSONL, CSV) give the same keywords as one document at a
time, in JSONL or CSV, with one-line errors for bad input."""
from __future__ import annotations

import csv
import io
import json
import os

import pytest
from conftest import one_text, one_text_keywords

from dkw_core.cli import main
from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel
from dkw_core.keywords.batch import format_of, read_jsonl, read_texts, split_records, text_records, write_records

NEW = [("a", "The rocket left the planet for the moon."),
       ("b", "The coach of the team watched the game."),
       ("c", ""),
       ("d", "and then quickly, slowly."),
       ("e", "The player kicked the ball past the goal and the team won the league.")]


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


@pytest.mark.parametrize("protocol", ["label-aware", "label-free"])
def test_split_records_equal_single_documents(model, protocol):
    recs = split_records(model, "test", metrics=["rf", "tf-rf"], k=3, top=2, protocol=protocol)
    assert [r["id"] for r in recs] == model.doc_ids("test")
    for r in recs:
        assert r["protocol"] == protocol and r["split"] == "test" and r["label"] in ("sport", "space")
        for m in ("rf", "tf-rf"):
            assert r["keywords"][m] == [kw.word for kw in model.keywords(r["id"], metric=m, k=3, top=2,
                                                                         protocol=protocol)]


@pytest.mark.parametrize("block", [1, 2, 100])
def test_text_records_equal_one_text_at_a_time(model, block):
    recs = list(text_records(model, NEW, metrics=["rf", "tf-rf"], k=3, top=3, n_process=1, block=block))
    assert [r["id"] for r in recs] == [i for i, _ in NEW]
    for (doc_id, text), r in zip(NEW, recs):
        for m in ("rf", "tf-rf"):
            try:
                expected = [kw.word for kw in one_text_keywords(model, text, metric=m, k=3, top=3)]
            except InputError:
                expected = []
            assert r["keywords"][m] == expected, (doc_id, m)
    problems = {r["id"]: r.get("problem") for r in recs}
    assert problems["c"] == "the document is empty"
    assert problems["d"].startswith("no candidate noun phrases")
    assert problems["a"] is None and problems["e"] is None
    assert all(r["protocol"] == "label-free-top1" for r in recs)  # the default for new texts
    assert all(("weighted_as" in r) == ("problem" not in r) for r in recs)


@pytest.mark.parametrize("protocol", ["label-free", "label-free-posterior", "label-free-top1"])
def test_text_records_follow_the_protocol_of_one_text(model, protocol):
    usable = [(i, t) for i, t in NEW if i in ("a", "e")]
    recs = list(text_records(model, usable, metrics=["rf"], k=3, top=3, n_process=1, protocol=protocol))
    for (_doc_id, text), r in zip(usable, recs):
        assert r["protocol"] == protocol
        one = one_text(model, text, k=3, top=3, protocol=protocol)
        assert r["keywords"]["rf"] == [kw.word for kw in one.keywords["rf"]]
        if protocol == "label-free":
            assert "weighted_as" not in r
        else:
            w = one.weighting
            assert (r["weighted_as"], r["p"]) == (w.category, round(w.probability, 4))
    with pytest.raises(InputError, match="no gold category"):
        list(text_records(model, usable, metrics=["rf"], k=3, top=3, n_process=1, protocol="label-aware"))


@pytest.mark.parametrize("about", [None, 0.0, 0.5])
def test_text_records_of_keyphrases_equal_one_text_at_a_time(model, about):
    """``keywords --texts`` below about 1 and by default (``about=None``: 0 for a text out of
    the corpus) gives each text the keyphrases and about ``keywords --text-file`` gives it."""
    from dkw_core.keywords.request import KeywordRequest, answer

    recs = list(text_records(model, NEW, metrics=["rf", "tf-rf"], k=3, top=3, n_process=1, block=2, about=about))
    assert [r["id"] for r in recs] == [i for i, _ in NEW]
    for (doc_id, text), r in zip(NEW, recs):
        if doc_id in ("c", "d"):  # empty, no noun
            assert r["problem"] and r["keywords"] == {"rf": [], "tf-rf": []} and "out_of_corpus" not in r
            continue
        one = answer(KeywordRequest(dataset="topics", text=text, metrics=("rf", "tf-rf"), k=3, top=3, about=about),
                     model=model)
        assert r["keywords"] == {m: [kw.word for kw in kws] for m, kws in one.keywords.items()}, doc_id
        assert (r["about"], r["out_of_corpus"]) == (one.about, one.fit.out_of_corpus), doc_id
        assert (r["weighted_as"], r["p"]) == (one.weighting.category, round(one.weighting.probability, 4))


def test_csv_output_has_one_column_per_metric(model):
    buf = io.StringIO()
    recs = list(text_records(model, NEW[:2], metrics=["rf", "tds"], k=3, top=2, n_process=1))
    assert write_records(recs, buf, "csv", ["rf", "tds"]) == 2
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert list(rows[0]) == ["id", "split", "label", "protocol", "k", "top", "rf", "tds", "problem", "weighted_as", "p"]
    assert rows[0]["rf"].split(" ") == recs[0]["keywords"]["rf"]


def test_read_texts_from_folder_jsonl_and_csv(tmp_path):
    folder = tmp_path / "texts"
    (folder / "sub").mkdir(parents=True)
    (folder / "one.txt").write_text("The rocket.")
    (folder / "sub" / "two.txt").write_text("The team.")
    (folder / ".hidden").write_text("skip me")
    assert read_texts(folder) == [("one.txt", "The rocket."), ("sub/two.txt", "The team.")]
    jl = tmp_path / "t.jsonl"
    jl.write_text('{"id": "x", "text": "The rocket."}\n\n{"text": "The team."}\n')
    warned: list[str] = []
    assert read_texts(jl, warn=warned.append) == [("x", "The rocket."), ("3", "The team.")]
    assert warned == ["t.jsonl, line 2: empty line; skipped"]
    c = tmp_path / "t.csv"
    c.write_text('id,text\nx,"The rocket, again."\n,The team.\n')
    assert read_texts(c) == [("x", "The rocket, again."), ("2", "The team.")]


@pytest.mark.parametrize("name,content,message", [
    ("bad.csv", "body,label\nx,y\n", r"needs a column text \(found body, label\)"),
    ("bad.txt", "text", r"give a folder of text files, a .jsonl or a .csv file"),
    ("latin.csv", b"text\ncaf\xe9\n", r"not valid UTF-8 text"),
    ("empty.jsonl", "\n\n", r"no texts"),
    ("bad.jsonl", '{"body": "no text"}\nnot json\n', r"no texts"),
    ("wide.jsonl", '{"text": "The rocket."}\n'.encode("utf-16"), r"wide.jsonl: UTF-16 text, not UTF-8"),
])
def test_bad_text_collections_are_one_line_errors(tmp_path, name, content, message):
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(InputError, match=message) as err:
        read_texts(p, warn=lambda _: None)
    assert "\n" not in str(err.value)


#: A JSONL with an empty line, a duplicate id, a raw control character in a JSON string and a lone surrogate.
RULE_LINES = [b'{"id": "a", "text": "The rocket to the moon."}', b"",
              b'{"id": "a", "text": "The team again."}', b'{"id": "c", "text": "a bell \x07 rang"}',
              b'{"id": "d", "text": "moon \\udc9b"}', b'{"text": "The coach."}']


def rule_says() -> list[str]:
    """What the one JSONL reader says of each bad line of :data:`RULE_LINES`."""
    return ["rule.jsonl, line 2: empty line; skipped",
            'rule.jsonl, line 3: duplicate id "a" (first on line 1); skipped',
            "rule.jsonl, line 4: not JSON (Invalid control character at line 4 column 29); skipped",
            "rule.jsonl, line 5: a lone surrogate (\\udc9b), not text; skipped"]


def test_texts_jsonl_names_each_bad_line_and_skips_it_by_the_stream_s_rule(tmp_path):
    src = tmp_path / "rule.jsonl"
    src.write_bytes(b"\n".join(RULE_LINES) + b"\n")
    warned: list[str] = []
    # before: the first bad line stopped the whole run ("not JSON (Invalid control character at)"),
    # the duplicate id was processed twice and the empty line skipped without a word
    assert read_texts(src, warn=warned.append) == [("a", "The rocket to the moon."), ("6", "The coach.")]
    assert warned == rule_says()
    assert not any(w.endswith("at); skipped") for w in warned)  # the JSON message is complete
    assert [(t.id, t.line) for t in read_jsonl(src, warn=lambda _: None)] == [("a", 1), ("6", 6)]


def test_a_file_name_that_is_not_utf8_becomes_an_escaped_id_that_every_format_writes(model, tmp_path):
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / os.fsdecode(b"bad\x9b[2Jname\xff.txt")).write_text("The rocket reached the moon.")
    items = read_texts(folder)
    assert items == [("bad\\x9b[2Jname\\xff.txt", "The rocket reached the moon.")]
    recs = list(text_records(model, items, metrics=["rf"], k=3, top=3, n_process=1))
    for fmt, parse in (("jsonl", lambda t: json.loads(t)), ("csv", lambda t: next(csv.DictReader(io.StringIO(t))))):
        buf = io.StringIO()
        write_records(recs, buf, fmt, ["rf"])
        buf.getvalue().encode("utf-8")  # before: UnicodeEncodeError ('\udc9b'), a 0-byte or header-only file
        assert parse(buf.getvalue())["id"] == "bad\\x9b[2Jname\\xff.txt"


def test_format_of():
    assert format_of(None, "x.csv") == "csv" and format_of(None, "x.jsonl") == "jsonl"
    assert format_of(None, None) == "jsonl" and format_of("csv", "x.jsonl") == "csv"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus") / "mini"
    texts = {("train", "sport"): ["The team won the game after the coach changed the player.",
                                  "A new season of the league starts with a goal by the striker."],
             ("train", "space"): ["The rocket reached orbit around the planet.",
                                  "A launch of the mission to the moon with the astronauts."],
             ("test", "sport"): ["The coach praised the team and the league."],
             ("test", "space"): ["The mission put a rocket near the moon."]}
    for (split, label), ts in texts.items():
        d = root / split / label
        d.mkdir(parents=True)
        for i, t in enumerate(ts):
            (d / f"{i}.txt").write_text(t)
    return root


def test_cli_split_and_texts(folder, tmp_path, capsys):
    out = tmp_path / "split.jsonl"
    assert main(["keywords", "--dataset", str(folder), "--split", "test", "--metric", "rf", "--k", "10",
                 "--top", "3", "--out", str(out)]) == 0
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in recs] == ["mini/test/space/0.txt", "mini/test/sport/0.txt"]
    assert "2 documents, label-aware" in capsys.readouterr().err
    main(["keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt", "--metric", "rf", "--k", "10",
          "--top", "3", "--json"])
    single = json.loads(capsys.readouterr().out)
    assert recs[0]["keywords"]["rf"] == single["keywords"]["rf"]

    texts = tmp_path / "new.csv"
    texts.write_text("text\nThe astronauts flew the rocket to the moon.\n\n")
    out = tmp_path / "texts.csv"
    assert main(["keywords", "--dataset", str(folder), "--texts", str(texts), "--metric", "rf", "--k", "10",
                 "--out", str(out), "--n-process", "1"]) == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 1 and rows[0]["protocol"] == "label-free-top1" and rows[0]["rf"]
    assert rows[0]["weighted_as"] in ("sport", "space") and float(rows[0]["p"]) >= 0.5


@pytest.mark.parametrize("argv,message", [
    (["--split", "test", "--doc", "x"], "give either --split S or --texts PATH"),
    (["--split", "test", "--baseline"], "--baseline works on single corpus documents"),
    (["--doc", "mini/test/space/0.txt", "--out", "x.csv"], "--format, --out and --scheduler go with --split or --texts"),
])
def test_cli_batch_argument_errors(folder, capsys, argv, message):
    assert main(["keywords", "--dataset", str(folder), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
