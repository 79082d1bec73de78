"""Results store: every evaluation run's configuration, scores and timings (SQLAlchemy 2.0 ORM).

The database is opened through :func:`dkw_core.db.open_db` (SQLite ``data/results.sqlite``
by default, any SQLAlchemy URL accepted). Every row records the dkw version that computed it
and the hash of every method-relevant setting (:meth:`RunConfig.settings_hash`). A run is
keyed by the hash of (version, settings), so re-running the same configuration with the same
version is a cache hit (:meth:`ResultsStore.run` returns the stored row, ``cached=True``),
while a run stored by another version is never reused: :func:`load_runs` marks it
``stale`` and the report and the app leave stale runs out of every chart and table (listed
apart, re-runnable with the same command). A database created before versions were recorded
gains the two columns on opening; its old rows have no version and count as stale.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime

import pandas as pd
from sqlalchemy import JSON, DateTime, Float, Integer, String, select
from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..db import open_db
from ..errors import StoreError
from .classifiers import Scores
from .protocols import RunConfig, RunResult, dkw_version

DEFAULT_FILE = "results.sqlite"


class Base(DeclarativeBase):
    pass


class EvalRun(Base):
    """One stored evaluation run."""

    __tablename__ = "evaluation_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    config_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    dataset: Mapped[str] = mapped_column(String(200), index=True)
    corpus_key: Mapped[str] = mapped_column(String(200))
    vectors: Mapped[str] = mapped_column(String(200))
    protocol: Mapped[str] = mapped_column(String(20))
    metric: Mapped[str] = mapped_column(String(40))
    k: Mapped[int] = mapped_column(Integer)
    top: Mapped[int] = mapped_column(Integer)
    classifier: Mapped[str] = mapped_column(String(40))
    split: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(20))
    sample: Mapped[int | None] = mapped_column(Integer, nullable=True)
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    micro_f1: Mapped[float] = mapped_column(Float)
    macro_f1: Mapped[float] = mapped_column(Float)
    scores: Mapped[dict] = mapped_column(JSON)  # per-category P/R/F1, confusion matrix, categories
    seconds: Mapped[dict] = mapped_column(JSON, default=dict)
    details: Mapped[dict] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    dkw_version: Mapped[str | None] = mapped_column(String(40), nullable=True)
    settings_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


#: Columns added after the first schema: (name, SQL type) added on opening an older database.
_ADDED_COLUMNS = (("dkw_version", "VARCHAR(40)"), ("settings_hash", "VARCHAR(64)"))


def _create(engine) -> None:
    """The runs table, created or upgraded (nothing written when it is current)."""
    Base.metadata.create_all(engine)
    _upgrade(engine)


def _upgrade(engine) -> None:
    """Add the columns a database created by an older dkw lacks (rows keep NULL: stale)."""
    from sqlalchemy import inspect, text

    present = {c["name"] for c in inspect(engine).get_columns(EvalRun.__tablename__)}
    missing = [(n, t) for n, t in _ADDED_COLUMNS if n not in present]
    if missing:
        with engine.begin() as conn:
            for name, sql_type in missing:
                conn.execute(text(f"ALTER TABLE {EvalRun.__tablename__} ADD COLUMN {name} {sql_type}"))


def _config_of(row: EvalRun) -> RunConfig:
    return RunConfig(
        dataset=row.dataset, corpus_key=row.corpus_key, vectors=row.vectors, protocol=row.protocol,
        metric=row.metric, k=row.k, top=row.top, classifier=row.classifier, split=row.split,
        kind=row.kind, sample=row.sample, options=dict(row.options or {}),
    )


def _scores_of(row: EvalRun) -> Scores:
    s = row.scores or {}
    per = s.get("per_category", [])
    return Scores(
        micro_f1=row.micro_f1, macro_f1=row.macro_f1, categories=list(s.get("categories", [])),
        precision=[p["precision"] for p in per], recall=[p["recall"] for p in per],
        f1=[p["f1"] for p in per], support=[p["support"] for p in per], confusion=s.get("confusion", []),
    )


class ResultsStore:
    """Read/write access to the evaluation runs table."""

    def __init__(self, url: str | None = None) -> None:
        self.engine = open_db(url, default_file=DEFAULT_FILE, schema=_create)

    def get(self, config: RunConfig) -> RunResult | None:
        """The stored run of ``config`` (``cached=True``), or None."""
        with Session(self.engine) as session:
            row = session.scalar(select(EvalRun).where(EvalRun.config_hash == config.config_hash()))
            if row is None:
                return None
            return RunResult(config=_config_of(row), scores=_scores_of(row), seconds=dict(row.seconds or {}),
                             cached=True, details=dict(row.details or {}))

    def save(self, result: RunResult) -> RunResult:
        """Store ``result``; if the same configuration was stored meanwhile, keep the first row."""
        c = result.config
        lookup = result.key or c
        row = EvalRun(
            config_hash=lookup.config_hash(), dataset=c.dataset, corpus_key=c.corpus_key, vectors=c.vectors,
            protocol=c.protocol, metric=c.metric, k=c.k, top=c.top, classifier=c.classifier, split=c.split,
            kind=c.kind, sample=c.sample, options=json.loads(json.dumps(c.options, default=str)),
            micro_f1=float(result.scores.micro_f1), macro_f1=float(result.scores.macro_f1),
            scores=result.scores.to_dict(), seconds=dict(result.seconds),
            details=json.loads(json.dumps(result.details, default=str)), created_at=datetime.now(UTC),
            dkw_version=dkw_version(), settings_hash=lookup.settings_hash(),
        )
        try:
            with Session(self.engine) as session, session.begin():
                session.add(row)
        except IntegrityError:
            stored = self.get(lookup)
            if stored is not None:
                return stored
            raise
        except (OperationalError, DatabaseError) as exc:
            raise StoreError(f"cannot save the run: {exc.orig}") from exc
        return result

    def run(self, config: RunConfig, compute: Callable[[], RunResult], *, force: bool = False) -> RunResult:
        """Cache hit (stored row, ``cached=True``) or ``compute()`` then save."""
        if not force:
            stored = self.get(config)
            if stored is not None:
                return stored
        else:
            self.delete(config)
        result = compute()
        if result.config != config:
            result.key = config
        return self.save(result)

    def delete(self, config: RunConfig) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.scalar(select(EvalRun).where(EvalRun.config_hash == config.config_hash()))
            if row is not None:
                session.delete(row)

    def frame(self, *, dataset: str | None = None) -> pd.DataFrame:
        """All stored runs as a DataFrame, F1 as percentages (``micro_f1``, ``macro_f1``)."""
        stmt = select(EvalRun).order_by(EvalRun.id)
        if dataset:
            stmt = stmt.where(EvalRun.dataset == dataset)
        current = dkw_version()
        with Session(self.engine) as session:
            rows = session.scalars(stmt).all()
            records = [
                {
                    "id": r.id, "dataset": r.dataset, "corpus_key": r.corpus_key, "vectors": r.vectors,
                    "protocol": r.protocol, "metric": r.metric, "k": r.k, "top": r.top,
                    "classifier": r.classifier, "split": r.split, "kind": r.kind, "sample": r.sample,
                    "micro_f1": 100 * r.micro_f1, "macro_f1": 100 * r.macro_f1,
                    "seconds": sum(float(v) for v in (r.seconds or {}).values()),
                    "options": r.options, "created_at": r.created_at, "config_hash": r.config_hash,
                    "label": _config_of(r).label(),
                    "dkw_version": r.dkw_version, "settings_hash": r.settings_hash,
                    "stale": r.dkw_version != current,
                    "predictions": (r.details or {}).get("predictions"),
                }
                for r in rows
            ]
        columns = ["id", "dataset", "corpus_key", "vectors", "protocol", "metric", "k", "top", "classifier",
                   "split", "kind", "sample", "micro_f1", "macro_f1", "seconds", "options", "created_at",
                   "config_hash", "label", "dkw_version", "settings_hash", "stale", "predictions"]
        return pd.DataFrame.from_records(records, columns=columns)


def load_runs(url: str | None = None, dataset: str | None = None, *, include_stale: bool = True) -> pd.DataFrame:
    """Reader API for the app: stored runs (F1 in percent), optionally of one dataset.

    Column ``stale`` is True for runs stored by another dkw version (or before versions were
    recorded); ``include_stale=False`` leaves them out."""
    frame = ResultsStore(url).frame(dataset=dataset)
    if not include_stale:
        frame = frame[~frame["stale"].astype(bool)].reset_index(drop=True)
    return frame


def current_runs(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(runs of this dkw version, stale runs of other versions): never mix the two."""
    if "stale" not in runs.columns:
        return runs, runs.iloc[0:0]
    stale = runs["stale"].fillna(True).astype(bool)
    return runs[~stale].reset_index(drop=True), runs[stale].reset_index(drop=True)
