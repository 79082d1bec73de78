"""Fixtures for the study tests: a SQLite file per test."""
from __future__ import annotations

import pytest

from dkw_core.db import make_engine
from dkw_core.study.models import init_db


@pytest.fixture
def engine(tmp_path):
    eng = make_engine(f"sqlite:///{tmp_path / 'study.sqlite'}", default_file="unused.sqlite")
    init_db(eng)
    yield eng
    eng.dispose()

