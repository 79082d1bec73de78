"""dkw explorer — Home: corpora (download, preparation), vectors, tagger, page links.

Sajgalik, Barla & Bielikova (CSL 2017): discriminative keywords found in word-vector space.
The page computes nothing itself; every step is a ``dkw_core`` call via ``dkw_app``.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import backend, resources, study_ui, widgets
from dkw_app.untrusted import md

st.set_page_config(page_title="dkw — discriminative keywords", page_icon=":material/key:", layout="wide")
study_ui.require_mode_access("home")  # DKW_MODE=study: organisers only
st.title("Discriminative keywords in word-vector space")
st.caption("Sajgalik, Barla & Bielikova, *Searching for Discriminative Words in Multidimensional "
           "Continuous Feature Space*, Computer Speech & Language 2017.")

widgets.page_links()
sample = widgets.sample_note()

st.header("Models")
left, right = st.columns(2)
left.markdown("**Word vectors**")
left.text(backend.vectors_description())
right.markdown("**Tagger (candidate phrases)**")
right.text(backend.tagger_description())
k_max = backend.DEFAULT_K_MAX

st.header("Corpora")
widgets.archives_note()
infos = widgets.guarded(resources.dataset_infos, default=[]) or []
if not infos:
    st.info("No corpus is known to the library yet.")
else:
    table = pd.DataFrame(infos)
    st.dataframe(table, hide_index=True, key="datasets_table")

for info in infos:
    name = str(info.get("name"))
    box = st.container(border=True)
    box.subheader(md(name), anchor=False)  # an uploaded corpus's name: never markdown, no anchor made of it
    if not info.get("available"):
        widgets.missing_corpus(info, box)
        continue
    if widgets.prepare_panel(name, sample, k_max, key=f"prepare_{name}", box=box):
        box.success(f"Prepared: tagged, and the K={k_max} nearest words of every phrase cached.")

st.header("Your own corpus")
widgets.upload_report()
widgets.upload_corpus()
