"""Streamlit-side helpers of the study pages (admin, judge, results): the study database,
the admin gate, the study mode, flashes and a judge's error line. The pages call ``dkw_core.study``
directly (``service`` for the study's API); errors are shown with
:func:`dkw_app.widgets.show_error`.

Admin access: ``DKW_ADMIN_PASSWORD`` (or ``admin_password`` in ``.streamlit/secrets.toml``),
at least ``access.MIN_PASSWORD_LENGTH`` characters. Without one, the server's one-time token
is the admin secret: ``python -m dkw_app.serve`` (``make run``) generates and prints it at
start and hands it to the app as ``DKW_ADMIN_TOKEN``; a server started otherwise generates it
on first use and prints it on its console. Failed attempts are throttled per browser session, with the
counts in the study database, shared by every app process (``dkw_core.study.access``).
"""
from __future__ import annotations

import logging
import math
import re
import secrets
import sys
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import streamlit as st
from sqlalchemy.engine import Engine

from dkw_app import resources, widgets
from dkw_app.untrusted import md
from dkw_core import config
from dkw_core.config import app_mode
from dkw_core.errors import DkwError
from dkw_core.study import access

ADMIN_ENV = "DKW_ADMIN_PASSWORD"
_log = logging.getLogger(__name__)

_token_lock = threading.Lock()
_process_token: str | None = None


def study_engine() -> Engine | None:
    """The study database (``$DKW_STUDY_DB`` or ``<DKW_DATA_DIR>/study.sqlite``); shows the error if it fails."""
    try:
        return resources.study_store(config.study_db_url(), str(config.data_dir()))
    except DkwError as exc:
        if st.session_state.get("study_admin_ok"):
            widgets.show_error(exc)  # the organiser: what failed and where (password hidden)
        else:  # a judge or a visitor learns nothing of the server, its user or its files
            _log.error("study database unavailable: %s", exc)
            st.error("The study is not available right now. Please try again later or tell the study's organiser.")
        return None


def _throttle_store() -> Engine | None:
    """The study database the admin gate counts failed attempts in; None (counted in this
    process) when it cannot be opened — the organiser must still be able to log in and read why."""
    try:
        return resources.study_store(config.study_db_url(), str(config.data_dir()))
    except DkwError:
        return None


def admin_password() -> str | None:
    """From ``$DKW_ADMIN_PASSWORD``, else ``st.secrets["admin_password"]``; None when not configured."""
    value = config.admin_password()
    if value:
        return value
    try:
        value = st.secrets.get("admin_password")
    except Exception:  # no secrets file at all  # noqa: BLE001
        value = None
    return str(value) if value else None


def admin_token() -> str:
    """The server's one-time admin token: from the launcher (``DKW_ADMIN_TOKEN``), else generated
    once per server process and printed on its console."""
    global _process_token
    given = config.admin_token()
    if given:
        return given
    with _token_lock:
        if _process_token is None:
            _process_token = access.generate_token()
            print(f"\n  dkw study admin token (valid until this server stops; set {ADMIN_ENV} to use a "
                  f"password instead):\n\n      {_process_token}\n", file=sys.stderr, flush=True)
        return _process_token


def admin_secret() -> tuple[str, str] | None:
    """``(secret, what it is)``; None (after showing why) when the configured password is too short."""
    password = admin_password()
    if password is None:
        return admin_token(), "the admin token printed on the server's console at start"
    try:
        access.check_password_rules(password)
    except DkwError as exc:
        st.error(f"The study admin pages are locked: {md(exc)}. Set a longer {ADMIN_ENV} (or `admin_password` "
                 f"in .streamlit/secrets.toml) and restart.")
        return None
    return password, "the admin password"


def require_admin(key: str) -> None:
    """Stop the page unless the admin secret was given in this session (throttled on failure)."""
    if st.session_state.get("study_admin_ok"):
        return
    found = admin_secret()
    if found is None:
        st.stop()
    secret, what = found
    given = st.text_input("Admin password or token", type="password", key=f"{key}-password")
    if not given:
        st.caption(f"Enter {what}.")
        st.stop()
    gate = access.gate_for(secret, _throttle_store())
    tried = st.session_state.get("_admin_tried")  # (page, input, gate time it may be checked again)
    retry = tried is not None and tried[2] is not None and gate.clock() >= tried[2]
    if tried is None or tried[:2] != (key, given) or retry:  # a rerun with the same input is no new attempt,
        result = gate.attempt(given, client_address(), _session_key())  # unless it came during the wait (unchecked)
        if result.ok:
            st.session_state["study_admin_ok"] = True
            st.session_state.pop("_admin_tried", None)
            st.rerun()
        st.session_state["_admin_tried"] = (key, given, result.retry_at if result.blocked else None)
        st.session_state["_admin_message"] = result.message
        st.session_state["_admin_retry_at"] = result.retry_at
    message = st.session_state.get("_admin_message") or "Wrong password."
    retry_at = float(st.session_state.get("_admin_retry_at") or 0.0)
    left = retry_at - gate.clock()
    if left > 0:
        at = datetime.now(UTC) + timedelta(seconds=left)
        message += f" (at {at:%H:%M:%S} UTC)"
        if st.session_state["_admin_tried"][2] is not None:
            message += "; your entry is checked again then, without a reload"
    st.error(message + ".")
    if left > 0:
        _recheck_when_due(gate, retry_at)
    st.stop()


