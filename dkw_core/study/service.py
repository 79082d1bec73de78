"""Study creation, judge access, atomic article assignment and validated submission.

Paper §4.6 / docs/method.md §4: articles are drawn per category (default 5 from the **test**
split, seeded), categories are grouped into batches in the corpus' fixed category order,
every article gets ``judges_per_article`` (default 3) different judges, a judge sees the
articles of her current batch in an order random per judge, and every keyword of the
shuffled union of both methods needs both questions answered.

**Batch rule, operational form.** The paper opens the next batch for a judge "when she has
judged every article of the current one or no article in it still lacks judges". Here a
batch is closed for a judge as soon as it holds no article she may still take: every article
is either judged (or reserved) by her, or has all its slots taken. Both conditions of the
paper close it; in addition a judge is never stuck on a batch whose only open article she
has already judged. A slot counts as taken when submitted or reserved by a live (not
expired) reservation; reservations older than ``Study.reservation_minutes`` are released.

**Atomicity.** Every write runs in one transaction that first takes the database write
lock (``BEGIN IMMEDIATE`` on SQLite; ``SELECT ... FOR UPDATE`` on the study row elsewhere),
and the schema's unique constraints on (article, judge), (article, slot) and
(judgement, keyword, question) back it up: concurrent judges can neither over-assign an
article nor lose or duplicate a judgement.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import random
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload

from ..errors import DkwError, InputError, StoreError
from ..types import Progress
from .models import (
    ANSWERS,
    DEFAULT_PROTOCOL,
    PROTOCOLS,
    QUESTIONS,
    STATUSES,
    Answer,
    Article,
    Judge,
    Judgement,
    KeywordSource,
    Study,
    StudyEvent,
    StudyKeyword,
    init_db,
    utcnow,
)

#: ``(spec, doc_ids, top) -> {doc_id: [keyword, ...]}`` best first (dependency injection).
#: Keyword rows are inserted in a random order so that their ids carry no method or rank.
_ROW_ORDER = random.SystemRandom()

KeywordProvider = Callable[[str, list[str], int, str], dict[str, list[str]]]
"""``provider(method_spec, doc_ids, top, protocol)`` → keywords per document."""


class StudyError(DkwError):
    """A study operation was refused (unknown study, bad settings)."""


class AccessError(StudyError):
    """Unknown or wrong judge access code."""


class SubmissionError(StudyError):
    """A submission was refused: incomplete, duplicate, or not reserved for this judge."""


class DocumentLike(Protocol):
    """What the study reads of a document (read-only: frozen dataclasses qualify)."""

    @property
    def id(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def split(self) -> str: ...


@dataclass(frozen=True)
class StudyConfig:
    """Settings of a study; defaults are the paper's (§4.6)."""

    name: str = "study"
    corpus: str = "20ng"
    method_a: str = "tf-rf"
    method_b: str = "latent-5word-knn90-rf"
    keywords_per_method: int = 5
    articles_per_category: int = 5
    categories_per_batch: int = 5
    judges_per_article: int = 3
    seed: int | None = None  # None: drawn at random and recorded
    split: str = "test"
    reservation_minutes: int = 180
    protocol_a: str = DEFAULT_PROTOCOL  # the paper's study: both methods label-aware
    protocol_b: str = DEFAULT_PROTOCOL

    def validate(self) -> None:
        for key in ("keywords_per_method", "articles_per_category", "categories_per_batch",
                    "judges_per_article", "reservation_minutes"):
            value = getattr(self, key)
            if not isinstance(value, int) or value < 1:
                raise InputError(f"{key.replace('_', ' ')} must be a positive integer, got {value!r}")
        if not self.method_a.strip() or not self.method_b.strip():
            raise InputError("both keyword methods must be named")
        if self.method_a.strip() == self.method_b.strip():
            raise InputError(f"methods A and B must differ (both are {self.method_a!r})")
        if self.split not in ("train", "test", "all"):
            raise InputError(f"split must be train, test or all, got {self.split!r}")
        if not self.name.strip():
            raise InputError("the study needs a name")
        for slot, protocol in (("A", self.protocol_a), ("B", self.protocol_b)):
            if protocol not in PROTOCOLS:
                raise InputError(f"protocol of method {slot} must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")


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
    ``judgement_id`` / ``article_id`` are for the server side (submission, tests) and are
    never rendered.
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


