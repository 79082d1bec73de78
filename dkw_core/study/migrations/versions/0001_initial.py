"""The first study schema: studies, articles, keywords with provenance, judges, judgements, answers.

Revision ID: 0001
Revises:
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("study_meta",
                    sa.Column("key", sa.String(64), primary_key=True),
                    sa.Column("value", sa.String(256), nullable=False))
    op.create_table(
        "study",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("corpus", sa.String(200), nullable=False),
        sa.Column("split", sa.String(16), nullable=False),
        sa.Column("method_a", sa.String(200), nullable=False),
        sa.Column("method_b", sa.String(200), nullable=False),
        sa.Column("keywords_per_method", sa.Integer, nullable=False),
        sa.Column("articles_per_category", sa.Integer, nullable=False),
        sa.Column("categories_per_batch", sa.Integer, nullable=False),
        sa.Column("judges_per_article", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("categories", sa.JSON, nullable=False),
        sa.Column("reservation_minutes", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.CheckConstraint("keywords_per_method >= 1", name="ck_study_kw"),
        sa.CheckConstraint("judges_per_article >= 1", name="ck_study_judges"),
        sa.CheckConstraint("categories_per_batch >= 1", name="ck_study_batch"),
        sa.CheckConstraint("articles_per_category >= 1", name="ck_study_apc"),
    )
    op.create_table(
        "study_article",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("study.id", ondelete="CASCADE"), nullable=False),
        sa.Column("doc_id", sa.String(300), nullable=False),
        sa.Column("category", sa.String(200), nullable=False),
        sa.Column("batch", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.UniqueConstraint("study_id", "doc_id", name="uq_article_doc"),
    )
    op.create_index("ix_study_article_study_id", "study_article", ["study_id"])
    op.create_index("ix_study_article_batch", "study_article", ["batch"])
    op.create_table(
        "study_keyword",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("article_id", sa.Integer, sa.ForeignKey("study_article.id", ondelete="CASCADE"), nullable=False),
        sa.Column("word", sa.String(300), nullable=False),
        sa.UniqueConstraint("article_id", "word", name="uq_keyword_word"),
    )
    op.create_index("ix_study_keyword_article_id", "study_keyword", ["article_id"])
    op.create_table(
        "study_keyword_source",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("keyword_id", sa.Integer, sa.ForeignKey("study_keyword.id", ondelete="CASCADE"), nullable=False),
        sa.Column("method", sa.String(1), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.UniqueConstraint("keyword_id", "method", name="uq_source_method"),
        sa.CheckConstraint("method IN ('A', 'B')", name="ck_source_method"),
        sa.CheckConstraint("rank >= 1", name="ck_source_rank"),
    )
    op.create_index("ix_study_keyword_source_keyword_id", "study_keyword_source", ["keyword_id"])
    op.create_table(
        "study_judge",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("study.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("order_seed", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("instructions_seen_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_study_judge_study_id", "study_judge", ["study_id"])
    op.create_table(
        "study_judgement",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("article_id", sa.Integer, sa.ForeignKey("study_article.id", ondelete="CASCADE"), nullable=False),
        sa.Column("judge_id", sa.Integer, sa.ForeignKey("study_judge.id", ondelete="CASCADE"), nullable=False),
        sa.Column("slot", sa.Integer, nullable=False),
        sa.Column("assigned_at", sa.DateTime, nullable=False),
        sa.Column("last_seen_at", sa.DateTime, nullable=False),
        sa.Column("submitted_at", sa.DateTime, nullable=True),
        sa.Column("seconds_spent", sa.Double, nullable=True),
        sa.UniqueConstraint("article_id", "judge_id", name="uq_judgement_judge"),
        sa.UniqueConstraint("article_id", "slot", name="uq_judgement_slot"),
        sa.CheckConstraint("slot >= 1", name="ck_judgement_slot"),
    )
    op.create_index("ix_study_judgement_article_id", "study_judgement", ["article_id"])
    op.create_index("ix_study_judgement_judge_id", "study_judgement", ["judge_id"])
    op.create_table(
        "study_answer",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("judgement_id", sa.Integer, sa.ForeignKey("study_judgement.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("keyword_id", sa.Integer, sa.ForeignKey("study_keyword.id", ondelete="CASCADE"), nullable=False),
        sa.Column("question", sa.String(16), nullable=False),
        sa.Column("value", sa.Integer, nullable=False),
        sa.UniqueConstraint("judgement_id", "keyword_id", "question", name="uq_answer"),
        sa.CheckConstraint("value BETWEEN 0 AND 3", name="ck_answer_value"),
        sa.CheckConstraint("question IN ('topic', 'category')", name="ck_answer_question"),
    )
    op.create_index("ix_study_answer_judgement_id", "study_answer", ["judgement_id"])
    op.create_index("ix_study_answer_keyword_id", "study_answer", ["keyword_id"])
    op.execute(sa.text("INSERT INTO study_meta (key, value) VALUES ('schema_version', '1')"))


def downgrade() -> None:
    for table in ("study_answer", "study_judgement", "study_judge", "study_keyword_source", "study_keyword",
                  "study_article", "study", "study_meta"):
        op.drop_table(table)
