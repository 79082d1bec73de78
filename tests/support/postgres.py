"""The throw-away PostgreSQL server of :mod:`tests.support.pg_server`, for pytest: missing
binaries skip the tests on a developer machine but fail them when ``CI=true`` (``.ci/run``
installs the package): PostgreSQL tests must never be silently skipped in CI."""
from __future__ import annotations

import contextlib
import os

import pytest

from tests.support import pg_server as _pg
from tests.support.pg_server import PACKAGE_HINT, new_database, pg_bin  # noqa: F401  (re-exported)


def _unavailable(exc: _pg.PostgresUnavailable):
    if exc.missing and os.environ.get("CI", "").lower() != "true":
        pytest.skip(str(exc))
    suffix = " (CI=true: PostgreSQL tests must run)" if exc.missing else ""
    pytest.fail(str(exc) + suffix, pytrace=False)


def require_pg_bin():
    found = pg_bin()
    if found is None:
        _unavailable(_pg.PostgresUnavailable(_pg.MISSING, missing=True))
    return found


@contextlib.contextmanager
def postgres_server():
    """Yield a base URL ``postgresql+psycopg://postgres@127.0.0.1:PORT`` of a fresh server."""
    require_pg_bin()
    try:
        manager = _pg.postgres_server()
        base = manager.__enter__()
    except _pg.PostgresUnavailable as exc:
        _unavailable(exc)
    try:
        yield base
    finally:
        manager.__exit__(None, None, None)
