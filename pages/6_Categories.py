"""Categories: each category's most discriminative words under dkw's metrics or the field's
standards (Fightin' Words, c-TF-IDF), the list's quality (coherence, exclusivity, absent share),
why each word is there (its count in the category against elsewhere), two categories side by
side, and through which phrases the category's documents reach each word."""
from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from dkw_app import category_view, keywords_door, resources, study_ui, widgets
from dkw_app.untrusted import isolate, md
from dkw_core.errors import DkwError
from dkw_core.keywords.categories import compare_categories
from dkw_core.types import DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP

st.set_page_config(page_title="dkw — categories", page_icon="🏷️", layout="wide")
study_ui.require_mode_access("categories")  # DKW_MODE=study: organisers only
st.title("Categories and their own words")
st.caption("dkw's metrics score every (word, category) pair from the training split: a category's best-scored "
           "words describe it. Words over-represented in the category only; a tf- metric multiplies by the "
           "word's occurrences in the category (docs/method.md §7). Fightin' Words and c-TF-IDF, the field's "
           "standards, score the category's own words instead.")
sample = widgets.sample_note()
widgets.preparation_jobs()  # a preparation running on the server: progress, time left, Cancel
k_max = DEFAULT_K

infos = widgets.guarded(resources.dataset_infos, default=[]) or []
names = [str(i["name"]) for i in infos if i.get("available")]
if not names:
    st.info("No corpus archive is available yet: download one on the Home page.")
    st.stop()

c1, c2, c3, c4 = st.columns([1, 1, 1, 1])
with c1:
    name = widgets.select("Corpus", names, key="cat_corpus", default=resources.first_prepared(names, sample, k_max))
with c2:
    methods = widgets.guarded(keywords_door.method_names, default=[]) or []
    metric = widgets.select("Method", methods, key="cat_metric", default=DEFAULT_METRIC,
                            format_func=keywords_door.method_label,
                            help="dkw's metrics (paper Table 2) score the words the category's phrases reach in "
                                 "word-vector space; Fightin' Words and c-TF-IDF, the field's standards, score the "
                                 "category's own words.")
peer = keywords_door.is_peer(metric)
with c3:
    k = st.number_input("K — nearest words per phrase", 1, k_max, DEFAULT_K, key="cat_k", disabled=peer,
                        help="Not used by Fightin' Words and c-TF-IDF: they read the category's own words." if peer
                        else None)
with c4:
    top = st.number_input("N — words per category", 1, 100, DEFAULT_TOP, key="cat_top")

if not widgets.prepare_panel(name, sample, k_max, key="cat_prepare"):
    st.stop()
model = widgets.or_stop(lambda: resources.model(name, sample, k_max))
categories = list(model.categories)
NONE = "— none —"
c1, c2 = st.columns(2)
with c1:
    category = widgets.select("Category", categories, key="cat_category",
                              default="comp.graphics" if "comp.graphics" in categories else None)
with c2:
    other = widgets.select("Compare with", [NONE, *[c for c in categories if c != category]], key="cat_other",
                           default=NONE)
label = keywords_door.method_label(metric)


@st.cache_data(show_spinner=False, max_entries=64)
def provenance(name: str, sample: int | None, k_max: int, cat: str, metric: str, k: int, top: int) -> dict:
    """The phrases through which a category's documents reach each of its words (a metric's list)."""
    words = list(resources.model(name, sample, k_max).category_keywords(cat, metric=metric, k=k, top=top))
    return {w.word: tuple(w.phrases) for w in words}


def list_of(cat: str) -> tuple:
    """(terms, table, seconds to rank the words) of one category."""
    t0 = time.perf_counter()
    terms = resources.category_terms(name, sample, k_max, cat, metric, int(k), int(top))
    seconds = time.perf_counter() - t0
    phrases = None if peer else provenance(name, sample, k_max, cat, metric, int(k), int(top))
    return terms, category_view.words_frame(terms, phrases=phrases, k=None if peer else int(k)), seconds


with st.spinner("Ranking the category's words…"):
    lists = widgets.or_stop(lambda: [list_of(category)] + ([list_of(other)] if other != NONE else []))
vectors_name = resources.loaded_vectors_name()
setup = (f"{md(name)} · {md(label)} · own words of the training split" if peer else
         f"{md(name)} · metric {md(metric)} · K={k} · vectors {md(vectors_name)} · statistics from the training split")
