"""``python -m dkw_app.streamlit_main run app.py …``: Streamlit's own command line, with the
app's navigation always the one ``app.py`` declares (``st.navigation``).

Streamlit still has its older multipage mode for apps with a ``pages/`` folder beside the main
script: when a session's first page is one of that folder's (``/Judge``, ``/Study_admin``), it
runs that file directly and lists every file of the folder, plus "app", in the sidebar — so
``app.py``'s choices (Material icons, the judge-only navigation of ``DKW_MODE=study``) were lost
whenever the server's first visitor did not come through ``/``. Switching that mode off before
the server starts makes every run go through ``app.py``.
"""
from __future__ import annotations

import sys
import threading

#: Imported in the background while the server starts (pandas, SciPy, scikit-learn, plotly and
#: dkw_core behind the pages' one door): a page script's imports then find them loaded, so the first
#: visitor does not wait for them (BENCHMARKS.md, "The Metrics page's first visit").
WARM_MODULES = ("dkw_app.backend", "dkw_app.charts", "plotly.graph_objects")


def warm_imports(modules: tuple[str, ...] = WARM_MODULES) -> threading.Thread:
    """Import ``modules`` in a daemon thread (a failure is left to the page that imports it)."""
    import importlib

    def run() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the page's own import reports it
                return

    thread = threading.Thread(target=run, name="dkw-warm-imports", daemon=True)
    thread.start()
    return thread


def main() -> None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web.cli import main as streamlit_cli

    PagesManager.uses_pages_directory = False
    warm_imports()
    streamlit_cli(prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
