"""Attention checks and exclusion rules fixed in advance.

* ``study.attention_share``: the share of articles (0..1) that carry one planted intruder
  keyword; 0 for existing studies (they have none).
* ``study.rules``: the exclusion rules (JSON), locked once the first judgement is submitted;
  NULL for existing studies (no rule).
* ``study_keyword.intruder``: the planted intruder of an article (no producing method); false
  for every existing keyword.

Revision ID: 0005
Revises: 0004
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("study", sa.Column("attention_share", sa.Float, nullable=False, server_default="0"))
    op.add_column("study", sa.Column("rules", sa.JSON, nullable=True))
    op.add_column("study_keyword", sa.Column("intruder", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(sa.text("UPDATE study_meta SET value = '5' WHERE key = 'schema_version'"))


def downgrade() -> None:
    with op.batch_alter_table("study_keyword") as batch:
        batch.drop_column("intruder")
    with op.batch_alter_table("study") as batch:
        batch.drop_column("rules")
        batch.drop_column("attention_share")
    op.execute(sa.text("UPDATE study_meta SET value = '4' WHERE key = 'schema_version'"))
