"""Untrusted text reaches a terminal only through dkw_core.terminal.escape: no escape sequence,
bell, C1 control, bidi override, tab or line break of a label, word or name runs or forges a row
in the command line's human-readable output; JSON stays exact."""
from __future__ import annotations

import csv
import io
import json
import os

import pytest

from dkw_core.cli import main
from dkw_core.terminal import CONTROL, control_char, escape

#: A hyperlink planted by OSC 8 (ESC ] 8 ;; URL BEL), a screen clear, a C1 CSI, DEL, a bidi override.
OSC8 = "\x1b]8;;https://evil.example\x07CLICKME\x1b]8;;\x07"
CLEAR = "\x1b[2Jwiped"
HOSTILE = [OSC8, CLEAR, "c1\x9b31m", "del\x7f", "rtl\u202eevil", "tab\tnew\nline\rnul\x00", "ls\u2028ps\u2029"]


@pytest.mark.parametrize("text", HOSTILE)
def test_escape_leaves_no_control_character_and_shows_each_one(text):
    out = escape(text)
    assert not CONTROL.search(out) and control_char(out) is None
    assert all(c not in out for c in "\x1b\x07\x9b\x7f\u202e\t\n\r\x00\u2028")
    assert len(out) > len(text)  # every control character is shown, none dropped


def test_escape_writes_readable_escapes_and_leaves_other_text_unchanged():
    assert escape(OSC8) == "\\x1b]8;;https://evil.example\\x07CLICKME\\x1b]8;;\\x07"
    assert escape("a\tb\nc\u202ed\x9b") == "a\\tb\\nc\\u202ed\\x9b"
    plain = "Ünïcödé naïve café – Ελληνικά 日本語 עברית 😀 NАSA 50%"
    assert escape(plain) == plain
    assert escape(42) == "42"
    assert [control_char(t) for t in ("ok", "a\x00", "a\tb", "a\nb", "\x1b[", "x\u202e")] == [
        None, "NUL", "a tab", "a line break", "ESC", "U+202E"]


def test_a_file_name_that_is_not_utf8_is_shown_byte_by_byte_and_encodes():
    name = os.fsdecode(b"bad\x9b[2Jname\xff.txt")  # the stray bytes as lone surrogates
    assert escape(name) == "bad\\x9b[2Jname\\xff.txt" == os.fsencode(name).decode("utf-8", "backslashreplace")
    escape(name).encode("utf-8")  # a UTF-8 terminal or file takes it (the raw name raised UnicodeEncodeError)
    assert escape("a\ud800b") == "a\\ud800b" and control_char(name) == "U+DC9B"


@pytest.fixture(scope="module")
def hostile_csv(tmp_path_factory):
    """A CSV corpus whose category labels hold terminal escape sequences."""
    path = tmp_path_factory.mktemp("hostile") / "evil.csv"
    rows = []
    for label, texts in ((OSC8, ["The team won the game after the coach changed the player.",
                                 "A new season of the league starts with a goal.",
                                 "The coach praised the team and the league."]),
                         (CLEAR, ["The rocket reached orbit around the planet.",
                                  "A launch of the mission to the moon.",
                                  "The mission put a rocket near the moon."])):
        rows += [{"text": t, "label": label, "split": "train" if i < 2 else "test"} for i, t in enumerate(texts)]
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["text", "label", "split"])
        w.writeheader()
        w.writerows(rows)
    return path


def _no_control(text: str) -> bool:
    """Nothing a terminal runs: only the output's own line breaks (CSV's CRLF too) and a TSV's own
    tabs remain."""
    return not any(CONTROL.search(line.replace("\t", "")) for line in text.replace("\r\n", "\n").split("\n"))


def test_categories_prints_labels_escaped(hostile_csv, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    for extra in (["--baseline"], ["--k", "10"]):
        assert main(["categories", "--dataset", str(hostile_csv), "--metric", "rf", "--top", "3", *extra]) == 0
        out, err = capsys.readouterr()
        assert _no_control(out) and _no_control(err), out
        assert escape(OSC8) in out and escape(CLEAR) in out, out
    assert main(["categories", "--dataset", str(hostile_csv), "--metric", "rf", "--top", "3", "--baseline",
                 "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["categories"]) == {OSC8, CLEAR}  # JSON exact


def test_keywords_csv_and_table_print_labels_escaped_jsonl_is_exact(hostile_csv, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    base = ["keywords", "--dataset", str(hostile_csv), "--metric", "rf", "--k", "10", "--top", "2"]
    assert main([*base, "--split", "test", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert _no_control(out) and _no_control(err), out
    labels = {row["label"] for row in csv.DictReader(io.StringIO(out))}
    assert labels == {escape(OSC8), escape(CLEAR)}, labels
    assert main([*base, "--split", "test", "--format", "jsonl"]) == 0
    out = capsys.readouterr().out
    assert {json.loads(line)["label"] for line in out.splitlines()} == {OSC8, CLEAR}  # JSONL exact
    text = tmp_path / "new.txt"
    text.write_text("The mission sent a rocket to orbit the moon.", encoding="utf-8")
    assert main([*base, "--text-file", str(text)]) == 0  # the table names the category that weighted the words
    out, err = capsys.readouterr()
    assert _no_control(out) and _no_control(err) and "weighted as \\x1b" in out, out
    assert main([*base, "--split", "test", "--format", "csv", "--out", str(tmp_path / "k.csv")]) == 0
    assert _no_control(capsys.readouterr().err)
    assert _no_control((tmp_path / "k.csv").read_text(encoding="utf-8"))


def test_an_error_quoting_a_hostile_value_is_one_escaped_line(hostile_csv, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    assert main(["categories", "--dataset", str(hostile_csv), "--category", "x\x1b[2J\nforged", "--baseline"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("error: unknown category") and err.count("\n") == 1 and _no_control(err), err
    assert escape(OSC8) in err, err  # the categories it lists are escaped too
