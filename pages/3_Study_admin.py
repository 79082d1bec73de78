"""Study admin (password-protected): create a study, invite judges, monitor, export, and run
its life cycle (open / paused / closed, revoke and re-issue judge codes, the change log)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import backend
from dkw_app.study_ui import base_url, progress_callback, require_admin, show_error, study_engine
from dkw_core.errors import DkwError

st.set_page_config(page_title="Study admin", layout="wide")
st.title("Study admin")
require_admin("admin")

engine = study_engine()
if engine is None:
    st.stop()

studies = backend.list_studies(engine)
tab_create, tab_judges, tab_monitor, tab_export, tab_life = st.tabs(
    ["Create", "Judges", "Monitor", "Export", "Life cycle"])
PROTOCOL_HELP = {"label-aware": "the paper's: each article weighted with its own gold category",
                 "label-free": "deployable: no gold label read, score = max over categories",
                 "label-free-posterior": "deployable: no gold label read, words weighted by the category posterior",
                 "label-free-top1": "deployable: no gold label read, words weighted with the most probable category"}

with tab_create:
    st.caption("Paper §4.6 defaults: 20ng, A = tf-rf over the article's own words, B = latent-5word-knn90-rf "
               "(K = 90, rf), both label-aware as in the paper, 5 keywords per method, 5 articles per category "
               "from the test split, 5 categories per batch (corpus order), 3 judges per article.")
    choices = backend.study_corpus_choices()
    if backend.DEMO_CORPUS in choices:
        st.warning(f"{backend.FAKE_ENV} is set: corpus {backend.DEMO_CORPUS!r} uses fake keywords "
                   f"(tests and demos only).")
    with st.form("create_study"):
        name = st.text_input("Study name", value="20ng keyword study")
        corpus = st.selectbox("Corpus", choices, index=choices.index("20ng") if "20ng" in choices else 0)
        c1, c2 = st.columns(2)
        method_a = c1.text_input("Method A", value="tf-rf")
        method_b = c2.text_input("Method B", value="latent-5word-knn90-rf")
        protocols = list(backend.STUDY_PROTOCOLS)
        default = protocols.index(backend.DEFAULT_PROTOCOL)
        protocol_a = c1.selectbox("Protocol of method A", protocols, index=default, key="protocol_a",
                                  format_func=lambda p: f"{p} ({PROTOCOL_HELP.get(p, '')})")
        protocol_b = c2.selectbox("Protocol of method B", protocols, index=default, key="protocol_b",
                                  format_func=lambda p: f"{p} ({PROTOCOL_HELP.get(p, '')})")
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
            sid = backend.create_study(
                engine, corpus=corpus, progress=progress_callback(bar),
                config=backend.StudyConfig(name=name, corpus=corpus, method_a=method_a, method_b=method_b,
                                           keywords_per_method=int(top), articles_per_category=int(per_cat),
                                           categories_per_batch=int(per_batch), judges_per_article=int(judges),
                                           seed=int(seed) or None, split=split, protocol_a=protocol_a,
                                           protocol_b=protocol_b))
        except DkwError as exc:
            show_error(exc)
        else:
            st.session_state["admin_study"] = sid
            st.success(f"Study {sid} created.")
            studies = backend.list_studies(engine)

if not studies:
    for tab in (tab_judges, tab_monitor, tab_export, tab_life):
        with tab:
            st.info("No study yet: create one first.")
    st.stop()

by_id = {s["id"]: s for s in studies}
ids = list(by_id)
if st.session_state.get("admin_study") not in ids:
    st.session_state["admin_study"] = ids[-1]
study_id = st.sidebar.selectbox(  # option labels are plain text, never markdown
    "Study", ids, key="admin_study",
    format_func=lambda i: f"{i}: {by_id[i]['name']} ({by_id[i]['corpus']}, {by_id[i]['articles']} articles, "
                          f"{by_id[i]['status']})")
current = by_id[study_id]
st.sidebar.text(f"Status: {current['status']}\nA = {current['method_a']} ({current['protocol_a']})\n"
                f"B = {current['method_b']} ({current['protocol_b']})")  # plain text: stored names as stored

with tab_judges:
    if current["status"] == "closed":
        st.info("This study is closed: no judge can be invited or given a new code. Re-open it under "
                "'Life cycle' to continue.")
    judge_name = st.text_input("Judge name or pseudonym", key="invite_name")
    if st.button("Invite judge", key="invite_go", disabled=current["status"] == "closed"):
        try:
            jid, code = backend.invite_judge(engine, study_id, name=judge_name)
        except DkwError as exc:
            show_error(exc)
        else:
            st.session_state.setdefault("invited", []).append(
                {"judge_id": jid, "name": judge_name.strip(), "code": code,
                 "link": f"{base_url()}/Judge?code={code}"})
    judges = backend.monitoring(engine, study_id)["judges"]
    if judges:
        st.subheader("Access")
        labels = {j["judge_id"]: f"{j['judge_id']}: {j['name']} ({j['access']})" for j in judges}
        pick = st.selectbox("Judge", list(labels), format_func=labels.get, key="access_judge")
        c1, c2 = st.columns(2)
        if c1.button("Revoke access (answers are kept)", key="revoke_go"):
            try:
                released = backend.revoke_judge(engine, study_id, pick)
            except DkwError as exc:
                show_error(exc)
            else:
                st.success(f"Judge {pick}'s code is revoked; {released} open reservation(s) released.")
        if c2.button("Issue a new code", key="reissue_go", disabled=current["status"] == "closed"):
            try:
                code = backend.reissue_code(engine, study_id, pick)
            except DkwError as exc:
                show_error(exc)
            else:
                st.session_state.setdefault("invited", []).append(
                    {"judge_id": pick, "name": next(j["name"] for j in judges if j["judge_id"] == pick),
                     "code": code, "link": f"{base_url()}/Judge?code={code}"})
    invited = list(st.session_state.get("invited", []))
    if invited:
        st.text(f"Link for {invited[-1]['name']}:")
        st.code(invited[-1]["link"], language=None)
        st.caption("Access codes are shown only now (the database keeps their hash). Send each judge her link.")
        st.dataframe(pd.DataFrame(invited), hide_index=True, key="invited_table")

with tab_monitor:
    mon = backend.monitoring(engine, study_id)
    st.subheader("Batches")
    st.dataframe(pd.DataFrame(mon["batches"]), hide_index=True)
    st.subheader("Judges")
    st.dataframe(pd.DataFrame(mon["judges"]), hide_index=True)
    st.subheader("Articles")
    st.dataframe(pd.DataFrame(mon["articles"]), hide_index=True)
    with st.expander("Simulated judges (preview the results page before real judges arrive)"):
        st.warning("Simulated judges are stored in this study, marked as simulated: analysis, export and "
                   "results leave them out unless you switch them on. Prefer a separate study for them.")
        n_sim = st.number_input("Simulated judges", 1, 50, 5, key="sim_n")
        mode = st.selectbox("Behaviour", ["scripted", "random"], key="sim_mode")
        if st.button("Run simulation", key="sim_go", disabled=current["status"] != "open"):
            bar = st.progress(0.0)
            try:
                out = backend.simulate_judges(engine, study_id, judges=int(n_sim), mode=mode,
                                              progress=progress_callback(bar))
            except DkwError as exc:
                show_error(exc)
            else:
                st.success(f"{out['judgements']} judgements by {out['judges']} simulated judges.")

with tab_export:
    st.caption(f"Every submitted answer with method provenance (in_a/rank_a, in_b/rank_b), method names and "
               f"protocols (A: {current['protocol_a']}, B: {current['protocol_b']}).")
    with_sim = st.toggle("Include simulated judges' answers", value=False, key="export_simulated")
    if with_sim:
        st.warning("The export includes SIMULATED judgements (marked in its 'simulated' column): not human data.")
    try:
        csv_text = backend.export_study(engine, study_id, "csv", include_simulated=with_sim)
        json_text = backend.export_study(engine, study_id, "json", include_simulated=with_sim)
    except DkwError as exc:
        show_error(exc)
    else:
        st.download_button("Download CSV", csv_text.encode("utf-8"), file_name=f"study-{study_id}.csv",
                           mime="text/csv", key="dl_csv")
        st.download_button("Download JSON", json_text.encode("utf-8"), file_name=f"study-{study_id}.json",
                           mime="application/json", key="dl_json")

with tab_life:
    st.markdown(f"Status: **{current['status']}**")
    st.caption("open: judges get articles · paused: no new article is given out (a judge may submit the one she "
               "holds; judges may be invited) · closed: nothing is given out or accepted, no judge is invited")
    new_status = st.selectbox("New status", list(backend.STATUSES), key="new_status",
                              index=list(backend.STATUSES).index(current["status"]))
    if st.button("Apply", key="status_go", disabled=new_status == current["status"]):
        try:
            before = backend.set_study_status(engine, study_id, new_status)
        except DkwError as exc:
            show_error(exc)
        else:
            st.success(f"Study {study_id}: {before} → {new_status}.")
            st.rerun()
    st.subheader("Change log (UTC)")
    st.dataframe(pd.DataFrame(backend.study_events(engine, study_id), columns=["at", "action", "detail"]),
                 hide_index=True, key="event_log")
