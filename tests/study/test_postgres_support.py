"""PostgreSQL tests never skip silently in CI (tests/support/postgres.py)."""
from __future__ import annotations

import pytest

from tests.support import postgres


def test_missing_server_binaries_fail_under_ci_and_skip_otherwise(monkeypatch):
    monkeypatch.setattr(postgres, "pg_bin", lambda: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="apt-get install -y postgresql"):
        postgres.require_pg_bin()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="initdb, pg_ctl"):
        postgres.require_pg_bin()
