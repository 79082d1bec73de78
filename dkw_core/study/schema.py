"""Versioned study schema: Alembic migrations applied under a lock.

:func:`upgrade` brings a database to the newest revision of ``migrations/versions``;
:func:`open_study_db` opens the study database and calls it (the ground layer,
:mod:`dkw_core.db`, knows nothing of the study). It is called by ``python -m dkw_core study
init``, by every study command and at app start, so
several processes (app workers, CLI) may call it at the same moment on a fresh database. The
first one takes a lock and migrates; the others wait for the lock, find the schema current
and return. Locks: SQLite ``BEGIN IMMEDIATE`` (the database write lock, held until the
migration commits, so DDL and the version row land together); PostgreSQL a transaction-level
advisory lock (``pg_advisory_xact_lock``), its DDL being transactional too.

A database made by the first, unversioned release (tables created directly) is recognised
and stamped as revision ``0001`` before upgrading. A database whose revision this program
does not know (written by a newer dkw) is refused with :class:`StoreError`.
"""
from __future__ import annotations

import threading
import weakref
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from ..errors import StoreError

#: The study database's file in ``DKW_DATA_DIR`` when no URL is given.
STUDY_FILE = "study.sqlite"

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: ``pg_advisory_xact_lock`` key of the study schema (any constant shared by every process).
PG_LOCK_KEY = 0x646B7753  # "dkwS"
LEGACY_REVISION = "0001"

_ready: weakref.WeakSet[Engine] = weakref.WeakSet()
_local = threading.Lock()


def _config(connection: Connection | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    from alembic.script import ScriptDirectory

    current_head = ScriptDirectory.from_config(_config()).get_current_head()
    if current_head is None:
        raise RuntimeError(f"no Alembic revision in {MIGRATIONS}")
    return current_head


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {s.revision for s in ScriptDirectory.from_config(_config()).walk_revisions()}


def current(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def revision(engine: Engine) -> str | None:
    """The database's schema revision (None for an empty database)."""
    try:
        with engine.connect() as conn:
            return current(conn)
    except SQLAlchemyError as exc:
        raise StoreError(f"cannot read the study schema version: {exc}") from exc


def _check_known(rev: str | None) -> None:
    if rev is not None and rev not in known_revisions():
        raise StoreError(f"the study database has schema revision {rev!r}, unknown to this program "
                         f"(written by a newer dkw?); upgrade dkw")


def upgrade(engine: Engine) -> str:
    """Create or upgrade the study schema to the newest revision; returns it. Safe to call
    concurrently from many threads and processes (see the module docstring)."""
    if engine in _ready:
        return head()
    target = head()
    try:
        with engine.connect() as conn:  # fast path, no lock: already current
            rev = current(conn)
        _check_known(rev)
        if rev != target:
            with _local:  # threads of this process queue here; other processes at the DB lock
                _upgrade_locked(engine)
    except SQLAlchemyError as exc:
        raise StoreError(f"cannot create or upgrade the study schema: {exc}") from exc
    _ready.add(engine)
    return target


def _upgrade_locked(engine: Engine) -> None:
    from alembic import command

    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.begin()
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_LOCK_KEY})
        rev = current(conn)  # again, under the lock: another process may have migrated meanwhile
        _check_known(rev)
        cfg = _config(conn)
        if rev is None and inspect(conn).has_table("study"):
            command.stamp(cfg, LEGACY_REVISION)  # first release: tables without a version
        command.upgrade(cfg, "head")
        conn.commit()


def open_study_db(url: str | None = None, *, timeout: float | None = None) -> Engine:
    """The study database — ``url``, else ``DKW_STUDY_DB``, else
    ``sqlite:///<DKW_DATA_DIR>/study.sqlite`` — opened with :func:`dkw_core.db.open_db` and its
    schema brought to the newest revision (nothing written when it is current, so a read-only
    copy still reads). Failures raise :class:`StoreError` without any credential of the URL."""
    from ..config import study_db_url
    from ..db import open_db

    return open_db(url or study_db_url(), default_file=STUDY_FILE, schema=upgrade, timeout=timeout)
