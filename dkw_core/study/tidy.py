"""The tidy export a statistician can use: one row per answer and producing method, CSV and
Parquet, every column typed as the codebook says (:data:`CODEBOOK`; docs/study.md "Tidy
export").

A keyword two methods produced was shown (and answered) once; its answer appears once per
method (``shared`` true), so that ``method`` is a plain factor. A planted intruder (attention
check) appears once with no method (``method`` empty, ``intruder`` true) — leave it out of a
method comparison. The exclusion flags are the study's rules applied to its judges
(:mod:`.exclusion`): ``excluded`` and one ``excluded_<rule>`` column per rule. Platform
participant ids are not in it (``study export --participant-ids`` has them).
"""
from __future__ import annotations

import io

import pandas as pd
from sqlalchemy.engine import Engine

from ..errors import InputError
from .answers import answers_frame, study_labels
from .creation import study_settings
from .exclusion import apply_rules
from .settings import RULE_NAMES, ExclusionRules

#: column -> (pandas dtype, meaning). One definition: the export is cast to it, docs/study.md's
#: codebook lists it and the tests read the files back with it.
CODEBOOK: dict[str, tuple[str, str]] = {
    "study_id": ("int64", "study number"),
    "article_id": ("int64", "article row of the study"),
    "doc_id": ("string", "the corpus document id of the article"),
    "category": ("string", "the article's gold category"),
    "batch": ("int64", "batch of the article, 1-based"),
    "judge_id": ("int64", "judge number (no platform id; see --participant-ids)"),
    "judge": ("string", "judge name or pseudonym (participant-<n> for platform participants)"),
    "simulated": ("boolean", "a simulated judge (study simulate), not human data"),
    "judgement_id": ("int64", "one judge's judgement of one article"),
    "slot": ("int64", "which of the article's judge slots (1..judges per article)"),
    "method": ("string", "label of the method that produced the keyword (A, B, ...); empty for an intruder"),
    "method_name": ("string", "that method's name (spec or imported name); empty for an intruder"),
    "rank": ("Int64", "the keyword's 1-based rank in that method's list; empty for an intruder"),
    "keyword_id": ("int64", "keyword row of the article"),
    "keyword": ("string", "the keyword as the judge saw it"),
    "shared": ("boolean", "the keyword was produced by more than one method (its answer is repeated per method)"),
    "intruder": ("boolean", "a planted intruder keyword (attention check), expected 'Irrelevant'"),
    "question": ("string", "topic or category"),
    "answer": ("int64", "0 Do not know, 1 Irrelevant, 2 Partially, 3 Relevant"),
    "answer_label": ("string", "the answer in words"),
    "seconds": ("float64", "seconds the judge spent on the article (the whole judgement)"),
    "submitted_at": ("datetime64[us]", "time the judgement was submitted (UTC, ISO 8601 in CSV)"),
    "excluded": ("boolean", "the study's exclusion rules leave this judge's answers out of the analysis"),
    **{f"excluded_{rule}": ("boolean", f"excluded by the rule '{name}'") for rule, name in RULE_NAMES.items()},
}
TIDY_FORMATS = ("csv", "parquet")


def tidy_frame(engine: Engine, study_id: int, *, include_simulated: bool = False) -> pd.DataFrame:
    """The tidy long table (:data:`CODEBOOK` columns and dtypes, in that order)."""
    settings = study_settings(engine, study_id)
    names = {m["label"]: m["name"] for m in settings["methods"]}
    labels = study_labels(engine, study_id)
    frame = answers_frame(engine, study_id, include_simulated=include_simulated)
    _kept, figures, _removed = apply_rules(frame, ExclusionRules.from_dict(settings["rules"]))
    flags = {int(r.judge_id): list(r.excluded_by) for r in figures.itertuples()}
    rows = []
    for r in frame.to_dict("records"):
        made: list[str | None] = [label for label in labels if r[f"in_{label.lower()}"]]
        base = {"study_id": study_id, "article_id": r["article_id"], "doc_id": r["doc_id"], "category": r["category"],
                "batch": r["batch"], "judge_id": r["judge_id"], "judge": r["judge"], "simulated": r["simulated"],
                "judgement_id": r["judgement_id"], "slot": r["slot"], "keyword_id": r["keyword_id"],
                "keyword": r["keyword"], "shared": len(made) > 1, "intruder": r["intruder"],
                "question": r["question"], "answer": r["value"], "answer_label": r["answer"],
                "seconds": r["seconds_spent"], "submitted_at": r["submitted_at"]}
        by = flags.get(int(r["judge_id"]), [])
        base["excluded"] = bool(by)
        base.update({f"excluded_{rule}": rule in by for rule in RULE_NAMES})
        for label in made or [None]:  # an intruder: one row, no method
            rows.append({**base, "method": label, "method_name": names.get(label) if label else None,
                         "rank": r[f"rank_{label.lower()}"] if label else None})
    out = pd.DataFrame(rows, columns=list(CODEBOOK))
    return out.astype({c: dtype for c, (dtype, _m) in CODEBOOK.items()})


def tidy_export(engine: Engine, study_id: int, fmt: str, *, include_simulated: bool = False) -> bytes:
    """The tidy table as CSV (UTF-8, formulas neutralised by :mod:`dkw_core.csvsafe`) or Parquet."""
    if fmt not in TIDY_FORMATS:
        raise InputError(f"tidy export format must be csv or parquet, got {fmt!r}")
    frame = tidy_frame(engine, study_id, include_simulated=include_simulated)
    if fmt == "csv":
        from ..csvsafe import frame_to_csv

        return frame_to_csv(frame, date_format="%Y-%m-%dT%H:%M:%S.%f").encode("utf-8")
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False, engine="pyarrow")
    return buffer.getvalue()


def read_tidy_csv(source) -> pd.DataFrame:
    """A tidy CSV read back with the codebook's dtypes (what docs/study.md shows for pandas),
    every text exactly as stored: the ``'`` that :mod:`dkw_core.csvsafe` put before a cell
    starting with ``=``, ``+``, ``-`` or ``@`` is stripped again (:func:`~dkw_core.csvsafe.read_csv`)."""
    from ..csvsafe import read_csv

    dtypes = {c: d for c, (d, _m) in CODEBOOK.items() if not d.startswith("datetime")}
    frame = read_csv(source, dtype=dtypes, parse_dates=["submitted_at"], keep_default_na=False,
                     na_values={"method": [""], "method_name": [""], "rank": [""], "seconds": [""]})
    return frame.astype({"submitted_at": CODEBOOK["submitted_at"][0]})
