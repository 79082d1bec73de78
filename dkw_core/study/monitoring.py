"""Progress tables for the organiser: per article, per batch and per judge."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, selectinload

from .models import Article
from .store import get_study


def monitoring(engine: Engine, study_id: int) -> dict[str, list[dict[str, Any]]]:
    """Tables for the admin: per article, per batch and per judge (her platform id beside her
    name for a platform participant — the organiser's tables only, never a judge's —, submitted,
    open, draft answers of her open article, time)."""
    from .answers import participant_ids

    platform_ids = participant_ids(engine, study_id)
    with Session(engine) as session:
        study = get_study(session, study_id)
        need = study.judges_per_article
        arts = session.scalars(select(Article).where(Article.study_id == study_id)
                               .options(selectinload(Article.judgements)).order_by(Article.position)).all()
        per_article: list[dict[str, Any]] = []
        for a in arts:
            sub = [j for j in a.judgements if j.submitted_at is not None]
            per_article.append({"article": a.doc_id, "category": a.category, "batch": a.batch + 1,
                                "submitted": len(sub), "reserved": len(a.judgements) - len(sub),
                                "needed": need, "complete": len(sub) >= need})
        per_batch: dict[int, dict[str, Any]] = {}
        for row in per_article:
            b = per_batch.setdefault(row["batch"], {"batch": row["batch"], "articles": 0, "complete_articles": 0,
                                                    "judgements": 0, "judgements_needed": 0})
            b["articles"] += 1
            b["complete_articles"] += int(row["complete"])
            b["judgements"] += row["submitted"]
            b["judgements_needed"] += need
        per_judge = []
        for judge in study.judges:
            sub = [j for j in judge.judgements if j.submitted_at is not None]
            secs = [j.seconds_spent for j in sub if j.seconds_spent is not None]
            per_judge.append({"judge_id": judge.id, "name": judge.name, "platform_id": platform_ids.get(judge.id),
                              "simulated": judge.simulated,
                              "access": "revoked" if judge.revoked_at is not None else "active",
                              "submitted": len(sub),
                              "open": len(judge.judgements) - len(sub),
                              "draft_answers": sum(len(j.drafts) for j in judge.judgements if j.submitted_at is None),
                              "total_minutes": round(sum(secs) / 60, 2),
                              "median_seconds_per_article": (round(sorted(secs)[len(secs) // 2], 1) if secs else None),
                              "last_submission": max((j.submitted_at for j in sub if j.submitted_at is not None),
                                                     default=None)})
        return {"articles": per_article, "batches": list(per_batch.values()), "judges": per_judge}
