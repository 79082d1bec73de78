"""The study database of every ``study`` sub-command (``--db URL``)."""
from __future__ import annotations

from .. import config


def engine_for(url: str | None):
    """The study database engine (schema created/checked)."""
    from ..study.schema import open_study_db

    return open_study_db(url or config.study_db_url())
