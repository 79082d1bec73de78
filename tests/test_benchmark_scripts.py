"""Every entry script of ``benchmarks/`` and ``scripts/`` runs as BENCHMARKS.md and the docs write
it (``.venv/bin/python benchmarks/x.py …`` from the repository root) in a fresh clone: no
PYTHONPATH and dkw not pip-installed, and the ``dkw_core`` it then imports is the clone's own.

The scripts are run with ``--help`` from a copy of the repository's ``dkw_core/``, ``benchmarks/``
and ``scripts/`` in a temporary folder, by ``python -I`` (no PYTHONPATH, no user site, no current
folder on the path) through a small launcher that takes the editable install's finder (which
points at another checkout) off ``sys.meta_path`` — what a clone before ``pip install -e .``
sees — and then does what ``python script.py`` does: the script's folder first on the path, the
script run as ``__main__``. Besides the usage line, the launcher reports where ``dkw_core`` is
found once the script has set itself up, so a script that imports ``dkw_core`` only inside
``main`` is checked too."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Modules of these folders that other scripts import; not run on their own.
HELPERS = {"benchmarks/measure.py", "benchmarks/keyphrase_gold.py", "benchmarks/repo_root.py", "scripts/repo_root.py",
           "scripts/mkdocs_hooks.py", "scripts/reference_writer.py"}
ENTRY_SCRIPTS = sorted(str(p.relative_to(ROOT)) for folder in ("benchmarks", "scripts")
                       for p in (ROOT / folder).glob("*.py") if str(p.relative_to(ROOT)) not in HELPERS)

LAUNCHER = r"""
import importlib.util, runpy, sys
from pathlib import Path

sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
script = Path(sys.argv[1]).resolve()
sys.argv = sys.argv[1:]
sys.path.insert(0, str(script.parent))
code = 0
try:
    runpy.run_path(str(script), run_name="__main__")
except SystemExit as exc:
    code = exc.code or 0
