"""The Metrics page's *Words* tab: how coherent and how exclusive each method's category words are
(the quality table, ``docs/results/quality/quality.json``, docs/method.md §10), answer first.

:func:`words_chart` and :func:`words_table` are pure (a table of
:func:`dkw_core.evaluation.wordlists.load_quality` in, a plotly figure or the shown DataFrame
out); :func:`show_words` is the tab itself (Streamlit imported inside, so this module imports
without it). Every corpus or method text in a chart goes through :func:`untrusted.plotly`.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from dkw_core.evaluation.wordlists import FIGHTIN_WORDS, OWN_WORDS, QUALITY_COLUMNS

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


def words_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The shown table: :data:`SHOWN`, highest exclusivity first."""
    return rows[SHOWN].sort_values(EXCL, ascending=False, kind="stable").reset_index(drop=True)


def show_words(dataset: str) -> None:
    """The Words tab for ``dataset``: the answer sentence, how it was measured, the chart and the
    table (from the shipped measurement, whatever *Results* shows)."""
    import streamlit as st

    from . import backend, resources, widgets

    results = widgets.guarded(resources.quality)
    if results is None:
        return
    rows = results.of(dataset)
    if rows.empty:
        st.info(md(f"The quality of the category words was not measured on {dataset} (measured: "
                   f"{', '.join(results.corpora) or 'none'}). Measure it with "
                   f"python scripts/quality_table.py --corpora {dataset}"))
        return
    summary = backend.quality_summary(results, dataset)
    st.markdown(f"**{md(summary.answer)}**")
    st.caption(md(summary.how))
    st.plotly_chart(words_chart(rows, corpus=dataset, default=backend.DEFAULT_METRIC, k=results.k, top=results.top,
                                window=results.window, protocol=results.protocol), key="chart_words",
                    config={"toImageButtonOptions": {"format": "png", "filename": f"words-{dataset}", "scale": 2},
                            "displaylogo": False})
    missing = rows[rows[NPMI].isna()]
    if not missing.empty:
        st.caption(md(f"Not drawn (no word of their lists in the test split, no NPMI): "
                      f"{', '.join(missing['method'])}."))
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
                  f"page docs/results/quality/{dataset}.md and, per category, on the Categories page."))
