"""Streamlit-side helpers of the study pages (admin, judge, results): engine, password gate,
plain-text rendering. All computation is in :mod:`dkw_core.study`."""
from __future__ import annotations

import hmac
import os
import re

import streamlit as st
from sqlalchemy.engine import Engine

from dkw_app import widgets
from dkw_core.db import make_engine
from dkw_core.errors import DkwError
from dkw_core.study.models import init_db

ADMIN_ENV = "DKW_ADMIN_PASSWORD"
DB_ENV = "DKW_STUDY_DB"


@st.cache_resource(show_spinner=False)
def _engine(url: str | None, data_dir: str) -> Engine:
    engine = make_engine(url, default_file="study.sqlite")
    init_db(engine)
    return engine


def study_engine() -> Engine | None:
    """The study database (``$DKW_STUDY_DB`` or ``<DKW_DATA_DIR>/study.sqlite``); shows the error if it fails."""
    try:
        return _engine(os.environ.get(DB_ENV) or None, os.environ.get("DKW_DATA_DIR", ""))
    except DkwError as exc:
        st.error(str(exc))
        return None


def admin_password() -> str | None:
    """From ``$DKW_ADMIN_PASSWORD``, else ``st.secrets["admin_password"]``; None when not configured."""
    value = os.environ.get(ADMIN_ENV)
    if value:
        return value
    try:
        value = st.secrets.get("admin_password")
    except Exception:  # no secrets file at all  # noqa: BLE001
        value = None
    return str(value) if value else None


def require_admin(key: str) -> None:
    """Stop the page unless the admin password was given in this session."""
    expected = admin_password()
    if not expected:
        st.error(f"The study pages are locked: no admin password is configured. Set the environment "
                 f"variable {ADMIN_ENV} or `admin_password` in .streamlit/secrets.toml.")
        st.stop()
    if st.session_state.get("study_admin_ok"):
        return
    given = st.text_input("Admin password", type="password", key=f"{key}-password")
    if given:
        if hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
            st.session_state["study_admin_ok"] = True
            st.rerun()
        st.error("Wrong password.")
    st.stop()


# Shared with the explorer pages: one plain-text renderer, one escaper, one progress adapter.
escape_markdown = widgets.escape_markdown
progress_callback = widgets.progress_callback


def show_plain(text: str, *, height: int | None = None) -> None:
    """Untrusted document text verbatim: never markdown, never HTML."""
    widgets.show_document(text, height=height)


def base_url() -> str:
    """The app's address as the browser sees it (for judge links)."""
    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001
        url = ""
    m = re.match(r"^(https?://[^/]+)", url)
    return m.group(1) if m else ""
