"""A throw-away PostgreSQL server from Debian's ``postgresql`` package, for tests and benchmarks
(benchmarks/bench_study_concurrency.py), without pytest.

``initdb`` + ``pg_ctl`` from ``/usr/lib/postgresql/<version>/bin`` (or ``$DKW_PG_BIN``) create
a cluster in a fresh temporary directory and start it on 127.0.0.1 on a free port (Unix socket
in the same directory; trust authentication, reachable only from this machine). PostgreSQL
refuses to run as root, so under root the cluster belongs to the ``postgres`` system user the
Debian package creates and every server command runs through ``runuser -u postgres``.

Failures raise :class:`PostgresUnavailable` (``missing=True`` when the binaries are absent);
the tests' wrapper (tests/support/postgres.py) turns them into a skip, or a failure in CI.
"""
from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

PACKAGE_HINT = "apt-get install -y postgresql"
MISSING = (f"PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin "
           f"or $DKW_PG_BIN; install Debian's package: {PACKAGE_HINT}")


class PostgresUnavailable(RuntimeError):
    """No server could be started; ``missing``: the binaries are not installed."""

    def __init__(self, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path | None:
    """Folder holding initdb and pg_ctl, newest version first; None when not installed."""
    candidates = [os.environ.get("DKW_PG_BIN", "")] + sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True)
    for c in candidates:
        if c and (Path(c) / "initdb").is_file() and (Path(c) / "pg_ctl").is_file():
            return Path(c)
    return None


def require_pg_bin() -> Path:
    found = pg_bin()
    if found is None:
        raise PostgresUnavailable(MISSING, missing=True)
    return found


def _as_server_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    if shutil.which("runuser") is None:
        raise PostgresUnavailable("running as root and `runuser` is missing: PostgreSQL cannot start as root")
    return ["runuser", "-u", "postgres", "--", *cmd]


@contextlib.contextmanager
def postgres_server():
    """Yield a base URL ``postgresql+psycopg://postgres@127.0.0.1:PORT`` of a fresh server."""
    bindir = require_pg_bin()
    root = Path(tempfile.mkdtemp(prefix="dkw-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, user="postgres", group="postgres")
    port = free_port()
    log = root / "server.log"
    try:
        subprocess.run(_as_server_user([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                                        "--auth=trust", "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True, text=True)
        opts = (f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off -c max_connections=200 "
                f"-c full_page_writes=off")
        subprocess.run(_as_server_user([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", opts,
                                        "-w", "-t", "60", "start"]),
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise PostgresUnavailable(f"could not start PostgreSQL: {exc.stderr or exc.stdout}") from None
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_server_user([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def new_database(base_url: str) -> str:
    """Create an empty database on the server; returns its SQLAlchemy URL."""
    from sqlalchemy import create_engine, text

    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{base_url}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return f"{base_url}/{name}"
