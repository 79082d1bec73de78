"""docs/bad-inputs.md stays true: each row's test exists, and the words the row quotes under
"says" appear in that test's source and in dkw's own code (dkw_core, dkw_app, pages)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "bad-inputs.md"


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[3].startswith("`tests/"):
            says = re.fullmatch(r"`(.+)`", cells[2])
            assert says, f"row without quoted words: {line}"
            rows.append((cells[0], says.group(1), cells[3].strip("`")))
    return rows


ROWS = _rows()
CODE = "\n".join(p.read_text(encoding="utf-8") for d in ("dkw_core", "dkw_app", "pages") for p in (ROOT / d).rglob("*.py"))


def test_the_table_has_its_rows():
    assert len(ROWS) >= 25


@pytest.mark.parametrize("fault,says,test", ROWS, ids=[r[0][:60] for r in ROWS])
def test_each_row_names_an_existing_test_that_checks_what_it_says(fault, says, test):
    path, name = test.split("::")
    source = (ROOT / path).read_text(encoding="utf-8")
    lines = source.splitlines()
    funcs = {n.name: "\n".join(lines[min([n.lineno, *(d.lineno for d in n.decorator_list)]) - 1:n.end_lineno])
             for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}  # with its parametrize cases
    assert name in funcs, f"{test} does not exist"
    body = funcs[name]
    fixtures = "\n".join(s for n, s in funcs.items() if not n.startswith("test_"))  # helpers and fixtures of that file
    assert says in body or says in fixtures, f"{test} does not check {says!r}"
    assert says in CODE or says in source, f"{says!r} appears neither in dkw's code nor in the test's input"