def client_address() -> str:
    """The visitor's network address as the server sees it (``""`` for a browser on this
    machine): with the session, the key of the admin gate's count of failures."""
    try:
        address = st.context.ip_address
    except Exception:  # no client context (a bare script run)  # noqa: BLE001
        return ""
    return address if isinstance(address, str) else ""


def _session_key() -> str:
    """A random name of this browser session (the admin gate counts failures per session: one
    session's flood never makes another wait)."""
    if "_admin_session" not in st.session_state:
        st.session_state["_admin_session"] = secrets.token_hex(12)
    return str(st.session_state["_admin_session"])


@st.fragment(run_every=1.0)
def _recheck_when_due(gate: Any, retry_at: float) -> None:
    """Counts down the throttle's wait and reruns the page when it is over (so that an entry
    refused unchecked during the wait is checked then)."""
    left = retry_at - gate.clock()
    if left <= 0:
        st.rerun(scope="app")
    st.caption(f"Next attempt accepted in {math.ceil(left)} s.")


def study_mode() -> bool:
    """Whether this server runs the judge-only deployment (``DKW_MODE=study``); an invalid
    mode counts as not (the pages then show its error)."""
    try:
        return app_mode() == "study"
    except DkwError:
        return False


def require_mode_access(key: str) -> None:
    """In the judge-only deployment (``DKW_MODE=study``) every page but the judge page needs
    the admin secret; in the default explorer mode this does nothing."""
    try:
        mode = app_mode()
    except DkwError as exc:
        widgets.show_error(exc)
        st.stop()
    if mode == "study":
        if not st.session_state.get("study_admin_ok"):
            st.info("This server runs a study: judges use the link they were given. Other pages are "
                    "for the study's organisers.")
        require_admin(key)


def sentence(message: object) -> str:
    """A message as the judge page shows it: the library's one-line message (``"this study link
    has no participant id …"``) with a capital first letter and a full stop."""
    text = str(message).strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def judge_error(message: object) -> None:
    """Every error of the judge page: :func:`sentence`, shown as text (it may quote a link's
    participant id)."""
    st.error(md(sentence(message)), icon=":material/error:")


def base_url() -> str:
    """The app's address as the browser sees it (for judge links)."""
    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001
        url = ""
    m = re.match(r"^(https?://[^/]+)", url)
    return m.group(1) if m else ""


#: A visible keyboard focus on the study pages' answer options and buttons (Streamlit's own
#: focus ring on radio options is faint).
FOCUS_CSS = """<style>
[data-testid="stRadio"] label:has(input:focus-visible) {
  outline: 3px solid #1c62d9; outline-offset: 2px; border-radius: 4px; }
[data-testid="stBaseButton-primary"]:focus-visible, [data-testid="stBaseButton-secondary"]:focus-visible {
  outline: 3px solid #1c62d9; outline-offset: 2px; }
</style>"""

#: Scrolls Streamlit's main area (and the window) to the top once the new page is drawn.
SCROLL_TOP_JS = """<script>
(() => { const top = () => { document.querySelector('[data-testid="stMain"]')?.scrollTo({top: 0});
  window.scrollTo({top: 0}); };
  top(); requestAnimationFrame(top); setTimeout(top, 250); })();
</script>"""


def scroll_to_top() -> None:
    """After a submission: show the next article from its top, with the confirmation above it."""
    st.html(SCROLL_TOP_JS, unsafe_allow_javascript=True)


_FLASH_ICONS = {"success": ":material/check_circle:", "error": ":material/error:", "info": ":material/info:"}


def flash(message: str, *, kind: str = "success") -> None:
    """A confirmation (or error) to show at the top of the page's next run: it survives the
    ``st.rerun()`` that follows an action, which a plain ``st.success`` does not."""
    st.session_state.setdefault("_study_flash", []).append((kind, str(message)))


def show_flash() -> None:
    """Show (once) the confirmations queued by :func:`flash`, also as a toast."""
    for kind, message in st.session_state.pop("_study_flash", []):
        text = md(message)  # names typed by the organiser are shown as typed
        getattr(st, kind)(text, icon=_FLASH_ICONS[kind])
        st.toast(text, icon=_FLASH_ICONS[kind])
