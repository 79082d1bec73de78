"""``python -m dkw_app.streamlit_main run app.py …``: Streamlit's own command line, with the
app's navigation always the one ``app.py`` declares (``st.navigation``).

Streamlit still has its older multipage mode for apps with a ``pages/`` folder beside the main
script: when a session's first page is one of that folder's (``/Judge``, ``/Study_admin``), it
runs that file directly and lists every file of the folder, plus "app", in the sidebar — so
``app.py``'s choices (Material icons, the judge-only navigation of ``DKW_MODE=study``) were lost
whenever the server's first visitor did not come through ``/``. Switching that mode off before
the server starts makes every run go through ``app.py``.

Two messages that are not faults are kept off the console (:func:`quiet_logs`): Streamlit's
"missing ScriptRunContext!" warning from dkw's own background threads (a preparation job runs
outside any session by design, :mod:`dkw_app.jobs`), and uvicorn's "Exception in ASGI
application" traceback when the exception is a browser tab that closed its websocket. Every
other warning and traceback is printed as before.
"""
from __future__ import annotations

import logging
import sys
import threading

#: Imported in the background while the server starts (pandas, plotly, the dkw_core modules the
#: pages call, and gensim: a second of every page that loads word vectors): a page script's imports
#: then find them loaded, so the first visitor does not wait for them (BENCHMARKS.md, "Every page's
#: first open"). After them the vectors and the prepared model the corpus pages open on are loaded
#: from disk (never built: a long build held up the server's stop).
WARM_MODULES = ("dkw_app.resources", "dkw_core.study.service", "dkw_core.study.analysis", "dkw_app.charts",
                "plotly.graph_objects", "gensim.models")


def warm_imports(modules: tuple[str, ...] = WARM_MODULES, *, preload: bool = False) -> threading.Thread:
    """Import ``modules`` in a daemon thread (a failure is left to the page that imports it); with
    ``preload``, then load from disk the word vectors and the prepared model Documents and
    Categories open on (``dkw_app.resources.preload``: nothing is built, so nothing long runs
    when the server is asked to stop): loading them was the larger part of those pages' first
    open. With ``dkw_app.charts`` among ``modules`` one figure of every kind is built first
    (``charts.warm_up``), and once all is loaded it is frozen out of the garbage collector
    (``gc.freeze``); a failed step ends the warm-up there."""
    import gc
    import importlib

    def run() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the page's own import reports it
                return
        if "dkw_app.charts" in modules:
            try:
                from dkw_app import charts

                charts.warm_up()
            except Exception:  # noqa: BLE001 - the page that draws a chart reports it
                return
        if preload:
            try:
                from dkw_app import resources

                resources.preload()
            except Exception:  # noqa: BLE001 - a page that needs them says what is wrong
                return
        # What is loaded by now lives as long as the server: out of the collector's way, so that
        # the full collection Streamlit runs after every script run (runner.postScriptGC) does not
        # walk it each time (0.2-0.35 s per run with a model loaded, holding up the server).
        gc.freeze()

    thread = threading.Thread(target=run, name="dkw-warm-imports", daemon=True)
    thread.start()
    return thread


#: Names of dkw's own background threads (jobs, warm imports): no Streamlit session, by design.
BACKGROUND_PREFIX = "dkw-"
_CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"
_ASGI_LOGGER = "uvicorn.error"
#: Exceptions that mean "the other end went away" (a tab closed, a reload): no fault of the server.
_DISCONNECTS = {"WebSocketDisconnect", "ConnectionClosed", "ConnectionClosedOK", "ConnectionClosedError",
                "ClientDisconnected", "ClosedResourceError", "BrokenResourceError", "ConnectionResetError",
                "BrokenPipeError"}


def _closed_by_client(exc: BaseException | None) -> bool:
    """Whether ``exc`` or an exception it came from is a peer that disconnected."""
    seen = 0
    while exc is not None and seen < 10:
        if type(exc).__name__ in _DISCONNECTS or (
                isinstance(exc, RuntimeError) and "websocket.close" in str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class _NotAFault(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == _CONTEXT_LOGGER:
            return not (record.threadName or "").startswith(BACKGROUND_PREFIX)
        if record.name == _ASGI_LOGGER and str(record.msg).startswith("Exception in ASGI application"):
            return not _closed_by_client(record.exc_info[1] if record.exc_info else None)
        return True


def quiet_logs() -> None:
    """Keep the two messages of the module's docstring off the console (idempotent)."""
    for name in (_CONTEXT_LOGGER, _ASGI_LOGGER):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _NotAFault) for f in logger.filters):
            logger.addFilter(_NotAFault())


def _explorer() -> bool:
    """Whether the server explores corpora (``DKW_MODE`` explorer): a judges-only study server
    never needs the word vectors."""
    from dkw_core.config import app_mode
    from dkw_core.errors import DkwError

    try:
        return app_mode() == "explorer"
    except DkwError:
        return False


def main() -> None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web.cli import main as streamlit_cli

    PagesManager.uses_pages_directory = False
    quiet_logs()
    warm_imports(preload=_explorer())  # from disk only: a long build would hold up the server's stop
    streamlit_cli(prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
