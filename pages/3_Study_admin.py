"""Study admin (password-protected): create a study, invite judges, monitor, export."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app.study_ui import base_url, progress_callback, require_admin, study_engine
from dkw_core.errors import DkwError
from dkw_core.study import export as study_export
from dkw_core.study import providers, service
from dkw_core.study.demo import DEMO_CORPUS, FAKE_ENV
from dkw_core.study.simulate import simulate

st.set_page_config(page_title="Study admin", layout="wide")
st.title("Study admin")
require_admin("admin")

engine = study_engine()
if engine is None:
    st.stop()

studies = service.list_studies(engine)
tab_create, tab_judges, tab_monitor, tab_export = st.tabs(["Create", "Judges", "Monitor", "Export"])

with tab_create:
    st.caption("Paper §4.6 defaults: 20ng, A = tf-rf over the article's own words, B = latent-5word-knn90-rf "
               "(K = 90, rf, label-aware), 5 keywords per method, 5 articles per category from the test "
               "split, 5 categories per batch (corpus order), 3 judges per article.")
    choices = providers.corpus_choices()
    if DEMO_CORPUS in choices:
        st.warning(f"{FAKE_ENV} is set: corpus {DEMO_CORPUS!r} uses fake keywords (tests and demos only).")
    with st.form("create_study"):
        name = st.text_input("Study name", value="20ng keyword study")
        corpus = st.selectbox("Corpus", choices, index=choices.index("20ng") if "20ng" in choices else 0)
        c1, c2 = st.columns(2)
        method_a = c1.text_input("Method A", value="tf-rf")
        method_b = c2.text_input("Method B", value="latent-5word-knn90-rf")
        c3, c4, c5, c6 = st.columns(4)
        top = c3.number_input("Keywords per method", 1, 50, 5)
        per_cat = c4.number_input("Articles per category", 1, 100, 5)
        per_batch = c5.number_input("Categories per batch", 1, 100, 5)
        judges = c6.number_input("Judges per article", 1, 20, 3)
        c7, c8 = st.columns(2)
        seed = c7.number_input("Seed (0 = draw one and record it)", 0, 2**31 - 1, 0)
        split = c8.selectbox("Draw articles from split", ["test", "train", "all"])
        go = st.form_submit_button("Create study", type="primary")
    if go:
        bar = st.progress(0.0, text="starting")
        try:
            docs, cats, provider = providers.source(corpus, progress=progress_callback(bar))
            sid = service.create_study(
                engine, documents=docs, categories=cats, provider=provider, progress=progress_callback(bar),
                config=service.StudyConfig(name=name, corpus=corpus, method_a=method_a, method_b=method_b,
                                           keywords_per_method=int(top), articles_per_category=int(per_cat),
                                           categories_per_batch=int(per_batch), judges_per_article=int(judges),
                                           seed=int(seed) or None, split=split))
        except DkwError as exc:
            st.error(str(exc))
        else:
            st.session_state["admin_study"] = sid
            st.success(f"Study {sid} created.")
            studies = service.list_studies(engine)

if not studies:
    for tab in (tab_judges, tab_monitor, tab_export):
        with tab:
            st.info("No study yet: create one first.")
    st.stop()

labels = {s["id"]: f"{s['id']}: {s['name']} ({s['corpus']}, {s['articles']} articles)" for s in studies}
ids = list(labels)
if st.session_state.get("admin_study") not in ids:
    st.session_state["admin_study"] = ids[-1]
study_id = st.sidebar.selectbox("Study", ids, format_func=labels.get, key="admin_study")

with tab_judges:
    judge_name = st.text_input("Judge name or pseudonym", key="invite_name")
    if st.button("Invite judge", key="invite_go"):
        try:
            jid, code = service.invite_judge(engine, study_id, name=judge_name)
        except DkwError as exc:
            st.error(str(exc))
        else:
            st.session_state.setdefault("invited", []).append(
                {"judge_id": jid, "name": judge_name.strip(), "code": code,
                 "link": f"{base_url()}/Judge?code={code}"})
    invited = [r for r in st.session_state.get("invited", [])]
    if invited:
        st.write(f"Link for {invited[-1]['name']!r}:")
        st.code(invited[-1]["link"], language=None)
        st.caption("Access codes are shown only now (the database keeps their hash). Send each judge her link.")
        st.dataframe(pd.DataFrame(invited), hide_index=True, key="invited_table")

with tab_monitor:
    mon = service.monitoring(engine, study_id)
    st.subheader("Batches")
    st.dataframe(pd.DataFrame(mon["batches"]), hide_index=True)
    st.subheader("Judges")
    st.dataframe(pd.DataFrame(mon["judges"]), hide_index=True)
    st.subheader("Articles")
    st.dataframe(pd.DataFrame(mon["articles"]), hide_index=True)
    with st.expander("Simulated judges (preview the results page before real judges arrive)"):
        st.warning("Simulated answers are stored in this study; use a separate study for real judges.")
        n_sim = st.number_input("Simulated judges", 1, 50, 5, key="sim_n")
        mode = st.selectbox("Behaviour", ["scripted", "random"], key="sim_mode")
        if st.button("Run simulation", key="sim_go"):
            bar = st.progress(0.0)
            try:
                out = simulate(engine, study_id, judges=int(n_sim), mode=mode, progress=progress_callback(bar))
            except DkwError as exc:
                st.error(str(exc))
            else:
                st.success(f"{out['judgements']} judgements by {out['judges']} simulated judges.")

with tab_export:
    st.caption("Every submitted answer with method provenance (in_a/rank_a, in_b/rank_b, method names).")
    try:
        csv_text = study_export.export(engine, study_id, "csv")
        json_text = study_export.export(engine, study_id, "json")
    except DkwError as exc:
        st.error(str(exc))
    else:
        st.download_button("Download CSV", csv_text.encode("utf-8"), file_name=f"study-{study_id}.csv",
                           mime="text/csv", key="dl_csv")
        st.download_button("Download JSON", json_text.encode("utf-8"), file_name=f"study-{study_id}.json",
                           mime="application/json", key="dl_json")
