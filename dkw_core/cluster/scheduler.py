"""Which Dask cluster runs the heavy steps, and how a task finds dkw's settings there.

``--scheduler`` (or ``DKW_DASK_SCHEDULER``) is either the address of a running scheduler
(``tcp://host:8786``, ``host:8786``) or ``local:N``, a ``LocalCluster`` of N worker processes
with one thread each (spaCy and the BLAS products are not thread-friendly enough to share a
process). Without it nothing here runs: the single-machine path is unchanged.

Workers read the corpus archives, the vectors and the cache through the same paths as the
client: :func:`worker_env` sends the client's ``DKW_*`` settings (paths made absolute) with every
task, and :func:`run` applies them on the worker before the task body runs. A remote cluster
therefore needs the same folders mounted at the same paths (a shared file system) and dkw
installed with its ``cluster`` extra.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .. import config
from ..errors import InputError

_LOCAL = re.compile(r"^local(?::(\d+))?$")
CONNECT_TIMEOUT = "15s"


@dataclass(frozen=True)
class Scheduler:
    """A parsed ``--scheduler``: ``local`` workers or a remote ``address``."""

    address: str | None = None
    local_workers: int = 0

    @property
    def is_local(self) -> bool:
        return self.address is None

    def __str__(self) -> str:
        return f"local:{self.local_workers}" if self.address is None else self.address


def parse_scheduler(value: str | None) -> Scheduler | None:
    """``None``/empty → None (single machine); ``local:N`` → N local workers; else an address."""
    if value is None or not str(value).strip():
        return None
    text = str(value).strip()
    m = _LOCAL.match(text)
    if m:
        n = int(m.group(1) or os.cpu_count() or 1)
        if n < 1:
            raise InputError(f"--scheduler local:N needs N >= 1 worker processes, got {text!r}")
        return Scheduler(local_workers=n)
    if text.startswith("local:"):
        raise InputError(f"--scheduler: expected local:N (N worker processes), got {text!r}")
    if "://" not in text:
        if ":" not in text:
            raise InputError(f"--scheduler: expected a scheduler address host:port or tcp://host:port, or "
                             f"local:N, got {text!r}")
        text = "tcp://" + text
    return Scheduler(address=text)


def scheduler_from(value: str | None) -> Scheduler | None:
    """The command line's value, else ``DKW_DASK_SCHEDULER``, parsed."""
    return parse_scheduler(value if value else config.dask_scheduler())


def _require_dask():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError("--scheduler needs Dask: pip install 'dask[distributed]' (or dkw[cluster])") from None


_CLIENT = None  # the client of the innermost open session


def active_client():
    """The Dask client of the open :func:`session`, or None on the single-machine path."""
    return _CLIENT


MESSAGE_LOG = 10
"""Messages each Dask comm of a session keeps for developers (``distributed.admin.low-level-log-length``,
1,000 by default; a smaller value set in Dask's configuration is kept). Each kept ``compute-task``
message holds its task's arguments, a chunk of 1,000 texts when ``keywords --texts`` streams: at
the default a stream kept every chunk in the client (whose process runs the scheduler of
``local:N``), about 0.6 MB more per 1,000 short texts."""


@contextlib.contextmanager
def session(scheduler: Scheduler | None) -> Iterator[object | None]:
    """Connect to (or start) the cluster; yields a ``distributed.Client``, or None when
    ``scheduler`` is None. While open, joblib's ``dask`` backend is the default, so
    scikit-learn and :func:`dkw_core.evaluation.search.parameter_search` run on the cluster."""
    if scheduler is None:
        yield None
        return
    _require_dask()
    import dask
    from distributed import Client, LocalCluster

    log_length = min(MESSAGE_LOG, dask.config.get("distributed.admin.low-level-log-length"))
    with dask.config.set({"distributed.admin.low-level-log-length": log_length}):
        cluster = None
        try:
            if scheduler.is_local:
                cluster = LocalCluster(n_workers=scheduler.local_workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
                client = Client(cluster)
            else:
                client = Client(scheduler.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            raise InputError(f"cannot reach the Dask scheduler at {scheduler} ({type(exc).__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else 'no answer'})") from None
        try:
            with using(client):
                yield client
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


@contextlib.contextmanager
def using(client) -> Iterator[object]:
    """Make ``client`` the active cluster for the block (what :func:`session` does once
    connected): :func:`active_client` returns it and joblib's ``dask`` backend is the default."""
    global _CLIENT
    import joblib

    previous = _CLIENT
    _CLIENT = client
    try:
        with joblib.parallel_config(backend="dask"):
            yield client
    finally:
        _CLIENT = previous


def worker_env() -> dict[str, str]:
    """The client's ``DKW_*`` settings for the workers, with the folders as absolute paths."""
    env = {k: v for k, v in os.environ.items() if k.startswith("DKW_") and k != "DKW_DASK_SCHEDULER"}
    env["DKW_ARCHIVES"] = str(config.archives_dir())
    env["DKW_DATA_DIR"] = str(config.data_dir())
    vectors = config.vectors_path()
    if vectors:
        env["DKW_VECTORS"] = os.path.abspath(os.path.expanduser(vectors))
    env.setdefault("DKW_N_PROCESS", "1")  # one spaCy process per worker: the cluster is the pool
    return env


def apply_env(env: dict[str, str]) -> None:
    """Make this process's ``DKW_*`` settings exactly ``env`` (the scheduler switch aside)."""
    for key in [k for k in os.environ if k.startswith("DKW_") and k not in env and k != "DKW_DASK_SCHEDULER"]:
        del os.environ[key]
    os.environ.update(env)


def run(env: dict[str, str], fn, *args, **kwargs):
    """Run ``fn`` on a worker with the client's settings (see :func:`worker_env`)."""
    apply_env(env)
    return fn(*args, **kwargs)
