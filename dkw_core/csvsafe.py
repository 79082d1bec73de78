"""Every CSV file dkw hands out goes through here: cells a spreadsheet would run as a formula
are neutralised, as OWASP recommends for "CSV injection".

Rule: a *text* cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
leading ``'`` (the spreadsheet shows it as text; the value is otherwise unchanged). Cells that are
numbers (``int``, ``float``, numpy numbers, numeric DataFrame columns) are written as numbers, so a
score of ``-0.5`` stays ``-0.5``: a spreadsheet parses it as a number, never as a formula. A text
cell ``"-0.5"`` (e.g. a document id) is prefixed like any other text. A text cell's control
characters (ESC, BEL, NUL, a tab or line break inside a label, a bidi override) are written as
visible escapes by :func:`dkw_core.terminal.escape`, the command line's one escape, since a CSV is
read in a terminal as often as in a spreadsheet. JSON and JSONL outputs are never touched.

Reading back: :func:`unneutralise` strips exactly the ``'`` :func:`neutralise` added, and
:func:`read_csv` reads a CSV dkw wrote into pandas with every text cell so restored. A text that
itself starts with ``'`` and then a trigger (``'=x``) is written with one more ``'`` (``''=x``), so
that the round trip is exact for every value; control characters stay as their visible escapes.
"""
from __future__ import annotations

import csv
from collections.abc import Iterable
from numbers import Number
from typing import Any

import pandas as pd

from .terminal import escape

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def _guarded(text: str) -> bool:
    """Whether ``text``, once its leading ``'`` are set aside, starts with a formula trigger."""
    return text.lstrip("'").startswith(TRIGGERS)


def neutralise(value: Any) -> Any:
    """``value`` safe for a spreadsheet: text starting with a formula trigger (or with ``'``
    and then one, so that :func:`unneutralise` can tell) gets a leading ``'``."""
    if isinstance(value, str) and _guarded(value):
        return "'" + value
    return value


def unneutralise(value: Any) -> Any:
    """The inverse of :func:`neutralise`: exactly the ``'`` it added is stripped (a ``'`` that
    does not guard a trigger is the text's own and stays)."""
    if isinstance(value, str) and value.startswith("'") and _guarded(value):
        return value[1:]
    return value


def _text_cell(value: Any) -> Any:
    return neutralise(escape(value) if isinstance(value, str) else value)


def safe_row(row: Iterable[Any]) -> list[Any]:
    return [v if isinstance(v, Number) else _text_cell(v) for v in row]


class SafeWriter:
    """``csv.writer`` whose rows (and header) are neutralised."""

    def __init__(self, fh, **kwargs: Any) -> None:
        self._writer = csv.writer(fh, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow(safe_row(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(fh, **kwargs: Any) -> SafeWriter:
    return SafeWriter(fh, **kwargs)


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every non-numeric column (and the column names) neutralised."""
    out = frame.copy()
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]) and not pd.api.types.is_datetime64_any_dtype(out[column]):
            out[column] = out[column].map(_text_cell)
    out.columns = [_text_cell(str(c)) for c in out.columns]
    return out


def frame_to_csv(frame: pd.DataFrame, **kwargs: Any) -> str:
    """``frame.to_csv(index=False)`` with formulas neutralised."""
    return safe_frame(frame).to_csv(index=False, **kwargs)


def read_csv(source: Any, **kwargs: Any) -> pd.DataFrame:
    """A CSV dkw wrote (:func:`frame_to_csv`, :func:`writer`) read by ``pandas.read_csv(source,
    **kwargs)`` with the neutralising ``'`` stripped from every text cell and column name
    (:func:`unneutralise`): the values as they were before writing."""
    frame = pd.read_csv(source, **kwargs)
    frame.columns = [unneutralise(c) for c in frame.columns]
    for column in frame.columns:
        if pd.api.types.is_object_dtype(frame[column]) or pd.api.types.is_string_dtype(frame[column]):
            frame[column] = frame[column].map(unneutralise, na_action="ignore").astype(frame[column].dtype)
    return frame


def allow_long_fields() -> int:
    """Let the ``csv`` module read a text as long as ``DKW_MAX_TEXT_MB`` (its default limit is
    128 KB per field); returns the limit in characters. A longer field then raises ``csv.Error``
    ("field larger than field limit"), which callers report against ``DKW_MAX_TEXT_MB``."""
    from .config import max_text_mb

    limit = int(max_text_mb() * 1e6) + 1
    csv.field_size_limit(max(limit, 131072))
    return limit


def field_error(exc: csv.Error) -> str:
    """One phrase for a csv.Error; an over-long field is named against ``DKW_MAX_TEXT_MB``."""
    from .config import max_text_mb

    if "field larger than field limit" in str(exc):
        return f"a field is longer than DKW_MAX_TEXT_MB ({max_text_mb():g} MB)"
    return f"not a readable CSV file ({exc})"
