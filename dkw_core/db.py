"""One way to open a database: SQLAlchemy 2.0 engines with SQLite made safe for concurrent use.

:func:`open_db` opens a dkw database and hands it to its owner's schema step (the study opens
its own through :func:`dkw_core.study.schema.open_study_db`); :func:`make_engine` is the engine
alone. SQLite gets WAL journaling (when the file is writable), foreign keys and a busy timeout;
any other SQLAlchemy URL (PostgreSQL, ...) is used as given, unless it cannot be read
unambiguously (an unencoded ``@`` in its password), which is refused before connecting. A
failure raises :class:`StoreError` with one line that says which of read-only, locked,
unreachable server or not-a-database it is. A URL is only ever shown through :func:`safe_url`
and a driver's message through :func:`scrub`: no credential the URL carries (its password, any
query value but those of :data:`SHOWN_PARAMS`) reaches a message, a log or a page.
"""
from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlencode

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import DatabaseError, OperationalError

from .config import data_dir, db_timeout
from .errors import StoreError


def default_url(filename: str) -> str:
    return f"sqlite:///{data_dir() / filename}"


#: Query parameters whose values are shown: known to carry no secret (TLS mode, time-outs, session
#: kind, encoding; SQLite's open flags). Every other parameter's value is hidden as ``***``,
#: whatever its name: libpq's ``options`` (``-c password=…``), ``application_name`` or a name no
#: list foresees may hold a secret.
SHOWN_PARAMS = frozenset({"sslmode", "gssencmode", "connect_timeout", "target_session_attrs", "client_encoding",
                          "charset", "mode", "cache", "immutable", "uri", "check_same_thread", "timeout"})
#: ... and only when the value itself looks like a setting: a short word or number.
_HARMLESS_VALUE = re.compile(r"[A-Za-z0-9_.-]{1,32}")
_DIALECT = re.compile(r"([A-Za-z][A-Za-z0-9+._-]*)://")
HIDDEN = "***"


def _dialect_only(url: str | URL) -> str:
    m = _DIALECT.match(str(url)) if not isinstance(url, URL) else None
    name = url.drivername if isinstance(url, URL) else (m.group(1) if m else None)
    return f"{name}://…" if name else "(a database URL that cannot be read)"


def _parse_cleanly(url: str | URL) -> URL | None:
    """``url`` parsed, or None when SQLAlchemy cannot parse it or would misread it: an ``@``
    left unencoded in a password (``judge:P@ssw0rd@host``) makes SQLAlchemy cut the password at
    the first ``@`` and take the rest for the host, so more than one ``@`` before the query of a
    URL with a user or password is not clean."""
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy reads
        return None
    if parsed.username is None and parsed.password is None:
        return parsed  # no user info: an '@' is part of a file path or database name
    if "@" in (parsed.host or ""):
        return None
    if not isinstance(url, URL):
        rest = str(url).split("://", 1)[-1].split("?", 1)[0]
        if rest.count("@") > 1:
            return None
    return parsed


def is_ambiguous(url: str | URL) -> bool:
    """Whether ``url`` has user info that SQLAlchemy cannot read unambiguously (see :func:`safe_url`):
    more than one ``@`` before its query, unless it parses with no user info at all (a file path)."""
    try:
        make_url(url)
    except Exception:  # noqa: BLE001 - unparsable: ambiguous if an '@' in the password broke it
        raw = str(url)
        return "://" in raw and raw.split("://", 1)[1].split("?", 1)[0].count("@") > 1
    return _parse_cleanly(url) is None


def _shown(name: str, value: str) -> bool:
    return name.lower() in SHOWN_PARAMS and _HARMLESS_VALUE.fullmatch(value) is not None


def _query(parsed: URL) -> list[tuple[str, str]]:
    return [(k, v) for k, vs in parsed.query.items() for v in ((vs,) if isinstance(vs, str) else vs)]


def safe_url(url: str | URL) -> str:
    """``url`` for messages: the password hidden as ``***``, and the value of every query
    parameter too unless the parameter is known to be harmless (:data:`SHOWN_PARAMS`:
    ``sslmode=require`` stays, ``options=***``, ``password=***``). A URL that cannot be parsed
    cleanly (unparsable, or an unencoded ``@`` in its user info) shows only its dialect:
    ``postgresql+psycopg://…``."""
    parsed = _parse_cleanly(url)
    if parsed is None:
        return _dialect_only(url)
    query = [(k, v if _shown(k, v) else HIDDEN) for k, v in _query(parsed)]
    shown = parsed.set(query={}).render_as_string(hide_password=True)
    return f"{shown}?{urlencode(query, safe='*')}" if query else shown


