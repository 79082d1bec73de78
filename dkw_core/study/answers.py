"""The study's stored answers read into tables, below the analysis, the exclusion rules, the
platform participants and the export that all read them: :func:`answers_frame` (one row per
submitted answer with its methods' provenance) and :func:`participant_ids` (a judge's platform id).
"""
from __future__ import annotations

from typing import Any

import pandas as pd
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, selectinload

from .models import ANSWERS, Answer, Article, Judge, Judgement, Participant, StudyKeyword
from .store import get_study

BASE_COLUMNS = ["judgement_id", "judge_id", "judge", "simulated", "slot", "article_id", "doc_id", "category",
                "batch", "keyword_id", "keyword", "intruder", "question", "value", "answer"]
TAIL_COLUMNS = ["submitted_at", "seconds_spent"]
COLUMNS = BASE_COLUMNS + ["in_a", "rank_a", "in_b", "rank_b"] + TAIL_COLUMNS


def method_columns(labels: list[str]) -> list[str]:
    """``in_<label>``, ``rank_<label>`` for every method label (lower case)."""
    return [c for label in labels for c in (f"in_{label.lower()}", f"rank_{label.lower()}")]


def study_labels(engine: Engine, study_id: int) -> list[str]:
    with Session(engine) as session:
        return [m.label for m in get_study(session, study_id).methods]


def answers_frame(engine: Engine, study_id: int, *, include_simulated: bool = False,
                  judge_id: int | None = None) -> pd.DataFrame:
    """One row per stored answer with method provenance (``in_<label>``/``rank_<label>`` for
    every method: ``in_a``/``rank_a``/``in_b``/``rank_b`` for the paper's two); answers of
    simulated judges only with ``include_simulated``; only one judge's with ``judge_id``."""
    labels = study_labels(engine, study_id)
    with Session(engine) as session:
        rows = []
        q = (select(Answer, Judgement, Article, StudyKeyword)
             .join(Judgement, Answer.judgement_id == Judgement.id)
             .join(Article, Judgement.article_id == Article.id)
             .join(StudyKeyword, Answer.keyword_id == StudyKeyword.id)
             .join(Judge, Judgement.judge_id == Judge.id)
             .where(Article.study_id == study_id, Judgement.submitted_at.is_not(None),
                    *(() if include_simulated else (Judge.simulated.is_(False),)),
                    *(() if judge_id is None else (Judgement.judge_id == judge_id,)))
             .options(selectinload(StudyKeyword.sources), selectinload(Judgement.judge))
             .order_by(Judgement.id, Answer.keyword_id, Answer.question))
        for ans, jd, art, kw in session.execute(q):
            ranks = {s.method: s.rank for s in kw.sources}
            row = {"judgement_id": jd.id, "judge_id": jd.judge_id, "judge": jd.judge.name,
                   "simulated": bool(jd.judge.simulated), "slot": jd.slot,
                   "article_id": art.id, "doc_id": art.doc_id, "category": art.category,
                   "batch": art.batch + 1, "keyword_id": kw.id, "keyword": kw.word, "intruder": bool(kw.intruder),
                   "question": ans.question, "value": ans.value, "answer": ANSWERS[ans.value],
                   "submitted_at": jd.submitted_at, "seconds_spent": jd.seconds_spent}
            for label in labels:
                row[f"in_{label.lower()}"] = label in ranks
                row[f"rank_{label.lower()}"] = ranks.get(label)
            rows.append(row)
    frame = pd.DataFrame(rows, columns=BASE_COLUMNS + method_columns(labels) + TAIL_COLUMNS)
    types: dict[str, Any] = {"value": int, "slot": int, "keyword_id": int, "judgement_id": int, "intruder": bool}
    for label in labels:
        types[f"rank_{label.lower()}"] = "Int64"
        types[f"in_{label.lower()}"] = bool
    return frame.astype(types)


def participant_ids(engine: Engine, study_id: int) -> dict[int, str]:
    """judge id -> platform participant id (for an export that asks for them)."""
    with Session(engine) as session:
        rows = session.execute(select(Participant.judge_id, Participant.participant_id)
                               .where(Participant.study_id == study_id)).all()
        return {int(judge): str(pid) for judge, pid in rows}
