"""The admin gate's failed attempts, shared by every app process.

* ``study_admin_throttle``: one row per scope (``admin``) with the count of consecutive failed
  admin attempts, the time of the last one and the time before which attempts are refused
  unchecked (seconds, Unix time). Before this revision each server process kept its own count.

Revision ID: 0004
Revises: 0003
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "study_admin_throttle",
        sa.Column("scope", sa.String(32), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_failure", sa.Float, nullable=True),
        sa.Column("blocked_until", sa.Float, nullable=False),
        sa.CheckConstraint("failures >= 0", name="ck_throttle_failures"),
    )
    op.execute(sa.text("INSERT INTO study_admin_throttle (scope, failures, blocked_until) VALUES ('admin', 0, 0)"))
    op.execute(sa.text("UPDATE study_meta SET value = '4' WHERE key = 'schema_version'"))


def downgrade() -> None:
    op.drop_table("study_admin_throttle")
    op.execute(sa.text("UPDATE study_meta SET value = '3' WHERE key = 'schema_version'"))
