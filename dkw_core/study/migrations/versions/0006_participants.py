"""Participants from a crowd platform.

* ``study.participant_param``: the URL parameter carrying a participant's platform id
  (``PROLIFIC_PID``, ``workerId``); NULL: the study takes no platform participants.
* ``study.completion_code``, ``study.completion_url``: shown to a participant who finished.
* ``study.articles_per_participant``: articles each participant judges (NULL: all she can).
* ``study_participant``: one row per platform id and study, with its judge identity; apart from
  ``study_judge`` so that exports leave platform ids out unless asked.

Revision ID: 0006
Revises: 0005
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("study", sa.Column("participant_param", sa.String(64), nullable=True))
    op.add_column("study", sa.Column("completion_code", sa.String(64), nullable=True))
    op.add_column("study", sa.Column("completion_url", sa.String(2000), nullable=True))
    op.add_column("study", sa.Column("articles_per_participant", sa.Integer, nullable=True))
    op.create_table(
        "study_participant",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("study.id", ondelete="CASCADE"), nullable=False),
        sa.Column("participant_id", sa.String(100), nullable=False),
        sa.Column("judge_id", sa.Integer, sa.ForeignKey("study_judge.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("completed_at", sa.DateTime, nullable=True),
        sa.UniqueConstraint("study_id", "participant_id", name="uq_participant"),
        sa.UniqueConstraint("judge_id", name="uq_participant_judge"),
    )
    op.create_index("ix_study_participant_study_id", "study_participant", ["study_id"])
    op.execute(sa.text("UPDATE study_meta SET value = '6' WHERE key = 'schema_version'"))


def downgrade() -> None:
    op.drop_index("ix_study_participant_study_id", "study_participant")
    op.drop_table("study_participant")
    with op.batch_alter_table("study") as batch:
        for column in ("articles_per_participant", "completion_url", "completion_code", "participant_param"):
            batch.drop_column(column)
    op.execute(sa.text("UPDATE study_meta SET value = '5' WHERE key = 'schema_version'"))
