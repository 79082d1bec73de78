"""ORM schema of the human-judging study (paper §4.6; docs/method.md §4).

Integrity is enforced by the database, not only by the service:

* ``UNIQUE(article_id, judge_id)`` — a judge never judges an article twice;
* ``UNIQUE(article_id, slot)`` with ``1 <= slot <= judges_per_article`` (checked by the
  service inside a write-locked transaction) — the slot-reservation scheme: an article
  never gets more judgements than its slots;
* ``UNIQUE(judgement_id, keyword_id, question)`` — one answer per keyword and question;
* ``UNIQUE(keyword_id, method)`` — a keyword records each producing method once, with rank.

Method names live in :class:`Study` (``method_a`` / ``method_b``) and :class:`KeywordSource`;
nothing the judge page receives is derived from them.
"""
from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: Kept in ``study_meta`` for programs that predate the Alembic migrations (they refuse a
#: database whose version is newer than theirs); the schema itself is versioned by Alembic.
SCHEMA_VERSION = 2

#: Ordinal answer scale (paper §4.6): 0 means "Do not know" and is left out of statistics.
ANSWERS: dict[int, str] = {0: "Do not know", 1: "Irrelevant", 2: "Partially", 3: "Relevant"}
#: The two questions asked for every keyword (paper §4.6).
QUESTIONS: dict[str, str] = {
    "topic": "Can it decide article topic?",
    "category": "Can it decide article category?",
}
#: Method slots; the real method names are stored on the study.
METHOD_SLOTS = ("A", "B")
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
    """Key/value table holding the schema version (used by :func:`init_db`)."""

    __tablename__ = "study_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class Study(Base):
    __tablename__ = "study"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    corpus: Mapped[str] = mapped_column(String(200))
    split: Mapped[str] = mapped_column(String(16))
    method_a: Mapped[str] = mapped_column(String(200))
    method_b: Mapped[str] = mapped_column(String(200))
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

    def method_name(self, slot: str) -> str:
        return self.method_a if slot == "A" else self.method_b

    def protocol(self, slot: str) -> str:
        return self.protocol_a if slot == "A" else self.protocol_b


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
    """One keyword of the union shown for an article (a word both methods produced appears once)."""

    __tablename__ = "study_keyword"
    id: Mapped[int] = mapped_column(primary_key=True)
    article_id: Mapped[int] = mapped_column(ForeignKey("study_article.id", ondelete="CASCADE"), index=True)
    word: Mapped[str] = mapped_column(String(300))

    article: Mapped[Article] = relationship(back_populates="keywords")
    sources: Mapped[list[KeywordSource]] = relationship(back_populates="keyword", cascade="all, delete-orphan",
                                                        order_by="KeywordSource.method")
    __table_args__ = (UniqueConstraint("article_id", "word", name="uq_keyword_word"),)


class KeywordSource(Base):
    """Provenance: keyword produced by method slot ``A``/``B`` at 1-based ``rank``."""

    __tablename__ = "study_keyword_source"
    id: Mapped[int] = mapped_column(primary_key=True)
    keyword_id: Mapped[int] = mapped_column(ForeignKey("study_keyword.id", ondelete="CASCADE"), index=True)
    method: Mapped[str] = mapped_column(String(1))
    rank: Mapped[int] = mapped_column(Integer)

    keyword: Mapped[StudyKeyword] = relationship(back_populates="sources")
    __table_args__ = (
        UniqueConstraint("keyword_id", "method", name="uq_source_method"),
        CheckConstraint("method IN ('A', 'B')", name="ck_source_method"),
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


def init_db(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision (see :mod:`.schema`)."""
    from .schema import upgrade

    upgrade(engine)
