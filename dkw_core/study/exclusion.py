"""Exclusion rules fixed in advance (:class:`~.settings.ExclusionRules`) and each judge's figures
against them (docs/study.md "Attention checks and exclusion rules").

The rules are stored with the study at creation and may be changed only until the first
judgement is submitted (:func:`set_rules` refuses afterwards, in one line): an analysis can then
not be tuned to its data. :func:`judge_figures` and :func:`apply_rules` are pure over the
stored answers (:func:`~.answers.answers_frame`): per judge her articles, attention checks
and failures, median seconds per article and the share of articles answered with one value
throughout; which rule excludes her; and what each rule removed.
"""
from __future__ import annotations

from typing import Any

import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .answers import answers_frame, participant_ids
from .errors import StudyError
from .models import Article, Judgement, StudyKeyword
from .settings import RULE_NAMES, ExclusionRules
from .store import get_study, log_event, write_session

FIGURE_COLUMNS = ["judge_id", "judge", "articles", "attention_checks", "failed_checks", "median_seconds",
                  "same_answer_share", "excluded", "excluded_by"]
#: Expected answer of a planted intruder on both questions: 1, "Irrelevant".
INTRUDER_EXPECTED = 1


def judgement_figures(frame: pd.DataFrame) -> pd.DataFrame:
    """Per submitted judgement: judge, seconds, whether it carried an attention check and failed
    it (an intruder answer other than "Irrelevant"), and whether every answer was one value."""
    if frame.empty:
        return pd.DataFrame(columns=["judgement_id", "judge_id", "judge", "seconds", "check", "failed", "same"])
    intruder = frame["intruder"] if "intruder" in frame.columns else pd.Series(False, index=frame.index)
    g = frame.assign(_intr=intruder, _bad=intruder & (frame["value"] != INTRUDER_EXPECTED)).groupby(
        "judgement_id", sort=True)
    return pd.DataFrame({"judge_id": g["judge_id"].first(), "judge": g["judge"].first(),
                         "seconds": g["seconds_spent"].first(), "check": g["_intr"].any(),
                         "failed": g["_bad"].any(), "same": g["value"].nunique() == 1}).reset_index()


def judge_figures(frame: pd.DataFrame, rules: ExclusionRules | None) -> pd.DataFrame:
    """One row per judge (:data:`FIGURE_COLUMNS`): her figures and the rules that exclude her
    (``excluded_by``: rule fields, in :data:`~.settings.RULE_NAMES` order)."""
    per = judgement_figures(frame)
    rows = []
    for judge_id, grp in per.groupby("judge_id", sort=True):
        secs = grp["seconds"].dropna()
        row = {"judge_id": int(judge_id), "judge": grp["judge"].iloc[0], "articles": len(grp),
               "attention_checks": int(grp["check"].sum()), "failed_checks": int(grp["failed"].sum()),
               "median_seconds": float(secs.median()) if len(secs) else None,
               "same_answer_share": float(grp["same"].mean())}
        by = []
        if rules is not None:
            if rules.max_failed_checks is not None and row["failed_checks"] > rules.max_failed_checks:
                by.append("max_failed_checks")
            if (rules.min_seconds_per_article is not None and row["median_seconds"] is not None
                    and row["median_seconds"] < rules.min_seconds_per_article):
                by.append("min_seconds_per_article")
            if rules.max_same_answer_share is not None and row["same_answer_share"] > rules.max_same_answer_share:
                by.append("max_same_answer_share")
            if rules.min_articles is not None and row["articles"] < rules.min_articles:
                by.append("min_articles")
        row["excluded"] = bool(by)
        row["excluded_by"] = by
        rows.append(row)
    return pd.DataFrame(rows, columns=FIGURE_COLUMNS)


def apply_rules(frame: pd.DataFrame, rules: ExclusionRules | None) -> tuple[pd.DataFrame, pd.DataFrame,
                                                                             dict[str, Any]]:
    """``(kept answers, judge figures, removed)``: the answers of judges no rule excludes; per
    rule the judges and judgements it flags (a judge flagged by two rules counts for each) and
    the totals removed."""
    figures = judge_figures(frame, rules)
    per_judge = frame.groupby("judge_id")["judgement_id"].nunique() if not frame.empty else pd.Series(dtype=int)
    by_rule = {}
    for rule in RULE_NAMES:
        judges = [int(r.judge_id) for r in figures.itertuples() if rule in r.excluded_by]
        by_rule[rule] = {"rule": RULE_NAMES[rule], "judges": len(judges),
                         "judgements": int(sum(per_judge.get(j, 0) for j in judges))}
    out_judges = [int(j) for j in figures.loc[figures["excluded"], "judge_id"]] if len(figures) else []
    kept = frame[~frame["judge_id"].isin(out_judges)] if len(frame) else frame
    removed = {"by_rule": by_rule, "judges": len(out_judges),
               "judgements": int(sum(per_judge.get(j, 0) for j in out_judges)),
               "answers": int(len(frame) - len(kept))}
    return kept, figures, removed