def _pieces(value: str) -> set[str]:
    """A hidden query value and each setting inside it (``-c password=S3cr3t`` gives ``S3cr3t``
    too), since a driver may quote either."""
    return {value, *re.findall(r"=([^\s&=]+)", value), *(t for t in value.split() if not t.startswith("-"))}


def _secrets(url: str | URL) -> set[str]:
    """Every credential-bearing fragment of ``url``, as given and percent-decoded."""
    found: set[str] = set()
    try:
        parsed: URL | None = make_url(url)
    except Exception:  # noqa: BLE001
        parsed = None
    if parsed is not None:
        if parsed.password:
            found.add(str(parsed.password))
        for k, v in _query(parsed):
            if not _shown(k, v):
                found.update(_pieces(v))
        if "@" in (parsed.host or ""):  # a misread password's tail, e.g. 'Tail99@host'
            found.update(str(parsed.host).split("@")[:-1])
    if not isinstance(url, URL) and (parsed is None or parsed.username is not None or parsed.password is not None):
        raw = str(url)
        rest = raw.split("://", 1)[1] if "://" in raw else raw
        userinfo = rest.split("?", 1)[0].rpartition("@")[0]
        if userinfo:  # everything a user or password written without encoding may hold
            password = userinfo.split(":", 1)[1] if ":" in userinfo else ""
            found.add(password)
            found.update(re.split(r"[@:/]", password))
        elif _DIALECT.match(raw) is None:
            found.add(raw)  # not even a URL: all of it may be a secret
    if parsed is None and not isinstance(url, URL) and "?" in str(url):  # the query of a URL SQLAlchemy cannot read
        for k, v in parse_qsl(str(url).split("?", 1)[1], keep_blank_values=True):
            if not _shown(k, v):
                found.update(_pieces(v))
    found |= {unquote(f) for f in found} | {quote(f, safe="") for f in found} | {quote_plus(f) for f in found}
    return {f for f in found if len(f) >= 3}


def scrub(message: str, url: str | URL | None) -> str:
    """``message`` (a driver's error, say) with every credential-bearing fragment of ``url``
    replaced by ``***``: its password (also percent-encoded or decoded), every query value
    :func:`safe_url` hides and each setting inside one (``-c name=value``), and for a URL
    with an unencoded ``@`` every piece of what may be the password — so neither "failed to
    resolve host 'Tail99@…'" nor anything else shows part of it."""
    if url is None:
        return message
    for fragment in sorted(_secrets(url), key=len, reverse=True):
        message = message.replace(fragment, HIDDEN)
    return message


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


def _wal(cur, timeout: float) -> None:  # noqa: ANN001 - a DB-API cursor
    """Switch a SQLite file to WAL journaling. The switch needs the file to itself, and SQLite
    answers "locked" at once (its busy timeout does not wait here) while another connection is
    opening the same new file: retry until ``timeout``. A read-only file stays as it is."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if str(cur.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "readonly" in str(exc):
                return
            if not ("locked" in str(exc) or "busy" in str(exc)) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def make_engine(url: str | None, *, default_file: str, timeout: float | None = None) -> Engine:
    """Engine for ``url`` (or ``sqlite:///<DKW_DATA_DIR>/<default_file>``), checked to open.

    SQLite waits up to ``timeout`` seconds (default ``DKW_DB_TIMEOUT`` or 30) for a lock held
    by another writer."""
    if timeout is None:
        timeout = db_timeout()
    url = url or default_url(default_file)
    shown = safe_url(url)
    if is_ambiguous(url):  # SQLAlchemy would send part of the password to a wrong host name
        raise StoreError(f"cannot open database {shown}: the URL holds more than one '@' before the host "
                         f"(write an '@' inside the user name or password as %40)")
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
                _wal(cur, timeout)
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


def open_db(url: str | None = None, *, default_file: str,
            schema: Callable[[Engine], object] | None = None, timeout: float | None = None) -> Engine:
    """The one way dkw opens a database of its own: ``url`` (any SQLAlchemy URL) or
    ``sqlite:///<DKW_DATA_DIR>/<default_file>``, then ``schema(engine)`` if given — the owner's
    own schema step (the study's Alembic upgrade, the results tables), which this layer does not
    know. Failures raise :class:`StoreError` without the password."""
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
