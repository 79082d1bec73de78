"""The tidy export (dkw_core/study/tidy.py): one row per answer and method, CSV and Parquet,
read back into pandas with the codebook's dtypes; the codebook in docs/study.md is the code's."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.models import Answer
from dkw_core.study.simulate import simulate
from dkw_core.study.tidy import CODEBOOK, read_tidy_csv, tidy_export, tidy_frame

from .fakes import CATS, category_provider, make_docs, overlap_provider

DOC = Path(__file__).resolve().parents[2] / "docs" / "study.md"


@pytest.fixture
def study(engine):
    cfg = S.StudyConfig(name="tidy", corpus="fake", articles_per_category=1, categories_per_batch=6,
                        judges_per_article=2, keywords_per_method=3, seed=3, attention_share=0.5)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=category_provider, config=cfg)
    simulate(engine, sid, judges=2, seed=2)
    return engine, sid


def test_csv_and_parquet_read_back_into_pandas_with_the_documented_dtypes(study):
    engine, sid = study
    frame = tidy_frame(engine, sid, include_simulated=True)
    assert list(frame.columns) == list(CODEBOOK)
    assert {c: str(t) for c, t in frame.dtypes.items()} == {c: d for c, (d, _m) in CODEBOOK.items()}
    from_csv = read_tidy_csv(io.BytesIO(tidy_export(engine, sid, "csv", include_simulated=True)))
    pd.testing.assert_frame_equal(from_csv, frame)
    from_parquet = pd.read_parquet(io.BytesIO(tidy_export(engine, sid, "parquet", include_simulated=True)))
    pd.testing.assert_frame_equal(from_parquet, frame)


def test_one_row_per_answer_intruders_once_without_a_method(study):
    engine, sid = study
    frame = tidy_frame(engine, sid, include_simulated=True)
    with Session(engine) as s:
        answers = s.scalar(select(func.count(Answer.id)))
    assert frame[["judgement_id", "keyword_id", "question"]].drop_duplicates().shape[0] == answers
    intr = frame[frame["intruder"]]
    assert len(intr) == 3 * 2 * 2 and intr["method"].isna().all() and intr["rank"].isna().all()  # 3 checks
    real = frame[~frame["intruder"]]
    assert set(real["method"]) == {"A", "B"} and real["rank"].between(1, 3).all()
    assert not real["shared"].any()
    assert frame["excluded"].sum() == 0 and not frame["simulated"].eq(False).any()


def test_a_shared_keyword_appears_once_per_method(engine):
    cfg = S.StudyConfig(name="tidy", corpus="fake", articles_per_category=1, categories_per_batch=6,
                        judges_per_article=1, keywords_per_method=3, seed=3)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=overlap_provider, config=cfg)
    simulate(engine, sid, judges=1)
    frame = tidy_frame(engine, sid, include_simulated=True)
    shared = frame[frame["keyword"] == "shared"]
    assert shared["shared"].all() and sorted(set(zip(shared["method"], shared["rank"]))) == [("A", 1), ("B", 2)]


def formula_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """Keywords a spreadsheet would run as formulas (and one starting with the guard itself)."""
    words = ["=SUM(A1)", "+49", "-cmd"] if spec == "tf-rf" else ["@home", "'=quoted", "-0.5"]
    return {d: words[:top] for d in doc_ids}


def test_a_tidy_csv_reads_back_with_keywords_starting_with_a_formula_character_unchanged(engine):
    cfg = S.StudyConfig(name="=tidy", corpus="fake", articles_per_category=1, categories_per_batch=6,
                        judges_per_article=1, keywords_per_method=3, seed=3)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=formula_provider, config=cfg)
    simulate(engine, sid, judges=1)
    frame = tidy_frame(engine, sid, include_simulated=True)
    data = tidy_export(engine, sid, "csv", include_simulated=True)
    assert b"'=SUM(A1)" in data and b"''=quoted" in data  # neutralised on the way out...
    back = read_tidy_csv(io.BytesIO(data))
    assert set(back["keyword"]) == {"=SUM(A1)", "+49", "-cmd", "@home", "'=quoted", "-0.5"}  # ...and back
    pd.testing.assert_frame_equal(back, frame)


def test_simulated_judges_stay_out_unless_asked_and_a_bad_format_is_one_line(study):
    engine, sid = study
    assert tidy_frame(engine, sid).empty
    with pytest.raises(InputError, match="tidy export format must be csv or parquet"):
        tidy_export(engine, sid, "xlsx")


def test_the_codebook_in_the_docs_is_the_codes():
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \| `([A-Za-z0-9\[\]]+)` \| (.+?) \|$", text, re.MULTILINE)
    assert {c: (d, m) for c, d, m in rows if c in CODEBOOK or c.startswith("excl")} == CODEBOOK
