"""Pure chart builders (no Streamlit): each takes the DataFrame that the page also offers as
CSV and returns a ``plotly.graph_objects.Figure`` — or, for the Overview, the page's first chart,
a Vega-Lite spec (:func:`choice_chart`). F1 values are percentages, as the results store gives them.

Every title states what the F1 is (docs/method.md §3): protocol, split,
vectors, K, N, metric and classifier.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from dkw_core.evaluation.comparisons import format_difference, format_p
from dkw_core.evaluation.names import method_name
from dkw_core.evaluation.selection import selection_name
from dkw_core.metrics import METRICS

from .tables import CHOSEN_K, FULL, GRID, describe_setup, sample_label
from .untrusted import plotly, vega

F1_SERIES = (("micro_f1", "micro-F1"), ("macro_f1", "macro-F1"))


def _name(method: object) -> str:
    """A method as a reader reads it (``tf-idf (keyword metric)``), escaped for Plotly."""
    return plotly(method_name(str(method)))
BASELINE_DASH = {"baseline-tfidf": "dash", "baseline-bow": "dot"}
BASELINE_COLOUR = {("baseline-tfidf", "micro_f1"): "#000000", ("baseline-bow", "micro_f1"): "#555555",
                   ("baseline-tfidf", "macro_f1"): "#8c8c8c", ("baseline-bow", "macro_f1"): "#b0b0b0"}


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
            name=f"{method_name(row.kind)}{_n_of(row)} {label}",
            line={"dash": BASELINE_DASH.get(row.kind, "dashdot"), "width": 2,
                  "color": BASELINE_COLOUR.get((row.kind, score), "#555555")},  # greys: never a metric's colour
            hovertemplate=f"{method_name(row.kind)} ({row.classifier}) {label}: %{{y:.4f}}<extra></extra>",
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
        title=f"F1 per metric, {n_text}<br><sup>{how}</sup>{_setup_line(bars, dataset=dataset, protocol=protocol)}",
        barmode="group", xaxis_title="metric" if not grid else "metric and K", yaxis_title="F1 (%)",
        yaxis_range=[0, 100], margin={"t": 100},
        legend={"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0}, height=580,  # below: the bars keep the width
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


K_CHOICE_TEXT = {"metric": "K chosen once per metric (best mean CV F1 over N) on the training split",
                 "metric-n": "K chosen per (metric, N) on the training split"}


#: Line styles of the F1-against-N chart: a colour per base metric, the plain metric solid with
#: circles, its tf- variant dashed with squares (more bases than colours: the next dash pair).
PALETTE = qualitative.D3
PLAIN_DASHES = ("solid", "dot", "longdash")
TF_DASHES = ("dash", "dashdot", "longdashdot")
PLAIN_SYMBOLS = ("circle", "diamond", "triangle-up")
TF_SYMBOLS = ("square", "x", "triangle-down")


def method_styles(names: list[str]) -> dict[str, dict[str, str]]:
    """A (colour, dash, marker) per method, never the same colour and dash twice: ``tf-X`` is the
    tf- variant of ``X`` (same colour, dashed) when ``X`` is a metric too; every other name
    (a plain metric, an extractor such as YAKE) is a base of its own."""
    known = set(names) | set(METRICS)

    def base_of(name: str) -> tuple[str, bool]:
        return (name[3:], True) if name.startswith("tf-") and name[3:] in known else (name, False)

    bases = list(dict.fromkeys(base_of(n)[0] for n in names))
    styles, used = {}, set()
    for name in names:
        base, tf = base_of(name)
        i = bases.index(base)
        colour, round_ = PALETTE[i % len(PALETTE)], i // len(PALETTE)
        dashes, symbols = (TF_DASHES, TF_SYMBOLS) if tf else (PLAIN_DASHES, PLAIN_SYMBOLS)
        j = round_ % len(dashes)
        while (colour, dashes[j]) in used:  # more than 30 bases: any free dash of the colour
            j = (j + 1) % len(dashes)
            if j == round_ % len(dashes):
                colour = PALETTE[(PALETTE.index(colour) + 1) % len(PALETTE)]
        used.add((colour, dashes[j]))
        styles[name] = {"color": colour, "dash": dashes[j], "symbol": symbols[j]}
    return styles


def curve_chart(curves: pd.DataFrame, base: pd.DataFrame | None = None, *, dataset: str, protocol: str,
                how: str, highlight: str | None = None) -> go.Figure:
    """F1 against N (paper Figs. 8–10): one line per metric (micro-F1), its 95 % bootstrap
    interval over the test documents as error bars; ``how`` says how K was chosen. Each metric
    has its own colour and dash (:func:`method_styles`); ``highlight`` draws one metric bold and
    the others faint."""
    fig = go.Figure()
    names = [str(m) for m in dict.fromkeys(curves["metric"])] if not curves.empty else []
    styles = method_styles(names)
    first = {}  # a metric and its tf- variant side by side in the legend, as they share a colour
    for i, name in enumerate(names):
        first.setdefault(styles[name]["color"], i)
    names.sort(key=lambda m: (first[styles[m]["color"]], styles[m]["dash"] not in PLAIN_DASHES))
    for metric in names:
        part = curves[curves["metric"] == metric].sort_values("top")
        y = part["micro_f1"].astype(float)
        has_ci = part["ci_low"].notna().all()
        style = styles[metric]
        faint = highlight is not None and metric != highlight
        fig.add_trace(go.Scatter(
            x=[int(v) for v in part["top"]], y=y.tolist(), name=_name(metric), mode="lines+markers",
            line={"color": style["color"], "dash": style["dash"], "width": 4 if metric == highlight else 2},
            marker={"symbol": style["symbol"], "size": 7}, opacity=0.25 if faint else 1.0,
            error_y={"type": "data", "symmetric": False, "array": (part["ci_high"] - y).tolist(),
                     "arrayminus": (y - part["ci_low"]).tolist(), "thickness": 1} if has_ci else None,
            customdata=part[["k"]].astype(str).values.tolist(),
            hovertemplate=f"{_name(metric)} N=%{{x}}: micro-F1 %{{y:.2f}} (K=%{{customdata[0]}})<extra></extra>",
        ))
    xs = sorted({int(v) for v in curves["top"]}) if not curves.empty else []
    _add_baselines(fig, base, x=[xs[0], xs[-1]] if xs else [], score="micro_f1", label="micro-F1")
    fig.update_layout(
        title=(f"micro-F1 vs number of keywords N<br><sup>{how}</sup>"
               f"<br><sup>error bars: 95 % bootstrap CI over the test documents</sup>"
               f"{_setup_line(curves, dataset=dataset, protocol=protocol)}"),
        xaxis_title="number of keywords N", xaxis_type="log", yaxis_title="micro-F1 (%)", margin={"t": 130},
        legend={"orientation": "h", "yanchor": "top", "y": -0.16, "x": 0},  # below: the plot keeps the width
        height=560 + 24 * ((len(fig.data) + 3) // 4),  # every metric's legend entry shows, four to a row
    )
    fig.update_xaxes(tickvals=xs, ticktext=[str(x) for x in xs], minor_showgrid=False)  # the grid's N, not 3, 4, 6…
    return fig


def difference_heatmap(table: pd.DataFrame, *, dataset: str, protocol: str, top: int, alpha: float = 0.05
                       ) -> go.Figure:
    """Per-document comparison of every method pair: colour = micro-F1 difference row − column
    (points), text = the difference (an exact tie "0"), * = significant after Holm; the 95 % CI
    and the p in the one p format (:func:`format_p`) in the hover."""
    f1 = {**dict(zip(table["metric_b"], table["f1_b"])), **dict(zip(table["metric_a"], table["f1_a"]))}
    ids = sorted(f1, key=lambda m: (-float(f1[m]), str(m)))  # best first, as in the forest plot
    names = [_name(m) for m in ids]
    pos = {m: i for i, m in enumerate(ids)}
    z = [[None] * len(ids) for _ in ids]
    text = [[""] * len(ids) for _ in ids]
    hover = [[""] * len(ids) for _ in ids]
    for r in table.itertuples(index=False):
        i, j = pos[r.metric_a], pos[r.metric_b]
        star = " *" if r.p_holm < alpha else ""
        z[i][j], z[j][i] = float(r.diff), -float(r.diff)
        text[i][j] = format_difference(r.diff, "+.1f") + star
        text[j][i] = format_difference(-r.diff, "+.1f") + star
        p = format_p(r.p_holm)
        hover[i][j] = (f"{format_difference(r.diff)} points, 95 % CI [{format_difference(r.ci_low)}, "
                       f"{format_difference(r.ci_high)}], p (Holm) {p}")
        hover[j][i] = (f"{format_difference(-r.diff)} points, 95 % CI [{format_difference(-r.ci_high)}, "
                       f"{format_difference(-r.ci_low)}], p (Holm) {p}")
    bound = max([abs(v) for row in z for v in row if v is not None] or [1.0])
    fig = go.Figure(go.Heatmap(
        z=z, x=names, y=names, text=text, texttemplate="%{text}", textfont={"size": 10}, customdata=hover,
        colorscale="RdBu", zmid=0, zmin=-bound, zmax=bound, colorbar={"title": "row − column<br>(points)"},
        name="difference", hovertemplate="%{y} − %{x}: %{customdata}<extra></extra>",
    ))
    fig.update_layout(
        title=(f"micro-F1 difference row − column at N={top}, every pair (points)"
               f"<br><sup>* McNemar exact p < {alpha} after Holm over {len(table)} pairs · "
               f"{plotly(dataset)} · protocol {protocol} · test split</sup>"),
        xaxis_title="method (column)", yaxis_title="method (row)", margin={"t": 80},
        height=max(500, 42 * len(names) + 220),
    )
    fig.update_xaxes(tickangle=-45)
    fig.update_yaxes(autorange="reversed")  # the best on top, the diagonal from the top left
    return fig


def forest_chart(references: list[tuple[str, pd.DataFrame]], *, dataset: str, protocol: str, top: int
                 ) -> go.Figure:
    """Forest plot: for each reference (the best metric, the tf-idf + LinearSVC classifier) every
    other method's micro-F1 difference to it (points) with its 95 % paired bootstrap CI, one panel
    per reference, methods by F1 (best on top); filled = significant after Holm. ``references``
    are (title, :func:`dkw_core.evaluation.comparisons.against` table) pairs."""
    panels = [(title, table) for title, table in references if table is not None and not table.empty]
    fig = make_subplots(rows=1, cols=max(1, len(panels)), shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=[plotly(title) for title, _ in panels] or None)
    f1 = {}
    for _title, table in panels:
        f1.update({str(m): float(v) for m, v in zip(table["method"], table["f1"])})
        f1.update({str(table["reference"].iloc[0]): float(table["f1_reference"].iloc[0])})
    order = [_name(m) for m in sorted(f1, key=lambda m: (-f1[m], m))]
    for col, (_title, table) in enumerate(panels, start=1):
        for significant, label in ((True, "significant after Holm"), (False, "not significant after Holm")):
            part = table[table["significant"] == significant]
            if part.empty:
                continue
            ref = _name(str(table["reference"].iloc[0]))
            hover = [f"{_name(m)} − {ref}: {format_difference(d)} points, 95 % CI [{format_difference(lo)}, "
                     f"{format_difference(hi)}], p (Holm) {format_p(p)}"
                     for m, d, lo, hi, p in zip(part["method"], part["diff"], part["ci_low"], part["ci_high"],
                                                part["p_holm"])]
            fig.add_trace(go.Scatter(
                x=part["diff"].astype(float).tolist(), y=[_name(m) for m in part["method"]], mode="markers",
                name=label, legendgroup=label, showlegend=col == 1 or len(panels) == 1,
                marker={"symbol": "circle" if significant else "circle-open", "size": 9,
                        "color": "#1f3b73" if significant else "#7f7f7f"},
                error_x={"type": "data", "symmetric": False, "array": (part["ci_high"] - part["diff"]).tolist(),
                         "arrayminus": (part["diff"] - part["ci_low"]).tolist(), "thickness": 1.5},
                customdata=hover, hovertemplate="%{customdata}<extra></extra>",
            ), row=1, col=col)
        fig.add_vline(x=0, line={"color": "#444", "width": 1}, row=1, col=col)
        fig.update_xaxes(title_text="difference (points)", zeroline=False, row=1, col=col)
    fig.update_yaxes(categoryorder="array", categoryarray=order, autorange="reversed", type="category")
    fig.update_layout(
        title=(f"micro-F1 difference with 95 % CI at N={top} (points)<br><sup>filled: McNemar exact p < 0.05 after "
               f"Holm · {plotly(dataset)} · protocol {protocol} · test split</sup>"),
        margin={"t": 110}, height=max(380, 160 + 28 * len(order)),
        legend={"orientation": "h", "yanchor": "top", "y": -0.12, "xanchor": "left", "x": 0},
    )
    return fig


def _choice_row(protocol: str, reads: bool, selection: str, setup: str) -> str:
    """A row's label in two lines (split at the newline by the axis): protocol and setup, then the
    selection, marked when the protocol reads the gold label."""
    gold = "reads the gold label · " if reads else ""
    return f"{protocol} · {setup}\n{gold}{selection_name(selection)}"


def _delta_ci(table: pd.DataFrame) -> str:
    """How the Overview's Δ intervals were computed, in a few words."""
    paired = table["paired"].astype(bool) if "paired" in table.columns else pd.Series(False, index=table.index)
    if paired.all():
        return "Δ's CI: paired bootstrap over the test documents"
    return "Δ's CI: the F1's CI minus the baseline's F1 (its per-document predictions are not stored)" + (
        ", paired where they are" if paired.any() else "")


