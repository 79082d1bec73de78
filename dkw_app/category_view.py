"""Pure builders of the Categories page: a category's words as a table, a bar chart and a CSV
(no Streamlit here)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from .untrusted import plotly

COLUMNS = ["category", "rank", "word", "score", "documents", "share_%", "elsewhere_%", "phrases"]


def words_frame(category: str, words: Sequence[Any], *, metric: str, k: int) -> pd.DataFrame:
    """One row per word: score, how many of the category's training documents reach it (and
    which share of them, and of the other categories' documents), through which phrases."""
    rows = [{"category": category, "rank": i, "word": w.word, "score": round(float(w.score), 6),
             "documents": int(w.documents), "share_%": round(100 * float(w.share), 1),
             "elsewhere_%": round(100 * float(w.elsewhere), 1),
             "phrases": "; ".join(f"{p} ({n})" for p, n in w.phrases)}
            for i, w in enumerate(words, start=1)]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.attrs.update(metric=metric, k=k)
    return frame


def bar_chart(frame: pd.DataFrame, *, title: str, color: str = "#4c78a8") -> go.Figure:
    """Horizontal bars, best word on top, the score on each bar; hover: documents and phrases.
    ``title`` (plain text naming a category), words and phrases are untrusted (a corpus's
    category names and text): Plotly reads them as HTML, so they are escaped here."""
    data = frame.iloc[::-1]
    fig = go.Figure(go.Bar(
        x=data["score"], y=[plotly(w) for w in data["word"]], orientation="h", marker_color=color,
        text=[f"{s:.3g}" for s in data["score"]], textposition="auto",
        customdata=list(zip(data["documents"], data["share_%"], map(plotly, data["phrases"]))),
        hovertemplate="%{y}: %{x:.4g}<br>%{customdata[0]} documents of the category (%{customdata[1]} %)"
                      "<br>via %{customdata[2]}<extra></extra>"))
    fig.update_layout(title=plotly(title), height=max(260, 28 * len(frame) + 90), margin=dict(l=10, r=10, t=50, b=30),
                      xaxis_title=f"{frame.attrs.get('metric', 'score')} (training split, K={frame.attrs.get('k')})",
                      yaxis=dict(type="category", automargin=True))
    return fig


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy whose text cells cannot run as spreadsheet formulas: a cell starting with = + - @
    TAB or CR gets a leading apostrophe."""
    def cell(v: Any) -> Any:
        return "'" + v if isinstance(v, str) and v.startswith(_FORMULA_START) else v

    return frame.map(cell)


def csv_bytes(frame: pd.DataFrame) -> bytes:
    return neutralise(frame).to_csv(index=False).encode("utf-8")
