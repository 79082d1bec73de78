"""scripts/quality_table.py: the quality pages of the docs site and the summary in BENCHMARKS.md are
the ones the shipped docs/results/quality/quality.json generates — nobody typed them; a re-run of a
few metrics merges into the file instead of dropping the others."""
from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "docs" / "results" / "quality" / "quality.json"


def _script():
    if str(ROOT / "scripts") not in sys.path:  # as `python scripts/quality_table.py` has it: its repo_root helper
        sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("quality_table", ROOT / "scripts" / "quality_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_pages_and_summary_are_the_generated_ones(tmp_path):
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert set(data["corpora"]) == {"20ng", "r8", "r52", "webkb"}
    copy = tmp_path / "BENCHMARKS.md"
    shutil.copy(ROOT / "BENCHMARKS.md", copy)
    json_copy = tmp_path / "quality.json"
    shutil.copy(SHIPPED, json_copy)
    assert _script().main(["--render", "--json", str(json_copy), "--write", str(copy)]) == 0
    assert copy.read_text(encoding="utf-8") == (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8"), (
        "BENCHMARKS.md is out of date: run scripts/quality_table.py --render --write BENCHMARKS.md")
    for name in data["corpora"]:
        page = SHIPPED.parent / f"{name}.md"
        assert (tmp_path / f"{name}.md").read_text(encoding="utf-8") == page.read_text(encoding="utf-8"), (
            f"{page} is out of date: run scripts/quality_table.py --render")
        nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
        assert f"results/quality/{name}.md" in nav


def test_every_registry_metric_and_both_peers_are_in_the_shipped_table():
    from dkw_core.metrics import METRICS, PAPER_METRICS

    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert data["k"] == 90 and data["top"] == 10 and data["protocol"] == "label-free-top1" and data["window"] == 10
    for name, corpus in data["corpora"].items():
        methods = {r["method"] for r in corpus["methods"]}
        assert set(PAPER_METRICS) | {"lo", "tf-lo"} <= methods, name
        assert {"own:fw", "own:ctfidf"} <= methods, name
        assert methods - {"own:fw", "own:ctfidf"} <= set(METRICS), name


def row(method, words="latent", npmi=0.1):
    metric = method.removeprefix("own:")
    return {"method": method, "metric": metric, "words": words, "npmi": npmi, "absent_share": 0.0,
            "exclusivity": 0.5, "npmi_skipped": [], "micro_f1": 90.0, "macro_f1": 80.0, "f1_means": "",
            "seconds": 1.0, "lists": {"a": ["x", "y"]}}


def test_a_rerun_of_some_metrics_replaces_them_and_keeps_the_rest():
    qt = _script()
    old = {"k": 90, "corpora": {"r8": {"dataset": "r8", "methods": [row("ig"), row("rf"), row("own:fw", "own words")]},
                                "20ng": {"dataset": "20ng", "methods": [row("ig")]}}}
    fresh = {"r8": {"dataset": "r8", "methods": [row("rf", npmi=-0.9), row("lo")]}}
    got = qt.merge(old, fresh, {"date": "today"})
    assert got["date"] == "today" and got["k"] == 90
    assert [r["method"] for r in got["corpora"]["r8"]["methods"]] == ["rf", "ig", "lo", "own:fw"]  # registry order
    assert got["corpora"]["r8"]["methods"][0]["npmi"] == -0.9
    assert list(got["corpora"]) == ["20ng", "r8"] and got["corpora"]["20ng"] == old["corpora"]["20ng"]


def test_a_file_without_markers_is_refused(tmp_path, capsys):
    plain = tmp_path / "plain.md"
    plain.write_text("no markers here\n", encoding="utf-8")
    assert _script().main(["--render", "--json", str(SHIPPED), "--pages", str(tmp_path), "--write", str(plain)]) == 2
    assert "no <!-- quality-table:begin -->" in capsys.readouterr().err
    assert plain.read_text(encoding="utf-8") == "no markers here\n"


@pytest.mark.parametrize("option", [["--metrics", "magic"], ["--peers", "nope"]])
def test_an_unknown_metric_is_one_line_before_any_work(tmp_path, capsys, option):
    assert _script().main(["--corpora", "r8", *option, "--json", str(tmp_path / "q.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: unknown metric") and err.count("\n") == 1
    assert not (tmp_path / "q.json").exists()


def test_a_rerun_keeps_every_command_that_wrote_rows_of_the_file():
    """A partial re-run (``--metrics``) must not claim the whole table: the file lists each command."""
    qt = _script()
    old = {"command": "quality_table.py --corpora r8", "corpora": {"r8": {"dataset": "r8", "methods": [row("ig")]}}}
    fresh = {"r8": {"dataset": "r8", "methods": [row("lo")]}}
    got = qt.merge(old, fresh, {"command": "quality_table.py --corpora r8 --metrics lo"})
    assert got["commands"] == ["quality_table.py --corpora r8", "quality_table.py --corpora r8 --metrics lo"]
    again = qt.merge(got, fresh, {"command": "quality_table.py --corpora r8 --metrics lo"})
    assert again["commands"] == got["commands"]
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert all(f"`{c}`" in qt.summary(shipped) for c in shipped["commands"])
