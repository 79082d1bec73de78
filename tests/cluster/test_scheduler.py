"""dkw_core/cluster/scheduler.py: one switch, one clear line when it is wrong."""
from __future__ import annotations

import socket

import pytest

from dkw_core.cluster import parse_scheduler, scheduler_from, session
from dkw_core.cluster import scheduler as scheduler_module
from dkw_core.errors import InputError


def test_parse_scheduler():
    assert parse_scheduler(None) is None and parse_scheduler("  ") is None
    assert parse_scheduler("local:3").local_workers == 3 and str(parse_scheduler("local:3")) == "local:3"
    assert parse_scheduler("local").local_workers >= 1
    assert parse_scheduler("10.0.0.5:8786").address == "tcp://10.0.0.5:8786"
    assert parse_scheduler("tls://sched:8786").address == "tls://sched:8786"


@pytest.mark.parametrize("value,message", [
    ("local:0", "N >= 1"), ("local:x", "expected local:N"), ("localhost", "scheduler address"),
])
def test_bad_scheduler_values(value, message):
    with pytest.raises(InputError, match=message):
        parse_scheduler(value)


def test_environment_switch(monkeypatch):
    monkeypatch.setenv("DKW_DASK_SCHEDULER", "local:2")
    assert scheduler_from(None).local_workers == 2
    assert scheduler_from("local:1").local_workers == 1  # the command line wins
    monkeypatch.delenv("DKW_DASK_SCHEDULER")
    assert scheduler_from(None) is None


def test_no_scheduler_is_the_single_machine_path():
    from dkw_core.cluster import active_client

    with session(None) as client:
        assert client is None and active_client() is None


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr(scheduler_module, "CONNECT_TIMEOUT", "2s")
    with pytest.raises(InputError, match="cannot reach the Dask scheduler at tcp://127.0.0.1") as err:
        with session(parse_scheduler(f"127.0.0.1:{_closed_port()}")):
            pass
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("argv", [
    ["prepare", "--dataset", "20ng", "--scheduler", "local:0"],
    ["search", "--dataset", "20ng", "--scheduler", "nowhere"],
    ["keywords", "--doc", "20ng/test/x/1", "--scheduler", "local:2"],
])
def test_cli_rejects_bad_scheduler_use_in_one_line(argv, capsys):
    from dkw_core.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err and "scheduler" in err


def test_cli_unreachable_scheduler(monkeypatch, capsys):
    from dkw_core.cli import main

    monkeypatch.setattr(scheduler_module, "CONNECT_TIMEOUT", "2s")
    assert main(["prepare", "--dataset", "20ng", "--scheduler", f"127.0.0.1:{_closed_port()}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot reach the Dask scheduler") and "\n" not in err


def _marked(n: int) -> list[tuple[str, str]]:
    return [("dkw-kept-chunk", str(n))] * 50


def test_a_session_keeps_no_chunk_of_texts_in_the_comms_message_logs():
    """Dask's comms keep their last messages for developers (1,000 by default) and a compute-task
    message holds its task's arguments: a stream of a million texts kept every chunk in the client,
    whose process runs the scheduler of local:N. A session keeps at most MESSAGE_LOG messages."""
    import gc

    from dkw_core.cluster.scheduler import MESSAGE_LOG

    with session(parse_scheduler("local:1")) as client:
        for n in range(4 * MESSAGE_LOG):
            assert client.submit(len, _marked(n), pure=False).result() == 50
        gc.collect()
        kept = [o for o in gc.get_objects() if isinstance(o, list) and len(o) == 50
                and isinstance(o[0], tuple) and o[0][:1] == ("dkw-kept-chunk",)]
    assert len(kept) <= MESSAGE_LOG  # the last messages only, not all 40 chunks