@dataclass(frozen=True)
class JudgeState:
    """``status`` is ``"task"`` (judge ``task``), ``"wait"`` (open articles are reserved by
    others for now), ``"done"`` (nothing left for this judge), ``"paused"`` or ``"closed"``
    (the study gives out no new article; see :func:`set_status`)."""

    status: str
    progress: JudgeProgress
    task: JudgeTask | None = None


# --------------------------------------------------------------------------- sessions

@contextlib.contextmanager
def write_session(engine: Engine, study_id: int | None = None) -> Iterator[Session]:
    """A session holding the database write lock from its first statement to commit."""
    session = Session(engine, expire_on_commit=False)
    try:
        if engine.dialect.name == "sqlite":
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
        elif study_id is not None:
            session.execute(select(Study.id).where(Study.id == study_id).with_for_update())
        yield session
        session.commit()
    except OperationalError as exc:
        session.rollback()
        raise StoreError(f"study database busy or unavailable: {exc.orig}") from exc
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def open_store(engine: Engine) -> Engine:
    """Create or check the schema; returns the engine for chaining."""
    init_db(engine)
    return engine


def _study(session: Session, study_id: int) -> Study:
    study = session.get(Study, study_id)
    if study is None:
        raise StudyError(f"no study with id {study_id}")
    return study


# --------------------------------------------------------------------------- creation

def draw_articles(documents: Iterable[DocumentLike], categories: Sequence[str], *, per_category: int,
                  seed: int, split: str = "test") -> list[DocumentLike]:
    """``per_category`` documents of each category from ``split``, sampled with ``seed``.

    Categories keep the given (corpus) order; within a category the sample order is the
    draw order. Too few documents in a category raises :class:`InputError`.
    """
    by_cat: dict[str, list[DocumentLike]] = {c: [] for c in categories}
    for doc in documents:
        if (split == "all" or doc.split == split) and doc.label in by_cat:
            by_cat[doc.label].append(doc)
    rng = random.Random(seed)
    chosen: list[DocumentLike] = []
    for cat in categories:
        pool = sorted(by_cat[cat], key=lambda d: d.id)
        if len(pool) < per_category:
            raise InputError(f"category {cat!r} has only {len(pool)} documents in the {split} split, "
                             f"{per_category} needed")
        chosen.extend(rng.sample(pool, per_category))
    return chosen


def _union(a: list[str], b: list[str]) -> list[tuple[str, dict[str, int]]]:
    """Union of two ranked keyword lists: word -> {method slot: 1-based rank}, first-seen order."""
    merged: dict[str, dict[str, int]] = {}
    for slot, words in (("A", a), ("B", b)):
        rank = 0
        for word in words:
            word = str(word).strip()
            if not word:
                continue
            rank += 1
            merged.setdefault(word, {}).setdefault(slot, rank)
    return list(merged.items())


