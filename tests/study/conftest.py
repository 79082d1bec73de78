"""Fixtures for the study tests: a SQLite file per test; ``db_url`` / ``any_engine`` run a test
on SQLite and on a real PostgreSQL server (tests/support/postgres.py)."""
from __future__ import annotations

import pytest

from dkw_core.db import make_engine
from dkw_core.study.models import init_db
from tests.support.postgres import new_database, postgres_server


@pytest.fixture
def engine(tmp_path):
    eng = make_engine(f"sqlite:///{tmp_path / 'study.sqlite'}", default_file="unused.sqlite")
    init_db(eng)
    yield eng
    eng.dispose()


@pytest.fixture(scope="session")
def pg_server():
    with postgres_server() as base:
        yield base


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """URL of an empty database, once on SQLite and once on PostgreSQL (no schema yet)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'study.sqlite'}"
    return new_database(request.getfixturevalue("pg_server"))


@pytest.fixture
def any_engine(db_url):
    eng = make_engine(db_url, default_file="unused.sqlite")
    init_db(eng)
    yield eng
    eng.dispose()
