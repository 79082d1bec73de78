"""Pure builders of the Categories page: a category's words as a table, a bar chart of their
scores and a scatter of why they are there, in the category against elsewhere (no Streamlit
here; its CSV is every page's, ``widgets.csv_download``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .untrusted import LABEL_WIDTH, plotly, plotly_hover, plotly_label, vega, vega_label, vega_title

COLUMNS = ["category", "rank", "word", "score", "in_category", "share_%", "elsewhere", "elsewhere_%", "phrases"]
#: What a list's counts are, by ``CategoryTerms.unit``.
UNITS = {"documents": "training documents reaching the word", "occurrences": "occurrences in the training split"}
#: Where a zero count is drawn on a log axis (its tick reads "0").
ZERO_AT = 0.5
LIST_COLOR, BACKGROUND_COLOR = "#4c78a8", "#b8b8b8"
#: Characters of a title line of a chart as wide as the page's main column, at 1024 pixels with
#: the sidebar open (about 560 pixels); two charts side by side get half each (274 pixels, of
#: which Vega gives a title about 230).
TITLE_WIDTH = 56


def words_frame(terms: Any, *, phrases: Mapping[str, Sequence[tuple[str, int]]] | None = None,
                k: int | None = None) -> pd.DataFrame:
    """One row per word of the list (``CategoryTerms.top``): score, its count in the category and
    elsewhere (documents for a metric, occurrences for a peer; as a share of the category's and
    of the other categories' total) and, for a metric, the phrases through which the category's
    documents reach it (``phrases``: word -> (phrase, documents))."""
    phrases = phrases or {}

    def share(count: float, total: float) -> float:
        return round(100 * count / total, 1) if total else 0.0

    rows = [{"category": terms.category, "rank": p.rank, "word": p.word, "score": round(float(p.score), 6),
             "in_category": int(p.in_category), "share_%": share(p.in_category, terms.in_total),
             "elsewhere": int(p.elsewhere), "elsewhere_%": share(p.elsewhere, terms.elsewhere_total),
             "phrases": "; ".join(f"{ph} ({n})" for ph, n in phrases.get(p.word, ()))}
            for p in terms.top]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.attrs.update(metric=terms.method, k=k, unit=terms.unit)
    return frame


def _distinct(labels: Sequence[str]) -> list[str]:
    """Labels made distinct (a repeat gets " (2)", " (3)" …): two long words cut alike stay two bars."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


def bar_chart(frame: pd.DataFrame, *, title: str, color: str = LIST_COLOR, label: str | None = None,
              title_width: int = TITLE_WIDTH) -> dict:
    """Horizontal bars, best word on top, the score beside each bar; tooltip: the whole word, its
    counts and phrases. ``label`` names the method on the axis (default: the frame's method);
    ``title`` and the axis title are drawn in lines of ``title_width`` characters
    (``untrusted.vega_title``: Vega cuts a line wider than the chart instead of wrapping it).

    A Vega-Lite spec (``st.vega_lite_chart``), not a Plotly figure: it is the page's first chart,
    and a browser new to the app draws it about 2 s sooner (BENCHMARKS.md, "Every page's first
    open"). ``title``, words and phrases are untrusted: they go in as data and plain titles
    (``untrusted.vega``), a word's label cut (``untrusted.vega_label``), all of it in the tooltip."""
    unit = frame.attrs.get("unit", "documents")
    k = frame.attrs.get("k")
    labels = _distinct([vega_label(w) for w in frame["word"]])
    rows = [{"label": lab, "word": vega(w), "score": float(sc), "score_text": f"{sc:.3g}",
             "counts": f"{int(c)} {unit} of the category ({p} %)", "phrases": vega(ph)}
            for lab, w, sc, c, p, ph in zip(labels, frame["word"], frame["score"], frame["in_category"],
                                            frame["share_%"], frame["phrases"])]
    tooltip = [{"field": "word", "title": "word"}, {"field": "score", "title": "score", "format": ".4g"},
               {"field": "counts", "title": "in the category"}]
    if frame["phrases"].astype(bool).any():
        tooltip.append({"field": "phrases", "title": "via"})
    scores = [r["score"] for r in rows] or [0.0]
    low, high = min(0.0, *scores), max(0.0, *scores)
    span = (high - low) or 1.0
    axis_title = vega_title(vega(label or frame.attrs.get("metric", "score")) + " (training split" +
                            (f", K={k})" if k else ")"), title_width)
    return {
        "title": {"text": vega_title(title, title_width), "anchor": "start"},
        "data": {"values": rows},
        "height": {"step": 26},
        "padding": {"left": 5, "top": 8, "right": 5, "bottom": 5},  # the title's glyphs inside the chart
        "encoding": {
            "y": {"field": "label", "type": "nominal", "sort": None, "title": None, "axis": {"labelLimit": 0}},
            "x": {"field": "score", "type": "quantitative", "title": axis_title,
                  # room beside the longest bar for its score
                  "scale": {"domain": [low - 0.12 * span * (low < 0), high + 0.12 * span]}},
            "tooltip": tooltip,
        },
        "layer": [
            {"mark": {"type": "bar", "color": color}},
            {"mark": {"type": "text", "align": "left", "dx": 3, "color": "#333"},
             "encoding": {"text": {"field": "score_text"}}},
        ],
    }


def quality_figures(quality: Any) -> list[tuple[str, str, str]]:
    """(label, value, help) of a list's quality (``dkw_core.quality.ListQuality``), short enough
    for a narrow column: NPMI ("—" when fewer than two of its words are in the reference texts),
    exclusivity and the share of its words absent from the reference texts."""
    if quality is None:
        return []
    npmi = quality.npmi
    return [
        ("NPMI", "—" if npmi is None or npmi != npmi else f"{npmi:+.3f}",
         f"Coherence: gensim's c_npmi over {quality.reference}, boolean sliding window of {quality.window} words, "
         f"top {quality.topn} words; −1 never together, 0 independent, +1 always together."),
        ("exclusivity", "—" if quality.exclusivity != quality.exclusivity else f"{quality.exclusivity:.3f}",
         "Share of the training documents containing each word that belong to the category, averaged over the list."),
        ("absent", f"{quality.absent_share:.0%}",
         f"Share of the list's words absent from {quality.reference} (left out of the NPMI)."),
    ]


def quality_note(quality: Any) -> str:
    """One line stating how every list's quality was measured: reference texts, window, words."""
    return (f"NPMI: gensim's c_npmi over {quality.reference}, boolean sliding window of {quality.window} words, "
            f"top {quality.topn} words of each list; a word absent from the reference texts is left out of it and "
            f"counted (absent). Exclusivity: over the training documents.")


def _log_axis(values: Sequence[float], title: str, length: float, spacing: float) -> dict:
    """A log axis spanning ``values`` (a zero drawn at :data:`ZERO_AT`, ticked "0"), ticked at
    1, 2, 5, 10, 20, … where ``length`` pixels leave ``spacing`` pixels a tick, else at 1, 10, 100, …"""
    low, high = min(values, default=1.0), max(values, default=1.0)
    decades = np.log10(max(high, 1.0)) - np.log10(max(low, 1.0)) + 1
    steps = (1, 2, 5) if 3 * decades * spacing <= length else (1,)
    vals, texts = ([ZERO_AT], ["0"]) if low <= ZERO_AT else ([], [])
    decade = 1.0
    while decade <= high:
        for step in steps:
            v = decade * step
            if max(low, 1.0) / 2.5 <= v <= high * 1.0001:
                vals.append(v)
                texts.append(f"{v:,.0f}")
        decade *= 10
    span = [np.log10(low), np.log10(high)]
    pad = max(0.12, 0.06 * (span[1] - span[0]))
    return dict(type="log", tickvals=vals, ticktext=texts, title=title, range=[span[0] - pad, span[1] + pad])


def _place_labels(points: Sequence[tuple[float, float]], widths: Sequence[float], size: tuple[float, float]
                  ) -> list[tuple[float, float]]:
    """Offsets (ax, ay) in pixels of each point's label, chosen in order, so that labels overlap
    neither each other nor the labelled points where it can be avoided (the nearest free place
    of 8 directions x 4 distances; else the least covered one). ``points`` in pixels, y down."""
    boxes: list[tuple[float, float, float, float]] = [(x - 6, y - 6, x + 6, y + 6) for x, y in points]
    width, height = size
    out: list[tuple[float, float]] = []
    directions = [(0, -1), (0, 1), (1, 0), (-1, 0), (0.7, -0.7), (-0.7, -0.7), (0.7, 0.7), (-0.7, 0.7)]

    def covered(box: tuple[float, float, float, float]) -> float:
        area = sum(max(0.0, min(box[2], b[2]) - max(box[0], b[0])) * max(0.0, min(box[3], b[3]) - max(box[1], b[1]))
                   for b in boxes)
        outside = (max(0.0, -box[0]) + max(0.0, box[2] - width)) * 16 + (max(0.0, -box[1]) + max(0.0, box[3] - height)) * 40
        return area + outside

    for (x, y), w in zip(points, widths):
        best: tuple[float, tuple[float, float], tuple[float, float, float, float]] | None = None
        for r in (16, 30, 48, 70):
            for dx, dy in directions:
                ax, ay = dx * (r + w / 2 * abs(dx)), dy * r
                box = (x + ax - w / 2, y + ay - 8, x + ax + w / 2, y + ay + 8)
                score = covered(box)
                if best is None or score < best[0]:
                    best = (score, (ax, ay), box)
                if score == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        out.append(best[1])
        boxes.append(best[2])
    return out


def scatter_chart(terms: Any, *, title: str, label: str, color: str = LIST_COLOR, width: int = 800) -> go.Figure:
    """Why the words are there, as scattertext draws it: each word's count in the category (y)
    against elsewhere (x), log scales (a zero drawn at the "0" tick), the list's words marked
    and labelled (labels placed apart, a line to their point), other words of the category in
    grey, the score in every hover; a dashed line where a word is as frequent, relative to the
    totals, in the category as elsewhere (above it: over-represented). ``width`` is the chart's
    expected width in pixels (to place the labels); ``label`` names the method; words, the
    category and ``title`` are untrusted and escaped."""
    unit = UNITS.get(terms.unit, terms.unit)
    height = 520

    def xy(points: Sequence[Any]) -> tuple[list[float], list[float]]:
        return ([p.elsewhere if p.elsewhere > 0 else ZERO_AT for p in points],
                [p.in_category if p.in_category > 0 else ZERO_AT for p in points])

    def hover(points: Sequence[Any]) -> list[list[Any]]:
        return [[plotly_hover(p.word), p.score, int(p.in_category), int(p.elsewhere), p.rank or "—"] for p in points]

    template = ("<b>%{customdata[0]}</b><br>" + plotly(label) + " score %{customdata[1]:.4g} (rank %{customdata[4]})"
                "<br>in the category: %{customdata[2]:,}<br>elsewhere: %{customdata[3]:,}<extra></extra>")
    listed = terms.top
    rest = [p for p in terms.points if not p.rank]
    fig = go.Figure()
    bx, by = xy(rest)
    fig.add_trace(go.Scatter(x=bx, y=by, mode="markers", name="other words of the category",
                             marker=dict(size=5, color=BACKGROUND_COLOR, opacity=0.6),
                             customdata=hover(rest), hovertemplate=template))
    lx, ly = xy(listed)
    fig.add_trace(go.Scatter(x=lx, y=ly, mode="markers", name=f"top {len(listed)} by {plotly(label)}",
                             text=[plotly_label(p.word) for p in listed],
                             marker=dict(size=10, color=color, line=dict(width=1, color="white")),
                             customdata=hover(listed), hovertemplate=template))
    plot = (max(width - 90, 100), height - 150)  # the plot area's size in pixels, estimated from the figure's
    xaxis = _log_axis([*bx, *lx], f"elsewhere: {unit} (log)", plot[0], 60)
    yaxis = _log_axis([*by, *ly], f"in the category: {unit} (log)", plot[1], 28)
    if terms.elsewhere_total and terms.in_total:
        ratio = terms.in_total / terms.elsewhere_total
        xs = list(np.logspace(*xaxis["range"], 2))
        fig.add_trace(go.Scatter(x=xs, y=[x * ratio for x in xs], mode="lines", hoverinfo="skip",
                                 name="same share in the category as elsewhere",
                                 line=dict(color="#888", dash="dash", width=1)))
    # labels: placed in pixels of the plot area

    def pixel(v: float, rng: list[float], length: float, flip: bool) -> float:
        f = (np.log10(v) - rng[0]) / (rng[1] - rng[0])
        return (1 - f if flip else f) * length

    where = [(pixel(x, xaxis["range"], plot[0], False), pixel(y, yaxis["range"], plot[1], True)) for x, y in zip(lx, ly)]
    labels = [plotly_label(p.word) for p in listed]
    offsets = _place_labels(where, [7 * min(len(p.word), LABEL_WIDTH) + 6 for p in listed], plot)
    fig.update_layout(annotations=[
        dict(x=np.log10(x), y=np.log10(y), text=text, showarrow=True, arrowhead=0, arrowwidth=1,
             arrowcolor=color, ax=ax, ay=ay, font=dict(size=12, color=color), bgcolor="rgba(255,255,255,0.75)")
        for text, x, y, (ax, ay) in zip(labels, lx, ly, offsets)])
    fig.update_layout(title=plotly(title), height=height, margin=dict(l=10, r=10, t=50, b=10),
                      xaxis=xaxis, yaxis=yaxis, legend=dict(orientation="h", yanchor="top", y=-0.14, x=0))
    return fig

