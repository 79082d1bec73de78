"""Every CSV dkw writes neutralises spreadsheet formulas (dkw_core/csvsafe.py): the CLI's
``keywords --format csv``, the Documents page's downloads and ``study export --format csv``;
JSON and JSONL stay exact."""
from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

from dkw_core.cli import main
from dkw_core.csvsafe import frame_to_csv, neutralise, read_csv, safe_row, unneutralise

EVIL = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)", "\tTAB", "\rCR"]


@pytest.mark.parametrize("cell", EVIL)
def test_formula_cells_get_a_quote(cell):
    assert neutralise(cell) == "'" + cell


def test_numbers_stay_numbers_and_plain_text_is_unchanged():
    assert safe_row([-0.5, 3, "plain", "a=b", "-0.5"]) == [-0.5, 3, "plain", "a=b", "'-0.5"]
    text = frame_to_csv(pd.DataFrame({"score": [-0.5], "word": ["=1+1"]}))
    assert text.splitlines() == ["score,word", "-0.5,'=1+1"]


ROUND_TRIP = ["=1+1", "+49 30", "-cmd", "@SUM(A1)", "'=quoted", "''+twice", "'own quote", "'", "plain", "a=b", ""]


@pytest.mark.parametrize("value", ROUND_TRIP)
def test_unneutralise_strips_exactly_the_quote_neutralise_added(value):
    assert unneutralise(neutralise(value)) == value


def test_a_csv_read_back_has_its_texts_as_written_and_numbers_as_numbers():
    frame = pd.DataFrame({"word": ROUND_TRIP, "score": [0.5] * len(ROUND_TRIP), "=col": range(len(ROUND_TRIP))})
    text = frame_to_csv(frame)
    assert "'-cmd" in text and "''=quoted" in text and not _formula_cells(text)
    back = read_csv(io.StringIO(text), keep_default_na=False)
    assert list(back.columns) == ["word", "score", "=col"]
    assert back["word"].tolist() == ROUND_TRIP and back["score"].tolist() == [0.5] * len(ROUND_TRIP)


def _formula_cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text, newline="")) for c in row if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


@pytest.fixture(scope="module")
def hostile_folder(tmp_path_factory):
    """A folder corpus whose category and file names start with formula characters."""
    root = tmp_path_factory.mktemp("hostile") / "mini"
    texts = {("train", "=cmd"): ["The team won the game after the coach changed the player.",
                                 "A new season of the league starts with a goal."],
             ("train", "@space"): ["The rocket reached orbit around the planet.",
                                   "A launch of the mission to the moon."],
             ("test", "=cmd"): ["The coach praised the team and the league."],
             ("test", "@space"): ["The mission put a rocket near the moon."]}
    for (split, label), items in texts.items():
        d = root / split / label
        d.mkdir(parents=True)
        for i, t in enumerate(items):
            (d / f"+{i}.txt").write_text(t)
    return root


def test_keywords_csv_of_a_split_is_neutralised_jsonl_is_exact(hostile_folder, tmp_path, capsys):
    out = tmp_path / "kw.csv"
    assert main(["keywords", "--dataset", str(hostile_folder), "--split", "test", "--metric", "rf", "--k", "10",
                 "--top", "2", "--format", "csv", "--out", str(out)]) == 0
    text = out.read_text()
    assert "'=cmd" in text and "'@space" in text and not _formula_cells(text)
    jl = tmp_path / "kw.jsonl"
    assert main(["keywords", "--dataset", str(hostile_folder), "--split", "test", "--metric", "rf", "--k", "10",
                 "--top", "2", "--format", "jsonl", "--out", str(jl)]) == 0
    labels = {json.loads(line)["label"] for line in jl.read_text().splitlines()}
    assert labels == {"=cmd", "@space"}


def test_study_export_csv_is_neutralised_json_exact(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    db = f"sqlite:///{tmp_path / 's.sqlite'}"
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1",
                 "--categories-per-batch", "2", "--seed", "3", "--keywords", "2",
                 "--name", "=HYPERLINK(1)"]) == 0
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "=evil()", "--name", "@judge"]) == 0
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "3"]) == 0
    capsys.readouterr()
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from dkw_core.study.models import Judge
    from dkw_core.study.schema import open_study_db

    engine = open_study_db(db)
    with Session(engine) as s:  # simulated judges answered: give them hostile names
        s.execute(update(Judge).values(name="=HYPERLINK(\"http://evil\")"))
        s.commit()
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "csv", "--include-simulated"]) == 0
    text = capsys.readouterr().out
    assert "'=HYPERLINK" in text and not _formula_cells(text)
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "json", "--include-simulated"]) == 0
    rows = json.loads(capsys.readouterr().out)["answers"]
    assert rows and all(any(str(v).startswith("=HYPERLINK") for v in r.values()) for r in rows)


def test_documents_page_downloads_are_neutralised(monkeypatch):
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import page
    from tests.app.fakes import FakeBackend, FakeModel

    FakeBackend(monkeypatch)
    monkeypatch.setattr(FakeModel, "expected", staticmethod(lambda text, metric, top: EVIL[:top]))
    handed_out: dict[str, bytes] = {}
    real = st.download_button

    def record(label, data=None, *args, **kwargs):
        handed_out[kwargs.get("key") or label] = data
        return real(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", record)
    at = AppTest.from_file(page("pages/1_Documents.py"), default_timeout=30).run()
    assert not at.exception
    text = handed_out["kw_csv"].decode("utf-8")
    assert "'=HYPERLINK" in text and "'@SUM(A1)" in text and not _formula_cells(text)
