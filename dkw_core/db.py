"""One way to open a database: SQLAlchemy 2.0 engines with SQLite made safe for concurrent use.

SQLite gets WAL journaling, foreign keys and a busy timeout; any other SQLAlchemy URL
(PostgreSQL, ...) is used as given. Locked or corrupted databases raise StoreError.
"""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, OperationalError

from .config import data_dir, db_timeout
from .errors import StoreError


def default_url(filename: str) -> str:
    return f"sqlite:///{data_dir() / filename}"


def make_engine(url: str | None, *, default_file: str, timeout: float | None = None) -> Engine:
    """Engine for ``url`` (or ``sqlite:///<DKW_DATA_DIR>/<default_file>``), checked to open.

    SQLite waits up to ``timeout`` seconds (default ``DKW_DB_TIMEOUT`` or 30) for a lock held
    by another writer."""
    if timeout is None:
        timeout = db_timeout()
    url = url or default_url(default_file)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = create_engine(url, connect_args={"timeout": timeout} if url.startswith("sqlite") else {})
    except Exception as exc:  # malformed URL, missing driver
        raise StoreError(f"cannot open database {url!r}: {exc}") from exc
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # noqa: ANN001
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.close()

    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            if engine.dialect.name == "sqlite":
                conn.execute(text("PRAGMA schema_version"))
    except (OperationalError, DatabaseError) as exc:
        raise StoreError(f"database {url!r} is locked, corrupted or not a database: {exc.orig}") from exc
    return engine


def describe_store_error(exc: Exception) -> str:
    """One line for a database failure met after opening (locked, corrupted, gone)."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).splitlines()[0] if str(orig) else type(orig).__name__
    if "locked" in text or "busy" in text:
        return f"database is locked by another process ({text}); try again when it is done"
    return f"database error: {text}"
