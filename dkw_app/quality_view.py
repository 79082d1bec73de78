"""The Metrics page's *Words* tab: whether each method's document keywords are about the document or
about its category (topic against category, docs/method.md §12), then how coherent and how exclusive
each method's category words are (docs/method.md §10); the quality table,
``docs/results/quality/quality.json``, answer first.

:func:`topic_category_chart`, :func:`documents_table`, :func:`words_chart` and :func:`words_table` are pure (a table of
:func:`dkw_core.evaluation.wordlists.load_quality` in, a plotly figure or the shown DataFrame
out); :func:`show_words` is the tab itself (Streamlit imported inside, so this module imports
without it). Every corpus or method text in a chart goes through :func:`untrusted.plotly`.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from dkw_core.evaluation.wordlists import (
    CATEGORY_AXIS,
    CATEGORY_LIST_KINDS,
    DOCUMENT_COLUMNS,
    FIGHTIN_WORDS,
    OWN_WORDS,
    QUALITY_COLUMNS,
    TOPIC_AXIS,
    default_document_method,
    front_sentence,
    method_kind_of,
    pareto_front,
    quality_summary,
)
from dkw_core.types import DEFAULT_METRIC

from .untrusted import md, plotly

NPMI, ABSENT, EXCL, MICRO, MACRO = (QUALITY_COLUMNS[f] for f in ("npmi", "absent_share", "exclusivity",
                                                                   "micro_f1", "macro_f1"))
#: The columns :func:`words_table` shows, in order.
SHOWN = ["method", "words", NPMI, ABSENT, EXCL, MICRO, MACRO]
#: One trace per role, drawn in this order (the default last, on top).
ROLES = {"latent": ("dkw metrics (latent words)", "circle", "#7f9cbf", 11),
         "peer": ("peers (own words)", "diamond", "#e07b00", 15),
         "default": ("the default metric", "star", "#c0143c", 20)}


def _points(rows: pd.DataFrame, default: str) -> pd.DataFrame:
    """One point per distinct (NPMI, exclusivity): methods with the same lists (rf and tds, ig and
    gr) share a marker named "rf = tds"; its role is the default's if the default is among them."""
    kept = rows.dropna(subset=[NPMI, EXCL])
    points = []
    for _, group in kept.groupby([kept[NPMI].round(4), kept[EXCL].round(4)], sort=False):
        ids = list(group["id"])
        role = ("default" if default in ids else
                "peer" if any(w == OWN_WORDS for w in group["words"]) else "latent")
        first = group.iloc[0]
        points.append({"name": " = ".join(group["method"]), "role": role, "ids": ids, "words": first["words"],
                       NPMI: first[NPMI], ABSENT: first[ABSENT], EXCL: first[EXCL], MICRO: first[MICRO],
                       MACRO: first[MACRO]})
    return pd.DataFrame(points)


def _label_positions(points: pd.DataFrame, labelled: set) -> dict:
    """Where each labelled point's name goes: above it, unless a labelled point higher up sits
    close by (the two names would overlap), then below it."""
    dx = max(float(points[NPMI].max() - points[NPMI].min()), 0.05) * 0.2  # a name is about a fifth of the axis wide
    dy = max(float(points[EXCL].max() - points[EXCL].min()), 0.05) * 0.1  # and a tenth high
    where = {}
    for i in sorted(labelled, key=lambda j: -points.at[j, EXCL]):
        crowded = any(where[j] == "top center" and abs(points.at[j, NPMI] - points.at[i, NPMI]) < dx
                      and 0 <= points.at[j, EXCL] - points.at[i, EXCL] < dy for j in where)
        where[i] = "bottom center" if crowded else "top center"
    return where


def _hover(p) -> str:
    return (f"<b>{plotly(p['name'])}</b> ({plotly(p['words'])})<br>NPMI {p[NPMI]:+.3f} · "
            f"{p[ABSENT]:.1f} % of the words absent from the test split<br>exclusivity {p[EXCL]:.3f}<br>"
            f"micro-F1 {p[MICRO]:.2f} % · macro-F1 {p[MACRO]:.2f} %")


