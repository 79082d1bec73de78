"""One way to open a database: SQLAlchemy 2.0 engines with SQLite made safe for concurrent use.

:func:`open_db` opens the study database (or, with ``schema=None``, any dkw database) and
brings its schema up to date; :func:`make_engine` is the engine alone. SQLite gets WAL
journaling (when the file is writable), foreign keys and a busy timeout; any other SQLAlchemy
URL (PostgreSQL, ...) is used as given. A failure raises :class:`StoreError` with one line that
says which of read-only, locked, unreachable server or not-a-database it is. A URL is only
ever shown through :func:`safe_url`: its password never reaches a message, a log or a page.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import DatabaseError, OperationalError

from .config import data_dir, db_timeout
from .errors import StoreError

STUDY_FILE = "study.sqlite"


def default_url(filename: str) -> str:
    return f"sqlite:///{data_dir() / filename}"


def safe_url(url: str | URL) -> str:
    """``url`` for messages: the password replaced by ``***`` (a malformed URL by its scheme)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - unparsable: show no more than the scheme
        return f"{str(url).split(':', 1)[0]}://…"


def scrub(message: str, url: str | URL | None) -> str:
    """``message`` with the password of ``url`` (if any) replaced by ``***``."""
    try:
        password = make_url(url).password if url is not None else None
    except Exception:  # noqa: BLE001
        password = None
    return message.replace(str(password), "***") if password else message


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


def classify(exc: BaseException) -> str:
    """What went wrong, in a few words: read-only, locked, unreachable, not a database, other."""
    low = str(getattr(exc, "orig", None) or exc).lower()
    if "readonly" in low or "read-only" in low or "read only" in low:
        return "is read-only (nothing can be saved there)"
    if "locked" in low or "busy" in low:
        return "is locked by another process; try again when it is done"
    if any(s in low for s in ("connection refused", "could not connect", "connection failed", "timeout expired",
                              "could not translate host", "name or service not known", "no route to host",
                              "server closed the connection", "network is unreachable")):
        return "cannot be reached (connection refused or server unreachable)"
    if "password authentication failed" in low or "authentication" in low:
        return "refused the login (authentication failed)"
    if "not a database" in low or "malformed" in low or "file is encrypted" in low:
        return "is corrupted or not a database"
    if "unable to open database file" in low:
        return "cannot be opened (missing, in a read-only folder, or no permission)"
    return "cannot be used"


def make_engine(url: str | None, *, default_file: str, timeout: float | None = None) -> Engine:
    """Engine for ``url`` (or ``sqlite:///<DKW_DATA_DIR>/<default_file>``), checked to open.

    SQLite waits up to ``timeout`` seconds (default ``DKW_DB_TIMEOUT`` or 30) for a lock held
    by another writer."""
    if timeout is None:
        timeout = db_timeout()
    url = url or default_url(default_file)
    shown = safe_url(url)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        try:
            Path(url[len("sqlite:///"):].split("?", 1)[0]).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder of database {shown}: {exc.strerror}") from exc
    try:
        engine = create_engine(url, connect_args={"timeout": timeout} if url.startswith("sqlite") else {})
    except Exception as exc:  # malformed URL, missing driver
        raise StoreError(f"cannot open database {shown}: {scrub(_first_line(exc), url)}") from exc
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # noqa: ANN001
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            if ":memory:" not in url:
                try:
                    cur.execute("PRAGMA journal_mode=WAL")
                except sqlite3.OperationalError as exc:  # a read-only file is still readable as it is
                    if "readonly" not in str(exc):
                        raise
            cur.close()

    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            if engine.dialect.name == "sqlite":
                conn.execute(text("PRAGMA schema_version"))
    except (OperationalError, DatabaseError) as exc:
        engine.dispose()
        raise StoreError(f"database {shown} {classify(exc)}: {scrub(_first_line(exc), url)}") from exc
    return engine


def _study_schema(engine: Engine) -> object:
    from .study.schema import upgrade

    return upgrade(engine)


def open_db(url: str | None = None, *, default_file: str = STUDY_FILE,
            schema: Callable[[Engine], object] | None = _study_schema, timeout: float | None = None) -> Engine:
    """The one way dkw opens its study or results database: ``url`` (any SQLAlchemy URL) or
    ``sqlite:///<DKW_DATA_DIR>/<default_file>``, then ``schema(engine)`` — by default the study
    schema brought to the newest revision (which writes nothing when it is already current, so
    a read-only copy still reads). Without ``url`` the study database is ``DKW_STUDY_DB`` if set.
    Failures raise :class:`StoreError` without the password."""
    if url is None and schema is _study_schema:
        from .config import study_db_url

        url = study_db_url()
    engine = make_engine(url, default_file=default_file, timeout=timeout)
    if schema is not None:
        try:
            schema(engine)
        except StoreError as exc:
            raise StoreError(scrub(str(exc), engine.url)) from exc
        except (OperationalError, DatabaseError) as exc:
            raise StoreError(f"database {safe_url(engine.url)} {classify(exc)}: "
                             f"{scrub(_first_line(exc), engine.url)}") from exc
    return engine


def describe_store_error(exc: Exception) -> str:
    """One line for a database failure met after opening (read-only, locked, corrupted, gone)."""
    line = _first_line(exc)
    kind = classify(exc)
    if kind.startswith("is locked"):
        return f"database is locked by another process ({line}); try again when it is done"
    if kind == "cannot be used":
        return f"database error: {line}"
    return f"database {kind}: {line}"
