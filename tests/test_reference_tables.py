"""scripts/reference_tables.py: the corpus pages of the docs site (docs/results/<corpus>.md), the
summary block of BENCHMARKS.md and the README's headline are the ones the shipped reference
results (docs/results/*.json) generate — nobody typed them."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results"
CORPORA = sorted(json.loads(p.read_text())["dataset"] for p in RESULTS.glob("*.json")
                 if "runs" in json.loads(p.read_text()))
REGENERATE = "python scripts/reference_tables.py --update"


def _script():
    return load_script("reference_tables")


@pytest.fixture(scope="module")
def generated() -> dict[Path, str]:
    """What `--update` writes (all but the slow report), by path."""
    if not CORPORA:
        pytest.skip("a checkout without docs/results")
    return _script().generated(RESULTS, benchmarks=ROOT / "BENCHMARKS.md", readme=ROOT / "README.md", pages=RESULTS)


@pytest.mark.parametrize("name", ["BENCHMARKS.md", "README.md", *(f"docs/results/{c}.md" for c in CORPORA)])
def test_the_committed_pages_and_tables_are_the_generated_ones(generated, name):
    path = ROOT / name
    assert path in generated
    assert path.is_file(), f"{name} is missing: run {REGENERATE}"
    assert path.read_text(encoding="utf-8") == generated[path], f"{name} is out of date: run {REGENERATE}"


def test_each_corpus_has_its_page_on_the_site_linked_from_benchmarks():
    nav = json.dumps(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])
    benchmarks = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    for corpus in CORPORA:
        assert f'"results/{corpus}.md"' in nav, corpus
        assert f"(docs/results/{corpus}.md)" in benchmarks, corpus
    assert len(benchmarks.splitlines()) <= 400  # the summary; the corpus pages hold the rest


def test_a_corpus_page_holds_every_table_of_its_corpus(generated):
    page = generated[RESULTS / "20ng.md"]
    headings = re.findall(r"^## (.+)$", page, flags=re.M)
    assert headings == [h for h, _ in _script().SECTIONS]
    assert "docs/results/20ng.json" in page and REGENERATE in page
    for table in ("F1 against N, 20ng, label-free-top1", "Per-document comparison, 20ng, label-aware",
                  "Seed stability, 20ng", "Leak check, 20ng", "| 20ng | 86.23 |"):
        assert table in page, table
    assert "Leak check, 20ng" not in generated[ROOT / "BENCHMARKS.md"]


def test_a_new_section_reaches_every_page(tmp_path, monkeypatch):
    """A new result in the JSON is one renderer in SECTIONS; --pages writes it into every page."""
    module = _script()
    folder = tmp_path / "results"
    folder.mkdir()
    for corpus in ("r8", "webkb"):
        shutil.copy(RESULTS / f"{corpus}.json", folder)
    (folder / "quality.json").write_text('{"format": 1, "corpora": {}}', encoding="utf-8")  # not a corpus
    (folder / "extractors").mkdir()
    (folder / "extractors" / "r8.json").write_text('{"yake": 71.5}', encoding="utf-8")

    def extractors(data, name):  # results kept in a file of their own
        found = module.beside(data, "extractors", f"{name}.json")
        return [f"{name}: yake {found['yake']}"] if found else []

    monkeypatch.setattr(module, "SECTIONS", [*module.SECTIONS, ("Hubness", lambda data, name: [f"hubs of {name}"]),
                                             ("Extractors", extractors)])
    assert module.main(["--folder", str(folder), "--pages", str(tmp_path / "pages")]) == 0
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["r8.md", "webkb.md"]
    assert (tmp_path / "pages" / "r8.md").read_text(encoding="utf-8").endswith(
        "## Hubness\n\nhubs of r8\n\n## Extractors\n\nr8: yake 71.5\n")
    assert (tmp_path / "pages" / "webkb.md").read_text(encoding="utf-8").endswith("## Hubness\n\nhubs of webkb\n")


def test_a_file_without_markers_is_refused(tmp_path, capsys):
    plain = tmp_path / "plain.md"
    plain.write_text("no markers here\n", encoding="utf-8")
    assert _script().main(["--readme", str(plain)]) == 2
    assert "no <!-- headline:begin -->" in capsys.readouterr().err
    assert plain.read_text(encoding="utf-8") == "no markers here\n"