st.caption(f"{setup} · N={top} · ranked in {lists[0][2]:.2f} s")

COLORS = ("#4c78a8", "#f58518")
# Answer first: each list's quality (filled in last: NPMI takes seconds the first time), then its
# scores or why its words are there. A lazy tab: the scatter is computed and drawn only once asked
# for (drawn beside the bars, it was 0.6 s of the page's first open: BENCHMARKS.md).
slots = []
for col, (terms, frame, _s) in zip(st.columns(len(lists)), lists):
    with col:
        st.markdown(f"Quality of **{md(terms.category)}**'s top {len(frame)}")
        slots.append(st.empty())
        slots[-1].caption("Measuring its coherence (NPMI over the test split)…")
note = st.empty()
t_scores, t_why = st.tabs(["Scores", "Why these words"], key="cat_tab", on_change="rerun")
with t_scores:
    for col, (terms, frame, _s), color in zip(st.columns(len(lists)), lists, COLORS):
        with col:
            st.vega_lite_chart(category_view.bar_chart(frame, title=f"{isolate(terms.category)}: top {len(frame)} "
                                                       f"words by {label}", color=color, label=label,
                                                       title_width=category_view.TITLE_WIDTH // len(lists)),
                               width="stretch", key=f"chart_{terms.category}")
with t_why:
    if t_why.open:
        st.caption("In the category against elsewhere: each word's count in the category against its count in the "
                   "other categories (" +
                   ("occurrences of the word in the training split" if peer else
                    "training documents whose phrases reach the word among their K nearest words") +
                   "), log scales, zero at the 0 tick. The list's words are labelled; grey: other words of the "
                   "category, the most frequent of each region of the plane; above the dashed line a word is more "
                   "frequent in the category than elsewhere, relative to their sizes. Hover a point for its score.")
        for col, (terms, _f, _s), color in zip(st.columns(len(lists)), lists, COLORS):
            with col:
                st.plotly_chart(category_view.scatter_chart(terms, title=f"{isolate(terms.category)}: why these words",
                                                            label=label, color=color, width=820 // len(lists)),
                                width="stretch", key=f"scatter_{terms.category}")

frames = [frame for _t, frame, _s in lists]
first, second = frames[0], frames[1] if len(frames) > 1 else None
if second is not None:
    compared = compare_categories(list(first["word"]), list(second["word"]))
    st.subheader("Shared and distinct words")
    a, b, c = st.columns(3)
    a.markdown(f"**Only {md(category)}**")
    a.text("\n".join(compared["only_first"]) or "—")
    b.markdown("**Shared**")
    b.text("\n".join(compared["shared"]) or "—")
    c.markdown(f"**Only {md(other)}**")
    c.text("\n".join(compared["only_second"]) or "—")

st.subheader("Words and their counts")
st.caption("in_category / elsewhere: " + (
    "occurrences of the word in the category's / the other categories' training documents (share_%, elsewhere_%: "
    "of all their words)." if peer else
    "training documents of the category / of the other categories whose phrases reach the word among their K nearest "
    "words (share_%, elsewhere_%: of those documents); phrases: the phrases through which most of the category's "
    "documents reach it, with their document counts."))
table = pd.concat(frames, ignore_index=True)
if peer:  # own words: no phrase provenance
    table = table.drop(columns="phrases")
st.dataframe(table, hide_index=True, key="cat_table")
widgets.csv_download(table, label="Download words (CSV)", file_name=f"categories-{name}-{metric}-K{k}-N{top}.csv",
                     key="cat_csv")  # the one CSV writer (dkw_core.csvsafe): formulas neutralised, controls escaped

for slot, (terms, _f, _s) in zip(slots, lists):
    with slot.container():
        try:
            quality = resources.category_quality(name, sample, terms.category, tuple(terms.words)) if terms.words else None
        except DkwError as exc:  # e.g. a corpus without a test split: no reference texts for NPMI
            widgets.show_error(exc)
            continue
        for box, (what, value, why) in zip(st.columns(3), category_view.quality_figures(quality)):
            box.metric(what, value, help=why)
        if quality is not None:  # one reference and window for every list: stated once
            note.caption(md(category_view.quality_note(quality)))
