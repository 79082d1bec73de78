"""A JSONL collection of new texts larger than memory, streamed in chunks, resumable after a kill.

``keywords --texts big.jsonl --scheduler ... --out keywords.jsonl`` reads the input a chunk of
texts at a time, has each chunk's keywords computed (by a *runner*: the cluster's workers,
:func:`~dkw_core.cluster.batch.text_chunks_on_cluster`) and appends them to the output in input
order. After each chunk is written and flushed to disk, a small state file beside the output
(``<out>.resume.json``) records where the next chunk starts in the input and how long the
output is. A run killed at any moment, started again with the same command, cuts the output
back to the last finished chunk and goes on from there: nothing already written is lost or
written twice, and the output stays valid JSONL or CSV. The state file is removed once the
whole input is done.

The input is read by :func:`~.batch.read_jsonl`, the one JSONL reader of ``keywords --texts``
with and without ``--scheduler``: bad lines do not stop a stream of a million texts; each (an
empty line, a line that is not UTF-8 or not JSON, a text above ``DKW_MAX_TEXT_MB``, an id
already seen, …) is named in one line on the warning channel (``warn``) with its line number,
and skipped (docs/bad-inputs.md). The ids already met, needed to name a duplicate, are kept in a
SQLite file beside the output (:class:`SeenIds`), not in memory: the client's memory stays flat
whatever the length of the stream.

Progress reports the texts done, the rate and the time left (from the bytes of input read).
"""
from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import InputError
from ..types import Progress, report
from .batch import read_jsonl

__all__ = ["stream_keywords", "state_path", "SeenIds", "CHUNK"]

CHUNK = 1000
"""Texts per chunk: the unit of work, of writing and of resuming."""


# -- resuming ------------------------------------------------------------------------------------
def state_path(out: str | Path) -> Path:
    """The state file of a resumable run writing ``out``."""
    out = Path(out)
    return out.with_name(out.name + ".resume.json")


