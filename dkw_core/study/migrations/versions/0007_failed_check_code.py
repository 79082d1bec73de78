"""A separate completion code for a participant who failed the attention-check rule, and the
code each participant was shown.

* ``study.completion_code_failed``: shown instead of ``completion_code`` to a platform
  participant whom the rule "failed attention checks" excludes when she finishes; NULL: everyone
  gets ``completion_code``.
* ``study_participant.completion_code``: the code she was shown when she finished (kept, so the
  participants export says which one); NULL before she finished, and for participants who
  finished before this revision.

Revision ID: 0007
Revises: 0006
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("study", sa.Column("completion_code_failed", sa.String(64), nullable=True))
    op.add_column("study_participant", sa.Column("completion_code", sa.String(64), nullable=True))
    op.execute(sa.text("UPDATE study_meta SET value = '7' WHERE key = 'schema_version'"))


def downgrade() -> None:
    with op.batch_alter_table("study_participant") as batch:
        batch.drop_column("completion_code")
    with op.batch_alter_table("study") as batch:
        batch.drop_column("completion_code_failed")
    op.execute(sa.text("UPDATE study_meta SET value = '6' WHERE key = 'schema_version'"))
