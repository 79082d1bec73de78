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


def main() -> None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web.cli import main as streamlit_cli

    PagesManager.uses_pages_directory = False
    streamlit_cli(prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
