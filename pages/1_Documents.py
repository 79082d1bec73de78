"""Documents: pick a document (or bring your own text), read it as plain text, and compare its
top-N keywords under several metrics side by side (paper Tables 3–6), with provenance and the
phrases behind a keyword highlighted in the text."""
from __future__ import annotations

import streamlit as st

from dkw_app import browse, corpora_models, keyword_views, keywords_door, resources, study_ui, tables, widgets
from dkw_app.untrusted import isolate, md
from dkw_core.errors import DkwError
from dkw_core.keywords.newtexts import about_asked
from dkw_core.metrics import METRICS
from dkw_core.neighbours import DEFAULT_NEIGHBOURS, NEIGHBOURS_CHOICES
from dkw_core.types import DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP, NEW_TEXT_PROTOCOL, NEW_TEXT_PROTOCOLS, PROTOCOLS

st.set_page_config(page_title="dkw — documents", page_icon=":material/description:", layout="wide")
study_ui.require_mode_access("documents")  # DKW_MODE=study: organisers only
st.title("Documents and their keywords")
sample = widgets.sample_note()
widgets.preparation_jobs()  # a preparation running on the server: progress, time left, Cancel
k_max = DEFAULT_K

infos = widgets.guarded(resources.dataset_infos, default=[]) or []
names = [str(i["name"]) for i in infos if i.get("available")]
missing = [i for i in infos if not i.get("available")]
# built-in corpora without their archive whose shipped statistics answer a new text (as on Home)
text_only = [str(i["name"]) for i in missing
             if widgets.guarded(lambda i=i: keywords_door.shipped_answers(str(i["name"]), sample=sample), default=False)]
wanted = st.query_params.get("doc")
wanted_missing = [i for i in missing if wanted and str(wanted).split("/", 1)[0] == i.get("name")]
if not (names or text_only) or wanted_missing:
    if not names:
        st.info("No corpus archive is available yet: download one here.")
    for info in wanted_missing or missing:
        widgets.missing_corpus(info)
    st.stop()
if not names:
    st.info("No corpus archive is available yet: your own text is answered from the statistics shipped with dkw; "
            "download a corpus (below) to browse its documents.")
undistributed = widgets.not_distributed(missing)
to_download = [i for i in missing if i not in undistributed]
if to_download:
    with st.expander(f"Corpora not downloaded yet ({len(to_download)})"):
        for info in to_download:
            widgets.missing_corpus(info)
widgets.not_distributed_note(undistributed)

# A link such as ?doc=20ng/test/comp.graphics/38758 preselects that document.
if wanted and st.session_state.get("_doc_param") != wanted:
    st.session_state["_doc_param"] = wanted
    corpus_name = wanted.split("/", 1)[0]
    if corpus_name in names:
        st.session_state["doc_corpus"] = corpus_name
        st.session_state["doc_query"] = wanted

# ------------------------------------------------------------------ choose a document
CORPUS_DOC, OWN_TEXT = "a document of the corpus", "your own text"
sources = (CORPUS_DOC, OWN_TEXT) if names else (OWN_TEXT,)
if st.session_state.get("doc_source") not in sources:
    st.session_state.pop("doc_source", None)
# read before the radio is drawn: a new text may use a corpus whose archive is missing (shipped statistics)
own_text = st.session_state.get("doc_source", sources[0]) == OWN_TEXT
c1, c2, c3 = st.columns([1, 1, 2])
with c1:
    name = widgets.select("Corpus", names + text_only if own_text else names, key="doc_corpus",
                          default=resources.first_prepared(names, sample, k_max))
source = st.radio("Keywords of", sources, key="doc_source", horizontal=True,
                  help="Your own text is scored with the statistics of the corpus's training split: the ones "
                       "shipped with dkw (a built-in corpus at the default K and nearest words) or the prepared "
                       "corpus's.")