spec = importlib.util.find_spec("dkw_core")
print("dkw_core from:", spec.origin if spec else None)
sys.exit(code)
"""


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The package, the script folders and the tests' helpers, as a fresh clone has them."""
    root = tmp_path_factory.mktemp("clone")
    for folder in ("dkw_core", "benchmarks", "scripts", "tests"):  # tests/support: a browser benchmark's helpers
        shutil.copytree(ROOT / folder, root / folder, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_helper_list_names_existing_modules_and_the_path_helper_is_one_file():
    assert all((ROOT / h).is_file() for h in HELPERS)
    assert len(ENTRY_SCRIPTS) >= 15
    # one definition of the path helper: the benchmarks' is a link to the scripts'
    assert (ROOT / "benchmarks" / "repo_root.py").resolve() == (ROOT / "scripts" / "repo_root.py").resolve()


@pytest.mark.parametrize("script", ENTRY_SCRIPTS)
def test_script_runs_as_written_without_pythonpath(clone, script):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([sys.executable, "-I", "-c", LAUNCHER, script, "--help"], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "usage:" in res.stdout
    origin = res.stdout.strip().splitlines()[-1].removeprefix("dkw_core from: ")
    assert Path(origin).resolve() == (clone / "dkw_core" / "__init__.py").resolve(), res.stdout[-500:]


# --- Every command of BENCHMARKS.md, as written -------------------------------------------------
#
# The ```sh blocks of BENCHMARKS.md are read as a shell would split them (line continuations,
# `;`/`&&`, `for … in …; do … done` with the loop variable set to its first value, `export`,
# leading `VAR=value` assignments and `nice -n N`); every `python -m dkw_core …`, `python
# scripts/x.py …` and `python benchmarks/x.py …` among them is then parsed — not run — by the
# command's own argument parser, in the fresh-clone copy above: the launcher replaces
# `ArgumentParser.parse_args` by one that refuses unknown arguments as argparse does and then
# stops the command before it does any work.

BENCHMARKS_MD = ROOT / "BENCHMARKS.md"
_PYTHON = re.compile(r"(^|/)python(3(\.\d+)?)?$")
_LOOP_VALUE = re.compile(r"\$\{?(\w+)\}?")


@dataclass(frozen=True)
class Command:
    """One `python …` command of a Markdown file's ```sh blocks."""
    written: str          # the line(s) as written
    target: str           # "dkw_core" (python -m dkw_core) or the script's path
    args: tuple[str, ...]  # its arguments, loop variables replaced
    env: tuple[str, ...]  # the VAR names assigned before it on its line (export / VAR=value)


def _simple_commands(line: str):
    """The simple commands of one logical shell line, as token lists."""
    line = re.sub(r"\$\([^)]*\)", "SUBSTITUTED", line)  # $(mktemp -d)
    line = re.sub(r"<[^<>]+>", "PLACEHOLDER", line)   # <archives folder>
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    lex.commenters = "#"
    command: list[str] = []
    for token in lex:
        if token in (";", "&&", "||", "|", "&"):
            if command:
                yield command
            command = []
        else:
            command.append(token)
    if command:
        yield command


def commands_of(markdown: str) -> list[Command]:
    blocks = re.findall(r"^```(?:sh|bash|shell)?\n(.*?)^```", markdown, flags=re.M | re.S)
    found: list[Command] = []
    for block in blocks:
        loops: dict[str, str] = {}
        for written in re.sub(r"\\\n\s*", " ", block).splitlines():
            env: list[str] = []
            for tokens in _simple_commands(written):
                while tokens and tokens[0] in ("do", "then", "time"):
                    tokens = tokens[1:]
                if tokens[:1] == ["for"] and len(tokens) >= 4 and tokens[2] == "in":
                    loops[tokens[1]] = tokens[3]
                    continue
                if tokens[:1] == ["export"]:
                    env += [t.split("=", 1)[0] for t in tokens[1:]]
                    continue
                while tokens and re.match(r"^\w+=", tokens[0]):
                    env.append(tokens.pop(0).split("=", 1)[0])
                if tokens[:1] == ["nice"]:
                    tokens = tokens[3:] if tokens[1:2] == ["-n"] else tokens[1:]
                if not tokens or not _PYTHON.search(tokens[0]):
                    continue
                args = [_LOOP_VALUE.sub(lambda m, values=loops: values.get(m[1], m[0]), t) for t in tokens[1:]]
                if args[:2] == ["-m", "dkw_core"]:
                    found.append(Command(written.strip(), "dkw_core", tuple(args[2:]), tuple(env)))
                elif args and args[0].endswith(".py"):
                    found.append(Command(written.strip(), args[0], tuple(args[1:]), tuple(env)))
    return found


ARGS_LAUNCHER = r"""
import argparse, contextlib, io, json, runpy, sys
from pathlib import Path

sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]


class Parsed(Exception):
    pass


def parse_args(self, args=None, namespace=None):
    namespace, extras = self.parse_known_args(args, namespace)
    if extras:
        self.error("unrecognized arguments: " + " ".join(extras))
    raise Parsed


argparse.ArgumentParser.parse_args = parse_args
results = []
for target, args in json.loads(sys.argv[1]):
    err = io.StringIO()
    ok, path = False, list(sys.path)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            if target == "dkw_core":
                sys.argv = ["dkw_core", *args]
                sys.path.insert(0, str(Path.cwd()))  # what `python -m` does: the current folder first
                runpy.run_module("dkw_core", run_name="__main__", alter_sys=True)
            else:
                script = Path(target).resolve()
                sys.argv = [str(script), *args]
                sys.path.insert(0, str(script.parent))
                runpy.run_path(str(script), run_name="__main__")
        err.write("the command did not parse its arguments")
    except Parsed:
        ok = True
    except SystemExit as exc:
        err.write(f" (exit {exc.code})")
    except Exception as exc:
        err.write(f"{type(exc).__name__}: {exc}")
    sys.path[:] = path
    results.append({"ok": ok, "error": err.getvalue()[-1500:]})
print(json.dumps(results))
"""


def parse_in_clone(clone: Path, commands: list[Command]) -> list[dict]:
    """Each command's arguments parsed by its own parser in ``clone`` (one interpreter for all)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    payload = json.dumps([[c.target, list(c.args)] for c in commands])
    res = subprocess.run([sys.executable, "-I", "-c", ARGS_LAUNCHER, payload], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


BENCHMARK_COMMANDS = commands_of(BENCHMARKS_MD.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def parsed_benchmark_commands(clone) -> dict[Command, dict]:
    present = [c for c in BENCHMARK_COMMANDS if c.target == "dkw_core" or (clone / c.target).is_file()]
    return dict(zip(present, parse_in_clone(clone, present)))


def test_the_commands_of_benchmarks_md_are_all_read():
    targets = {c.target for c in BENCHMARK_COMMANDS}
    assert len(BENCHMARK_COMMANDS) >= 25
    assert {"dkw_core", "scripts/bench_eval.py", "scripts/reference_tables.py", "benchmarks/bench_hubness.py",
            "benchmarks/bench_cluster.py"} <= targets
    # a loop variable takes the loop's first value; a placeholder never reaches an option
    assert any(c.args[:3] == ("search", "--dataset", "20ng") for c in BENCHMARK_COMMANDS)
    assert not any("$" in a for c in BENCHMARK_COMMANDS for a in c.args)


@pytest.mark.parametrize("command", BENCHMARK_COMMANDS, ids=lambda c: f"{c.target} {' '.join(c.args)}"[:90])
def test_benchmarks_md_command_runs_as_written_from_a_fresh_clone(clone, parsed_benchmark_commands, command):
    assert "PYTHONPATH" not in command.env, f"needs no PYTHONPATH from a fresh clone: {command.written}"
    assert not re.search(r"<[^<>]+>", command.written), f"a placeholder is no value (and < redirects): {command.written}"
    if command.target != "dkw_core":
        assert (ROOT / command.target).is_file(), f"no such script: {command.written}"
    result = parsed_benchmark_commands[command]
    assert result["ok"], f"{command.written}\n{result['error']}"


def test_a_missing_script_or_an_unknown_option_is_caught(clone):
    fake = ("```sh\n"
            "PYTHONPATH=$PWD .venv/bin/python scripts/bench_eval.py --dataset r8\n"
            "for d in r8 webkb; do .venv/bin/python -m dkw_core search --dataset $d --no-such-option; done\n"
            "nice -n 5 .venv/bin/python benchmarks/bench_hubness.py --dataset r8 --search\n"
            "```\n")
    commands = commands_of(fake)
    assert [(c.target, c.args) for c in commands] == [
        ("scripts/bench_eval.py", ("--dataset", "r8")),
        ("dkw_core", ("search", "--dataset", "r8", "--no-such-option")),
        ("benchmarks/bench_hubness.py", ("--dataset", "r8", "--search"))]
    assert commands[0].env == ("PYTHONPATH",)
    assert [r["ok"] for r in parse_in_clone(clone, commands)] == [True, False, True]
    assert not (ROOT / "scripts" / "nope.py").exists()
    assert parse_in_clone(clone, [Command("", "scripts/nope.py", (), ())])[0]["ok"] is False
