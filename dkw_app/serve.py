"""Start the app: ``python -m dkw_app.serve`` (what ``make run`` does).

Listens on ``DKW_HOST`` (default ``127.0.0.1``: this machine only; ``0.0.0.0`` for every
interface) and ``PORT`` (default 8501). When no study admin password is configured
(``DKW_ADMIN_PASSWORD`` or ``admin_password`` in ``.streamlit/secrets.toml``), a one-time admin
token is generated, printed here and handed to the app, valid until the server stops.
``DKW_MODE=study`` serves a study: every page but the judge page asks for the admin secret,
and Streamlit's toolbar menu is hidden. In every mode the toolbar has no Deploy button or
developer options (``client.toolbarMode``), and the server accepts uploads up to the largest
of dkw's limits (``server.maxUploadSize``: ``DKW_MAX_UPLOAD_MB``, ``DKW_MAX_TEXT_MB``); each
file uploader states and enforces its own limit.

Quiet console: files are not watched (``server.fileWatcherType none``: a served app is not
edited in place, and watching ``.venv`` and ``data/`` overflowed inotify's queue), and a port
that is already in use is one ``error:`` line before anything else is printed — no token, no
URL of a server that never starts. :mod:`dkw_app.streamlit_main` silences the two messages
that are not faults: a background job's missing ScriptRunContext and a closed tab's websocket.

Stopping: this launcher runs the Streamlit server as its child in a session of its own and
turns SIGTERM, SIGINT (Ctrl-C) and SIGHUP into one SIGTERM for it. The server stops, its
background jobs (:mod:`dkw_app.jobs`) unwind at their next progress call, and it exits; if it
is still there after :data:`GRACE` seconds, it and everything it started are killed. Any
process it left behind is killed too, so that a process manager's stop leaves nothing running.
"""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Seconds the server gets to stop after a signal before it is killed.
GRACE = 6.0


def _secrets_password() -> bool:
    path = ROOT / ".streamlit" / "secrets.toml"
    if not path.is_file():
        return False
    import tomllib

    try:
        return bool(tomllib.loads(path.read_text(encoding="utf-8")).get("admin_password"))
    except (OSError, tomllib.TOMLDecodeError):
        return False


def main(argv: list[str] | None = None) -> int:
    from dkw_core.config import admin_password, app_host, app_mode, app_port, max_text_mb, max_upload_mb
    from dkw_core.errors import DkwError
    from dkw_core.study.access import generate_token

    host, port = app_host(), app_port()
    try:
        mode = app_mode()
        upload_cap = math.ceil(max(max_text_mb(), max_upload_mb()))
    except DkwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    busy = _port_busy(host, port)
    if busy:
        print(f"error: {busy}", file=sys.stderr)
        return 2
    env = dict(os.environ)
    print(f"dkw: serving on http://{host}:{port} ({mode} mode)", flush=True)
    if not (admin_password() or _secrets_password()):
        token = env.setdefault("DKW_ADMIN_TOKEN", generate_token())
        print(f"dkw: no DKW_ADMIN_PASSWORD set; study admin token for this run:\n\n    {token}\n", flush=True)
    cmd = [sys.executable, "-m", "dkw_app.streamlit_main", "run", str(ROOT / "app.py"), "--server.address", host,
           "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.maxUploadSize", str(upload_cap), "--server.fileWatcherType", "none",
           "--client.toolbarMode", "minimal" if mode == "study" else "viewer", *(argv or [])]
    os.chdir(ROOT)
    sys.stdout.flush()
    return _run(cmd, env)


def _port_busy(host: str, port: int) -> str | None:
    """One line when ``host:port`` cannot be listened on (another server has it), else ``None``."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"cannot listen on {host}:{port}: {exc.strerror or exc} (DKW_HOST)"
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: a closed port's wait is no use
        try:
            probe.bind(address)
        except OSError:
            return f"port {port} on {host} is in use by another program; choose another with PORT=…"
    return None


def _run(cmd: list[str], env: dict[str, str]) -> int:
    """Run the server until it exits or a stop signal arrives (see the module's docstring)."""
    import psutil

    child = subprocess.Popen(cmd, env=env, start_new_session=True)
    stop_at: list[float] = []

    def request_stop(signum: int, _frame: object) -> None:
        if not stop_at:
            stop_at.append(time.monotonic() + GRACE)
            print(f"dkw: stopping (signal {signal.Signals(signum).name})", flush=True)
            _signal(child, signal.SIGTERM)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, request_stop)
    family: dict[int, psutil.Process] = {}
    while True:
        try:
            code = child.wait(timeout=0.2)
            break
        except subprocess.TimeoutExpired:
            pass
        family.update(_descendants(child.pid))
        if len(stop_at) == 1 and time.monotonic() > stop_at[0]:
            stop_at.append(time.monotonic())  # killed once, said once: a dying server may take a while to go
            print(f"dkw: the server did not stop within {GRACE:g} s; killing it", flush=True)
            family.update(_descendants(child.pid))
            _signal(child, signal.SIGKILL)
    for proc in family.values():  # e.g. worker processes orphaned by the server's exit
        try:
            if proc.is_running():
                proc.kill()
        except psutil.Error:
            pass
    return 0 if stop_at else code


def _descendants(pid: int) -> dict[int, object]:
    import psutil

    try:
        return {p.pid: p for p in psutil.Process(pid).children(recursive=True)}
    except psutil.Error:
        return {}


def _signal(child: subprocess.Popen, sig: int) -> None:
    try:
        child.send_signal(sig)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