# ------------------------------------------------------------------ keyword options
with st.sidebar:
    st.header("Keywords")
    all_metrics = list(METRICS)
    metrics = st.multiselect("Metrics (columns)", all_metrics,
                             default=[DEFAULT_METRIC] if DEFAULT_METRIC in all_metrics else all_metrics[:1],
                             key="kw_metrics", help="Paper Table 2 (add rf, tds, tf-idf… to compare them side by side, "
                                                    "as the paper's Tables 3–6); tf- variants multiply by tf(w, d).")
    methods = st.multiselect("Other methods (columns)", widgets.guarded(keywords_door.keyword_methods, default=[]) or [],
                             key="kw_methods",
                             help="Methods of the registry beside dkw's metrics, a column each: third-party "
                                  "extractors (YAKE!, TextRank, any added with register_extractor; their own "
                                  "keywords, no provenance) and a metric over the document's own words (the "
                                  "paper's method A, its provenance the word itself; docs/extractors.md).")
    k = st.number_input("K — nearest words per phrase", 1, k_max, DEFAULT_K, key="kw_k")
    top = st.number_input("N — keywords per metric", 1, 100, DEFAULT_TOP, key="kw_top")
    if source == OWN_TEXT:  # a new text has no gold category: the label-free protocols, top-1 first
        protocol = st.radio("Protocol", list(NEW_TEXT_PROTOCOLS), key="kw_text_protocol",
                            index=list(NEW_TEXT_PROTOCOLS).index(NEW_TEXT_PROTOCOL),
                            format_func=lambda p: f"{p} ({keywords_door.PROTOCOL_HELP[p]})")
    else:
        protocol = st.radio("Protocol", PROTOCOLS, key="kw_protocol",
                            format_func=lambda p: f"{p} ({keywords_door.PROTOCOL_HELP[p]})")
    about = keyword_views.about_slider("kw_about")
    neighbours = widgets.select("Nearest words (step 3)", list(NEIGHBOURS_CHOICES), key="kw_neighbours",
                                default=DEFAULT_NEIGHBOURS,
                                format_func=lambda s: f"{s} — {corpora_models.NEIGHBOURS_HELP.get(s, s)}",
                                help="How the K nearest words of a phrase are found. CSLS and all-but-the-top "
                                     "demote hub words that are near almost every phrase; each choice is "
                                     "prepared and cached separately.")


def ready_model():
    """The prepared model of the chosen corpus (a Prepare button until it is), or stop the page."""
    if not widgets.prepare_panel(name, sample, k_max, key="doc_prepare", neighbours=neighbours):
        st.stop()
    if not metrics:
        st.info("Choose at least one metric in the sidebar.")
        st.stop()
    return widgets.or_stop(lambda: resources.model(name, sample, k_max, neighbours=neighbours))


if source == OWN_TEXT:
    shipped = widgets.guarded(lambda: keywords_door.shipped_answers(name, sample=sample, k=int(k), neighbours=neighbours),
                              default=False)
    text = keyword_views.own_text_input()
    if text is None:
        where = "shipped statistics" if shipped else "prepared corpus"
        st.info(f"Paste a text or choose a file: its keywords are scored with the statistics of {md(name)}'s "
                f"training split ({where}), weighted by default with the category a classifier predicts for it "
                f"({NEW_TEXT_PROTOCOL}).")
        st.stop()
    if shipped:
        if not metrics:  # the shipped statistics answer at once: no preparation
            st.info("Choose at least one metric in the sidebar.")
            st.stop()
        model = widgets.or_stop(lambda: resources.shipped_model(name, int(k)))
    elif name not in names:  # only its shipped statistics are here, and they do not answer these settings
        st.info(f"{md(name)}'s shipped statistics answer at K = {DEFAULT_K} with {DEFAULT_NEIGHBOURS} "
                "nearest words; other settings need the prepared corpus, so its archive (Corpora not downloaded "
                "yet, above).")
        st.stop()
    else:
        model = ready_model()
    keyword_views.own_text_keywords(model, text, corpus=name, metrics=metrics, k=int(k), top=int(top),
                                    protocol=protocol, vectors=resources.loaded_vectors_name(),
                                    neighbours=neighbours,  # the default: the default rule (out of corpus: 0)
                                    about=about_asked(about))
    st.stop()
