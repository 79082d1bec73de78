"""The README's figures about the tests are checked, not remembered: the number of tests it
states against what pytest collects (within ``TOLERANCE``: tests are added every day), the command
it says ``make test`` runs against the Makefile's, and its time figure says when, how and on how
many cores it was measured."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.collection import whole_suite

ROOT = Path(__file__).resolve().parents[1]
TOLERANCE = 0.10
_TESTS = re.search(r"^## Tests\n(.*?)(?=^## |\Z)", (ROOT / "README.md").read_text(encoding="utf-8"),
                   re.S | re.M)
TESTS_SECTION = _TESTS.group(1) if _TESTS else ""


def collected(session) -> int:
    """The number of tests of the whole suite: this session's when it collected everything
    (``make test``), else a ``pytest --collect-only`` of the whole suite."""
    if whole_suite(session):
        return len(session.items)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    found = re.search(r"^(\d+) tests? collected", done.stdout, re.M)
    assert found, (done.stdout[-2000:], done.stderr[-2000:])
    return int(found.group(1))


def test_the_readme_states_the_number_of_tests_pytest_collects(request):
    stated = re.search(r"`make test` runs every test \(about ([\d,]+) of them", TESTS_SECTION)
    assert stated, "README.md's Tests section no longer says how many tests `make test` runs"
    count, claimed = collected(request.session), int(stated.group(1).replace(",", ""))
    assert abs(claimed - count) <= TOLERANCE * count, (
        f"README.md says about {claimed} tests, pytest collects {count}: update the figure")


def test_the_readme_names_the_command_make_test_runs():
    recipe = re.search(r"^test:.*\n\t(.+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert recipe, "the Makefile has no test target"
    command = recipe.group(1).replace("$(VENV)/bin/python", "python").replace("$(TEST_WORKERS)", "2")
    assert f"`{command}`" in TESTS_SECTION, f"README.md's Tests section does not name `{command}`"


def test_the_readme_says_when_and_how_its_test_time_was_measured():
    timed = re.search(r"([\d.]+) minutes wall time, measured on (\d{4}-\d{2}-\d{2}) with `make test`'s command "
                      r"on (\d+) cores", TESTS_SECTION)
    assert timed, "README.md's test time lacks its date, command or number of cores"
    assert float(timed.group(1)) <= 15 and timed.group(3) == "2", "the target: `make test` within 15 minutes on 2 cores"
