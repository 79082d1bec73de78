"""Opening databases: WAL + foreign keys on SQLite, clear errors for corrupted or locked files."""
import json
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


# ---------------------------------------------------------------- faults: no password shown, the right cause named
import logging  # noqa: E402
from pathlib import Path  # noqa: E402

from dkw_core.cli import main  # noqa: E402
from dkw_core.db import safe_url, scrub  # noqa: E402
from dkw_core.study.schema import open_study_db  # noqa: E402
from tests.support.readonly import read_only  # noqa: E402

PASSWORD = "Pw-9f3c1e-Zq"
UNREACHABLE = f"postgresql+psycopg://judge:{PASSWORD}@127.0.0.1:1/study"
NO_DRIVER = f"postgresql+nosuchdriver://judge:{PASSWORD}@db.example/study"
ROOT = Path(__file__).resolve().parents[1]
STUDY_COMMANDS = [["init"], ["list"], ["create", "--dataset", "demo-tiny"], ["invite", "--study", "1", "--name", "a"],
                  ["status", "--study", "1"], ["judges", "--study", "1"], ["revoke", "--study", "1", "--judge", "1"],
                  ["reissue", "--study", "1", "--judge", "1"], ["log", "--study", "1"], ["simulate", "--study", "1"],
                  ["analyze", "--study", "1"], ["export", "--study", "1"]]


def test_safe_url_hides_the_password():
    assert PASSWORD not in safe_url(UNREACHABLE) and "judge:***@127.0.0.1" in safe_url(UNREACHABLE)
    assert PASSWORD not in safe_url("::not a url " + PASSWORD)


