"""Export of every submitted answer with method provenance (CSV and JSON).

One row per (judgement, keyword, question). ``in_a``/``rank_a`` and ``in_b``/``rank_b`` give
which method produced the keyword and at which 1-based rank; ``method_a``/``method_b`` name the
methods. Judges appear by id and name only (access codes are stored hashed and never exported).
"""
from __future__ import annotations

import json
from typing import Any

import pandas as pd
from sqlalchemy.engine import Engine

from .analysis import answers_frame
from .service import study_settings

FORMATS = ("csv", "json")


def export_frame(engine: Engine, study_id: int) -> pd.DataFrame:
    settings = study_settings(engine, study_id)
    frame = answers_frame(engine, study_id)
    frame.insert(0, "study_id", study_id)
    frame["method_a"] = settings["method_a"]
    frame["method_b"] = settings["method_b"]
    return frame


def export_csv(engine: Engine, study_id: int) -> str:
    return export_frame(engine, study_id).to_csv(index=False)


def export_json(engine: Engine, study_id: int) -> str:
    """``{"study": settings, "answers": [rows]}`` with ISO timestamps."""
    settings = study_settings(engine, study_id)
    frame = export_frame(engine, study_id)
    rows: list[dict[str, Any]] = json.loads(frame.to_json(orient="records", date_format="iso"))
    study = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in settings.items()}
    return json.dumps({"study": study, "answers": rows}, ensure_ascii=False, indent=1)


def export(engine: Engine, study_id: int, fmt: str) -> str:
    if fmt == "csv":
        return export_csv(engine, study_id)
    if fmt == "json":
        return export_json(engine, study_id)
    from ..errors import InputError

    raise InputError(f"export format must be csv or json, got {fmt!r}")
