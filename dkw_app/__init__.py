"""Streamlit-side helpers of the dkw explorer app.

``dkw_app.corpora_models`` corpora, vectors, tagger, prepared models, archives, uploads (no Streamlit);
``dkw_app.keywords_door``  the keywords of a document, a new text, a split, a category (no Streamlit);
``dkw_app.stored_runs``    the evaluation runs and reference results as the Metrics page's tables;
``dkw_app.study_setup``    a study drawn from a corpus the app loads, a corpus's title for the judge;
``dkw_app.browse``    pure document filtering/search over a corpus;
``dkw_app.tables``    pure DataFrame builders (keyword tables, chart data);
``dkw_app.charts``    pure plotly figure builders taking DataFrames;
``dkw_app.resources`` Streamlit caches (``st.cache_resource`` / ``st.cache_data``);
``dkw_app.widgets``   shared widgets (plain-text document view, CSV downloads, errors);
``dkw_app.study_ui``  the study pages' helpers (study database, admin gate, ``DKW_MODE`` gate);
``dkw_app.serve``     ``make run``'s launcher (host, port, one-time admin token).
"""

__all__ = ["browse", "charts", "corpora_models", "keywords_door", "resources", "serve", "stored_runs", "study_setup",
           "study_ui", "tables", "widgets"]
