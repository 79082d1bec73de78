"""What a judge gets: her next article (reserved atomically by the batch rule of
:mod:`.assignment`), its keywords in her shuffled order, her draft answers, and notices about
an article taken from her. Nothing here carries a method name, a rank or a keyword row id.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import StoreError
from .assignment import ArticleState, choose
from .errors import AccessError, StudyError
from .judges import REVOKED, notify, unsent_note
from .models import ANSWERS, QUESTIONS, Article, Judge, Judgement, Notice, Study, StudyKeyword, init_db, utcnow
from .participants import quota_reached
from .store import get_judge, write_session


@dataclass(frozen=True)
class JudgeProgress:
    judged: int  # submitted judgements of this judge
    total_articles: int  # articles of the study
    batch: int | None  # 0-based batch of the current article (None when nothing is open)
    batches: int
    judged_in_batch: int
    articles_in_batch: int


@dataclass(frozen=True)
class JudgeTask:
    """What the judge page may show: no method names, no provenance, no ranks, no row ids.

    ``keywords`` are ``(display position, word)`` in this judge's shuffled order; answers are
    submitted by display position and mapped back to keyword rows on the server only.
    ``token`` is an opaque per-judgement string for widget keys (derived from the judge's
    secret seed, so it reveals neither the judgement's nor any keyword's row id).
    ``draft``: answers already given and saved as drafts, by ``(position, question)`` — a
    reload restores them. ``missing``: ``(position, question)`` still unanswered, in display
    order. ``judgement_id`` / ``article_id`` are for the server side (submission, tests) and
    are never rendered.
    """

    judgement_id: int
    article_id: int
    token: str
    text: str
    category: str
    categories: list[str]
    keywords: list[tuple[int, str]]  # (display position 0.., word), shuffled for this judge
    questions: dict[str, str] = field(default_factory=lambda: dict(QUESTIONS))
    answers: dict[int, str] = field(default_factory=lambda: dict(ANSWERS))
    draft: dict[tuple[int, str], int] = field(default_factory=dict)
    missing: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class JudgeNotice:
    """A message for the judge about an article taken from her; shown until dismissed
    (:func:`dismiss_notice`). ``reason``: ``revoked``, ``expired`` or ``closed``."""

    id: int
    reason: str
    message: str
    at: datetime  # UTC


@dataclass(frozen=True)
class JudgeState:
    """``status`` is ``"task"`` (judge ``task``), ``"wait"`` (open articles are reserved by
    others for now), ``"done"`` (nothing left for this judge), ``"paused"`` or ``"closed"``
    (the study gives out no new article; see :func:`~.lifecycle.set_status`). ``notices``:
    undismissed messages about articles taken from her, oldest first."""

    status: str
    progress: JudgeProgress
    task: JudgeTask | None = None
    notices: list[JudgeNotice] = field(default_factory=list)


def release_expired(session: Session, study: Study, now: datetime) -> int:
    """Delete reservations idle for longer than the study's ``reservation_minutes`` (their
    drafts go with them) and tell their judges."""
    cutoff = now - timedelta(minutes=study.reservation_minutes)
    stale = session.scalars(
        select(Judgement).join(Article).where(Article.study_id == study.id, Judgement.submitted_at.is_(None),
                                              Judgement.last_seen_at < cutoff)).all()
    for j in stale:
        notify(session, j.judge_id, "expired",
               f"The article you were judging was given back after {study.reservation_minutes} minutes without "
               f"activity, so that another judge could take it{unsent_note(j, 'to it were discarded')}.")
        session.delete(j)
    if stale:
        session.flush()
    return len(stale)


def progress_of(session: Session, judge: Judge, batch: int | None) -> JudgeProgress:
    study = judge.study
    batches = session.scalar(select(func.max(Article.batch)).where(Article.study_id == study.id))
    total = session.scalar(select(func.count(Article.id)).where(Article.study_id == study.id)) or 0
    done_batches = session.execute(
        select(Article.batch, func.count(Judgement.id)).join(Judgement)
        .where(Judgement.judge_id == judge.id, Judgement.submitted_at.is_not(None))
        .group_by(Article.batch)).all()
    per_batch = dict(done_batches)
    in_batch = 0
    if batch is not None:
        in_batch = session.scalar(select(func.count(Article.id)).where(Article.study_id == study.id,
                                                                       Article.batch == batch)) or 0
    return JudgeProgress(judged=sum(per_batch.values()), total_articles=total, batch=batch,
                         batches=(batches + 1) if batches is not None else 0,
                         judged_in_batch=per_batch.get(batch, 0) if batch is not None else 0,
                         articles_in_batch=in_batch)


def display_order(judge: Judge, judgement: Judgement) -> list[StudyKeyword]:
    """The article's keywords in the order this judge sees them (fixed per judgement)."""
    keywords = sorted(judgement.article.keywords, key=lambda kw: kw.id)
    random.Random(f"{judge.order_seed}:{judgement.id}").shuffle(keywords)
    return keywords


def widget_token(judge: Judge, judgement: Judgement) -> str:
    """Opaque and unique per reservation: a row id the database reuses after a release (SQLite
    does) still gets a new token, so a stale page can never answer a newer reservation."""
    import hashlib

    stamp = judgement.assigned_at.isoformat() if judgement.assigned_at else ""
    return hashlib.sha256(f"{judge.order_seed}:{judgement.id}:{judgement.article_id}:{stamp}:widgets"
                          .encode()).hexdigest()[:16]


