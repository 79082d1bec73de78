"""Whether a test session collected the whole suite: then the README's test count
(tests/test_readme_figures.py) is read from the running session for free (``make test``: no paths,
nothing deselected or ignored); otherwise the test asks ``pytest --collect-only`` of the whole
suite. A pytest-xdist worker collects every test too, so the same answer holds under ``-n 2``."""
from __future__ import annotations

import pytest

DESELECTED = pytest.StashKey[int]()
_NARROWING = ("ignore", "ignore_glob", "deselect", "keyword", "markexpr", "lf", "failedfirst", "stepwise")


def pytest_deselected(items):
    if items:
        stash = items[0].config.stash
        stash[DESELECTED] = stash.get(DESELECTED, 0) + len(items)


def whole_suite(session: pytest.Session) -> bool:
    """True when ``session.items`` holds every test of the suite (pytest.ini's testpaths, no
    selection)."""
    config = session.config
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS or config.stash.get(DESELECTED, 0):
        return False
    return not any(config.getoption(name, None) for name in _NARROWING)
