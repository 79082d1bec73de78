"""dkw explorer: the entry point of ``streamlit run app.py``. It only declares the pages (Home
first, so the sidebar says "Home") and runs the one the visitor chose; every page is a file
in ``pages/``. Sajgalik, Barla & Bielikova (CSL 2017): discriminative keywords found in
word-vector space."""
from __future__ import annotations

import streamlit as st

from dkw_app.widgets import PAGES

st.set_page_config(page_title="dkw — discriminative keywords", page_icon="🔑", layout="wide")
navigation = st.navigation([
    st.Page(path, title=title, icon=icon, url_path=url or None, default=not url)
    for path, _label, icon, title, url in PAGES
])
navigation.run()
