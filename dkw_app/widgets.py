"""Shared Streamlit widgets: plain-text documents, CSV downloads, progress, errors."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from dkw_core.errors import DkwError

from . import backend

ROOT = Path(__file__).resolve().parent.parent
PAGES = (
    ("app.py", "Home", "🏠"),
    ("pages/1_Documents.py", "Documents: keywords per metric", "📄"),
    ("pages/2_Metrics.py", "Metrics: F1 charts", "📊"),
    ("pages/3_Study_admin.py", "Study admin", "🧑‍🔬"),
    ("pages/4_Judge.py", "Judge keywords", "⚖️"),
    ("pages/5_Study_results.py", "Study results", "📈"),
)


def show_document(text: str, *, height: int | None = 480) -> None:
    """Untrusted document text, shown verbatim: never markdown, never HTML."""
    st.code(text, language=None, wrap_lines=True, height=height)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def escape_markdown(text: str) -> str:
    """Escape text for labels that Streamlit renders as markdown (expanders, captions)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def csv_download(frame: pd.DataFrame, *, label: str, file_name: str, key: str) -> None:
    """A download button handing out ``frame`` as CSV (the data behind a chart or table)."""
    st.download_button(label, data=frame.to_csv(index=False).encode("utf-8"), file_name=file_name,
                       mime="text/csv", key=key, disabled=frame.empty)


def progress_callback(bar: Any) -> backend.Progress:
    """Adapt an ``st.progress`` bar to the library's ``progress(fraction, message)``."""
    def update(fraction: float, message: str = "") -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=str(message))
    return update


def show_error(exc: BaseException) -> None:
    """A user-facing error: the ``DkwError`` message, never a traceback."""
    st.error(str(exc))


def guarded(fn: Callable[[], Any], *, default: Any = None) -> Any:
    """Run ``fn``; show a ``DkwError`` as a message and return ``default`` instead."""
    try:
        return fn()
    except DkwError as exc:
        show_error(exc)
        return default


def select(label: str, options: Sequence[Any], *, key: str, default: Any = None, **kwargs: Any) -> Any:
    """A selectbox whose remembered value is reset when it is no longer an option."""
    options = list(options)
    if options and st.session_state.get(key) not in options:
        st.session_state[key] = default if default in options else options[0]
    return st.selectbox(label, options, key=key, **kwargs)


def sample_note() -> int | None:
    """The ``DKW_SAMPLE_PER_CATEGORY`` slice size, announced on the page when set."""
    sample = guarded(backend.sample_per_category)
    if sample:
        st.caption(f"Working on a slice: the first {sample} documents per category and split "
                   f"(DKW_SAMPLE_PER_CATEGORY={sample}).")
    return sample


def page_links() -> None:
    """Links to every page of the app."""
    for path, label, icon in PAGES:
        st.page_link(path, label=label, icon=icon)


def prepare_panel(name: str, sample: int | None, k_max: int, *, key: str, box: Any = None,
                  neighbours: str = "cosine") -> bool:
    """The one preparation panel (Home and Documents): ``True`` when ``name`` is prepared (under
    the ``neighbours`` spec); otherwise shows the state and a Prepare button with a progress
    bar, and returns ``False``."""
    from dkw_app import resources

    box = box or st.container()
    try:
        with st.spinner(f"Checking {name}…"):
            prepared = resources.is_prepared(name, sample, k_max, neighbours)
    except DkwError as exc:
        show_error(exc)
        return False
    if prepared:
        return True
    how = "" if neighbours == "cosine" else f", found by {neighbours}"
    box.info(f"{name} is not prepared yet (tagging, and the K={k_max} nearest words of every phrase{how}).")
    if box.button(f"Prepare {name}", key=key):
        bar = box.progress(0.0, text=f"Preparing {name}…")
        try:
            resources.model(name, sample, k_max, progress=progress_callback(bar), neighbours=neighbours)
        except DkwError as exc:
            show_error(exc)
            return False
        bar.progress(1.0, text=f"{name} prepared.")
        st.rerun()  # show the new state
    return False