def words_chart(rows: pd.DataFrame, *, corpus: str, default: str, k: int, top: int, window: int,
                protocol: str) -> go.Figure:
    """Exclusivity against NPMI, one marker per method of ``rows`` (one corpus of
    :func:`load_quality`'s table): dkw's metrics, the peers and the default metric as three
    traces; Fightin' Words' two figures as dashed lines (above and right of both: better than the
    field's standard on both); F1 in the hover. The default, the peers and the best method on each
    axis are labelled on the chart; a method without a NPMI (no word of its lists in the test
    split) is not drawn."""
    points = _points(rows, default)
    fig = go.Figure()
    if not points.empty:
        latent = points[points["role"] == "latent"]
        labelled = {points[NPMI].idxmax(), points[EXCL].idxmax(),
                    *((latent[NPMI].idxmax(), latent[EXCL].idxmax()) if not latent.empty else ())}
        where = _label_positions(points, {i for i in points.index if i in labelled or points.at[i, "role"] != "latent"})
        for role, (name, symbol, colour, size) in ROLES.items():
            mine = points[points["role"] == role]
            if mine.empty:
                continue
            label = f"{name}: {plotly(mine['name'].iloc[0])}" if role == "default" else name
            fig.add_trace(go.Scatter(
                x=mine[NPMI].tolist(), y=mine[EXCL].tolist(), mode="markers+text", name=label,
                text=[plotly(p["name"]) if i in where else "" for i, p in mine.iterrows()],
                textposition=[where.get(i, "top center") for i in mine.index], textfont={"size": 12},
                marker={"symbol": symbol, "color": colour, "size": size, "line": {"width": 1, "color": "white"}},
                hovertext=[_hover(p) for _, p in mine.iterrows()], hoverinfo="text"))
    peer = rows[rows["id"] == FIGHTIN_WORDS]
    if not peer.empty:
        p = peer.iloc[0]
        line = {"dash": "dash", "color": ROLES["peer"][2], "width": 1}
        if not pd.isna(p[NPMI]):
            fig.add_vline(x=float(p[NPMI]), line=line)
        fig.add_hline(y=float(p[EXCL]), line=line)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=line, hoverinfo="skip",
                                 name="Fightin' Words' NPMI and exclusivity: above and right of both is better"))
    if not points.empty:  # room for the labels of the outermost markers
        x0, x1 = float(points[NPMI].min()), float(points[NPMI].max())
        y0, y1 = float(points[EXCL].min()), float(points[EXCL].max())
        dx, dy = max(x1 - x0, 0.05), max(y1 - y0, 0.05)
        fig.update_xaxes(range=[x0 - 0.08 * dx, x1 + 0.22 * dx])
        fig.update_yaxes(range=[y0 - 0.08 * dy, y1 + 0.12 * dy])
    fig.update_layout(
        title=(f"Category words on {plotly(corpus)}: exclusivity against coherence, one marker per method"
               f"<br><sup>top {top} words per category on the training split, K {k} · NPMI: gensim c_npmi over "
               f"the test split, window {window} · exclusivity over the training split<br>hover: micro- and "
               f"macro-F1 at N {top} under {plotly(protocol)}; methods with the same lists share a marker</sup>"),
        xaxis_title="coherence: NPMI over the test split (higher: the words occur together)",
        yaxis_title="exclusivity (higher: the words belong to their category)",
        legend={"orientation": "h", "yanchor": "top", "y": -0.18, "x": 0}, height=600,
        margin={"t": 120, "b": 140})
    return fig


#: How each kind of method is drawn in the topic-against-category chart (name, symbol, colour, size).
KIND_STYLE = {"latent": ("dkw metrics (latent words)", "circle", "#7f9cbf", 10),
              "keyphrases": ("dkw keyphrases of the text", "cross", "#1f4e9c", 14),
              OWN_WORDS: ("own words (Fightin' Words, c-TF-IDF, tf-idf, tf-rf)", "diamond", "#e07b00", 13),
              "extractor": ("extractors (YAKE!, TextRank)", "square", "#2a9d4b", 13),
              "imported": ("imported keywords", "triangle-up", "#8a4fbf", 13),
              "default": ("the default", "star", "#c0143c", 20)}
#: The document measures the Words tab's second table shows.
#: The columns shown on the page (the whole set, top-1, occurrence, Jaccard and macro-F1 included, is on
#: the generated pages of the docs site): four fit the text column at 1280 px.
DOC_SHOWN = [DOCUMENT_COLUMNS[k] for k in ("topic_mrr", "literal_mrr", "micro_f1", "exclusivity")]


