"""ORM schema of the human-judging study (paper §4.6; docs/method.md §4).

Integrity is enforced by the database, not only by the service:

* ``UNIQUE(article_id, judge_id)`` — a judge never judges an article twice;
* ``UNIQUE(article_id, slot)`` with ``1 <= slot <= judges_per_article`` (checked by the
  service inside a write-locked transaction) — the slot-reservation scheme: an article
  never gets more judgements than its slots;
* ``UNIQUE(judgement_id, keyword_id, question)`` — one answer per keyword and question;
* ``UNIQUE(keyword_id, method)`` — a keyword records each producing method once, with rank;
* ``UNIQUE(judgement_id, keyword_id, question)`` on drafts too — one draft answer per question.

A study compares two or more methods, labelled ``A``, ``B``, ``C``… (:class:`StudyMethod`);
``Study.method_a`` / ``method_b`` keep the first two for older readers. Method names live in
:class:`StudyMethod`, :class:`Study` and :class:`KeywordSource`; nothing the judge page
receives is derived from them.

The column widths are the limits every value is checked against before any work
(:mod:`.limits`, the same on SQLite and PostgreSQL); the keyword and method-name widths are the
limits of the keyword file reader (:mod:`dkw_core.keywords.imports`), defined there once.
"""
from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from ..keywords.imports import MAX_KEYWORD_CHARS, MAX_METHOD_NAME_CHARS

#: Ordinal answer scale (paper §4.6): 0 means "Do not know" and is left out of statistics.
ANSWERS: dict[int, str] = {0: "Do not know", 1: "Irrelevant", 2: "Partially", 3: "Relevant"}
#: The two questions asked for every keyword (paper §4.6).
QUESTIONS: dict[str, str] = {
    "topic": "Can it decide article topic?",
    "category": "Can it decide article category?",
}
#: Method labels in order; a study uses the first 2..26 (the real names are in ``study_method``).
from ..types import METHOD_SLOTS  # noqa: E402,F401  (one definition, re-exported)

#: Life cycle of a study: judges get articles only while it is open.
STATUSES = ("open", "paused", "closed")
#: Keyword protocols of a method (docs/method.md): the paper's label-aware one (each article
#: weighted with its own gold category) or the deployable label-free one.
from ..types import DEFAULT_PROTOCOL, PROTOCOLS  # noqa: E402,F401  (one definition, re-exported)


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class Meta(Base):
    """Key/value table holding ``schema_version``, which each migration sets to its number for
    programs that predate the Alembic migrations (they refuse a database newer than theirs);
    the schema itself is versioned by Alembic (:func:`init_db`)."""

    __tablename__ = "study_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class Study(Base):
    __tablename__ = "study"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    corpus: Mapped[str] = mapped_column(String(200))
    split: Mapped[str] = mapped_column(String(16))
    method_a: Mapped[str] = mapped_column(String(MAX_METHOD_NAME_CHARS))
    method_b: Mapped[str] = mapped_column(String(MAX_METHOD_NAME_CHARS))
    keywords_per_method: Mapped[int] = mapped_column(Integer)
    articles_per_category: Mapped[int] = mapped_column(Integer)
    categories_per_batch: Mapped[int] = mapped_column(Integer)
    judges_per_article: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    categories: Mapped[list] = mapped_column(JSON)  # all corpus categories, corpus order
    reservation_minutes: Mapped[int] = mapped_column(Integer, default=180)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="open", server_default="open")
    protocol_a: Mapped[str] = mapped_column(String(32), default=DEFAULT_PROTOCOL, server_default=DEFAULT_PROTOCOL)
    protocol_b: Mapped[str] = mapped_column(String(32), default=DEFAULT_PROTOCOL, server_default=DEFAULT_PROTOCOL)
    #: Corpus slice the articles were drawn from: the first n documents per category and split
    #: (``DKW_SAMPLE_PER_CATEGORY`` or the form's choice); None for the whole corpus.
    sample: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Share of articles (0..1) carrying one planted intruder keyword (an attention check).
    attention_share: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    #: The exclusion rules fixed in advance (:class:`~.exclusion.ExclusionRules` as a dict);
    #: locked once the first judgement is submitted. None: no rule (studies made before them).
    rules: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    #: Platform links (:mod:`.participants`): the URL parameter carrying the participant id
    #: (``PROLIFIC_PID``, ``workerId``); None while the study takes no platform participants.
    participant_param: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Shown to a participant who finished; the platform's completion code.
    completion_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Shown instead of ``completion_code`` to a participant the rule "failed attention checks"
    #: excludes when she finishes (None: everyone gets ``completion_code``).
    completion_code_failed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Offered to a participant who finished (http or https only).
    completion_url: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    #: Articles each platform participant judges before her completion code (None: all she can).
    articles_per_participant: Mapped[int | None] = mapped_column(Integer, nullable=True)

    articles: Mapped[list[Article]] = relationship(back_populates="study", cascade="all, delete-orphan",
                                                   order_by="Article.position")
    judges: Mapped[list[Judge]] = relationship(back_populates="study", cascade="all, delete-orphan",
                                               order_by="Judge.id")
    __table_args__ = (
        CheckConstraint("keywords_per_method >= 1", name="ck_study_kw"),
        CheckConstraint("judges_per_article >= 1", name="ck_study_judges"),
        CheckConstraint("categories_per_batch >= 1", name="ck_study_batch"),
        CheckConstraint("articles_per_category >= 1", name="ck_study_apc"),
    )

    events: Mapped[list[StudyEvent]] = relationship(back_populates="study", cascade="all, delete-orphan",
                                                    order_by="StudyEvent.id")
    methods: Mapped[list[StudyMethod]] = relationship(back_populates="study", cascade="all, delete-orphan",
                                                      order_by="StudyMethod.label")

    def method_name(self, slot: str) -> str:
        return next(m.name for m in self.methods if m.label == slot)

    def protocol(self, slot: str) -> str:
        return next(m.protocol for m in self.methods if m.label == slot)