corpus = widgets.or_stop(lambda: resources.corpus(name, sample))
example = corpus.get(corpora_models.EXAMPLE_DOC) if corpora_models.EXAMPLE_DOC in corpus else None
# A search for an exact document id selects that document's split and category.
typed = str(st.session_state.get("doc_query") or "").strip()
if typed and st.session_state.get("_doc_jumped") != typed:
    st.session_state["_doc_jumped"] = typed
    if typed in corpus:
        hit = corpus.get(typed)
        st.session_state["doc_split"], st.session_state["doc_category"] = hit.split, hit.label
        st.session_state["doc_id"] = hit.id
with c2:
    split = widgets.select("Split", browse.SPLITS, key="doc_split",
                           default=example.split if example else "test")
cats = resources.categories(name, sample, split)
with c3:
    category = widgets.select("Category", cats, key="doc_category",
                              default=example.label if example else None)
query = st.text_input("Search by document id or text", key="doc_query",
                      placeholder="e.g. 38758 or 'video'")
ids = resources.search(name, sample, split, category, query)
if not ids:
    st.warning("No document of this split and category matches the search.")
    st.stop()
st.caption(f"{len(ids)} matching document(s).")
doc_id = widgets.select("Document", ids, key="doc_id", default=corpora_models.EXAMPLE_DOC)
doc = corpus.get(doc_id)

left, right = st.columns([1, 1])
with left:
    st.subheader(md(doc.id), anchor=False)  # an id is untrusted (an uploaded corpus, a ?doc= link): no markdown,
                                            # and no anchor link made of it
    st.text(f"category {isolate(doc.label)} · split {isolate(doc.split)} · {len(doc.text):,} characters")
    pick_box = st.empty()
    doc_box = st.empty()
    keyword_views.show_document(doc.text, None, doc_box)  # as written until its keyphrases are marked

with right:
    st.subheader("Top keywords per metric")
    model = ready_model()
    try:
        by_metric = {m: model.keywords(doc.id, metric=m, k=int(k), top=int(top), protocol=protocol, about=about)
                     for m in metrics}
        category_words = {} if about >= 1.0 else {
            m: model.keywords(doc.id, metric=m, k=int(k), top=int(top), protocol=protocol) for m in metrics}
    except DkwError as exc:
        widgets.show_error(exc)
        st.stop()
    vectors_name = resources.loaded_vectors_name()
    st.caption(f"protocol {protocol} · K={k} · N={top} · about = {about:g} · vectors {md(vectors_name)} · "
               f"nearest words by {neighbours} · statistics from the training split")
    if neighbours != DEFAULT_NEIGHBOURS:
        vectors_name = f"{vectors_name} ({neighbours})"
    others = keyword_views.method_columns(methods, doc, corpus=corpus, top=int(top), protocol=protocol)
    keyword_views.keyword_table({**keyword_views.with_category_words(by_metric, category_words), **others},
                                top=int(top))
    widgets.csv_download(tables.keywords_long({**by_metric, **others}, doc_id=doc.id, protocol=protocol, k=int(k),
                                              vectors=vectors_name),
                         label="Download keywords (CSV)", file_name="keywords.csv", key="kw_csv")
    widgets.split_download(name, sample, k_max, split=split, metrics=metrics, k=int(k), top=int(top),
                           protocol=protocol)
    by_metric = {**by_metric, **{m: kws for m, kws in others.items() if keywords_door.has_provenance(m)}}
    keyword_views.provenance(by_metric, key="doc")

with pick_box.container():
    chosen = keyword_views.highlight_choice(by_metric, pick_box, key="doc_highlight")
if chosen is not None:
    keyword_views.show_document(doc.text, chosen, doc_box)
else:  # the document's own keyphrases marked
    keyword_views.show_keyphrases(doc.text, [kw for m in metrics for kw in by_metric.get(m, [])], doc_box)