def fails_attention_rule(engine: Engine, study_id: int, judge_id: int) -> bool:
    """Whether the study's rule "failed attention checks" excludes the judge on her submitted
    answers so far (False when the rule is off): which completion code a platform participant
    is shown (:func:`~.participants.completion`)."""
    frame = answers_frame(engine, study_id, include_simulated=True, judge_id=judge_id)
    figures = judge_figures(frame, study_rules(engine, study_id))
    return any("max_failed_checks" in by for by in figures["excluded_by"])


def study_rules(engine: Engine, study_id: int) -> ExclusionRules | None:
    with Session(engine) as session:
        return ExclusionRules.from_dict(get_study(session, study_id).rules)


def judging_began(session: Session, study_id: int) -> Any:
    """When the study's first judgement was submitted (None before)."""
    return session.scalar(select(func.min(Judgement.submitted_at)).join(Article)
                          .where(Article.study_id == study_id, Judgement.submitted_at.is_not(None)))


def rules_locked(engine: Engine, study_id: int) -> Any:
    """The time the rules were locked (the first submitted judgement), None while they may change."""
    with Session(engine) as session:
        get_study(session, study_id)
        return judging_began(session, study_id)


def checks_and_rules(engine: Engine, study_id: int) -> str:
    """The study's attention checks and exclusion rules in one sentence (``study create``'s
    summary): how many articles carry a planted intruder, and each rule that is on."""
    with Session(engine) as session:
        study = get_study(session, study_id)
        articles = session.scalar(select(func.count(Article.id)).where(Article.study_id == study_id)) or 0
        checked = session.scalar(select(func.count(func.distinct(StudyKeyword.article_id))).join(Article).where(
            Article.study_id == study_id, StudyKeyword.intruder.is_(True))) or 0
        rules, share = ExclusionRules.from_dict(study.rules), study.attention_share
        locked = judging_began(session, study_id)
    checks = (f"attention checks: {checked} of {articles} article(s) carry a planted intruder keyword (share "
              f"{share:g}; expected answer 'Irrelevant')" if checked
              else "attention checks: none (share 0)")
    when = "locked since the first judgement" if locked is not None else "fixed now, locked at the first judgement"
    described = "none stored" if rules is None else "; ".join(rules.describe()) or "every rule off"
    return f"{checks}; exclusion rules ({when}): {described}"


def set_rules(engine: Engine, study_id: int, rules: ExclusionRules) -> None:
    """Replace the study's exclusion rules; refused once a judgement was submitted (checked
    under the write lock, so no judgement slips in between) and for invalid rules."""
    rules.validate()
    with write_session(engine, study_id) as session:
        study = get_study(session, study_id)
        began = judging_began(session, study_id)
        if began is not None:
            raise StudyError(f"the exclusion rules of study {study_id} are locked: judging began at "
                             f"{began:%Y-%m-%d %H:%M:%S} UTC, and rules are fixed before the first judgement")
        study.rules = rules.to_dict()
        log_event(session, study_id, "rules", "; ".join(rules.describe()) or "no rule")


def judge_quality(engine: Engine, study_id: int) -> list[dict[str, Any]]:
    """Each judge's figures against the study's rules (simulated judges included, marked), for
    the organiser's page: :data:`FIGURE_COLUMNS` plus ``simulated``, ``platform_id`` (a platform
    participant's id, None for an invited judge) and ``excluded_by`` in words."""
    import json

    frame = answers_frame(engine, study_id, include_simulated=True)
    figures = judge_figures(frame, study_rules(engine, study_id))
    simulated = frame.groupby("judge_id")["simulated"].first().to_dict() if len(frame) else {}
    rows: list[dict[str, Any]] = json.loads(figures.to_json(orient="records"))
    platform_ids = participant_ids(engine, study_id)
    for row in rows:
        row["simulated"] = bool(simulated.get(row["judge_id"], False))
        row["platform_id"] = platform_ids.get(row["judge_id"])
        row["excluded_by"] = ", ".join(RULE_NAMES[r] for r in row["excluded_by"])
    return rows