def create_study(engine: Engine, *, documents: Iterable[DocumentLike], categories: Sequence[str],
                 provider: KeywordProvider, config: StudyConfig = StudyConfig(),
                 progress: Progress | None = None) -> int:
    """Draw the articles, fetch both methods' keywords and store the study; returns its id.

    ``provider(spec, doc_ids, top)`` is called once per method (``config.method_a`` /
    ``method_b``) — in the app :func:`dkw_core.keywords.keywords_by_method`, in tests a fake.
    """
    config.validate()
    categories = list(categories)
    if not categories:
        raise InputError("the corpus has no categories")
    seed = config.seed if config.seed is not None else secrets.randbelow(2**31)
    report = progress or (lambda _f, _m: None)
    report(0.0, f"drawing {config.articles_per_category} articles per category from the {config.split} split")
    docs = draw_articles(documents, categories, per_category=config.articles_per_category, seed=seed,
                         split=config.split)
    ids = [d.id for d in docs]
    kws: dict[str, dict[str, list[str]]] = {}
    for i, (slot, spec, protocol) in enumerate((("A", config.method_a, config.protocol_a),
                                                ("B", config.method_b, config.protocol_b))):
        report(0.1 + 0.4 * i, f"keywords of method {slot} ({protocol})")
        result = provider(spec.strip(), ids, config.keywords_per_method, protocol)
        missing = [d for d in ids if not result.get(d)]
        if missing:
            raise InputError(f"method {slot} gave no keywords for {len(missing)} article(s), e.g. {missing[0]!r}")
        kws[slot] = {d: list(result[d])[: config.keywords_per_method] for d in ids}
    report(0.9, "storing the study")
    init_db(engine)
    batch_of = {c: i // config.categories_per_batch for i, c in enumerate(categories)}
    with write_session(engine) as session:
        study = Study(name=config.name.strip(), corpus=config.corpus, split=config.split,
                      method_a=config.method_a.strip(), method_b=config.method_b.strip(),
                      keywords_per_method=config.keywords_per_method,
                      articles_per_category=config.articles_per_category,
                      categories_per_batch=config.categories_per_batch,
                      judges_per_article=config.judges_per_article, seed=seed, categories=categories,
                      reservation_minutes=config.reservation_minutes, protocol_a=config.protocol_a,
                      protocol_b=config.protocol_b, status="open")
        session.add(study)
        for pos, doc in enumerate(docs):
            art = Article(doc_id=doc.id, category=doc.label, batch=batch_of[doc.label], position=pos,
                          text=doc.text)
            union = _union(kws["A"][doc.id], kws["B"][doc.id])
            _ROW_ORDER.shuffle(union)  # row ids must not follow method or rank (blinding)
            for word, ranks in union:
                kw = StudyKeyword(word=word)
                kw.sources = [KeywordSource(method=m, rank=r) for m, r in sorted(ranks.items())]
                art.keywords.append(kw)
            study.articles.append(art)
        session.flush()
        study_id = study.id
        _log(session, study_id, "created",
             f"{len(docs)} articles of {config.corpus} ({config.split} split, seed {seed}); "
             f"A = {study.method_a} ({config.protocol_a}), B = {study.method_b} ({config.protocol_b}); "
             f"{config.keywords_per_method} keywords per method, {config.judges_per_article} judges per article")
    report(1.0, f"study {study_id} created with {len(docs)} articles")
    return study_id


def list_studies(engine: Engine) -> list[dict[str, Any]]:
    init_db(engine)
    with Session(engine) as session:
        rows = []
        for st in session.scalars(select(Study).order_by(Study.id)):
            n_art = session.scalar(select(func.count(Article.id)).where(Article.study_id == st.id))
            rows.append({"id": st.id, "name": st.name, "status": st.status, "corpus": st.corpus,
                         "split": st.split, "method_a": st.method_a, "protocol_a": st.protocol_a,
                         "method_b": st.method_b, "protocol_b": st.protocol_b, "articles": n_art,
                         "judges_per_article": st.judges_per_article, "seed": st.seed,
                         "created_at": st.created_at})
        return rows


def study_settings(engine: Engine, study_id: int) -> dict[str, Any]:
    with Session(engine) as session:
        st = _study(session, study_id)
        return {c.name: getattr(st, c.name) for c in Study.__table__.columns}


# --------------------------------------------------------------------------- judges

def _hash_code(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def _log(session: Session, study_id: int, action: str, detail: str = "") -> None:
    session.add(StudyEvent(study_id=study_id, at=utcnow(), action=action, detail=detail))


def _require_status(study: Study, allowed: Sequence[str], doing: str) -> None:
    if study.status not in allowed:
        raise StudyError(f"study {study.id} is {study.status}: cannot {doing}")


def invite_judge(engine: Engine, study_id: int, *, name: str, simulated: bool = False) -> tuple[int, str]:
    """Create a judge and return ``(judge_id, access_code)``; only the code's hash is stored.
    Refused when the study is closed (a paused study may still invite)."""
    name = (name or "").strip()
    if not name:
        raise InputError("a judge needs a name (or pseudonym)")
    if len(name) > 200:
        raise InputError("a judge's name is limited to 200 characters")
    code = secrets.token_urlsafe(18)
    with write_session(engine, study_id) as session:
        study = _study(session, study_id)
        _require_status(study, ("open", "paused"), "invite judges")
        judge = Judge(study_id=study_id, name=name, code_hash=_hash_code(code),
                      order_seed=secrets.randbelow(2**31), simulated=simulated)
        session.add(judge)
        session.flush()
        _log(session, study_id, "judge invited", f"judge {judge.id}" + (" (simulated)" if simulated else ""))
        return judge.id, code


def _judge_of(session: Session, study_id: int, judge_id: int) -> Judge:
    judge = session.get(Judge, judge_id)
    if judge is None or judge.study_id != study_id:
        raise StudyError(f"study {study_id} has no judge {judge_id}")
    return judge


def revoke_judge(engine: Engine, study_id: int, judge_id: int) -> int:
    """Revoke a judge's access code. Her submitted answers stay; her open (unsubmitted)
    reservation is released so that others can take the article. Returns how many were released."""
    with write_session(engine, study_id) as session:
        judge = _judge_of(session, study_id, judge_id)
        if judge.revoked_at is not None:
            raise StudyError(f"judge {judge_id}'s access is already revoked")
        judge.revoked_at = utcnow()
        open_j = [j for j in judge.judgements if j.submitted_at is None]
        for j in open_j:
            session.delete(j)
        _log(session, study_id, "code revoked", f"judge {judge_id}; {len(open_j)} open reservation(s) released")
        return len(open_j)


def reissue_code(engine: Engine, study_id: int, judge_id: int) -> str:
    """A new access code for a judge (the old one stops working); her answers are kept and she
    continues where she stopped. Clears a revocation. Refused when the study is closed."""
    code = secrets.token_urlsafe(18)
    with write_session(engine, study_id) as session:
        study = _study(session, study_id)
        _require_status(study, ("open", "paused"), "re-issue access codes")
        judge = _judge_of(session, study_id, judge_id)
        was_revoked = judge.revoked_at is not None
        judge.code_hash = _hash_code(code)
        judge.revoked_at = None
        _log(session, study_id, "code re-issued", f"judge {judge_id}" + (" (revocation lifted)" if was_revoked else ""))
    return code


def set_status(engine: Engine, study_id: int, status: str) -> str:
    """Open, pause or close a study; returns the previous status.

    ``open``: judges get articles. ``paused``: no new article is given out; a judge may still
    submit the article she holds; judges may be invited. ``closed``: no article is given out,
    nothing is submitted, no judge is invited or re-issued a code (a closed study may be
    re-opened).
    """
    if status not in STATUSES:
        raise InputError(f"status must be one of {', '.join(STATUSES)}, got {status!r}")
    with write_session(engine, study_id) as session:
        study = _study(session, study_id)
        before = study.status
        if before != status:
            study.status = status
            _log(session, study_id, "status", f"{before} -> {status}")
        return before


def study_events(engine: Engine, study_id: int) -> list[dict[str, Any]]:
    """The study's log, oldest first: ``{"at", "action", "detail"}`` (UTC times)."""
    with Session(engine) as session:
        _study(session, study_id)
        rows = session.scalars(select(StudyEvent).where(StudyEvent.study_id == study_id).order_by(StudyEvent.id))
        return [{"at": e.at, "action": e.action, "detail": e.detail} for e in rows]


def authenticate(engine: Engine, code: str) -> int:
    """The judge id of ``code``; a wrong or empty code raises :class:`AccessError`."""
    code = (code or "").strip()
    if not code or len(code) > 200:
        raise AccessError("unknown access code")
    digest = _hash_code(code)
    init_db(engine)
    with Session(engine) as session:
        judge = session.scalars(select(Judge).where(Judge.code_hash == digest)).first()
        if judge is None or not hmac.compare_digest(judge.code_hash, digest):
            raise AccessError("unknown access code")
        if judge.revoked_at is not None:
            raise AccessError("this access code was revoked; ask the study's organiser for a new one")
        return judge.id


def judge_info(engine: Engine, judge_id: int) -> dict[str, Any]:
    """Name, study name and whether the instructions were acknowledged (no method names)."""
    with Session(engine) as session:
        judge = session.get(Judge, judge_id)
        if judge is None:
            raise AccessError("unknown judge")
        return {"id": judge.id, "name": judge.name, "study_id": judge.study_id,
                "study_name": judge.study.name, "corpus": judge.study.corpus, "status": judge.study.status,
                "instructions_seen": judge.instructions_seen_at is not None}


def acknowledge_instructions(engine: Engine, judge_id: int) -> None:
    with write_session(engine) as session:
        judge = session.get(Judge, judge_id)
        if judge is None:
            raise AccessError("unknown judge")
        if judge.instructions_seen_at is None:
            judge.instructions_seen_at = utcnow()


# --------------------------------------------------------------------------- assignment

def _order_key(seed: int, article_id: int) -> str:
    return hashlib.sha256(f"{seed}:{article_id}".encode()).hexdigest()


def _release_expired(session: Session, study: Study, now: datetime) -> int:
    cutoff = now - timedelta(minutes=study.reservation_minutes)
    stale = session.scalars(
        select(Judgement).join(Article).where(Article.study_id == study.id, Judgement.submitted_at.is_(None),
                                              Judgement.last_seen_at < cutoff)).all()
    for j in stale:
        session.delete(j)
    if stale:
        session.flush()
    return len(stale)


def _progress(session: Session, judge: Judge, batch: int | None) -> JudgeProgress:
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


def _display_order(judge: Judge, judgement: Judgement) -> list[StudyKeyword]:
    """The article's keywords in the order this judge sees them (fixed per judgement)."""
    keywords = sorted(judgement.article.keywords, key=lambda kw: kw.id)
    random.Random(f"{judge.order_seed}:{judgement.id}").shuffle(keywords)
    return keywords


def _token(judge: Judge, judgement: Judgement) -> str:
    return hashlib.sha256(f"{judge.order_seed}:{judgement.id}:widgets".encode()).hexdigest()[:16]


def _task(judge: Judge, judgement: Judgement) -> JudgeTask:
    art = judgement.article
    keywords = [(pos, kw.word) for pos, kw in enumerate(_display_order(judge, judgement))]
    return JudgeTask(judgement_id=judgement.id, article_id=art.id, token=_token(judge, judgement),
                     text=art.text, category=art.category, categories=list(judge.study.categories),
                     keywords=keywords)


def display_keyword_ids(engine: Engine, judgement_id: int) -> list[int]:
    """Keyword row ids of a judgement in display order (server side: simulation, tests, audits)."""
    with Session(engine) as session:
        judgement = session.get(Judgement, judgement_id)
        if judgement is None:
            raise StudyError(f"no judgement with id {judgement_id}")
        return [kw.id for kw in _display_order(judgement.judge, judgement)]


def next_task(engine: Engine, judge_id: int) -> JudgeState:
    """The judge's open article (resume) or a newly reserved one, atomically.

    Picks, in the first batch that still has an article this judge may take, the article
    first in her personal random order, and reserves its lowest free slot.
    """
    init_db(engine)
    with Session(engine) as probe:
        judge = probe.get(Judge, judge_id)
        if judge is None:
            raise AccessError("unknown judge")
        study_id = judge.study_id
    for attempt in range(3):
        try:
            with write_session(engine, study_id) as session:
                return _next_task_locked(session, judge_id)
        except IntegrityError:  # only reachable without a write lock (e.g. exotic backends)
            if attempt == 2:
                raise StoreError("could not reserve an article after 3 attempts; try again") from None
    raise AssertionError("unreachable")


def _next_task_locked(session: Session, judge_id: int) -> JudgeState:
    judge = session.get(Judge, judge_id)
    if judge is None:
        raise AccessError("unknown judge")
    study = judge.study
    if judge.revoked_at is not None:
        raise AccessError("this access code was revoked; ask the study's organiser for a new one")
    if study.status == "closed":
        return JudgeState("closed", _progress(session, judge, None))
    now = utcnow()
    open_j = session.scalars(select(Judgement).where(Judgement.judge_id == judge.id,
                                                     Judgement.submitted_at.is_(None))).first()
    if study.status == "paused" and open_j is None:
        return JudgeState("paused", _progress(session, judge, None))
    if open_j is not None:
        open_j.last_seen_at = now  # resuming renews the reservation (time spent counts from assigned_at)
        return JudgeState("task", _progress(session, judge, open_j.article.batch), _task(judge, open_j))
    _release_expired(session, study, now)
    taken = dict(session.execute(
        select(Article.id, func.count(Judgement.id)).join(Judgement)
        .where(Article.study_id == study.id).group_by(Article.id)).all())
    mine = set(session.scalars(select(Judgement.article_id).where(Judgement.judge_id == judge.id)))
    need = study.judges_per_article
    articles = session.execute(select(Article.id, Article.batch).where(Article.study_id == study.id)).all()
    available = [(b, _order_key(judge.order_seed, a), a) for a, b in articles
                 if a not in mine and taken.get(a, 0) < need]
    if not available:
        waiting = any(a not in mine for a, _b in articles if a in taken and _has_open(session, a))
        return JudgeState("wait" if waiting else "done", _progress(session, judge, None))
    _batch, _key, article_id = min(available)
    used = set(session.scalars(select(Judgement.slot).where(Judgement.article_id == article_id)))
    slot = min(s for s in range(1, need + 1) if s not in used)
    judgement = Judgement(article_id=article_id, judge_id=judge.id, slot=slot, assigned_at=now, last_seen_at=now)
    session.add(judgement)
    session.flush()
    return JudgeState("task", _progress(session, judge, judgement.article.batch), _task(judge, judgement))


def _has_open(session: Session, article_id: int) -> bool:
    return (session.scalar(select(func.count(Judgement.id)).where(Judgement.article_id == article_id,
                                                                  Judgement.submitted_at.is_(None))) or 0) > 0


def judge_progress(engine: Engine, judge_id: int) -> JudgeProgress:
    with Session(engine) as session:
        judge = session.get(Judge, judge_id)
        if judge is None:
            raise AccessError("unknown judge")
        return _progress(session, judge, None)


# --------------------------------------------------------------------------- submission

def owner_revoked(session: Session, judge_id: int) -> bool:
    judge = session.get(Judge, judge_id)
    return judge is None or judge.revoked_at is not None


def submit(engine: Engine, *, judge_id: int, judgement_id: int, answers: Mapping[tuple[int, str], int],
           seconds_spent: float | None = None) -> None:
    """Store all answers of one judgement, validated again on the server.

    ``answers`` maps ``(display position, question)`` to 0..3 (:data:`ANSWERS`), positions as
    in :attr:`JudgeTask.keywords`; every keyword of the article needs both questions. Incomplete,
    foreign, unknown-keyword or repeated
    submissions raise :class:`SubmissionError` and store nothing.
    """
    with Session(engine) as probe:
        owner = probe.get(Judge, judge_id)
        if owner is None:
            raise AccessError("unknown judge")
        study_id = owner.study_id
    try:
        with write_session(engine, study_id) as session:
            judgement = session.get(Judgement, judgement_id)
            if owner_revoked(session, judge_id):
                raise AccessError("this access code was revoked; ask the study's organiser for a new one")
            if _study(session, study_id).status == "closed":
                raise SubmissionError("the study is closed: no more answers are accepted")
            if judgement is None or judgement.judge_id != judge_id:
                raise SubmissionError("this article is not reserved for you any more (the reservation "
                                      "expired or was released); reload to get your next article")
            if judgement.submitted_at is not None:
                raise SubmissionError("this article was already submitted; answers are not changed")
            shown = _display_order(judgement.judge, judgement)
            expected = {(pos, q) for pos in range(len(shown)) for q in QUESTIONS}
            try:
                given = {(int(k), str(q)): v for (k, q), v in answers.items()}
            except (TypeError, ValueError) as exc:
                raise SubmissionError(f"malformed answers: {exc}") from None
            missing = expected - given.keys()
            extra = given.keys() - expected
            if extra:
                raise SubmissionError(f"{len(extra)} answer(s) are for keywords or questions not shown "
                                      f"with this article")
            if missing:
                raise SubmissionError(f"incomplete submission: {len(missing)} of {len(expected)} answers "
                                      f"missing; every keyword needs both questions answered")
            for value in given.values():
                if isinstance(value, bool) or not isinstance(value, int) or value not in ANSWERS:
                    raise SubmissionError(f"invalid answer {value!r}; expected one of {sorted(ANSWERS)}")
            now = utcnow()
            for (pos, question), value in sorted(given.items()):
                session.add(Answer(judgement_id=judgement.id, keyword_id=shown[pos].id, question=question,
                                   value=value))
            judgement.submitted_at = now
            judgement.seconds_spent = (float(seconds_spent) if seconds_spent is not None
                                       else (now - judgement.assigned_at).total_seconds())
    except IntegrityError as exc:
        raise SubmissionError("duplicate submission refused") from exc


# --------------------------------------------------------------------------- monitoring

def monitoring(engine: Engine, study_id: int) -> dict[str, list[dict[str, Any]]]:
    """Tables for the admin: per article, per batch and per judge (submitted, open, time)."""
    with Session(engine) as session:
        study = _study(session, study_id)
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
            per_judge.append({"judge_id": judge.id, "name": judge.name, "simulated": judge.simulated,
                              "access": "revoked" if judge.revoked_at is not None else "active",
                              "submitted": len(sub),
                              "open": len(judge.judgements) - len(sub),
                              "total_minutes": round(sum(secs) / 60, 2),
                              "median_seconds_per_article": (round(sorted(secs)[len(secs) // 2], 1) if secs else None),
                              "last_submission": max((j.submitted_at for j in sub if j.submitted_at is not None),
                                                     default=None)})
        return {"articles": per_article, "batches": list(per_batch.values()), "judges": per_judge}