class StudyMethod(Base):
    """One compared method of a study: label (A, B, C…), name (spec or imported name), the
    protocol its keywords were computed with, its kind and how many keywords it shows."""

    __tablename__ = "study_method"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("study.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(1))
    name: Mapped[str] = mapped_column(String(MAX_METHOD_NAME_CHARS))
    protocol: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))
    top: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(300), default="")

    study: Mapped[Study] = relationship(back_populates="methods")
    __table_args__ = (UniqueConstraint("study_id", "label", name="uq_method_label"),
                      UniqueConstraint("study_id", "name", name="uq_method_name"),
                      CheckConstraint("top >= 1", name="ck_method_top"))


class StudyEvent(Base):
    """The study's log: every change of status, judge or settings, with its time (UTC)."""

    __tablename__ = "study_event"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("study.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[str] = mapped_column(Text, default="")

    study: Mapped[Study] = relationship(back_populates="events")


class Article(Base):
    __tablename__ = "study_article"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("study.id", ondelete="CASCADE"), index=True)
    doc_id: Mapped[str] = mapped_column(String(300))
    category: Mapped[str] = mapped_column(String(200))
    batch: Mapped[int] = mapped_column(Integer, index=True)  # 0-based, fixed order
    position: Mapped[int] = mapped_column(Integer)  # order of drawing, for stable listings
    text: Mapped[str] = mapped_column(Text)  # exactly what judges saw

    study: Mapped[Study] = relationship(back_populates="articles")
    keywords: Mapped[list[StudyKeyword]] = relationship(back_populates="article", cascade="all, delete-orphan",
                                                        order_by="StudyKeyword.id")
    judgements: Mapped[list[Judgement]] = relationship(back_populates="article", cascade="all, delete-orphan")
    __table_args__ = (UniqueConstraint("study_id", "doc_id", name="uq_article_doc"),)


class StudyKeyword(Base):
    """One keyword of the union shown for an article (a word both methods produced appears once),
    or its planted intruder (``intruder``, no :class:`KeywordSource`)."""

    __tablename__ = "study_keyword"
    id: Mapped[int] = mapped_column(primary_key=True)
    article_id: Mapped[int] = mapped_column(ForeignKey("study_article.id", ondelete="CASCADE"), index=True)
    word: Mapped[str] = mapped_column(String(MAX_KEYWORD_CHARS))
    #: A planted intruder from a distant category (an attention check, expected "Irrelevant" on
    #: both questions): no producing method, never in the method comparison, never shown as such.
    intruder: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    article: Mapped[Article] = relationship(back_populates="keywords")
    sources: Mapped[list[KeywordSource]] = relationship(back_populates="keyword", cascade="all, delete-orphan",
                                                        order_by="KeywordSource.method")
    __table_args__ = (UniqueConstraint("article_id", "word", name="uq_keyword_word"),)


class KeywordSource(Base):
    """Provenance: keyword produced by method label ``A``, ``B``, ``C``… at 1-based ``rank``."""

    __tablename__ = "study_keyword_source"
    id: Mapped[int] = mapped_column(primary_key=True)
    keyword_id: Mapped[int] = mapped_column(ForeignKey("study_keyword.id", ondelete="CASCADE"), index=True)
    method: Mapped[str] = mapped_column(String(1))
    rank: Mapped[int] = mapped_column(Integer)

    keyword: Mapped[StudyKeyword] = relationship(back_populates="sources")
    __table_args__ = (
        UniqueConstraint("keyword_id", "method", name="uq_source_method"),
        CheckConstraint("method BETWEEN 'A' AND 'Z'", name="ck_source_method"),
        CheckConstraint("rank >= 1", name="ck_source_rank"),
    )


