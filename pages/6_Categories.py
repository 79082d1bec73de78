"""Categories: each category's most discriminative words (the metric's scores of the training
split), two categories side by side, and through which phrases the category's documents
reach each word."""
from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from dkw_app import backend, category_view, resources, study_ui, widgets
from dkw_app.untrusted import md
from dkw_core.errors import DkwError

st.set_page_config(page_title="dkw — categories", page_icon="🏷️", layout="wide")
study_ui.require_mode_access("categories")  # DKW_MODE=study: organisers only
st.title("Categories and their own words")
st.caption("The metrics score every (word, category) pair from the training split: a category's best-scored "
           "words describe it. Words over-represented in the category only; a tf- metric multiplies by the "
           "word's occurrences in the category (docs/method.md §7).")
sample = widgets.sample_note()
widgets.preparation_jobs()  # a preparation running on the server: progress, time left, Cancel
k_max = backend.DEFAULT_K_MAX

infos = widgets.guarded(resources.dataset_infos, default=[]) or []
names = [str(i["name"]) for i in infos if i.get("available")]
if not names:
    st.info("No corpus archive is available yet: download one on the Home page.")
    st.stop()

c1, c2, c3, c4 = st.columns([1, 1, 1, 1])
with c1:
    name = widgets.select("Corpus", names, key="cat_corpus")
with c2:
    all_metrics = widgets.guarded(backend.metric_names, default=[]) or []
    metric = widgets.select("Metric", all_metrics, key="cat_metric", default=backend.DEFAULT_METRIC,
                            help="Paper Table 2. rf and tds favour words frequent in the category and rare "
                                 "elsewhere; ig and chi2 measure dependence.")
with c3:
    k = st.number_input("K — nearest words per phrase", 1, k_max, backend.DEFAULT_K, key="cat_k")
with c4:
    top = st.number_input("N — words per category", 1, 100, backend.DEFAULT_TOP, key="cat_top")

if not widgets.prepare_panel(name, sample, k_max, key="cat_prepare"):
    st.stop()
try:
    model = resources.model(name, sample, k_max)
except DkwError as exc:
    widgets.show_error(exc)
    st.stop()
categories = list(model.categories)
NONE = "— none —"
c1, c2 = st.columns(2)
with c1:
    category = widgets.select("Category", categories, key="cat_category",
                              default="comp.graphics" if "comp.graphics" in categories else None)
with c2:
    other = widgets.select("Compare with", [NONE, *[c for c in categories if c != category]], key="cat_other",
                           default=NONE)


@st.cache_data(show_spinner=False, max_entries=64)
def category_words(name: str, sample: int | None, k_max: int, cat: str, metric: str, k: int, top: int) -> list:
    """One category's words (computed once per choice; the model's statistics are cached per K)."""
    return backend.category_keywords(resources.model(name, sample, k_max), cat, metric=metric, k=k, top=top)


def words_of(cat: str) -> tuple:
    """(frame, seconds to get the words) of one category."""
    t0 = time.perf_counter()
    words = category_words(name, sample, k_max, cat, metric, int(k), int(top))
    return category_view.words_frame(cat, words, metric=metric, k=int(k)), time.perf_counter() - t0


try:
    with st.spinner("Ranking the category's words…"):
        first, seconds = words_of(category)
        second = words_of(other)[0] if other != NONE else None
except DkwError as exc:
    widgets.show_error(exc)
    st.stop()
vectors_name = resources.loaded_vectors_name()
st.caption(f"{md(name)} · metric {metric} · K={k} · N={top} · vectors {md(vectors_name)} · statistics from the training "
           f"split · computed in {seconds:.2f} s")

frames = [first] if second is None else [first, second]
for col, frame, color in zip(st.columns(len(frames)), frames, ("#4c78a8", "#f58518")):
    with col:
        cat = frame["category"].iloc[0] if len(frame) else ""
        st.plotly_chart(category_view.bar_chart(frame, title=f"{cat}: top {len(frame)} words by {metric}",
                                                color=color), use_container_width=True, key=f"chart_{cat}")
if second is not None:
    shared = [w for w in first["word"] if w in set(second["word"])]
    st.subheader("Shared and distinct words")
    a, b, c = st.columns(3)
    a.markdown(f"**Only {md(category)}**")
    a.text("\n".join(w for w in first["word"] if w not in set(shared)) or "—")
    b.markdown("**Shared**")
    b.text("\n".join(shared) or "—")
    c.markdown(f"**Only {md(other)}**")
    c.text("\n".join(w for w in second["word"] if w not in set(shared)) or "—")

st.subheader("Provenance across the training split")
st.caption("documents: training documents of the category whose phrases reach the word among their K nearest "
           "words (share_%: of the category's documents; elsewhere_%: of the other categories' documents); "
           "phrases: the phrases through which most of them reach it, with their document counts.")
table = pd.concat(frames, ignore_index=True)
st.dataframe(table, hide_index=True, key="cat_table")
st.download_button("Download words (CSV)", data=category_view.csv_bytes(table),
                   file_name=f"categories-{name}-{metric}-K{k}-N{top}.csv", mime="text/csv", key="cat_csv",
                   disabled=table.empty)
