"""Opening databases: WAL + foreign keys on SQLite, clear errors for corrupted or locked files."""
import sqlite3

import pytest
from sqlalchemy import text

from dkw_core.db import describe_store_error, make_engine
from dkw_core.errors import StoreError


def test_sqlite_gets_wal_and_foreign_keys(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.sqlite'}", default_file="unused.sqlite")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_default_file_lives_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    make_engine(None, default_file="here.sqlite").dispose()
    assert (tmp_path / "here.sqlite").exists()


def test_corrupted_file_is_a_store_error(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database, just bytes " * 200)
    with pytest.raises(StoreError, match="corrupted or not a database"):
        make_engine(f"sqlite:///{bad}", default_file="unused.sqlite")


def test_malformed_url_is_a_store_error():
    with pytest.raises(StoreError, match="cannot open database"):
        make_engine("nosuchdialect://x", default_file="unused.sqlite")


def test_locked_database_gives_a_clear_message(tmp_path):
    path = tmp_path / "busy.sqlite"
    engine = make_engine(f"sqlite:///{path}", default_file="unused.sqlite", timeout=0.2)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(Exception) as info:
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO t VALUES (1)"))
        assert "locked by another process" in describe_store_error(info.value)
    finally:
        holder.rollback()
        holder.close()