@dataclass
class _State:
    input: str
    input_size: int
    input_mtime_ns: int
    settings: dict
    offset: int = 0        # input bytes consumed by the finished chunks
    line: int = 0          # input lines consumed by the finished chunks
    output_bytes: int = 0  # output length after the last finished chunk
    records: int = 0

    def write(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump(asdict(self), fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    @classmethod
    def read(cls, path: Path) -> _State | None:
        try:
            return cls(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None


class SeenIds(MutableMapping[str, int]):
    """The ids met so far (id -> line) in a SQLite file, not in memory: a dict of a million ids
    holds about 120 MB of the client's memory, growing with the stream; this keeps a few MB of
    page cache whatever its length. ``path`` is rewritten (``None``: a temporary file); the file
    is removed by :meth:`close`."""

    _COMMIT = 10_000

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            fd, name = tempfile.mkstemp(prefix="dkw-ids-", suffix=".sqlite")
            os.close(fd)
            path = Path(name)
        self.path = path
        path.unlink(missing_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute("PRAGMA journal_mode=OFF")  # rebuilt from the input on a restart: no journal
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("CREATE TABLE ids (id TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID")
        self._pending = 0

    def __getitem__(self, key: str) -> int:
        row = self._db.execute("SELECT line FROM ids WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return int(row[0])

    def __contains__(self, key: object) -> bool:
        return self._db.execute("SELECT 1 FROM ids WHERE id = ?", (key,)).fetchone() is not None

    def __setitem__(self, key: str, line: int) -> None:
        self._db.execute("INSERT OR REPLACE INTO ids VALUES (?, ?)", (key, line))
        self._pending += 1
        if self._pending >= self._COMMIT:
            self._db.commit()
            self._pending = 0

    def __delitem__(self, key: str) -> None:
        if self._db.execute("DELETE FROM ids WHERE id = ?", (key,)).rowcount == 0:
            raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (row[0] for row in self._db.execute("SELECT id FROM ids ORDER BY line"))

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM ids").fetchone()[0])

    def close(self) -> None:
        self._db.close()
        self.path.unlink(missing_ok=True)


def _eta(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# -- the run -------------------------------------------------------------------------------------
Runner = Callable[[Iterator[list[tuple[str, str]]]], Iterator[list[dict]]]
"""Chunks of ``(id, text)`` in, each chunk's records out, in the same order."""


def stream_keywords(path: str | Path, out: str | Path | None, runner: Runner, *, fmt: str, metrics: Sequence[str],
                    settings: dict, chunk: int = CHUNK, progress: Progress | None = None,
                    warn: Callable[[str], None] | None = None, stdout=None) -> dict:
    """Keywords of every usable text of the JSONL ``path`` written to ``out`` (``None``: to
    ``stdout``, not resumable), chunk by chunk, resuming an interrupted run of the same
    ``settings`` on the same input. Returns ``{"records", "skipped", "resumed_from", "seconds"}``."""
    from .batch import write_records

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    stat = p.stat()
    fresh = _State(str(p.resolve()), stat.st_size, stat.st_mtime_ns, dict(settings))
    state, resumed_from = fresh, 0
    spath = state_path(out) if out is not None else None
    if spath is not None and out is not None:
        old = _State.read(spath) if spath.is_file() else None
        if (old is not None and (old.input, old.input_size, old.input_mtime_ns, old.settings)
                == (fresh.input, fresh.input_size, fresh.input_mtime_ns, fresh.settings)
                and Path(out).is_file() and Path(out).stat().st_size >= old.output_bytes):
            state, resumed_from = old, old.records
    skipped = [0]

    def count_warn(message: str) -> None:
        skipped[0] += 1
        if warn is not None:
            warn(message)

    if out is None:
        fh = stdout
        close = False
    else:
        # resuming: the output cut back to the last finished chunk (a chunk half-written when the
        # run was killed is dropped and written again)
        fh = open(out, "r+" if state.offset else "w", encoding="utf-8", newline="")  # noqa: SIM115
        fh.truncate(state.output_bytes)
        fh.seek(state.output_bytes)
        close = True
    seen = SeenIds(None if out is None else Path(out).with_name(Path(out).name + ".ids.sqlite"))
    try:
        if state.offset:  # the ids of the finished chunks, so a duplicate after the restart is still one
            for item in read_jsonl(p, seen=seen, warn=lambda _named_in_the_first_run: None):
                if item.end >= state.offset:
                    break
        if fmt == "csv" and not state.offset:
            write_records([], fh, fmt, metrics)  # the header, once
        _flush(fh, close)
        if spath is not None:
            state.output_bytes = os.fstat(fh.fileno()).st_size
            state.write(spath)
        stream = read_jsonl(p, start=state.offset, line=state.line, seen=seen, warn=count_warn)
        marks: deque[tuple[int, int]] = deque()

        def chunks() -> Iterator[list[tuple[str, str]]]:
            while True:
                items = [it for _, it in zip(range(chunk), stream)]
                if not items:
                    return
                marks.append((items[-1].end, items[-1].line))
                yield [(it.id, it.text) for it in items]

        start_time = time.perf_counter()
        done = 0
        total = max(1, stat.st_size - state.offset)
        for records in runner(chunks()):
            end, line = marks.popleft()
            _write_chunk(records, fh, fmt, metrics)
            _flush(fh, close)
            done += len(records)
            state.offset, state.line, state.records = end, line, state.records + len(records)
            if spath is not None:
                state.output_bytes = os.fstat(fh.fileno()).st_size
                state.write(spath)
            elapsed = time.perf_counter() - start_time
            frac = (end - (stat.st_size - total)) / total
            left = elapsed / max(frac, 1e-9) * (1 - frac)
            rate = done / max(elapsed, 1e-9)
            report(progress, min(1.0, end / max(1, stat.st_size)),
                   f"{state.records:,} texts, {rate:,.{0 if rate >= 10 else 1}f} texts/s, about {_eta(left)} left")
        if spath is not None:
            spath.unlink(missing_ok=True)
        return {"records": state.records, "skipped": skipped[0], "resumed_from": resumed_from,
                "seconds": time.perf_counter() - start_time}
    finally:
        seen.close()
        if close:
            fh.close()


def _write_chunk(records: Iterable[dict], fh, fmt: str, metrics: Sequence[str]) -> None:
    from .batch import write_rows

    write_rows(records, fh, fmt, metrics)


def _flush(fh, durable: bool) -> None:
    fh.flush()
    if durable:
        os.fsync(fh.fileno())

