"""Start the app: ``python -m dkw_app.serve`` (what ``make run`` does).

Listens on ``DKW_HOST`` (default ``127.0.0.1``: this machine only; ``0.0.0.0`` for every
interface) and ``PORT`` (default 8501). When no study admin password is configured
(``DKW_ADMIN_PASSWORD`` or ``admin_password`` in ``.streamlit/secrets.toml``), a one-time admin
token is generated, printed here and handed to the app, valid until the server stops.
``DKW_MODE=study`` serves a study: every page but the judge page asks for the admin secret.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    from dkw_core.config import admin_password, app_host, app_mode, app_port
    from dkw_core.errors import DkwError
    from dkw_core.study.access import generate_token

    host, port = app_host(), app_port()
    try:
        mode = app_mode()
    except DkwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    env = dict(os.environ)
    print(f"dkw: serving on http://{host}:{port} ({mode} mode)", flush=True)
    if not (admin_password() or _secrets_password()):
        token = env.setdefault("DKW_ADMIN_TOKEN", generate_token())
        print(f"dkw: no DKW_ADMIN_PASSWORD set; study admin token for this run:\n\n    {token}\n", flush=True)
    cmd = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.address", host,
           "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
           *(argv or [])]
    os.chdir(ROOT)
    sys.stdout.flush()
    return _exec(cmd, env)  # the server replaces this process: signals reach it directly


def _exec(cmd: list[str], env: dict[str, str]) -> int:
    os.execve(cmd[0], cmd, env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
