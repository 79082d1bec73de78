"""The command-line entry point: a database failure mid-command is one line, not a traceback."""
import sqlite3

import pytest

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


def _options(parser):
    """{sub-command path: {option string: action}} over every (nested) sub-command."""
    import argparse

    out = {}

    def walk(p, path):
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            out[path] = {s: a for a in p._actions for s in a.option_strings}
        for a in subs:
            for name, child in a.choices.items():
                walk(child, f"{path} {name}".strip())

    walk(parser, "")
    return out


def test_every_command_spells_its_options_the_same_way():
    import argparse

    from dkw_core.types import DEFAULT_PROTOCOL

    commands = _options(build_parser())
    assert {"keywords", "evaluate", "search", "baseline", "report", "study create", "study export"} <= set(commands)
    for name, opts in commands.items():
        shown = {s for s, a in opts.items() if a.help != argparse.SUPPRESS}
        assert not shown & {"--corpus", "--output", "--metrics"}, (name, shown)  # old spellings are hidden aliases
        if "--metric" in opts:
            assert isinstance(opts["--metric"], argparse._AppendAction), name
        if "--protocol" in opts and name != "keywords":  # keywords: by what it weights (tests/test_types.py)
            assert opts["--protocol"].default == DEFAULT_PROTOCOL, name
    for name in ("keywords", "evaluate", "search", "baseline", "prepare", "study create"):
        assert "--dataset" in commands[name], name
    for name in ("report", "study export"):
        assert "--out" in commands[name], name


def test_old_spellings_still_work(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    args = build_parser().parse_args(["search", "--corpus", "r8", "--metrics", "rf,tf-rf", "--metric", "ig"])
    assert args.dataset == "r8" and args.metric == ["rf", "tf-rf", "ig"]
    args = build_parser().parse_args(["report", "--output", "x.md"])
    assert args.out == "x.md"


def test_version_is_printed_by_the_module_entry_point():
    import subprocess
    import sys

    import dkw_core

    done = subprocess.run([sys.executable, "-m", "dkw_core", "--version"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"dkw {dkw_core.__version__}"


def test_argparse_errors_are_one_line(capsys):
    assert main(["keywords", "--bogus"]) == 2
    assert capsys.readouterr().err == "dkw: error: unrecognized arguments: --bogus (see --help)\n"
    assert main(["keywords", "--doc", "x/y", "--protocol", "psychic"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dkw: error: argument --protocol: invalid choice") and err.count("\n") == 1
    assert main(["prepare"]) == 2  # --dataset is checked after parsing (its alias --corpus counts too)
    assert capsys.readouterr().err == "dkw: error: the following arguments are required: --dataset (see --help)\n"


def test_download_timeout_must_be_positive_seconds(capsys):
    with pytest.raises(SystemExit):  # refused while parsing: no server is ever asked
        build_parser().parse_args(["download", "20ng", "--timeout", "-5"])
    assert "positive number of seconds" in capsys.readouterr().err


def test_the_top_level_help_names_the_default_protocol_of_new_texts_too(capsys):
    """label-aware is the default for a corpus's documents only; a new text has no gold category
    and defaults to label-free-top1: the overview must not say label-aware for every command."""
    from dkw_core.types import DEFAULT_PROTOCOL, NEW_TEXT_PROTOCOL

    assert main(["--help"]) == 0
    epilog = " ".join(capsys.readouterr().out.split("options:")[1].split()).replace("- ", "-")  # argparse wraps at "-"
    assert f"{DEFAULT_PROTOCOL} (the paper's protocol) for the documents of a corpus" in epilog
    assert f"{NEW_TEXT_PROTOCOL} for new texts" in epilog


@pytest.mark.parametrize("command", ["prepare", "hubness", "categories"])
def test_a_required_dataset_is_required_in_the_usage_line_as_in_its_help(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    usage = " ".join(out.split("\n\n")[0].split())
    assert " --dataset NAME " in usage + " " and "[--dataset NAME]" not in usage
    assert main([command]) == 2 and "required: --dataset" in capsys.readouterr().err  # still checked, one line


def test_an_optional_dataset_stays_optional_in_the_usage_line(capsys):
    assert main(["keywords", "--help"]) == 0
    assert "[--dataset NAME]" in " ".join(capsys.readouterr().out.split("\n\n")[0].split())
