"""dkw explorer: the entry point of ``streamlit run app.py``. It only declares the pages (Home
first, so the sidebar says "Home") and runs the one the visitor chose; every page is a file
in ``pages/``. Sajgalik, Barla & Bielikova (CSL 2017): discriminative keywords found in
word-vector space.

In the judge-only deployment (``DKW_MODE=study``) the judge page is the default (``/``) and
the navigation is hidden until the organiser has given the admin secret: a judge sees no
entry for the organisers' pages, which stay reachable by their address (``/Home``,
``/Study_admin``, …) behind the admin prompt."""
from __future__ import annotations

import streamlit as st

from dkw_app import study_ui
from dkw_app.widgets import PAGES

st.set_page_config(page_title="dkw — discriminative keywords", page_icon=":material/key:", layout="wide")
judge_first = study_ui.study_mode()
navigation = st.navigation([
    st.Page(path, title=title, icon=icon, url_path=(url or title) if judge_first else (url or None),
            default=(path.endswith("_Judge.py") if judge_first else not url))
    for path, _label, icon, title, url in PAGES
], position="hidden" if judge_first and not st.session_state.get("study_admin_ok") else "sidebar")
navigation.run()
