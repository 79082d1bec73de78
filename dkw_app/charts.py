"""Pure plotly figure builders (no Streamlit): each takes the DataFrame that the page also
offers as CSV and returns a ``plotly.graph_objects.Figure``. F1 values are percentages, as
the results store gives them.

Every title states what the F1 is (docs/method.md §3): protocol, split,
vectors, K, N, metric and classifier.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .tables import CHOSEN_K, FULL, GRID, describe_setup, sample_label
from .untrusted import plotly

F1_SERIES = (("micro_f1", "micro-F1"), ("macro_f1", "macro-F1"))
BASELINE_DASH = {"baseline-tfidf": "dash", "baseline-bow": "dot"}


def _slices(frame: pd.DataFrame) -> str:
    if "sample" not in frame.columns or frame.empty:
        return FULL
    return ", ".join(sorted({sample_label(v) for v in frame["sample"]}))


def _setup_line(frame: pd.DataFrame, *, dataset: str, protocol: str) -> str:
    return (f"<br><sup>{plotly(dataset)} · protocol {protocol} · split {describe_setup(frame, 'split')} · "
            f"vectors {plotly(describe_setup(frame, 'vectors'))} · classifier {describe_setup(frame, 'classifier')} · "
            f"{_slices(frame)}</sup>")


def _n_of(row) -> str:
    top = getattr(row, "top", None)
    return f" N={int(top)}" if row.kind == "baseline-bow" and top is not None and not pd.isna(top) else ""


def _add_baselines(fig: go.Figure, base: pd.DataFrame, *, x: list, score: str, label: str) -> None:
    """Draw each baseline as a flat line across the chart (a trace, so it is in the JSON)."""
    if base is None or base.empty or not x:
        return
    for row in base.itertuples(index=False):
        value = getattr(row, score)
        if pd.isna(value):
            continue
        fig.add_trace(go.Scatter(
            x=[x[0], x[-1]] if len(x) > 1 else [x[0], x[0]], y=[float(value)] * 2, mode="lines",
            name=f"{row.kind}{_n_of(row)} {label}", line={"dash": BASELINE_DASH.get(row.kind, "dashdot"), "width": 2},
            hovertemplate=f"{row.kind} ({row.classifier}) {label}: %{{y:.4f}}<extra></extra>",
        ))


def metric_bar_chart(bars: pd.DataFrame, base: pd.DataFrame | None = None, *, dataset: str,
                     protocol: str, top: int | None = None, grid: bool = False, how: str | None = None) -> go.Figure:
    """Micro- and macro-F1 per metric as grouped bars (paper Figs. 2–7), baselines as lines.

    ``grid=False``: one bar per metric, K chosen by Algorithm 2 on the training split.
    ``grid=True``: one bar per stored (metric, K) — a grid of test scores, titled as such."""
    fig = go.Figure()
    column_x = "setup" if grid and "setup" in bars.columns else "metric"
    xs = [str(m) for m in bars[column_x]] if not bars.empty else []
    for column, label in F1_SERIES:
        if bars.empty:
            break
        fig.add_trace(go.Bar(
            x=xs, y=bars[column].astype(float).tolist(), name=label,
            customdata=bars[["k", "top"]].astype(str).values.tolist(),
            hovertemplate=f"%{{x}} {label} %{{y:.4f}}<br>K=%{{customdata[0]}}, N=%{{customdata[1]}}<extra></extra>",
        ))
    for column, label in F1_SERIES:
        _add_baselines(fig, base, x=xs, score=column, label=label)
    n_text = f"N={top}" if top is not None else f"N={describe_setup(bars, 'top')}"
    how = GRID if grid else (how or CHOSEN_K)
    fig.update_layout(
        title=f"F1 per metric, {n_text}; {how}{_setup_line(bars, dataset=dataset, protocol=protocol)}",
        barmode="group", xaxis_title="metric" if not grid else "metric and K", yaxis_title="F1 (%)",
        yaxis_range=[0, 100], legend_title="series", margin={"t": 80},
    )
    return fig


def keywords_line_chart(lines: pd.DataFrame, base: pd.DataFrame | None = None, *, dataset: str,
                        protocol: str, grid: bool = False) -> go.Figure:
    """Micro- and macro-F1 against the number of keywords N (paper Figs. 8–10): one line per
    ``series`` (a metric with K chosen by Algorithm 2 per N; or, ``grid=True``, a fixed
    (metric, K) of the grid of test scores)."""
    fig = go.Figure()
    xs = [int(v) for v in lines["top"]] if not lines.empty else []
    series = list(dict.fromkeys(lines["series"])) if not lines.empty and "series" in lines.columns else []
    for name in series:
        part = lines[lines["series"] == name]
        for column, label in F1_SERIES:
            fig.add_trace(go.Scatter(
                x=[int(v) for v in part["top"]], y=part[column].astype(float).tolist(), name=f"{name} {label}",
                mode="lines+markers", line={"dash": "solid" if column == "micro_f1" else "dot"},
                customdata=part[["metric", "k"]].astype(str).values.tolist(),
                hovertemplate=(f"N=%{{x}} {label} %{{y:.4f}}<br>metric %{{customdata[0]}}, "
                               f"K=%{{customdata[1]}}<extra></extra>"),
            ))
    _xs = [min(xs), max(xs)] if xs else []
    for column, label in F1_SERIES:
        _add_baselines(fig, base, x=_xs, score=column, label=label)
    how = ("grid of test scores: one line per stored (metric, K), none chosen" if grid
           else "one line per metric, K chosen per N by Algorithm 2 on the training split")
    fig.update_layout(
        title=f"F1 vs number of keywords N; {how}{_setup_line(lines, dataset=dataset, protocol=protocol)}",
        xaxis_title="number of keywords N", yaxis_title="F1 (%)", yaxis_range=[0, 100], margin={"t": 80},
    )
    return fig


def significance_heatmap(square: pd.DataFrame, *, dataset: str, protocol: str,
                         alpha: float = 0.05) -> go.Figure:
    """Pairwise metric comparison p-values (paper appendix D) as a heatmap."""
    names = [str(c) for c in square.columns]
    z = square.astype(float).values.tolist() if not square.empty else []
    text = [["" if pd.isna(v) else f"{v:.3g}" for v in row] for row in z]
    fig = go.Figure(go.Heatmap(
        z=z, x=names, y=[str(i) for i in square.index], text=text, texttemplate="%{text}",
        colorscale="RdBu", zmin=0, zmax=1, colorbar={"title": "p"}, name="p-value",
        hovertemplate="%{y} vs %{x}: p=%{z:.4g}<extra></extra>",
    ))
    fig.update_layout(
        title=(f"Pairwise metric significance: Wilcoxon p of micro-F1, Bonferroni-corrected"
               f"<br><sup>p < {alpha} = significant · {plotly(dataset)} · protocol {protocol}</sup>"),
        xaxis_title="metric", yaxis_title="metric", margin={"t": 60},
    )
    return fig


K_CHOICE_TEXT = {"metric": "K chosen once per metric (best mean CV F1 over N) on the training split",
                 "metric-n": "K chosen per (metric, N) on the training split"}


def curve_chart(curves: pd.DataFrame, base: pd.DataFrame | None = None, *, dataset: str, protocol: str,
                how: str) -> go.Figure:
    """F1 against N (paper Figs. 8–10): one line per metric (micro-F1), its 95 % bootstrap
    interval over the test documents as error bars; ``how`` says how K was chosen."""
    fig = go.Figure()
    for metric in list(dict.fromkeys(curves["metric"])) if not curves.empty else []:
        part = curves[curves["metric"] == metric].sort_values("top")
        y = part["micro_f1"].astype(float)
        has_ci = part["ci_low"].notna().all()
        fig.add_trace(go.Scatter(
            x=[int(v) for v in part["top"]], y=y.tolist(), name=str(metric), mode="lines+markers",
            error_y={"type": "data", "symmetric": False, "array": (part["ci_high"] - y).tolist(),
                     "arrayminus": (y - part["ci_low"]).tolist(), "thickness": 1} if has_ci else None,
            customdata=part[["k"]].astype(str).values.tolist(),
            hovertemplate=f"{metric} N=%{{x}}: micro-F1 %{{y:.2f}} (K=%{{customdata[0]}})<extra></extra>",
        ))
    xs = sorted({int(v) for v in curves["top"]}) if not curves.empty else []
    _add_baselines(fig, base, x=[xs[0], xs[-1]] if xs else [], score="micro_f1", label="micro-F1")
    fig.update_layout(
        title=(f"micro-F1 vs number of keywords N<br><sup>{how}; error bars: 95 % bootstrap CI over the test "
               f"documents</sup>{_setup_line(curves, dataset=dataset, protocol=protocol)}"),
        xaxis_title="number of keywords N", xaxis_type="log", yaxis_title="micro-F1 (%)", margin={"t": 110},
        legend_title="metric", height=max(450, 260 + 24 * len(fig.data)),  # every metric's legend entry shows
    )
    fig.update_xaxes(tickvals=xs, ticktext=[str(x) for x in xs], minor_showgrid=False)  # the grid's N, not 3, 4, 6…
    return fig


def difference_heatmap(table: pd.DataFrame, *, dataset: str, protocol: str, top: int, alpha: float = 0.05
                       ) -> go.Figure:
    """Per-document comparison of every metric pair: colour = micro-F1 difference row − column
    (points), text = difference, 95 % CI and Holm-corrected McNemar p."""
    names = list(dict.fromkeys([*table["metric_a"], *table["metric_b"]])) if not table.empty else []
    pos = {m: i for i, m in enumerate(names)}
    z = [[None] * len(names) for _ in names]
    text = [[""] * len(names) for _ in names]
    hover = [[""] * len(names) for _ in names]
    for r in table.itertuples(index=False):
        i, j = pos[r.metric_a], pos[r.metric_b]
        star = " *" if r.p_holm < alpha else ""
        z[i][j], z[j][i] = float(r.diff), -float(r.diff)
        text[i][j], text[j][i] = f"{r.diff:+.1f}{star}", f"{-r.diff:+.1f}{star}"
        hover[i][j] = f"{r.diff:+.2f} points, 95 % CI [{r.ci_low:+.2f}, {r.ci_high:+.2f}], p (Holm) {r.p_holm:.2g}"
        hover[j][i] = f"{-r.diff:+.2f} points, 95 % CI [{-r.ci_high:+.2f}, {-r.ci_low:+.2f}], p (Holm) {r.p_holm:.2g}"
    bound = max([abs(v) for row in z for v in row if v is not None] or [1.0])
    fig = go.Figure(go.Heatmap(
        z=z, x=names, y=names, text=text, texttemplate="%{text}", textfont={"size": 11}, customdata=hover,
        colorscale="RdBu", zmid=0, zmin=-bound, zmax=bound, colorbar={"title": "row − column<br>(points)"},
        name="difference", hovertemplate="%{y} − %{x}: %{customdata}<extra></extra>",
    ))
    fig.update_layout(
        title=(f"micro-F1 difference row − column at N={top} (points; * = McNemar exact p < {alpha} after Holm "
               f"over {len(table)} pairs)<br><sup>{plotly(dataset)} · protocol {protocol} · test split · K each metric's own, "
               f"chosen on the training split · 95 % paired bootstrap CI and p in the hover and the table</sup>"),
        xaxis_title="metric (column)", yaxis_title="metric (row)", margin={"t": 90},
        height=max(500, 42 * len(names) + 150),
    )
    return fig


def choice_chart(choices: pd.DataFrame, base: pd.DataFrame | None = None, *, dataset: str) -> go.Figure:
    """The setup each selection chose over all setups, per protocol: micro-F1 bars (one bar per
    (protocol, selection), the chosen K, metric and N in the hover), baselines as lines."""
    fig = go.Figure()
    xs = list(dict.fromkeys(choices["protocol"])) if not choices.empty else []
    for selection in list(dict.fromkeys(choices["selection"])) if not choices.empty else []:
        part = choices[choices["selection"] == selection].drop_duplicates("protocol", keep="first")
        fig.add_trace(go.Bar(
            x=part["protocol"].tolist(), y=part["micro_f1"].astype(float).tolist(), name=str(selection),
            text=[f"{m} K={k} N={n}" for m, k, n in zip(part["metric"], part["k"], part["top"])],
            hovertemplate="%{x}: micro-F1 %{y:.2f} (%{text})<extra></extra>",
        ))
    _add_baselines(fig, base, x=xs, score="micro_f1", label="micro-F1")
    fig.update_layout(
        title=f"The setup chosen on the training split, scored on the test split<br><sup>{plotly(dataset)}</sup>",
        barmode="group", xaxis_title="protocol", yaxis_title="micro-F1 (%)", yaxis_range=[0, 100],
        legend_title="selection", margin={"t": 70},
    )
    return fig
