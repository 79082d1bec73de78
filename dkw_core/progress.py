"""Progress bars for the command line: drawn only when they reach a person.

A bar is shown when stderr is a terminal (``DKW_PROGRESS=1`` forces it, ``DKW_PROGRESS=0`` hides
it); piped into a log or a CI job, long steps stay silent instead of writing thousands of
carriage-return lines. The library itself only calls ``progress(fraction, message)`` callbacks.
"""
from __future__ import annotations

import sys
from typing import Callable, TextIO

from . import config

__all__ = ["bars_enabled", "terminal_progress"]


def bars_enabled(stream: TextIO | None = None) -> bool:
    forced = config.progress_bars()
    if forced is not None:
        return forced
    stream = stream or sys.stderr
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def terminal_progress(desc: str, *, total: int = 1000) -> Callable[[float, str], None] | None:
    """A ``progress(fraction, message)`` callback drawing a tqdm bar on stderr, or ``None`` (no
    bar) when stderr is not a terminal."""
    if not bars_enabled():
        return None
    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, leave=False, file=sys.stderr, mininterval=0.5,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed} {postfix}")

    def update(fraction: float, message: str = "") -> None:
        bar.set_postfix_str(message[:70], refresh=False)
        bar.update(int(min(max(fraction, 0.0), 1.0) * total) - bar.n)
        if fraction >= 1.0:
            bar.close()

    return update
