"""The study database of every ``study`` sub-command (``--db URL``)."""
from __future__ import annotations

from .. import config


def engine_for(url: str | None):
    """The study database engine (schema created/checked)."""
    from ..db import open_db

    return open_db(url or config.study_db_url())
