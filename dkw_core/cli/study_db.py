"""The study database of every ``study`` sub-command (``--db URL``)."""
from __future__ import annotations

from .. import config


def engine_for(url: str | None):
    """The study database engine (schema created/checked)."""
    from ..db import make_engine
    from ..study.models import init_db

    engine = make_engine(url or config.study_db_url(), default_file="study.sqlite")
    init_db(engine)
    return engine
