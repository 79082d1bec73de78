"""``python -m dkw_app.serve`` (``make run``): localhost by default, DKW_HOST for every
interface, a printed one-time admin token when no password is configured."""
from __future__ import annotations

import pytest

from dkw_app import serve


@pytest.fixture
def launched(monkeypatch):
    calls = []
    monkeypatch.setattr(serve, "_run", lambda cmd, env: calls.append((cmd, env)) or 0)
    monkeypatch.setattr(serve.os, "chdir", lambda path: None)
    monkeypatch.setattr(serve, "_secrets_password", lambda: False)
    monkeypatch.setattr(serve, "_port_busy", lambda host, port: None)  # 8501 may be taken on a shared machine
    for name in ("DKW_HOST", "PORT", "DKW_MODE", "DKW_ADMIN_PASSWORD", "DKW_ADMIN_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return calls


def _flag(cmd, name):
    return cmd[cmd.index(name) + 1]


def test_listens_on_localhost_and_prints_a_token_handed_to_the_app(launched, capsys):
    assert serve.main([]) == 0
    cmd, env = launched[0]
    assert _flag(cmd, "--server.address") == "127.0.0.1" and _flag(cmd, "--server.port") == "8501"
    token = env["DKW_ADMIN_TOKEN"]
    assert len(token) >= 32 and token in capsys.readouterr().out


def test_dkw_host_and_a_configured_password(launched, monkeypatch, capsys):
    monkeypatch.setenv("DKW_HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "a-long-password-1")
    assert serve.main([]) == 0
    cmd, env = launched[0]
    assert _flag(cmd, "--server.address") == "0.0.0.0" and _flag(cmd, "--server.port") == "9000"
    assert "DKW_ADMIN_TOKEN" not in env and "token" not in capsys.readouterr().out


def test_unknown_mode_is_a_one_line_error(launched, monkeypatch, capsys):
    monkeypatch.setenv("DKW_MODE", "kiosk")
    assert serve.main([]) == 2 and not launched
    assert capsys.readouterr().err.strip() == "error: DKW_MODE must be one of explorer, study, got 'kiosk'"


# ------------------------------------------------------------------ the server log never holds a credential

@pytest.mark.browser
@pytest.mark.parametrize("url, shown", [
    ("postgresql+psycopg://judge@127.0.0.1:1/study?password=Qs-4b7e-Secret", "password=***"),
    ("postgresql+psycopg://judge:P@ssw0rd-Tail99@127.0.0.1:1/study", "postgresql+psycopg://…"),
    ("postgresql+psycopg://judge@127.0.0.1:1/study?options=-c%20dkw.secret%3DS3cr3tPW", "options=***"),
], ids=["query-password", "at-sign", "options"])
def test_the_server_log_shows_no_query_password_nor_part_of_one_with_an_at_sign(url, shown, tmp_path):
    from tests.support.browser import browser_page, wait_idle
    from tests.support.serve import served

    env = {"DKW_MODE": "study", "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": "s3cret-s3cret"}
    with served(tmp_path, env) as base, browser_page() as page:
        page.goto(base + "/")  # a judge's first page: the study database is opened and fails
        wait_idle(page)
        assert "not available" in page.inner_text("body")
    log = "\n".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("serve-*.log"))
    assert "study database unavailable" in log and shown in log, log
    assert not any(piece in log for piece in ("Qs-4b7e-Secret", "ssw0rd", "Tail99", "S3cr3tPW")), log


@pytest.mark.parametrize(("mode", "toolbar"), [("explorer", "viewer"), ("study", "minimal")])
def test_no_deploy_button_in_any_mode(launched, monkeypatch, mode, toolbar):
    monkeypatch.setenv("DKW_MODE", mode)
    assert serve.main([]) == 0
    assert _flag(launched[0][0], "--client.toolbarMode") == toolbar  # both hide Deploy and the developer menu


@pytest.mark.parametrize(("text_mb", "upload_mb", "cap"), [(None, None, "50"), ("80", None, "80"), ("2", "7.5", "8")])
def test_server_upload_cap_is_the_largest_dkw_limit(launched, monkeypatch, text_mb, upload_mb, cap):
    for name, value in (("DKW_MAX_TEXT_MB", text_mb), ("DKW_MAX_UPLOAD_MB", upload_mb)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert serve.main([]) == 0
    assert _flag(launched[0][0], "--server.maxUploadSize") == cap  # not Streamlit's 200


def test_malformed_limit_is_a_one_line_error(launched, monkeypatch, capsys):
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "lots")
    assert serve.main([]) == 2 and not launched
    assert capsys.readouterr().err.strip().startswith("error: DKW_MAX_TEXT_MB must be a positive number")


def test_a_busy_port_is_one_line_before_any_token_or_url(monkeypatch, capsys):
    """Another program listens on PORT: one ``error:`` line naming the port, exit 2, and neither
    a token nor a URL of a server that would never start."""
    import socket

    started = []
    monkeypatch.setattr(serve, "_run", lambda cmd, env: started.append(cmd) or 0)
    monkeypatch.setattr(serve, "_secrets_password", lambda: False)
    monkeypatch.delenv("DKW_ADMIN_PASSWORD", raising=False)
    monkeypatch.delenv("DKW_ADMIN_TOKEN", raising=False)
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        monkeypatch.setenv("DKW_HOST", "127.0.0.1")
        monkeypatch.setenv("PORT", str(port))
        assert serve.main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: port {port} on 127.0.0.1 is in use by another program; choose another with PORT=…\n"
    assert started == []
    assert serve._port_busy("127.0.0.1", port) is None  # free again once the other program closed it


def test_make_run_watches_no_file(launched):
    """Watching .venv and data/ overflowed inotify's queue (thousands of console lines): a served
    app is not edited in place, so the server watches nothing."""
    assert serve.main([]) == 0
    cmd, _ = launched[0]
    assert _flag(cmd, "--server.fileWatcherType") == "none"
