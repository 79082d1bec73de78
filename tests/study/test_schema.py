"""Versioned schema (dkw_core/study/schema.py): Alembic migrations equal the ORM models, an
unversioned first-release database is adopted, and 16 concurrent first calls on an empty
database all succeed — threads and processes, on SQLite and on PostgreSQL."""
from __future__ import annotations

import multiprocessing
import threading

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, select, text
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study import schema
from dkw_core.study import service as S
from dkw_core.study.models import Base, Judge, Study, init_db

from .fakes import CATS, disjoint_provider, make_docs

N = 16
TABLES = {"study", "study_article", "study_keyword", "study_keyword_source", "study_judge", "study_judgement",
          "study_answer", "study_meta", "study_event", "alembic_version"}


def test_migrations_build_exactly_the_models_schema(db_url):
    engine = make_engine(db_url, default_file="unused.sqlite")
    assert schema.upgrade(engine) == schema.head()
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == []


def test_unversioned_first_release_database_is_stamped_and_upgraded(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    from alembic import command

    with engine.begin() as conn:  # the first release: v1 tables, no alembic_version
        command.upgrade(schema._config(conn), "0001")
        conn.exec_driver_sql("DROP TABLE alembic_version")
        conn.exec_driver_sql(
            "INSERT INTO study (id, name, corpus, split, method_a, method_b, keywords_per_method, "
            "articles_per_category, categories_per_batch, judges_per_article, seed, categories, "
            "reservation_minutes, created_at) VALUES (1, 'old', '20ng', 'test', 'tf-rf', 'x', 5, 5, 5, 3, 1, "
            "'[]', 180, '2026-01-01 00:00:00')")
        conn.exec_driver_sql("INSERT INTO study_judge (study_id, name, code_hash, order_seed, created_at) "
                             "VALUES (1, 'sim-1', 'a', 1, '2026-01-01'), (1, 'ann', 'b', 2, '2026-01-01')")
    engine.dispose()
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    assert schema.revision(engine) == schema.head()
    with Session(engine) as s:
        study = s.get(Study, 1)
        assert (study.status, study.protocol_a, study.protocol_b) == ("open", "label-aware", "label-aware")
        assert dict(s.execute(select(Judge.name, Judge.simulated)).all()) == {"sim-1": True, "ann": False}
    engine.dispose()


def _first_call(url: str) -> str:
    engine = make_engine(url, default_file="unused.sqlite")
    try:
        init_db(engine)
        return "ok"
    except Exception as exc:  # noqa: BLE001 - reported to the test
        return f"{type(exc).__name__}: {exc}"
    finally:
        engine.dispose()


def _check_usable(url: str) -> None:
    engine = make_engine(url, default_file="unused.sqlite")
    assert TABLES <= set(inspect(engine).get_table_names())
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [schema.head()]
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider,
                         config=S.StudyConfig(name="after", corpus="fake", articles_per_category=1, seed=1))
    assert S.invite_judge(engine, sid, name="a")[0] >= 1
    engine.dispose()


def test_sixteen_concurrent_first_calls_in_threads_all_succeed(db_url):
    barrier = threading.Barrier(N)
    results: list[str] = []

    def go() -> None:
        barrier.wait()
        results.append(_first_call(db_url))

    threads = [threading.Thread(target=go) for _ in range(N)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results == ["ok"] * N
    _check_usable(db_url)


def _process_first_call(url: str, start, out) -> None:
    start.wait()
    out.put(_first_call(url))


def test_sixteen_concurrent_first_calls_in_processes_all_succeed(db_url):
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_process_first_call, args=(db_url, start, out)) for _ in range(N)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(30)
    assert results == ["ok"] * N
    assert all(p.exitcode == 0 for p in procs)
    _check_usable(db_url)


def test_every_protocol_name_fits_the_study_columns(db_url):
    """The longest protocol name (label-free-posterior) is stored whole, on PostgreSQL too."""
    from dkw_core.types import PROTOCOLS

    engine = make_engine(db_url, default_file="unused.sqlite")
    schema.upgrade(engine)
    longest = max(PROTOCOLS, key=len)
    cfg = S.StudyConfig(name="p", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=1, seed=1, keywords_per_method=2, protocol_b=longest)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider,
                         config=cfg)
    with Session(engine) as s:
        assert s.get(Study, sid).protocol_b == longest
    engine.dispose()


def test_a_two_method_database_is_upgraded_to_methods_drafts_and_notices(tmp_path):
    """Revision 0003: a study made before it gets its methods A and B (kinds from their names),
    keeps its keyword provenance, and accepts a third method's label afterwards."""
    from alembic import command
    from sqlalchemy.exc import IntegrityError

    from dkw_core.study.models import KeywordSource, StudyMethod

    url = f"sqlite:///{tmp_path / 'v2.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    with engine.begin() as conn:
        command.upgrade(schema._config(conn), "0002")
        conn.exec_driver_sql(
            "INSERT INTO study (id, name, corpus, split, method_a, method_b, keywords_per_method, "
            "articles_per_category, categories_per_batch, judges_per_article, seed, categories, "
            "reservation_minutes, created_at, protocol_b) VALUES (1, 'v2', '20ng', 'test', 'tf-rf', "
            "'latent-5word-knn90-rf', 4, 5, 5, 3, 1, '[]', 180, '2026-01-01 00:00:00', 'label-free')")
        conn.exec_driver_sql("INSERT INTO study_article (id, study_id, doc_id, category, batch, position, text) "
                             "VALUES (1, 1, 'd', 'c', 0, 0, 't')")
        conn.exec_driver_sql("INSERT INTO study_keyword (id, article_id, word) VALUES (1, 1, 'w')")
        conn.exec_driver_sql("INSERT INTO study_keyword_source (keyword_id, method, rank) "
                             "VALUES (1, 'A', 1), (1, 'B', 2)")
    engine.dispose()
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    with Session(engine) as s:
        rows = s.execute(select(StudyMethod.label, StudyMethod.name, StudyMethod.protocol, StudyMethod.kind,
                                StudyMethod.top).order_by(StudyMethod.label)).all()
        assert [tuple(r) for r in rows] == [("A", "tf-rf", "label-aware", "baseline", 4),
                                            ("B", "latent-5word-knn90-rf", "label-free", "dkw", 4)]
        assert sorted(s.execute(select(KeywordSource.method, KeywordSource.rank)).all()) == [("A", 1), ("B", 2)]
        s.add(KeywordSource(keyword_id=1, method="C", rank=1))
        s.commit()
        s.add(KeywordSource(keyword_id=1, method="c", rank=2))
        try:
            s.commit()
            raise AssertionError("a lower-case method label was accepted")
        except IntegrityError:
            s.rollback()
    assert S.study_settings(engine, 1)["methods"][1]["kind"] == "dkw"
    engine.dispose()
