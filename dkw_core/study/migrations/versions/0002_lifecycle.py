"""Life cycle, protocols and simulated judges: study status and event log, each method's keyword
protocol, revocable judge codes, simulated judges marked.

Studies made before this revision were all computed label-aware (the only protocol then),
and simulated judges were always named ``sim-<n>``: both are recorded as such.

Revision ID: 0002
Revises: 0001
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("study", sa.Column("status", sa.String(16), nullable=False, server_default="open"))
    op.add_column("study", sa.Column("protocol_a", sa.String(32), nullable=False, server_default="label-aware"))
    op.add_column("study", sa.Column("protocol_b", sa.String(32), nullable=False, server_default="label-aware"))
    op.add_column("study_judge", sa.Column("revoked_at", sa.DateTime, nullable=True))
    op.add_column("study_judge", sa.Column("simulated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(sa.text("UPDATE study_judge SET simulated = :t WHERE name LIKE 'sim-%'").bindparams(t=True))
    op.create_table(
        "study_event",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("study_id", sa.Integer, sa.ForeignKey("study.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_study_event_study_id", "study_event", ["study_id"])
    op.execute(sa.text("UPDATE study_meta SET value = '2' WHERE key = 'schema_version'"))


def downgrade() -> None:
    op.drop_index("ix_study_event_study_id", "study_event")
    op.drop_table("study_event")
    for table, column in (("study_judge", "simulated"), ("study_judge", "revoked_at"), ("study", "protocol_b"),
                          ("study", "protocol_a"), ("study", "status")):
        op.drop_column(table, column)
    op.execute(sa.text("UPDATE study_meta SET value = '1' WHERE key = 'schema_version'"))
