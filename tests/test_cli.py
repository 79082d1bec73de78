"""The command-line entry point: a database failure mid-command is one line, not a traceback."""
import sqlite3

from dkw_core.cli import build_parser, main
from dkw_core.study.demo import DEMO_CORPUS


def test_every_feature_registers_its_commands():
    choices = build_parser()._subparsers._group_actions[0].choices
    assert {"datasets", "prepare", "keywords", "evaluate", "search", "baseline", "report", "study"} <= set(choices)


def test_locked_database_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    monkeypatch.setenv("DKW_DB_TIMEOUT", "0.2")
    url = f"sqlite:///{tmp_path / 'study.sqlite'}"
    assert main(["study", "list", "--db", url]) == 0  # creates the schema
    holder = sqlite3.connect(tmp_path / "study.sqlite")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code = main(["study", "create", "--db", url, "--corpus", DEMO_CORPUS, "--per-category", "1"])
    finally:
        holder.rollback()
        holder.close()
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines()[-1].startswith("error: ") and "locked" in err and "Traceback" not in err
