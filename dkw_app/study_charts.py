"""Plotly figures of :func:`dkw_core.study.analysis.analyze` results (paper Fig. 11 and 12, Table 7
as differences with CIs). App side: the library never imports plotly."""
from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from dkw_core.study.models import ANSWERS, QUESTIONS

from .untrusted import plotly


def _method_label(row: dict[str, Any]) -> str:
    """``A: <method name>`` for a legend: the name may be imported from a file, so escaped."""
    return plotly(f"{row['method']}: {row['method_name']}")


def _labelled(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """An analysis table with the methods' and questions' display names."""
    frame = pd.DataFrame(rows)
    if not frame.empty:
        frame["method"] = frame.apply(_method_label, axis=1)
        frame["question"] = frame["question"].map(QUESTIONS)
    return frame


def distribution_figure(result: dict[str, Any]) -> go.Figure:
    """Share of each answer per method, one panel per question (Fig. 11)."""
    frame = _labelled(result["distribution"])
    if frame.empty:
        return go.Figure()
    frame["share"] = frame["share"].fillna(0.0)
    fig = px.bar(frame, x="answer", y="share", color="method", barmode="group", facet_col="question",
                 category_orders={"answer": list(ANSWERS.values())}, hover_data=["count"],
                 labels={"share": "share of answers", "answer": ""},
                 title="Answers of the judges per method and question (cf. paper Fig. 11)")
    fig.update_yaxes(tickformat=".0%")
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=", 1)[-1]))
    return fig


def agreement_figure(result: dict[str, Any]) -> go.Figure:
    """Spearman's rho between judges per method and question (Fig. 12); 'Do not know' left out."""
    frame = _labelled(result["agreement"])
    if frame.empty:
        return go.Figure()
    fig = px.bar(frame, x="question", y="spearman_rho", color="method", barmode="group",
                 hover_data=["pairs", "spearman_p", "krippendorff_alpha_ordinal"],
                 labels={"spearman_rho": "Spearman rho between judges", "question": ""},
                 title="Inter-rater agreement, 'Do not know' left out (cf. paper Fig. 12)")
    fig.update_yaxes(range=[-1, 1])
    return fig


def difference_figure(result: dict[str, Any]) -> go.Figure:
    """Table 7 as a chart: per question and pair of methods, the mean article-level difference
    x − y with its 95 % bootstrap CI (``result["differences"]``)."""
    frame = pd.DataFrame(result.get("differences") or [])
    frame = frame.dropna(subset=["mean_difference"]) if not frame.empty else frame
    if frame.empty:
        return go.Figure()
    frame["pair"] = (frame["method_x"] + " − " + frame["method_y"]).map(plotly)
    frame[["name_x", "name_y"]] = frame[["name_x", "name_y"]].map(plotly)  # hover: imported names
    frame["question"] = frame["question"].map(QUESTIONS)
    frame["plus"] = (frame["ci_high"] - frame["mean_difference"]).fillna(0.0)
    frame["minus"] = (frame["mean_difference"] - frame["ci_low"]).fillna(0.0)
    fig = px.scatter(frame, x="mean_difference", y="pair", color="question", error_x="plus", error_x_minus="minus",
                     hover_data=["name_x", "name_y", "articles", "ci_low", "ci_high"],
                     labels={"mean_difference": "mean difference of article means (x − y), 95 % CI", "pair": ""},
                     title="Difference between methods per question (cf. paper Table 7)")
    fig.add_vline(x=0, line_dash="dot")
    return fig