def topic_category_chart(rows: pd.DataFrame, *, corpus: str, default: str) -> go.Figure:
    """Topic (vector MRR) against category (keywords-alone micro-F1), one marker per method of
    ``rows`` (one corpus of :func:`load_quality`'s table) with its 95 % CIs as error bars, one trace
    per kind of method; the methods on the front are named on the chart."""
    kept = rows.dropna(subset=[TOPIC_AXIS, CATEGORY_AXIS])
    front = set(pareto_front(kept)["id"])
    fig = go.Figure()
    kinds = kept.assign(kind=[("default" if i == default else method_kind_of(w))
                              for i, w in zip(kept["id"], kept["words"])])
    x0, x1 = (float(kept[TOPIC_AXIS].min()), float(kept[TOPIC_AXIS].max())) if not kept.empty else (0.0, 1.0)
    dx = max(x1 - x0, 0.05)
    named = {i for i, k in zip(kinds.index, kinds["kind"])  # the default is named in the legend instead
             if k != "default" and (kinds.at[i, "id"] in front or k in ("extractor", "imported", "keyphrases"))}
    place: dict = {}
    right = 0
    for i in kinds.loc[sorted(named)].sort_values(TOPIC_AXIS, ascending=False).index:
        x = float(kinds.at[i, TOPIC_AXIS])  # a label reads towards the middle: none runs off the plot's edge,
        if x > x0 + 0.7 * dx:              # and neighbours on the right take turns above and below
            place[i] = ("top left", "bottom left")[right % 2]
            right += 1
        else:
            place[i] = "top right" if x < x0 + 0.15 * dx else "top center"
    for kind, (name, symbol, colour, size) in KIND_STYLE.items():
        mine = kinds[kinds["kind"] == kind]
        if mine.empty:
            continue
        x, y = mine[TOPIC_AXIS], mine[CATEGORY_AXIS]
        fig.add_trace(go.Scatter(
            x=x.tolist(), y=y.tolist(), mode="markers+text",
            name=f"{name}: {plotly(mine['method'].iloc[0])}" if kind == "default" else name,
            text=[plotly(m) if i in named else "" for i, m in zip(mine.index, mine["method"])],
            textposition=[place.get(i, "top center") for i in mine.index], textfont={"size": 12},
            error_x={"type": "data", "symmetric": False, "array": (mine[f"{TOPIC_AXIS} high"] - x).tolist(),
                     "arrayminus": (x - mine[f"{TOPIC_AXIS} low"]).tolist(), "thickness": 1, "width": 0},
            error_y={"type": "data", "symmetric": False, "array": (mine[f"{CATEGORY_AXIS} high"] - y).tolist(),
                     "arrayminus": (y - mine[f"{CATEGORY_AXIS} low"]).tolist(), "thickness": 1, "width": 0},
            marker={"symbol": symbol, "color": colour, "size": size, "line": {"width": 1, "color": "white"}},
            hovertext=[f"<b>{plotly(r['method'])}</b> ({plotly(r['words'])})<br>topic MRR {r[TOPIC_AXIS]:.3f} "
                       f"[{r[f'{TOPIC_AXIS} low']:.3f}, {r[f'{TOPIC_AXIS} high']:.3f}]<br>keywords-alone micro-F1 "
                       f"{r[CATEGORY_AXIS]:.2f} % [{r[f'{CATEGORY_AXIS} low']:.2f}, {r[f'{CATEGORY_AXIS} high']:.2f}]"
                       for _, r in mine.iterrows()], hoverinfo="text"))
    fig.update_layout(
        title=(f"{plotly(corpus)}: about the document (right) or its category (up)?"
               "<br><sup>bars: 95 % CIs over documents</sup>"),
        xaxis_title="topic: MRR of the document among its category's documents",
        yaxis_title="category: keywords-alone micro-F1 (%)",
        legend={"orientation": "h", "yanchor": "top", "y": -0.18, "x": 0}, height=560, margin={"t": 100, "b": 130})
    if not kept.empty:  # room for the CI bars and the labels of the outermost markers
        hi = float(kept[f"{TOPIC_AXIS} high"].max())
        lo = float(kept[f"{TOPIC_AXIS} low"].min())
        fig.update_xaxes(range=[lo - 0.06 * dx, hi + 0.06 * dx])
    return fig


