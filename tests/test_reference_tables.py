"""scripts/reference_tables.py: the tables of BENCHMARKS.md and the README's headline are the
ones the shipped reference results (docs/results/*.json) generate — nobody typed them."""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script():
    import sys

    if str(ROOT / "scripts") not in sys.path:  # as `python scripts/reference_tables.py` has it: its repo_root helper
        sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("reference_tables", ROOT / "scripts" / "reference_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name, option", [("BENCHMARKS.md", "--write"), ("README.md", "--readme")])
def test_the_committed_tables_are_the_generated_ones(tmp_path, name, option):
    if not list((ROOT / "docs" / "results").glob("*.json")):
        pytest.skip("a checkout without docs/results")
    copy = tmp_path / name
    shutil.copy(ROOT / name, copy)
    assert _script().main([option, str(copy)]) == 0
    assert copy.read_text(encoding="utf-8") == (ROOT / name).read_text(encoding="utf-8"), (
        f"{name} is out of date: run scripts/reference_tables.py --write BENCHMARKS.md --readme README.md")


def test_a_file_without_markers_is_refused(tmp_path, capsys):
    plain = tmp_path / "plain.md"
    plain.write_text("no markers here\n", encoding="utf-8")
    assert _script().main(["--readme", str(plain)]) == 2
    assert "no <!-- headline:begin -->" in capsys.readouterr().err
    assert plain.read_text(encoding="utf-8") == "no markers here\n"
