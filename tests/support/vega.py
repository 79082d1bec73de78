"""Vega-Lite charts as a page drew them, for AppTests: Streamlit moves a spec's inline
``data.values`` into an Arrow table beside the spec; :func:`specs` puts them back, so a test
reads the spec the page's code built."""
from __future__ import annotations

import json
from typing import Any

import pyarrow as pa


def specs(at: Any) -> list[dict]:
    """Every ``st.vega_lite_chart`` of the page, in page order, with its data as records."""
    out = []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        if chart.proto.HasField("data") and chart.proto.data.data:
            frame = pa.ipc.open_stream(chart.proto.data.data).read_all().to_pandas()
            spec["data"] = {"values": json.loads(frame.to_json(orient="records", force_ascii=False))}
        out.append(spec)
    return out