class Judge(Base):
    __tablename__ = "study_judge"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("study.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex of the access code
    order_seed: Mapped[int] = mapped_column(Integer)  # per-judge random article order
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    instructions_seen_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: Set while the judge's access code is revoked; re-issuing a code clears it. Answers stay.
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: A simulated judge (``study simulate``): left out of analysis and export by default.
    simulated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    study: Mapped[Study] = relationship(back_populates="judges")
    judgements: Mapped[list[Judgement]] = relationship(back_populates="judge", cascade="all, delete-orphan")
    notices: Mapped[list[Notice]] = relationship(back_populates="judge", cascade="all, delete-orphan",
                                                 order_by="Notice.id")


class Judgement(Base):
    """A reserved slot of an article for a judge; ``submitted_at`` set once all answers are in."""

    __tablename__ = "study_judgement"
    id: Mapped[int] = mapped_column(primary_key=True)
    article_id: Mapped[int] = mapped_column(ForeignKey("study_article.id", ondelete="CASCADE"), index=True)
    judge_id: Mapped[int] = mapped_column(ForeignKey("study_judge.id", ondelete="CASCADE"), index=True)
    slot: Mapped[int] = mapped_column(Integer)
    assigned_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)  # reservation expiry clock
    submitted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    seconds_spent: Mapped[float | None] = mapped_column(nullable=True)

    article: Mapped[Article] = relationship(back_populates="judgements")
    judge: Mapped[Judge] = relationship(back_populates="judgements")
    answers: Mapped[list[Answer]] = relationship(back_populates="judgement", cascade="all, delete-orphan")
    drafts: Mapped[list[Draft]] = relationship(back_populates="judgement", cascade="all, delete-orphan",
                                               passive_deletes=True)
    __table_args__ = (
        UniqueConstraint("article_id", "judge_id", name="uq_judgement_judge"),
        UniqueConstraint("article_id", "slot", name="uq_judgement_slot"),
        CheckConstraint("slot >= 1", name="ck_judgement_slot"),
    )


class Answer(Base):
    __tablename__ = "study_answer"
    id: Mapped[int] = mapped_column(primary_key=True)
    judgement_id: Mapped[int] = mapped_column(ForeignKey("study_judgement.id", ondelete="CASCADE"), index=True)
    keyword_id: Mapped[int] = mapped_column(ForeignKey("study_keyword.id", ondelete="CASCADE"), index=True)
    question: Mapped[str] = mapped_column(String(16))
    value: Mapped[int] = mapped_column(Integer)

    judgement: Mapped[Judgement] = relationship(back_populates="answers")
    keyword: Mapped[StudyKeyword] = relationship()
    __table_args__ = (
        UniqueConstraint("judgement_id", "keyword_id", "question", name="uq_answer"),
        CheckConstraint("value BETWEEN 0 AND 3", name="ck_answer_value"),
        CheckConstraint("question IN ('topic', 'category')", name="ck_answer_question"),
    )


class Draft(Base):
    """An answer given but not yet submitted, stored as soon as it is given (restored on reload).
    Deleted on submission and with its judgement (a released reservation); never analysed."""

    __tablename__ = "study_draft"
    id: Mapped[int] = mapped_column(primary_key=True)
    judgement_id: Mapped[int] = mapped_column(ForeignKey("study_judgement.id", ondelete="CASCADE"), index=True)
    keyword_id: Mapped[int] = mapped_column(ForeignKey("study_keyword.id", ondelete="CASCADE"))
    question: Mapped[str] = mapped_column(String(16))
    value: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    judgement: Mapped[Judgement] = relationship(back_populates="drafts")
    __table_args__ = (
        UniqueConstraint("judgement_id", "keyword_id", "question", name="uq_draft"),
        CheckConstraint("value BETWEEN 0 AND 3", name="ck_draft_value"),
    )


class Notice(Base):
    """A message for a judge about an article taken from her (revoked, expired, closed); shown
    until she dismisses it. Carries no method names."""

    __tablename__ = "study_notice"
    id: Mapped[int] = mapped_column(primary_key=True)
    judge_id: Mapped[int] = mapped_column(ForeignKey("study_judge.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    reason: Mapped[str] = mapped_column(String(16))
    message: Mapped[str] = mapped_column(Text)
    dismissed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    judge: Mapped[Judge] = relationship(back_populates="notices")


class Participant(Base):
    """A participant who came from a crowd platform with her platform id: one judge identity
    per id and study. Kept apart from :class:`Judge` (whose name is ``participant-<n>``) so that
    exports leave platform ids out unless asked."""

    __tablename__ = "study_participant"
    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("study.id", ondelete="CASCADE"), index=True)
    participant_id: Mapped[str] = mapped_column(String(100))
    judge_id: Mapped[int] = mapped_column(ForeignKey("study_judge.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: The completion code she was shown when she finished (None before).
    completion_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("study_id", "participant_id", name="uq_participant"),
                      UniqueConstraint("judge_id", name="uq_participant_judge"))


class AdminThrottle(Base):
    """The admin gate's count of failed attempts (:mod:`.access`), one row per scope (``admin``),
    kept in the study database so that every app process shares it. Times are the gate clock's
    seconds (Unix time)."""

    __tablename__ = "study_admin_throttle"
    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure: Mapped[float | None] = mapped_column(Float, nullable=True)
    blocked_until: Mapped[float] = mapped_column(Float, default=0.0)
    __table_args__ = (CheckConstraint("failures >= 0", name="ck_throttle_failures"),)


def init_db(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision (see :mod:`.schema`)."""
    from .schema import upgrade

    upgrade(engine)