def build_task(judge: Judge, judgement: Judgement) -> JudgeTask:
    art = judgement.article
    shown = display_order(judge, judgement)
    pos_of = {kw.id: pos for pos, kw in enumerate(shown)}
    draft = {(pos_of[d.keyword_id], d.question): d.value for d in judgement.drafts if d.keyword_id in pos_of}
    missing = [(pos, q) for pos in range(len(shown)) for q in QUESTIONS if (pos, q) not in draft]
    return JudgeTask(judgement_id=judgement.id, article_id=art.id, token=widget_token(judge, judgement),
                     text=art.text, category=art.category, categories=list(judge.study.categories),
                     keywords=[(pos, kw.word) for pos, kw in enumerate(shown)], draft=dict(sorted(draft.items())),
                     missing=missing)


def notices_of(session: Session, judge_id: int) -> list[JudgeNotice]:
    rows = session.scalars(select(Notice).where(Notice.judge_id == judge_id, Notice.dismissed_at.is_(None))
                           .order_by(Notice.id))
    return [JudgeNotice(n.id, n.reason, n.message, n.at) for n in rows]


def display_keyword_ids(engine: Engine, judgement_id: int) -> list[int]:
    """Keyword row ids of a judgement in display order (server side: simulation, tests, audits)."""
    with Session(engine) as session:
        judgement = session.get(Judgement, judgement_id)
        if judgement is None:
            raise StudyError(f"no judgement with id {judgement_id}")
        return [kw.id for kw in display_order(judgement.judge, judgement)]


def next_task(engine: Engine, judge_id: int) -> JudgeState:
    """The judge's open article (resume, with her drafts) or a newly reserved one, atomically;
    see :mod:`.assignment` for the rule."""
    init_db(engine)
    with Session(engine) as probe:
        study_id = get_judge(probe, judge_id).study_id
    for attempt in range(3):
        try:
            with write_session(engine, study_id) as session:
                status, judgement_id = _reserve_locked(session, judge_id)
            break
        except IntegrityError:  # only reachable without a write lock (e.g. exotic backends)
            if attempt == 2:
                raise StoreError("could not reserve an article after 3 attempts; try again") from None
    # What the page shows is read after the write lock is released (short write transactions:
    # other judges' writes need not wait for her article, keywords, drafts and progress).
    with Session(engine) as session:
        judge = get_judge(session, judge_id)
        judgement = session.get(Judgement, judgement_id) if judgement_id is not None else None
        if judgement is None or judgement.judge_id != judge_id or judgement.submitted_at is not None:
            return JudgeState(status if judgement_id is None else "wait", progress_of(session, judge, None),
                              notices=notices_of(session, judge.id))
        return JudgeState("task", progress_of(session, judge, judgement.article.batch), build_task(judge, judgement),
                          notices_of(session, judge.id))


def _article_states(session: Session, study: Study, judge: Judge) -> list[ArticleState]:
    rows = session.execute(select(Judgement.article_id, Judgement.slot, Judgement.judge_id, Judgement.submitted_at)
                           .join(Article).where(Article.study_id == study.id)).all()
    used: dict[int, set[int]] = {}
    mine: set[int] = set()
    has_open: set[int] = set()
    for article_id, slot, owner, submitted in rows:
        used.setdefault(article_id, set()).add(slot)
        if owner == judge.id:
            mine.add(article_id)
        if submitted is None:
            has_open.add(article_id)
    articles = session.execute(select(Article.id, Article.batch).where(Article.study_id == study.id)).all()
    return [ArticleState(a, b, frozenset(used.get(a, ())), a in mine, a in has_open) for a, b in articles]


def _reserve_locked(session: Session, judge_id: int) -> tuple[str, int | None]:
    """Under the write lock, only what must be atomic: resume or reserve. Returns the state and
    the judgement to show (None unless ``"task"``)."""
    judge = get_judge(session, judge_id)  # AccessError when removed since next_task looked it up
    study = judge.study
    if judge.revoked_at is not None:
        raise AccessError(REVOKED)
    now = utcnow()
    if study.status == "closed":
        return "closed", None
    open_j = session.scalars(select(Judgement).where(Judgement.judge_id == judge.id,
                                                     Judgement.submitted_at.is_(None))).first()
    if study.status == "paused" and open_j is None:
        return "paused", None
    if open_j is not None:
        open_j.last_seen_at = now  # resuming renews the reservation (time spent counts from assigned_at)
        return "task", open_j.id
    if quota_reached(session, judge):  # a platform participant who judged her share is done
        return "done", None
    release_expired(session, study, now)
    choice = choose(_article_states(session, study, judge), judges_per_article=study.judges_per_article,
                    seed=judge.order_seed)
    if choice.status != "task":
        return choice.status, None
    judgement = Judgement(article_id=choice.article_id, judge_id=judge.id, slot=choice.slot, assigned_at=now,
                          last_seen_at=now)
    session.add(judgement)
    session.flush()
    return "task", judgement.id


def judge_progress(engine: Engine, judge_id: int) -> JudgeProgress:
    with Session(engine) as session:
        return progress_of(session, get_judge(session, judge_id), None)


def dismiss_notice(engine: Engine, *, judge_id: int, notice_id: int) -> None:
    """Mark a notice read (the judge pressed "Got it"); another judge's notice is refused."""
    with write_session(engine) as session:
        notice = session.get(Notice, notice_id)
        if notice is None or notice.judge_id != judge_id:
            raise AccessError("unknown notice")
        if notice.dismissed_at is None:
            notice.dismissed_at = utcnow()
