"""Any number of methods, draft answers and judge notices.

* ``study_method``: one row per compared method (label A, B, C…, name, protocol, kind, keywords
  shown, source file of imported keywords). Existing studies get their two methods A and B from
  ``study.method_a`` / ``method_b`` (dkw when the name starts with ``latent-``, else the own-words
  baseline), with their ``keywords_per_method``.
* ``study_keyword_source.method`` accepts any label A..Z (was A or B).
* ``study_draft``: answers given but not yet submitted (restored on reload).
* ``study_notice``: messages to a judge whose article was taken from her.
* ``study.sample``: the corpus slice the articles were drawn from (first n documents per
  category and split), NULL for the whole corpus.

Revision ID: 0003
Revises: 0002
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _source_table(check: str) -> list:
    return [
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("keyword_id", sa.Integer, sa.ForeignKey("study_keyword.id", ondelete="CASCADE"), nullable=False),
        sa.Column("method", sa.String(1), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.UniqueConstraint("keyword_id", "method", name="uq_source_method"),
        sa.CheckConstraint(check, name="ck_source_method"),
        sa.CheckConstraint("rank >= 1", name="ck_source_rank"),
    ]


def _replace_source_check(check: str) -> None:
    if op.get_bind().dialect.name == "sqlite":  # SQLite cannot alter a CHECK: copy the table
        op.create_table("study_keyword_source_new", *_source_table(check))
        op.execute(sa.text("INSERT INTO study_keyword_source_new (id, keyword_id, method, rank) "
                           "SELECT id, keyword_id, method, rank FROM study_keyword_source"))
        op.drop_index("ix_study_keyword_source_keyword_id", "study_keyword_source")
        op.drop_table("study_keyword_source")
        op.rename_table("study_keyword_source_new", "study_keyword_source")
        op.create_index("ix_study_keyword_source_keyword_id", "study_keyword_source", ["keyword_id"])
    else:
        op.drop_constraint("ck_source_method", "study_keyword_source", type_="check")
        op.create_check_constraint("ck_source_method", "study_keyword_source", check)


def upgrade() -> None:
    op.add_column("study", sa.Column("sample", sa.Integer, nullable=True))
    op.create_table(
        "study_method",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("study.id", ondelete="CASCADE"), nullable=False),
        sa.Column("label", sa.String(1), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("protocol", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("top", sa.Integer, nullable=False),
        sa.Column("source", sa.String(300), nullable=False, server_default=""),
        sa.UniqueConstraint("study_id", "label", name="uq_method_label"),
        sa.UniqueConstraint("study_id", "name", name="uq_method_name"),
        sa.CheckConstraint("top >= 1", name="ck_method_top"),
    )
    op.create_index("ix_study_method_study_id", "study_method", ["study_id"])
    for label in ("a", "b"):
        op.execute(sa.text(
            f"INSERT INTO study_method (study_id, label, name, protocol, kind, top, source) "
            f"SELECT id, '{label.upper()}', method_{label}, protocol_{label}, "
            f"CASE WHEN method_{label} LIKE 'latent-%' THEN 'dkw' ELSE 'baseline' END, keywords_per_method, '' "
            f"FROM study"))
    _replace_source_check("method BETWEEN 'A' AND 'Z'")
    op.create_table(
        "study_draft",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("judgement_id", sa.Integer, sa.ForeignKey("study_judgement.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("keyword_id", sa.Integer, sa.ForeignKey("study_keyword.id", ondelete="CASCADE"), nullable=False),
        sa.Column("question", sa.String(16), nullable=False),
        sa.Column("value", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("judgement_id", "keyword_id", "question", name="uq_draft"),
        sa.CheckConstraint("value BETWEEN 0 AND 3", name="ck_draft_value"),
    )
    op.create_index("ix_study_draft_judgement_id", "study_draft", ["judgement_id"])
    op.create_table(
        "study_notice",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("judge_id", sa.Integer, sa.ForeignKey("study_judge.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("dismissed_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_study_notice_judge_id", "study_notice", ["judge_id"])
    op.execute(sa.text("UPDATE study_meta SET value = '3' WHERE key = 'schema_version'"))


def downgrade() -> None:
    op.drop_index("ix_study_notice_judge_id", "study_notice")
    op.drop_table("study_notice")
    op.drop_index("ix_study_draft_judgement_id", "study_draft")
    op.drop_table("study_draft")
    op.execute(sa.text("DELETE FROM study_keyword_source WHERE method NOT IN ('A', 'B')"))
    _replace_source_check("method IN ('A', 'B')")
    op.drop_index("ix_study_method_study_id", "study_method")
    op.drop_table("study_method")
    op.drop_column("study", "sample")
    op.execute(sa.text("UPDATE study_meta SET value = '2' WHERE key = 'schema_version'"))