#: The Overview's colour of each selection, and the look of a protocol that reads the gold label.
CHOICE_COLOURS = {"cv": "#1f77b4", "algorithm2": "#ff7f0e"}
GOLD, DEPLOYABLE = "reads the gold label (not deployable)", "label-free (deployable)"


def choice_chart(table: pd.DataFrame, *, dataset: str) -> dict:
    """The setup each selection chose over all setups, per protocol (one row per (protocol,
    selection); :func:`dkw_core.evaluation.comparisons.overview`), as a Vega-Lite spec.

    With the tf-idf + LinearSVC classifier stored: bars of the difference to it (points, its
    F1 the zero line), 95 % CI as error bars. Without: the micro-F1 with its 95 % CI as dots on
    an axis that spans the values. The values and CIs stand right of the plot, where no line
    of it can cross them; a protocol that reads the gold label is drawn pale and says so.

    Vega-Lite, not Plotly: it is the Metrics page's first chart, and a browser new to the app
    draws it about 2 s sooner (BENCHMARKS.md, "Every page's first open")."""
    if table.empty:
        return {"data": {"values": []}, "mark": "bar"}
    base = bool(table["baseline_f1"].notna().any())
    rows = []
    for r in table.itertuples(index=False):
        ci = f" [{r.ci_low:.2f}, {r.ci_high:.2f}]" if pd.notna(r.ci_low) else ""
        delta = (f"Δ {format_difference(r.diff)} [{format_difference(r.diff_low)}, {format_difference(r.diff_high)}]"
                 if base else "")
        x, low, high = (r.diff, r.diff_low, r.diff_high) if base else (r.micro_f1, r.ci_low, r.ci_high)
        setup = f"{vega(r.metric)} K {int(r.k)} N {int(r.top)}"
        rows.append({
            "row": _choice_row(r.protocol, bool(r.reads_labels), r.selection, setup),
            "selection": selection_name(r.selection), "gold": GOLD if r.reads_labels else DEPLOYABLE,
            "x": float(x), "low": None if pd.isna(low) else float(low), "high": None if pd.isna(high) else float(high),
            "f1_text": f"F1 {r.micro_f1:.2f}{ci}", "delta_text": delta,
            "hover": f"{setup}: micro-F1 {r.micro_f1:.2f} %"})
    order = list(dict.fromkeys(row["row"] for row in rows))
    used = list(dict.fromkeys(table["selection"]))
    colour = {"field": "selection", "type": "nominal", "title": None,
              "scale": {"domain": [selection_name(s) for s in used],
                        "range": [CHOICE_COLOURS.get(s, "#2ca02c") for s in used]},
              "legend": {"orient": "bottom", "direction": "horizontal", "labelLimit": 0}}
    gold = {"field": "gold", "type": "nominal", "legend": None,  # said in the row's label and the subtitle
            "scale": {"domain": [DEPLOYABLE, GOLD], "range": [1.0, 0.4] if base else ["circle", "cross"]}}
    y = {"field": "row", "type": "nominal", "sort": order, "title": None,
         "axis": {"labelExpr": "split(datum.label, '\\n')", "labelLimit": 0, "labelPadding": 6}}
    if base:
        base_f1 = float(table["baseline_f1"].dropna().iloc[0])
        x_title = f"micro-F1 − tf-idf + LinearSVC (classifier, {base_f1:.2f} %), points"
        marks = [{"mark": {"type": "bar", "height": {"band": 0.6}},
                  "encoding": {"x": {"field": "x", "type": "quantitative", "title": x_title}, "color": colour,
                               "opacity": gold, "tooltip": {"field": "hover", "title": "chosen"}}}]
    else:
        x_title = "micro-F1 (%), 95 % bootstrap CI"
        marks = [{"mark": {"type": "point", "filled": True, "size": 110},
                  "encoding": {"x": {"field": "x", "type": "quantitative", "title": x_title, "scale": {"zero": False}},
                               "color": colour, "shape": gold, "tooltip": {"field": "hover", "title": "chosen"}}}]
    marks.append({"transform": [{"filter": "isValid(datum.low)"}],
                  "mark": {"type": "errorbar", "ticks": True, "color": "#222", "thickness": 1.5},
                  "encoding": {"x": {"field": "low", "type": "quantitative", "title": x_title}, "x2": {"field": "high"}}})
    if base:  # the baseline: the zero line inside the plot
        marks.append({"mark": {"type": "rule", "color": "#d62728", "strokeWidth": 2, "strokeDash": [6, 4]},
                      "encoding": {"x": {"datum": 0}, "y": {"value": 0}, "y2": {"value": "height"}}})
    for field, dy in [("f1_text", -8), ("delta_text", 8)] if base else [("f1_text", 0)]:
        marks.append({"mark": {"type": "text", "align": "left", "dx": 10, "dy": dy, "fontSize": 11},
                      "encoding": {"x": {"value": "width"}, "text": {"field": field}}})  # right of the plot
    subtitle = [f"{vega(dataset)} · 95 % bootstrap CI over the test documents · right: micro-F1 [CI]"
                f"{', Δ to the baseline [CI]' if base else ''}, in %"] + ([_delta_ci(table)] if base else []) + (
        [("pale" if base else "×") + f": {GOLD}"] if table["reads_labels"].any() else [])
    return {
        "title": {"text": "The setup chosen on the training split, scored on the test split", "subtitle": subtitle,
                  "anchor": "start"},
        "data": {"values": rows},
        "height": {"step": 56},
        "padding": {"left": 5, "top": 8, "right": 5, "bottom": 5},  # the title's glyphs inside the chart
        "encoding": {"y": y},
        "layer": marks,
    }


def warm_up() -> go.Figure:
    """Build and serialise one small figure of every kind these Plotly charts use (bars with error
    bars, markers, a heatmap, annotations, a line shape, a legend), so that Plotly imports and
    builds its validators once at server start (``dkw_app.streamlit_main``) and not when a reader
    first opens a tab with a chart: that was 0.15–0.45 s of the Metrics page's first visit."""
    fig = go.Figure(go.Bar(x=[1.0], y=["a"], orientation="h", error_x={"type": "data", "array": [0.5]},
                           marker={"color": PALETTE[0]}))
    fig.add_trace(go.Scatter(x=[1.0], y=["a"], mode="markers+lines", marker={"symbol": "x"},
                             error_y={"type": "data", "array": [0.5]}, line={"dash": "dot"}))
    fig.add_trace(go.Heatmap(z=[[1.0]], colorscale="RdBu", text=[["1"]]))
    fig.update_layout(annotations=[{"x": 1.0, "xref": "paper", "y": "a", "text": "a", "showarrow": False}],
                      legend={"orientation": "h"}, title="a", xaxis={"title": "a"}, margin={"t": 10})
    fig.add_vline(x=0, line={"dash": "dash"})
    fig.to_json()
    return fig