def documents_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The document measures of every method that has them, highest topic MRR first."""
    kept = rows.dropna(subset=[TOPIC_AXIS])
    return kept[["method", "words", *DOC_SHOWN]].sort_values(TOPIC_AXIS, ascending=False,
                                                              kind="stable").reset_index(drop=True)


def show_documents(dataset: str, rows: pd.DataFrame) -> None:
    """The document keywords' part of the Words tab: the front sentence first, the chart, the table."""
    import streamlit as st

    from . import widgets

    st.subheader("Document keywords: about the document, or about its category?")
    if rows[TOPIC_AXIS].isna().all():
        st.info(f"The document keywords were not measured on {md(dataset)}. "
                + md("Measure them with python scripts/quality_table.py --corpora")
                + f" {md(dataset)} " + md("--documents-only"))
        return
    st.markdown(f"**{md(front_sentence(rows, dataset))}**")
    st.caption("Topic: a document's rank among the test documents of its own category when they are ranked by "
               "the cosine of its keywords' mean vector to each document's mean content-word vector (MRR; ties "
               "broken at random, in expectation). Category: micro-F1 of LinearSVC on the keywords alone (dkw's "
               "metrics and the own-words methods under plain label-free, no classifier's category inside any "
               "vector; the extractors read the text alone). docs/method.md §12.")
    widgets.chart(topic_category_chart(rows, corpus=dataset, default=default_document_method(rows["id"])),
                  key="chart_topic_category", file_name=f"topic-category-{dataset}")
    table = documents_table(rows)
    fmt = {c: st.column_config.NumberColumn(format="%.2f" if c.endswith("(%)") else "%.3f") for c in DOC_SHOWN}
    shown = table.drop(columns=["words"])  # the kind of words is in the chart's legend; the CSV keeps it
    st.dataframe(shown, hide_index=True, key="table_documents", width="stretch", height=35 * (len(table) + 1) + 3,
                 column_config={"method": st.column_config.TextColumn("method", width="medium"), **fmt})
    widgets.csv_download(table, label="Download this table (CSV)", file_name=f"document-keywords-{dataset}.csv",
                         key="csv_documents")


def words_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The shown table: :data:`SHOWN` of the methods with category lists, highest exclusivity first."""
    lists = rows[rows["words"].map(method_kind_of).isin(CATEGORY_LIST_KINDS)]
    return lists[SHOWN].sort_values(EXCL, ascending=False, kind="stable").reset_index(drop=True)


def show_words(dataset: str) -> None:
    """The Words tab for ``dataset``: the answer sentence, how it was measured, the chart and the
    table (from the shipped measurement, whatever *Results* shows)."""
    import streamlit as st

    from . import resources, widgets

    results = widgets.guarded(resources.quality)
    if results is None:
        return
    rows = results.of(dataset)
    if rows.empty:
        st.info(f"The quality of the category words was not measured on {md(dataset)} (measured: "
                f"{', '.join(map(md, results.corpora)) or 'none'}). "
                + md("Measure it with python scripts/quality_table.py --corpora") + f" {md(dataset)}")
        return
    show_documents(dataset, rows)
    st.subheader("Category words: coherent and exclusive?")
    summary = quality_summary(results, dataset, default=DEFAULT_METRIC)
    st.markdown(f"**{md(summary.answer)}**")
    st.caption(md(summary.how))
    widgets.chart(words_chart(rows, corpus=dataset, default=DEFAULT_METRIC, k=results.k, top=results.top,
                              window=results.window, protocol=results.protocol), key="chart_words",
                  file_name=f"words-{dataset}")
    missing = rows[rows[NPMI].isna() & rows["words"].map(method_kind_of).isin(CATEGORY_LIST_KINDS)]
    if not missing.empty:
        st.caption("Not drawn (no word of their lists in the test split, no NPMI): "
                   + ", ".join(map(md, missing["method"])) + ".")
    table = words_table(rows)
    st.dataframe(table, hide_index=True, key="table_words", width="stretch",
                 height=35 * (len(table) + 1) + 3, column_config={  # every method in view, no inner scroll
        "method": st.column_config.TextColumn("method", width="medium"),
        NPMI: st.column_config.NumberColumn(format="%+.3f"),
        ABSENT: st.column_config.NumberColumn(format="%.1f"),
        EXCL: st.column_config.NumberColumn(format="%.3f"),
        MICRO: st.column_config.NumberColumn(format="%.2f"),
        MACRO: st.column_config.NumberColumn(format="%.2f")})
    widgets.csv_download(table, label="Download this table (CSV)", file_name=f"words-quality-{dataset}.csv",
                         key="csv_words")
    st.caption(md(f"Each category's top {results.top} words per method; the lists themselves are on the docs "
                  "page docs/results/quality/") + md(dataset) + md(".md and, per category, on the Categories page."))
