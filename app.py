"""dkw explorer: the entry point of ``streamlit run app.py``. It only declares the pages (Home
first, so the sidebar says "Home") and runs the one the visitor chose; every page is a file
in ``pages/``. Sajgalik, Barla & Bielikova (CSL 2017): discriminative keywords found in
word-vector space.

In the judge-only deployment (``DKW_MODE=study``), until the organiser has given the admin
secret in this session, the navigation is hidden and ``/`` is the judge page (as is
``/Judge``, the judges' links): a judge sees no entry for the organisers' pages, which stay
reachable by their address (``/Home``, ``/Study_admin``, …) behind the admin prompt."""
from __future__ import annotations

import streamlit as st

from dkw_app import study_ui
from dkw_app.widgets import PAGES

st.set_page_config(page_title="dkw — discriminative keywords", page_icon=":material/key:", layout="wide")
judges_only = study_ui.study_mode() and not st.session_state.get("study_admin_ok")
pages = [st.Page(path, title=title, icon=icon, url_path=(url or title) if judges_only else (url or None),
                 default=not url and not judges_only)
         for path, _label, icon, title, url in PAGES]
if judges_only:
    judge = next(path for path, *_ in PAGES if path.endswith("_Judge.py"))
    pages.insert(0, st.Page(judge, title="Judge", icon=":material/rate_review:", url_path="start", default=True))
st.navigation(pages, position="hidden" if judges_only else "sidebar").run()
