"""dkw explorer — Home: what dkw does, keywords of a pasted text at once, where to go next; then the
corpora (download, preparation in the server's background jobs), the models and your own corpus.

Sajgalik, Barla & Bielikova (CSL 2017): discriminative keywords found in word-vector space.
The page computes nothing itself; every step is a ``dkw_core`` call via ``dkw_app``.
"""
from __future__ import annotations

import streamlit as st

from dkw_app import corpora_models, keyword_views, keywords_door, resources, study_ui, tables, widgets
from dkw_app.untrusted import md
from dkw_core.errors import DkwError
from dkw_core.keywords.newtexts import about_asked
from dkw_core.keywords.request import KeywordRequest
from dkw_core.types import DEFAULT_ABOUT, DEFAULT_CORPUS, DEFAULT_K

st.set_page_config(page_title="dkw — discriminative keywords", page_icon=":material/key:", layout="wide")
study_ui.require_mode_access("home")  # DKW_MODE=study: organisers only
st.title("Discriminative keywords")
st.markdown("dkw finds the words that set a text apart from texts of other categories: words near its phrases "
            "in word-vector space, weighted by how well they tell the categories apart (Sajgalik, Barla & "
            "Bielikova, *Computer Speech & Language*, 2017).")

with st.form("instant_form", border=False):
    text = st.text_area("Paste a text: its keywords come at once, nothing to prepare", key="instant_text", height=110,
                        placeholder="e.g. a news article or a forum post")
    about = st.slider(keyword_views.ABOUT_LABEL, 0.0, 1.0, float(DEFAULT_ABOUT), 0.1, key="instant_about",
                      help=keyword_views.ABOUT_HELP)
    asked = st.form_submit_button("Get keywords", type="primary", icon=":material/key:")
if asked:
    st.session_state.pop("instant_result", None)
    # the slider at the default leaves the choice to the default rule: a text that fits the corpus
    # poorly gets its own phrases (about 0, docs/method.md §13); any other value is kept
    request = KeywordRequest(text=text, about=about_asked(about))
    if not text.strip():
        st.error("Paste a text first.")
    elif refusal := widgets.guarded(lambda: keywords_door.instant_refusal(request), default=None):
        st.error(md(refusal))  # other vectors: the shipped statistics do not apply; never prepare here
    else:
        try:
            with st.spinner("Finding keywords…"):
                found = keywords_door.keyword_list(request)  # the source the refusal read, decided once
        except DkwError as exc:
            widgets.show_error(exc)
        else:
            st.session_state["instant_result"] = (text, found)
result = st.session_state.get("instant_result")
if result and result[0] == text:
    keyword_views.keyphrase_answer(result[0], result[1], corpus=DEFAULT_CORPUS, key="instant")
    st.caption("Weighted with the statistics of 20 Newsgroups shipped with dkw. For another corpus, the other "
               "metrics and where each keyword comes from, use Documents.")

st.markdown("**Next**")
c1, c2, c3 = st.columns(3)
c1.page_link("pages/1_Documents.py", label="Browse a corpus", icon=":material/description:",
             help="Every document's keywords under each metric, and where each keyword comes from.")
c2.page_link("pages/2_Metrics.py", label="Compare the metrics", icon=":material/bar_chart:",
             help="Classification F1 of every metric's keywords, as in the paper's figures.")
c3.page_link("pages/3_Study_admin.py", label="Run a study", icon=":material/admin_panel_settings:",
             help="People judge the keywords of two or more methods, blinded.")

widgets.preparation_jobs()  # a preparation running on the server: progress, time left, Cancel

st.header("Corpora")
st.caption(widgets.PREPARE_COST.replace("It takes", "Preparing a corpus (every document tagged, the K nearest words "
                                        "of every phrase) takes"))
sample = widgets.sample_note()
k_max = DEFAULT_K
infos = widgets.guarded(resources.dataset_infos, default=[]) or []
unobtainable = widgets.not_distributed(infos)
shown = [i for i in infos if i not in unobtainable]
if not infos:
    st.info("No corpus is known to the library yet.")
else:
    st.dataframe(tables.corpora_table(shown), hide_index=True, key="datasets_table")

for info in shown:
    name = str(info.get("name"))
    c_name, c_state, c_action = st.columns([1, 4, 2], vertical_alignment="center")
    c_name.text(name)
    if not info.get("available"):
        widgets.missing_corpus(info, c_state)
        continue
    if widgets.prepare_panel(name, sample, k_max, key=f"prepare_{name}", box=c_state, compact=True,
                             button_box=c_action):
        c_state.caption(f":material/check_circle: Prepared: tagged, and the K={k_max} nearest words of every "
                        "phrase cached.")
widgets.not_distributed_note(unobtainable)

with st.expander("Models and folders"):
    left, right = st.columns(2)
    left.markdown("**Word vectors**")
    left.text(corpora_models.vectors_description())
    right.markdown("**Tagger (candidate phrases)**")
    right.text(corpora_models.tagger_description())
    widgets.archives_note()

st.header("Your own corpus")
widgets.upload_report()
widgets.upload_corpus()
