"""Export of every submitted answer with method provenance (CSV and JSON).

One row per (judgement, keyword, question). ``in_a``/``rank_a``, ``in_b``/``rank_b`` (and
``in_c``/``rank_c``… for every further method) give which method produced the keyword and at
which 1-based rank; ``method_a``/``method_b``… name the methods and ``protocol_a``/``protocol_b``…
give the keyword protocol each was computed with. Judges appear by id and name only (access
codes are stored hashed and never exported).
"""
from __future__ import annotations

import json
from typing import Any

import pandas as pd
from sqlalchemy.engine import Engine

from .answers import answers_frame
from .creation import study_settings


def export_frame(engine: Engine, study_id: int, *, include_simulated: bool = False,
                 participant_ids: bool = False) -> pd.DataFrame:
    """Every submitted answer with provenance; platform participant ids (column
    ``participant_id``) only when ``participant_ids`` is asked for."""
    settings = study_settings(engine, study_id)
    frame = answers_frame(engine, study_id, include_simulated=include_simulated)
    frame.insert(0, "study_id", study_id)
    if participant_ids:
        from .answers import participant_ids as ids_of

        frame.insert(frame.columns.get_loc("judge") + 1, "participant_id", frame["judge_id"].map(ids_of(engine, study_id)))
    for method in settings["methods"]:  # every compared method: A, B as before, then C, D…
        frame[f"method_{method['label'].lower()}"] = method["name"]
        frame[f"protocol_{method['label'].lower()}"] = method["protocol"]
    return frame


def export_csv(engine: Engine, study_id: int, *, include_simulated: bool = False,
               participant_ids: bool = False) -> str:
    from ..csvsafe import frame_to_csv

    return frame_to_csv(export_frame(engine, study_id, include_simulated=include_simulated,
                                     participant_ids=participant_ids))


def export_json(engine: Engine, study_id: int, *, include_simulated: bool = False,
                participant_ids: bool = False) -> str:
    """``{"study": settings, "includes_simulated": bool, "answers": [rows]}`` with ISO timestamps."""
    settings = study_settings(engine, study_id)
    frame = export_frame(engine, study_id, include_simulated=include_simulated, participant_ids=participant_ids)
    rows: list[dict[str, Any]] = json.loads(frame.to_json(orient="records", date_format="iso"))
    study = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in settings.items()}
    return json.dumps({"study": study, "includes_simulated": include_simulated, "answers": rows},
                      ensure_ascii=False, indent=1)


def export(engine: Engine, study_id: int, fmt: str, *, include_simulated: bool = False,
           participant_ids: bool = False) -> str:
    """Every submitted answer; simulated judges' answers only with ``include_simulated``
    (the ``simulated`` column marks them); platform participant ids only with ``participant_ids``."""
    if fmt == "csv":
        return export_csv(engine, study_id, include_simulated=include_simulated, participant_ids=participant_ids)
    if fmt == "json":
        return export_json(engine, study_id, include_simulated=include_simulated, participant_ids=participant_ids)
    from ..errors import InputError

    raise InputError(f"export format must be csv or json, got {fmt!r}")
