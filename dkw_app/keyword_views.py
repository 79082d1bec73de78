"""The Documents page's keyword views: a keyword table with named provenance, the phrases
behind a chosen keyword highlighted in the (escaped) document, and the panel for a text the
visitor brings (pasted or a file), weighted with its predicted category."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from dkw_core.config import max_text_mb
from dkw_core.errors import DkwError
from dkw_core.types import DEFAULT_ABOUT

from . import corpora_models, keywords_door, tables, widgets
from .highlight import highlight_html
from .untrusted import isolate, md

NONE = "— none —"
ABOUT_LABEL = "About this text ↔ about its category"
ABOUT_HELP = ("0: the text's own keyphrases, ranked by how close they are to the text; 1: its category's "
              "discriminative words (the paper's keywords); in between, the text's own phrases ranked also by "
              "how discriminative their nearest words are for the category (docs/method.md §13). At the "
              "default, a new text that fits the corpus poorly gets its own phrases only (0).")


def about_slider(key: str, box: Any = st) -> float:
    """The one control between "about this text" (0) and "about its category" (1)."""
    return float(box.slider(ABOUT_LABEL, 0.0, 1.0, float(DEFAULT_ABOUT), 0.1, key=key, help=ABOUT_HELP))


def fit_notice(weighting: Any, fit: Any, corpus: str, about: float | None = None) -> None:
    """Which category weighted the words (and how sure), and a warning when the text fits the
    corpus poorly (its keywords are then about the text itself, unless ``about`` was set above 0)."""
    if weighting is not None:
        st.markdown(f"**{weighting.describe(md)}**")
    if fit is not None and fit.out_of_corpus:
        then = ("Its keywords are its own phrases, not a category's vocabulary (about = 0)." if not about else
                f"Its keywords are blended with that category's words at the about = {about:g} you chose; "
                f"{DEFAULT_ABOUT:g} (the default) gives its own phrases only.")
        st.warning(f"This text fits {md(corpus)} poorly: the nearest category is {md(fit.nearest)} at distance "
                   f"{fit.distance:.2f}, the classifier's P is {fit.p:.2f}. {then}",  # each value isolated by md
                   icon=":material/travel_explore:")


def show_keyphrases(text: str, kws: Sequence[Any], box: Any) -> None:
    """The text in ``box`` with its own keyphrases marked (escaped HTML)."""
    spellings = keywords_door.own_phrase_spellings(kws)
    with box.container():
        if not spellings:
            widgets.show_document(text)
            return
        markup, found = highlight_html(text, spellings)
        st.caption(f"The text's own keyphrases marked ({found} occurrence(s)).")
        st.html(markup)


def keyphrase_answer(text: str, found: Any, *, corpus: str, key: str) -> None:
    """Home's answer: the text with its keyphrases marked, the keywords and the category's
    words beside them, which category weighted them and how well the text fits the corpus."""
    fit_notice(found.weighting, found.fit, corpus, found.about)
    left, right = st.columns([3, 2])
    show_keyphrases(text, list(found), left.empty())
    with right:
        # each word isolated: a right-to-left override in one cannot reverse the rest of the line
        st.text("Keywords: " + (", ".join(isolate(kw.word) for kw in found) if found else
                                "none found (too few known words)"))
        if found.category_words:
            where = f" of {isolate(found.weighting.category)}" if found.weighting is not None else ""
            st.text(f"The category's discriminative words{where}: "
                    + ", ".join(isolate(kw.word) for kw in found.category_words))
        st.caption(f"about = {found.about:g}: 0 is about this text (its own phrases), 1 about its category "
                   "(the paper's words). The marked phrases in the text are its own keyphrases.")


def keyword_label(kw: Any) -> str:
    """An expander label naming its keyword: ``rendering — score 1.194, tf 8`` (the word made
    inert: a label is markdown)."""
    return f"{md(kw.word)} — score {float(kw.score):.4g}, tf {kw.tf}"


def keyword_table(by_metric: Mapping[str, Sequence[Any]], *, top: int) -> None:
    # st.table renders cells as markdown: escape them so every keyword shows exactly as stored
    st.table(tables.keyword_table(by_metric, top=top).map(md))


def method_columns(methods: Sequence[str], doc: Any, *, corpus: Any, top: int, protocol: str) -> dict[str, list]:
    """The keywords of ``doc`` by each chosen registered method (a column each beside dkw's
    metrics), with one caption line per method saying what it is and what it reads; a method
    that fails (a missing extra) is one error line, the others still shown."""
    out: dict[str, list] = {}
    for spec in methods:
        try:
            with st.spinner(f"{spec}: extracting keywords…"):
                out[spec] = keywords_door.method_keywords(spec, doc, corpus=corpus, top=top, protocol=protocol)
        except DkwError as exc:
            widgets.show_error(exc)
    if out:
        st.caption(" · ".join(
            f"{md(spec)}: {md(keywords_door.method_help(spec))}"
            + (f" (protocol {protocol})" if keywords_door.has_provenance(spec) else "; its own keywords, no provenance")
            for spec in out))
    return out


def provenance(by_metric: Mapping[str, Sequence[Any]], *, key: str) -> None:
    """One tab per metric, one expander per keyword, named by the keyword."""
    st.markdown("**Provenance** — the phrases of the document that led to each keyword")
    metrics = list(by_metric)
    for tab, metric in zip(st.tabs(metrics), metrics):
        with tab:
            for kw in by_metric[metric]:
                with st.expander(keyword_label(kw)):
                    st.text(kw.word)  # the word itself, as plain text
                    st.dataframe(tables.provenance_table(kw), hide_index=True)


def highlight_choice(by_metric: Mapping[str, Sequence[Any]], box: Any, *, key: str) -> Any:
    """A selectbox in ``box`` of every (metric, keyword); the chosen keyword or ``None``."""
    options = [NONE] + [f"{m}: {kw.word}" for m, kws in by_metric.items() for kw in kws]
    lookup = {f"{m}: {kw.word}": kw for m, kws in by_metric.items() for kw in kws}
    choice = widgets.select("Highlight the phrases behind a keyword", options, key=key, default=NONE,
                            help="Marks in the document every occurrence of the phrases whose K nearest "
                                 "words include the keyword.")
    return lookup.get(choice)


def show_document(text: str, keyword: Any, box: Any) -> None:
    """The document in ``box`` as escaped HTML: as written, or with ``keyword``'s phrases marked
    (no code block: Streamlit's syntax highlighter cost the browser 0.7 s on a document)."""
    with box.container():
        if keyword is None:
            st.html(highlight_html(text, [])[0])
            return
        markup, found = highlight_html(text, [p.phrase for p in keyword.provenance])
        st.caption(f"{found} occurrence(s) of the {len(keyword.provenance)} phrase(s) behind "
                   f"“{md(keyword.word)}” marked.")
        st.html(markup)


# ------------------------------------------------------------------ a text the visitor brings

def own_text_input() -> str | None:
    """A text box and a file input; the text (file first), or ``None`` with nothing given."""
    pasted = st.text_area("Paste a text", key="own_text", height=180,
                          placeholder="Paste an article, an abstract, a post…")
    limit = widgets.guarded(max_text_mb, default=None)
    if limit is None:
        return None
    upload = st.file_uploader("…or a UTF-8 text file", type=["txt", "md", "text"], key="own_file",
                              max_upload_size=widgets.upload_limit(limit),
                              help=f"at most {limit:g} MB (DKW_MAX_TEXT_MB)")
    if upload is not None:
        try:
            return corpora_models.decode_upload(upload.getvalue(), upload.name)
        except DkwError as exc:
            widgets.show_error(exc)
            return None
    return pasted if pasted and pasted.strip() else None


def with_category_words(by_metric: Mapping[str, Sequence[Any]],
                        category_words: Mapping[str, Sequence[Any]]) -> dict[str, Sequence[Any]]:
    """The keyword columns, each metric's category words beside its keyphrases."""
    out: dict[str, Sequence[Any]] = {}
    for m, kws in by_metric.items():
        out[m] = kws
        if category_words.get(m):
            out[f"{m}: category words"] = category_words[m]
    return out


def own_text_keywords(model: Any, text: str, *, corpus: str, metrics: Sequence[str], k: int, top: int,
                      protocol: str, vectors: str, neighbours: str, about: float | None = None) -> None:
    """Keywords of a new text, with the category its words are weighted with; when the
    posterior is unsure, the keywords under each of the two most probable categories."""
    try:
        with st.spinner("Tagging the text and finding its keywords…"):
            result = keywords_door.new_text_keywords(model, text, corpus=corpus, metrics=metrics, k=k, top=top,
                                               protocol=protocol, about=about)
    except DkwError as exc:
        widgets.show_error(exc)
        return
    weighting = result["weighting"]
    st.caption(f"protocol {protocol} · K={k} · N={top} · about = {result.get('about', 1.0):g} · vectors {md(vectors)} · "
               f"nearest words by {neighbours} · statistics from the training split ({result['source']})")
    if result.get("fit") is not None and result["fit"].out_of_corpus:
        fit_notice(None, result["fit"], corpus, result.get("about"))
    left, right = st.columns([1, 1])
    with left:
        st.subheader("Your text")
        pick = st.empty()
        doc_box = st.empty()
    with right:
        by_metric = result["keywords"]
        shown = with_category_words(by_metric, result.get("category_words") or {})
        if weighting is None:
            st.subheader("Top keywords per metric")
            st.caption("label-free: each word scored by its best category")
            keyword_table(shown, top=top)
        elif not result["by_category"]:
            st.subheader("Top keywords per metric")
            st.markdown(f"**{weighting.describe(md)}**")
            keyword_table(shown, top=top)
        else:
            st.subheader("Two likely categories")
            st.warning(f"The classifier is unsure — {weighting.describe(md)}. The keywords under each of the two "
                       "most probable categories, one above the other.")
            probs = {weighting.category: weighting.probability, weighting.runner_up: weighting.runner_up_probability}
            # one under the other, each table as wide as the single-category one: side by side, two
            # tables of several metrics cut words off and hid a metric below ~1400 px
            for cat, kws in result["by_category"].items():
                st.markdown(f"**weighted as {md(cat)}, P = {probs[cat]:.2f}**")
                keyword_table(kws, top=top)
        widgets.csv_download(tables.keywords_long(by_metric, doc_id="your text", protocol=protocol, k=k,
                                                  vectors=vectors),
                             label="Download keywords (CSV)", file_name="keywords-your-text.csv", key="own_csv")
        provenance(by_metric, key="own")
    with pick.container():
        chosen = highlight_choice(by_metric, pick, key="own_highlight")
    if chosen is None:
        show_keyphrases(text, [kw for kws in by_metric.values() for kw in kws], doc_box)
    else:
        show_document(text, chosen, doc_box)
