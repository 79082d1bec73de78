"""Alembic environment of the study schema; run through :mod:`dkw_core.study.schema` with an
open connection (``config.attributes["connection"]``), inside the caller's locked transaction."""
from __future__ import annotations

from alembic import context

from dkw_core.study.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the study migrations through dkw_core.study.schema.upgrade "
                       "(python -m dkw_core study init)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=False)
with context.begin_transaction():
    context.run_migrations()