def _failing_study_commands(url, how, capsys, caplog, monkeypatch, tmp_path):
    """Run every study command against ``url`` (given as ``--db`` or as ``DKW_STUDY_DB``), each
    failing with exit 2; yield (command, stdout, stderr) for the caller's checks."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    caplog.set_level(logging.DEBUG)
    for command in STUDY_COMMANDS:
        argv = ["study", *command]
        if how == "env":
            monkeypatch.setenv("DKW_STUDY_DB", url)
        else:
            argv[2:2] = ["--db", url]
        assert main(argv) == 2, command
        out, err = capsys.readouterr()
        yield command, out, err


@pytest.mark.parametrize("how", ["--db", "env"])
@pytest.mark.parametrize("url", [UNREACHABLE, NO_DRIVER], ids=["unreachable", "no-driver"])
def test_no_study_command_prints_the_password(url, how, capsys, caplog, monkeypatch, tmp_path):
    for command, out, err in _failing_study_commands(url, how, capsys, caplog, monkeypatch, tmp_path):
        assert PASSWORD not in out + err + caplog.text, command
        assert err.startswith("error: ") and err.count("\n") == 1, (command, err)
        assert "judge:***@" in err, err
        if url == UNREACHABLE:
            assert "cannot be reached" in err and "corrupted" not in err, err
        else:
            assert "cannot open database" in err, err


#: The password as a query parameter, and one with an unencoded '@' (SQLAlchemy would cut it at
#: the first '@' and take 'Tail99@127.0.0.1' for the host).
QUERY_SECRET = "Qs-4b7e-Secret"
IN_QUERY = f"postgresql+psycopg://judge@127.0.0.1:1/study?sslmode=disable&password={QUERY_SECRET}"
AT_PASSWORD = "P@ssw0rd-Tail99"
AT_SIGN = f"postgresql+psycopg://judge:{AT_PASSWORD}@127.0.0.1:1/study"
#: An '@' and a ':' in the password: SQLAlchemy cannot parse it at all (port 'w0rd-Tail99@…').
AT_COLON = "postgresql+psycopg://judge:P@ss:w0rd-Tail99@127.0.0.1:1/study"
PIECES = (QUERY_SECRET, "ssw0rd", "Tail99", "w0rd")
#: A secret in libpq's ``options``, a parameter whose name says nothing of it.
OPTIONS_IN_QUERY = "postgresql+psycopg://u@127.0.0.1:1/db?options=-c%20password%3DS3cr3tPW"


def test_safe_url_hides_credential_query_parameters_and_shows_only_the_dialect_of_an_ambiguous_url():
    assert safe_url(IN_QUERY) == "postgresql+psycopg://judge@127.0.0.1:1/study?sslmode=disable&password=***"
    assert safe_url(IN_QUERY + "&sslkey=k.pem&api_token=t0k3n").endswith("&sslkey=***&api_token=***")
    assert safe_url(AT_SIGN) == "postgresql+psycopg://…"
    assert safe_url("not-a-url-but-a-secret") == "(a database URL that cannot be read)"
    assert scrub("failed to resolve host 'ssw0rd-Tail99@127.0.0.1'", AT_SIGN) == "failed to resolve host '***@127.0.0.1'"


@pytest.mark.parametrize("how", ["--db", "env"])
@pytest.mark.parametrize("url", [IN_QUERY, AT_SIGN, AT_COLON], ids=["query-password", "at-sign", "at-colon"])
def test_no_study_command_prints_a_query_password_or_part_of_one_with_an_at_sign(url, how, capsys, caplog,
                                                                                 monkeypatch, tmp_path):
    for command, out, err in _failing_study_commands(url, how, capsys, caplog, monkeypatch, tmp_path):
        assert not any(p in out + err + caplog.text for p in PIECES), (command, err)
        assert err.startswith("error: ") and err.count("\n") == 1, (command, err)
        if url == IN_QUERY:
            assert "password=***" in err and "cannot be reached" in err, err
        else:
            assert "postgresql+psycopg://…" in err and "more than one '@'" in err, err


@pytest.mark.parametrize("url", [IN_QUERY, AT_SIGN, OPTIONS_IN_QUERY], ids=["query-password", "at-sign", "options"])
def test_study_results_error_box_shows_no_query_password_nor_part_of_one_with_an_at_sign(url, tmp_path,
                                                                                        monkeypatch, caplog):
    from streamlit.testing.v1 import AppTest

    from tests.support.appcache import clear_app_caches
    from tests.support.markdown import shown

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_DB", url)
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "s3cret-s3cret")
    caplog.set_level(logging.DEBUG)
    clear_app_caches()
    at = AppTest.from_file(str(ROOT / "pages/5_Study_results.py"), default_timeout=60).run()
    at.text_input[0].input("s3cret-s3cret").run()
    assert not at.exception and len(at.error) == 1, [e.value for e in at.error]
    box = shown(at.error[0].value)  # as it reads: the error is untrusted text, shown through md()
    assert not any(p in _page_text(at) + caplog.text for p in (*PIECES, "S3cr3tPW")), box
    if url == OPTIONS_IN_QUERY:
        assert "options=***" in box and "cannot be reached" in box, box
    elif url == IN_QUERY:
        assert "password=***" in box and "cannot be reached" in box, box
    else:
        assert "postgresql+psycopg://…" in box and "more than one '@'" in box, box


def test_each_database_fault_is_named_for_what_it_is(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database " * 500)
    with pytest.raises(StoreError, match="corrupted or not a database") as info:
        open_study_db(f"sqlite:///{bad}")
    assert "locked" not in str(info.value)
    with pytest.raises(StoreError, match="cannot be reached") as info:
        open_study_db(UNREACHABLE)
    assert "corrupted" not in str(info.value) and PASSWORD not in str(info.value)
    good = tmp_path / "ro" / "study.sqlite"
    open_study_db(f"sqlite:///{good}").dispose()
    _not_wal(good)
    with read_only(good, good.parent):
        engine = open_study_db(f"sqlite:///{good}")
        with pytest.raises(Exception) as write:
            with engine.begin() as conn:
                conn.execute(text("CREATE TABLE t (x INTEGER)"))
        assert "read-only" in describe_store_error(write.value)
        engine.dispose()


def _not_wal(path: Path) -> None:
    """A study database copied as a plain rollback-journal file (e.g. by ``sqlite3 .backup``)."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()


