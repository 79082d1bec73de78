"""The app's Streamlit caches emptied between tests."""
from __future__ import annotations

import streamlit as st


def clear_app_caches() -> None:
    """Forget every object the app's Streamlit caches hold (``st.cache_data``, ``st.cache_resource``):
    before and after a test of the app, or after swapping a loader for a fake."""
    st.cache_data.clear()
    st.cache_resource.clear()
