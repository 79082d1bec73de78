"""Streamlit-side helpers of the dkw explorer app.

``dkw_app.backend``   the only module that calls ``dkw_core`` (thin adapter, no Streamlit);
``dkw_app.browse``    pure document filtering/search over a corpus;
``dkw_app.tables``    pure DataFrame builders (keyword tables, chart data);
``dkw_app.charts``    pure plotly figure builders taking DataFrames;
``dkw_app.resources`` Streamlit caches (``st.cache_resource`` / ``st.cache_data``);
``dkw_app.widgets``   shared widgets (plain-text document view, CSV downloads, errors);
``dkw_app.study_ui``  the study pages' helpers (study database, admin gate, ``DKW_MODE`` gate);
``dkw_app.serve``     ``make run``'s launcher (host, port, one-time admin token).
"""

__all__ = ["backend", "browse", "charts", "resources", "serve", "study_ui", "tables", "widgets"]