def test_read_only_study_database_still_lists_and_exports(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    folder = tmp_path / "ro"
    folder.mkdir()
    url = f"sqlite:///{tmp_path / 'live.sqlite'}"
    assert main(["study", "create", "--db", url, "--dataset", "demo-tiny", "--per-category", "1",
                 "--categories-per-batch", "2", "--seed", "1", "--keywords", "2"]) == 0
    capsys.readouterr()
    db = folder / "study.sqlite"  # a copy handed out read-only
    with sqlite3.connect(tmp_path / "live.sqlite") as live, sqlite3.connect(db) as copy:
        live.backup(copy)
    _not_wal(db)
    url = f"sqlite:///{db}"
    with read_only(db, folder):
        assert main(["study", "list", "--db", url]) == 0
        assert "demo-tiny" in capsys.readouterr().out
        assert main(["study", "export", "--db", url, "--study", "1", "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["study"]["corpus"] == "demo-tiny"
        assert main(["study", "invite", "--db", url, "--study", "1", "--name", "x"]) == 2
        err = capsys.readouterr().err
        assert "read-only" in err and err.count("\n") == 1


def _page_text(at) -> str:
    """Everything an AppTest page holds (every element's protobuf, so hidden values too), also as
    it reads: markdown escapes and the invisible characters of ``dkw_app.untrusted.md`` removed."""
    seen: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            seen.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    seen += [str(e.value) for e in at.exception]
    raw = "\n".join(seen)
    return raw + "\n" + raw.replace("\\\\", "").translate(dict.fromkeys((0x2060, 0x2068, 0x2069)))


@pytest.mark.parametrize("mode", ["explorer", "study"])
@pytest.mark.parametrize("url", [UNREACHABLE, NO_DRIVER], ids=["unreachable", "no-driver"])
def test_no_study_page_shows_the_password(url, mode, tmp_path, monkeypatch, caplog, capsys):
    from streamlit.testing.v1 import AppTest

    from tests.support.appcache import clear_app_caches

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_DB", url)
    monkeypatch.setenv("DKW_MODE", mode)
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "s3cret-s3cret")
    caplog.set_level(logging.DEBUG)
    clear_app_caches()
    shown = []
    for page, query in (("pages/4_Judge.py", {}), ("pages/4_Judge.py", {"code": "abc-def"}),
                        ("pages/3_Study_admin.py", {}), ("pages/5_Study_results.py", {})):
        at = AppTest.from_file(str(ROOT / page), default_timeout=60)
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        if page != "pages/4_Judge.py" and at.text_input:
            at.text_input[0].input("s3cret-s3cret").run()
        text_all = _page_text(at)
        assert PASSWORD not in text_all, page
        if page == "pages/4_Judge.py":  # a judge learns nothing of the server or its user
            assert "judge:" not in text_all and "not available" in text_all, text_all
        assert not at.exception, (page, [e.value for e in at.exception])
        shown.append(text_all)
    assert any("judge:***@" in t and "cannot" in t for t in shown)
    out, err = capsys.readouterr()
    assert PASSWORD not in out + err + caplog.text


# ------------------------------------------------------------ a secret in a query parameter of any name
#: libpq's ``options`` carries server settings, and a setting may be a secret: no query value is
#: shown unless its parameter is known to be harmless (``sslmode``, ``connect_timeout``, ...).
OPTION_SECRET = "S3cr3tPW"
OPTION_URLS = ["postgresql+psycopg://u@127.0.0.1:1/db?options=-c%20password%3DS3cr3tPW",
               "postgresql+psycopg://u@127.0.0.1:1/db?options=-c+dkw.secret%3DS3cr3tPW"]
ALL_STUDY_COMMANDS = [["init"], ["list"], ["methods"], *STUDY_COMMANDS[1:]]


def test_safe_url_shows_no_query_value_but_those_of_known_harmless_parameters():
    for url in OPTION_URLS:
        assert safe_url(url) == "postgresql+psycopg://u@127.0.0.1:1/db?options=***"
    shown = safe_url(OPTION_URLS[0] + "&sslmode=require&connect_timeout=5&application_name=S3cr3tPW&x=1&x=2")
    assert shown == ("postgresql+psycopg://u@127.0.0.1:1/db?options=***&sslmode=require&connect_timeout=5"
                     "&application_name=***&x=***&x=***"), shown
    assert safe_url("postgresql+psycopg://u@h/db?sslmode=S3cr3tPW%20x") == "postgresql+psycopg://u@h/db?sslmode=***"
    for url in OPTION_URLS:  # a driver's message quoting the option, as given or decoded, loses it
        message = f'invalid connection option "-c dkw.secret=S3cr3tPW" in {url} (-c+password%3DS3cr3tPW)'
        assert OPTION_SECRET not in scrub(message, url), scrub(message, url)


@pytest.mark.parametrize("how", ["--db", "env"])
@pytest.mark.parametrize("url", OPTION_URLS, ids=["options-password", "options-setting"])
def test_no_failing_study_command_prints_a_secret_of_any_query_parameter(url, how, capsys, caplog, monkeypatch,
                                                                        tmp_path):
    for command, out, err in _failing_study_commands(url, how, capsys, caplog, monkeypatch, tmp_path):
        assert OPTION_SECRET not in out + err + caplog.text, (command, err)
        assert "options=***" in err and "cannot be reached" in err, err


def test_no_study_command_prints_a_secret_of_any_query_parameter_on_a_real_server(capsys, caplog, monkeypatch,
                                                                                  tmp_path):
    """On PostgreSQL: ``-c dkw.secret=…`` is a setting the server accepts, so every command succeeds
    (``study init`` echoes the URL); ``-c password=…`` is one it refuses, so every command fails."""
    from tests.support.postgres import new_database, postgres_server

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    caplog.set_level(logging.DEBUG)
    with postgres_server() as base:
        for option, succeeds in (("-c+dkw.secret%3DS3cr3tPW", True), ("-c%20password%3DS3cr3tPW", False)):
            url = f"{new_database(base)}?options={option}"
            for how in ("--db", "env"):
                for command in ALL_STUDY_COMMANDS:
                    argv = ["study", *command]
                    if command == ["create", "--dataset", "demo-tiny"]:
                        argv += ["--per-category", "1", "--categories-per-batch", "2", "--seed", "1", "--keywords", "2"]
                    if how == "env":
                        monkeypatch.setenv("DKW_STUDY_DB", url)
                    else:
                        monkeypatch.delenv("DKW_STUDY_DB", raising=False)
                        argv[2:2] = ["--db", url]
                    code = main(argv)
                    out, err = capsys.readouterr()
                    assert OPTION_SECRET not in out + err + caplog.text, (command, out, err)
                    if command == ["methods"]:
                        continue
                    assert (code == 0) == succeeds or command[0] in ("revoke", "reissue"), (command, code, err)
                    if command == ["init"] and succeeds:
                        assert out.strip().endswith("?options=***)"), out


@pytest.mark.parametrize("url", OPTION_URLS, ids=["options-password", "options-setting"])
def test_the_results_store_shows_no_secret_of_any_query_parameter(url, capsys, caplog, monkeypatch, tmp_path):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    caplog.set_level(logging.DEBUG)
    assert main(["report", "--db", url]) == 2
    out, err = capsys.readouterr()
    assert OPTION_SECRET not in out + err + caplog.text, err
    assert "options=***" in err and err.count("\n") == 1, err
