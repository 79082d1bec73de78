"""Plotly figures of the study's results (no computation: the numbers come from
``dkw_core.study.analysis``)."""
from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dkw_core.study.models import QUESTIONS


def difference_figure(rows: list[dict[str, Any]]) -> go.Figure:
    """Table 7 as a chart: per question and pair of methods, the mean paired difference x − y
    with its CI (``analysis.difference_rows``), one marker per level (answers, article means)."""
    frame = pd.DataFrame(rows)
    fig = go.Figure()
    if frame.empty:
        return fig
    frame["pair"] = frame["method_x"] + " − " + frame["method_y"]
    frame["question"] = frame["question"].map(lambda q: QUESTIONS.get(q, q))
    for level, part in frame.groupby("level", sort=False):
        fig.add_trace(go.Scatter(
            x=part["mean_difference"], y=[part["question"], part["pair"]], mode="markers", name=str(level),
            error_x={"type": "data", "symmetric": False,
                     "array": part["ci_high"] - part["mean_difference"],
                     "arrayminus": part["mean_difference"] - part["ci_low"]},
            hovertemplate="%{y}<br>difference %{x:.3f}<extra>" + str(level) + "</extra>"))
    fig.add_vline(x=0, line_dash="dot", line_color="grey")
    fig.update_layout(title="Difference between methods per question, with its 95 % CI (cf. paper Table 7)",
                      xaxis_title="mean answer difference x − y (1 Irrelevant … 3 Relevant; > 0: x rated higher)",
                      legend_title_text="", height=160 + 60 * len(frame), margin={"l": 10})
    return fig
