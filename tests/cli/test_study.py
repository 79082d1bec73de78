"""``python -m dkw_core study ...`` (dkw_core/cli/study.py) on the built-in demo corpus."""
from __future__ import annotations

import json

import pytest

from dkw_core.cli import main


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    return f"sqlite:///{tmp_path / 'cli.sqlite'}"


def test_create_invite_simulate_analyze_export(db, tmp_path, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "2",
                 "--categories-per-batch", "2", "--seed", "4", "--keywords", "3"]) == 0
    assert "created study 1" in capsys.readouterr().out
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "ann", "--base-url", "http://h:1/"]) == 0
    out = capsys.readouterr().out
    assert "ann" in out and "http://h:1/Judge?code=" in out
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "4"]) == 0
    assert "24 judgements by 4 simulated judges" in capsys.readouterr().out  # 8 articles x 3 judges
    assert main(["study", "analyze", "--db", db, "--study", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["counts"]["judgements"] == 0 and result["simulated_judgements"] == 24
    assert main(["study", "analyze", "--db", db, "--study", "1", "--json", "--include-simulated"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["counts"]["judgements"] == 24 and "same judge" in result["pairing"]
    assert result["includes_simulated"] and result["study"]["protocol_a"] == "label-aware"
    assert main(["study", "analyze", "--db", db, "--study", "1", "--include-simulated"]) == 0
    out = capsys.readouterr().out
    assert "Wilcoxon" in out and "SIMULATED" in out and "article means (robustness)" in out
    out_file = tmp_path / "a.csv"
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "csv", "--out", str(out_file)]) == 0
    assert out_file.read_text().startswith("study_id,")


def test_life_cycle_commands_change_status_revoke_reissue_and_log(db, capsys):
    assert main(["study", "create", "--db", db, "--corpus", "demo-tiny", "--per-category", "1", "--seed", "1",
                 "--keywords", "2", "--protocol-b", "label-free"]) == 0
    assert "(label-free)" in capsys.readouterr().out
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "ann"]) == 0
    jid, code = capsys.readouterr().out.splitlines()[1].split("\t")[0:3:2]
    assert main(["study", "revoke", "--db", db, "--study", "1", "--judge", jid]) == 0
    assert main(["study", "judges", "--db", db, "--study", "1"]) == 0
    assert "\trevoked\t" in capsys.readouterr().out
    assert main(["study", "reissue", "--db", db, "--study", "1", "--judge", jid, "--base-url", "http://h"]) == 0
    new_code = capsys.readouterr().out.splitlines()[1].split("\t")[1]
    assert new_code != code
    assert main(["study", "status", "--db", db, "--study", "1", "--set", "closed"]) == 0
    assert "open -> closed" in capsys.readouterr().out
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "bob"]) == 2
    assert "closed" in capsys.readouterr().err
    assert main(["study", "log", "--db", db, "--study", "1"]) == 0
    log = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[1] for line in log] == ["created", "judge invited", "code revoked", "code re-issued",
                                                     "status"]
    assert all(line.endswith(("UTC", "")) and " UTC\t" in line for line in log)


def test_bad_input_is_one_line_error(db, capsys, monkeypatch):
    assert main(["study", "analyze", "--db", db, "--study", "42"]) == 2
    assert capsys.readouterr().err.strip() == "error: no study with id 42"
    assert main(["study", "invite", "--db", db, "--study", "1"]) == 2
    monkeypatch.delenv("DKW_STUDY_FAKE_KEYWORDS")
    assert main(["study", "create", "--db", db, "--corpus", "demo-tiny"]) == 2
    assert "DKW_STUDY_FAKE_KEYWORDS" in capsys.readouterr().err


def test_create_with_an_imported_method_and_yake_then_analyze_three_methods(db, tmp_path, capsys):
    from dkw_core.study.demo import demo_corpus

    kw_file = tmp_path / "mine.jsonl"
    kw_file.write_text("\n".join(json.dumps({"doc_id": d.id, "method": "my-extractor",
                                             "keywords": d.text.lower().split()[:3]})
                                 for d in demo_corpus().documents), encoding="utf-8")
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "2", "--seed", "4",
                 "--keywords", "3", "--method", "tf-rf", "--method", "yake", "--import", str(kw_file)]) == 0
    out = capsys.readouterr().out
    assert "A = tf-rf (label-aware), B = yake (label-free), C = my-extractor (unknown)" in out
    assert main(["study", "list", "--db", db]) == 0
    assert "C=my-extractor (unknown)" in capsys.readouterr().out
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "3"]) == 0
    capsys.readouterr()
    assert main(["study", "analyze", "--db", db, "--study", "1", "--json", "--include-simulated"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pairs"] == [["A", "B"], ["A", "C"], ["B", "C"]] and "Holm" in result["correction"]
    assert len(result["significance"]) == 3 * 2 * 2  # pairs x questions x levels


def test_create_refuses_bad_keyword_files_and_method_mixes_with_one_line(db, tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("doc_id,method,keywords\nspace/0,mine,orbit\nnot-a-doc,mine,x\n", encoding="utf-8")
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--import", str(bad)]) == 2
    assert "bad.csv line 3: unknown document id 'not-a-doc'" in capsys.readouterr().err
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--method", "tf-rf",
                 "--method-b", "x"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("fmt, content, says", [
    ("jsonl", json.dumps({"doc_id": "space/0", "method": "mine", "keywords": ["orbit", "nul\u0000byte"]}),
     r"mine.jsonl line 1: keyword 'nul\x00byte' holds a control character (NUL)"),
    ("csv", 'doc_id,method,keywords\nspace/0,mine,"orbit;two\nlines"\n',
     r"mine.csv line 3: keyword 'two\nlines' holds a control character (a line break)"),
    ("jsonl", json.dumps({"doc_id": "space/0", "method": "mine", "keywords": ["OK", "orbit", "ok"]}),
     "mine.jsonl line 1: duplicate keyword 'ok' (the same as 'OK' but for case)"),
    ("csv", "doc_id,method,rank,keyword\nspace/0,mine,1,Orbit\nspace/0,mine,2,ORBIT\n",
     "mine.csv line 3: duplicate keyword 'ORBIT' for document 'space/0' of method 'mine' (the same as 'Orbit' "
     "but for case, also on line 2)"),
], ids=["nul", "newline", "case-list", "case-ranked"])
def test_create_refuses_imported_keywords_with_a_nul_a_line_break_or_a_case_variant_duplicate(fmt, content, says, db,
                                                                                             tmp_path, capsys):
    path = tmp_path / f"mine.{fmt}"
    path.write_text(content, encoding="utf-8")
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--import", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err and err.count("\n") == 1, err
    assert main(["study", "list", "--db", db]) == 0 and capsys.readouterr().out == ""  # nothing stored


def test_invite_on_a_read_only_database_prints_no_header(tmp_path, monkeypatch, capsys):
    import sqlite3

    from tests.support.readonly import read_only

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    live = tmp_path / "live.sqlite"
    assert main(["study", "create", "--db", f"sqlite:///{live}", "--dataset", "demo-tiny", "--per-category", "1",
                 "--categories-per-batch", "2", "--seed", "1", "--keywords", "2"]) == 0
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "study.sqlite"  # a plain (rollback-journal) copy, handed out read-only
    with sqlite3.connect(live) as src, sqlite3.connect(db) as copy:
        src.backup(copy)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    capsys.readouterr()
    with read_only(db, folder):
        assert main(["study", "invite", "--db", f"sqlite:///{db}", "--study", "1", "--name", "x"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "read-only" in err and err.count("\n") == 1


# ---------------------------------------------------------------- names: one line of plain text
FORGED = "eve\tfake-code\nmallory"


def test_invite_refuses_a_name_with_a_tab_a_line_break_or_an_escape_and_invites_nobody(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1",
                 "--categories-per-batch", "2", "--seed", "1", "--keywords", "2"]) == 0
    capsys.readouterr()
    for bad, what in ((FORGED, "a tab"), ("x\ny", "a line break"), ("nul\x00", "NUL"), ("\x1b[2J", "ESC"),
                      ("rtl\u202e", "U+202E")):
        assert main(["study", "invite", "--db", db, "--study", "1", "--name", "ann", "--name", bad]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (out, err)
        assert f"holds a control character ({what})" in err, err
    assert main(["study", "judges", "--db", db, "--study", "1"]) == 0
    assert capsys.readouterr().out.count("\n") == 1  # the header only: not even "ann" was invited


@pytest.mark.parametrize("method, what", [("Meth\nNewline\tTab", "a line break"), ("Meth\u0000Nul", "NUL"),
                                          ("Meth\tTab", "a tab"), ("Meth\x1b]8;;x\x07", "ESC")])
def test_create_refuses_an_imported_method_name_with_a_control_character(method, what, db, tmp_path, capsys):
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"doc_id": "space/0", "method": method, "keywords": ["orbit"]}), encoding="utf-8")
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--import", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("error: mine.jsonl line 1: method name ") and err.count("\n") == 1, err
    assert f"holds a control character ({what})" in err and "\x00" not in err, err
    assert main(["study", "list", "--db", db]) == 0 and capsys.readouterr().out == ""  # nothing stored


def test_create_refuses_a_study_name_with_a_control_character(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--name", "s\tforged"]) == 2
    assert "the study's name 's\\tforged' holds a control character (a tab)" in capsys.readouterr().err
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--method", "tf-rf",
                 "--method", "x\x1b[2J"]) == 2
    assert "--method 'x\\x1b[2J' holds a control character (ESC)" in capsys.readouterr().err


def test_names_already_stored_with_control_characters_print_escaped_in_every_tsv(db, tmp_path, capsys):
    """A database written before names were checked (or by hand): every TSV row keeps its columns."""
    import sqlite3

    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1",
                 "--categories-per-batch", "2", "--seed", "1", "--keywords", "2"]) == 0
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "ann"]) == 0
    capsys.readouterr()
    with sqlite3.connect(tmp_path / "cli.sqlite") as con:
        con.execute("UPDATE study SET name = ?", ("S\tfake\nrow\x1b[2J",))
        con.execute("UPDATE study_method SET name = ? WHERE label = 'A'", ("Meth\nNewline\tTab",))
        con.execute("UPDATE study_method SET name = ? WHERE label = 'B'", ("Meth\x00Nul",))
        con.execute("UPDATE study_judge SET name = ?", (FORGED,))
    for command, columns in ((["list"], 7), (["judges", "--study", "1"], 8)):
        assert main(["study", *command, "--db", db]) == 0
        out = capsys.readouterr().out
        assert "\x00" not in out and "\x1b" not in out, out
        assert all(line.count("\t") == columns - 1 for line in out.splitlines()), out
    for command in (["analyze", "--study", "1", "--include-simulated"], ["log", "--study", "1"]):
        assert main(["study", *command, "--db", db]) == 0
        out = capsys.readouterr().out
        assert "\x00" not in out and "\x1b" not in out, out
    assert main(["study", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "S\\tfake\\nrow\\x1b[2J" in out and "A=Meth\\nNewline\\tTab" in out and "B=Meth\\x00Nul" in out, out


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path, monkeypatch):
    """An empty study database, once SQLite and once a throw-away PostgreSQL server."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'cli.sqlite'}"
        return
    from tests.support.postgres import new_database, postgres_server

    with postgres_server() as base:
        yield new_database(base)


def test_create_refuses_a_value_postgresql_cannot_store_before_any_work_on_both_databases(any_db, tmp_path, capsys):
    """A 400-character document id in the drawn slice: one line naming field, value and row,
    before any keyword is computed (no vectors are loaded), nothing stored — on SQLite as on
    PostgreSQL, which used to fail only after every keyword with ``value too long``."""
    import csv

    corpus = tmp_path / "hostile.csv"
    with corpus.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "text", "label", "split"])
        for cat in ("earn", "acq"):
            for split in ("train", "test"):
                doc_id = "d" * 400 if (cat, split) == ("acq", "test") else f"{split}-{cat}"
                w.writerow([doc_id, f"a short {cat} text", cat, split])
    assert main(["study", "create", "--db", any_db, "--dataset", str(corpus), "--per-category", "1",
                 "--seed", "1", "--keywords", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "document id 'hostile/test/acq/dddddddddd" in err[0] and "(417 characters)" in err[0], err
    assert "the 300 characters the study database stores" in err[0] and "drawn article" in err[0]
    assert main(["study", "list", "--db", any_db]) == 0
    assert "hostile" not in capsys.readouterr().out  # nothing stored


def test_rules_set_before_judging_then_refused_in_one_line_and_attention_checks_created(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "2", "--seed", "4",
                 "--keywords", "3", "--attention-share", "0.5", "--min-seconds", "15", "--min-articles", "2"]) == 0
    capsys.readouterr()
    assert main(["study", "rules", "--db", db, "--study", "1"]) == 0
    out = capsys.readouterr().out
    assert "may change until the first judgement" in out and "median below 15 s" in out
    assert main(["study", "rules", "--db", db, "--study", "1", "--min-seconds", "off"]) == 0
    assert "median below" not in capsys.readouterr().out
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "3"]) == 0
    capsys.readouterr()
    assert main(["study", "rules", "--db", db, "--study", "1", "--min-seconds", "30"]) == 2
    err = capsys.readouterr().err
    assert "are locked: judging began at" in err and len(err.strip().splitlines()) == 1
    assert main(["study", "analyze", "--db", db, "--study", "1", "--include-simulated"]) == 0
    out = capsys.readouterr().out
    assert "4 judgement(s) carried an attention check" not in out  # 4 of 8 articles, x 3 judges
    assert "12 judgement(s) carried an attention check" in out
    assert out.index("Verdict:") < out.index("Exclusion rules") < out.index("Answer distribution")
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--attention-share", "2"]) == 2
    assert "between 0 and 1" in capsys.readouterr().err


def test_create_states_the_attention_checks_and_the_exclusion_rules_it_fixed(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "2", "--seed", "4",
                 "--keywords", "3", "--attention-share", "0.25", "--min-seconds", "15"]) == 0
    out = capsys.readouterr().out
    assert ("attention checks: 2 of 8 article(s) carry a planted intruder keyword (share 0.25; expected answer "
            "'Irrelevant'); exclusion rules (fixed now, locked at the first judgement): failed attention checks: "
            "more than 0; time per article below the floor: median below 15 s") in out
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1", "--seed", "4",
                 "--max-failed-checks", "off"]) == 0
    assert "attention checks: none (share 0); exclusion rules (fixed now, locked at the first judgement): every " \
           "rule off" in capsys.readouterr().out


def test_invite_and_create_take_a_name_starting_with_a_dash_without_the_equals_sign(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1", "--seed", "4",
                 "--name", "-pilot"]) == 0
    assert "created study 1" in capsys.readouterr().out
    assert main(["study", "list", "--db", db]) == 0
    assert "\t-pilot\t" in capsys.readouterr().out
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "-cmd", "--name", "ann", "--name",
                 "--x"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()[1:]]
    assert [r[1] for r in rows] == ["-cmd", "ann", "--x"]
    # a value that is one of the command's own options is still argparse's one-line error
    assert main(["study", "invite", "--db", db, "--study", "1", "--name", "--count", "2"]) == 2
    err = capsys.readouterr().err
    assert "argument --name: expected one argument" in err and len(err.strip().splitlines()) == 1


def test_platform_settings_print_the_study_link_and_refuse_a_non_http_completion_url(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1", "--seed", "4"]) == 0
    capsys.readouterr()
    assert main(["study", "platform", "--db", db, "--study", "1"]) == 0
    assert "takes no participants from a platform" in capsys.readouterr().out
    assert main(["study", "platform", "--db", db, "--study", "1", "--param", "PROLIFIC_PID", "--completion-code",
                 "C0DE", "--completion-url", "https://app.prolific.com/submissions/complete?cc=C0DE",
                 "--articles", "2", "--base-url", "https://judge.example.org/"]) == 0
    out = capsys.readouterr().out
    assert "https://judge.example.org/Judge?study=1&PROLIFIC_PID=<participant id>" in out
    assert main(["study", "platform", "--db", db, "--study", "1", "--completion-url", "javascript:alert(1)"]) == 2
    err = capsys.readouterr().err
    assert "must be an http:// or https:// address" in err and len(err.strip().splitlines()) == 1
    assert main(["study", "platform", "--db", db, "--study", "1"]) == 0
    assert "app.prolific.com" in capsys.readouterr().out  # unchanged


def test_platform_participants_export_and_a_code_for_failed_attention_checks(db, tmp_path, capsys):
    from dkw_core.cli.study_db import engine_for
    from dkw_core.csvsafe import read_csv
    from dkw_core.study import service as S
    from dkw_core.study.participants import completion, join
    from dkw_core.study.simulate import all_answers

    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1", "--seed", "4",
                 "--attention-share", "1"]) == 0
    platform = ["study", "platform", "--db", db, "--study", "1", "--param", "PROLIFIC_PID", "--completion-code",
                "C0DE", "--articles", "1", "--completion-code-failed"]
    assert main([*platform, "C0DE"]) == 2
    err = capsys.readouterr().err
    assert "must differ from the completion code" in err and len(err.strip().splitlines()) == 1
    assert main([*platform, "FA1L"]) == 0
    assert "code for a failed attention check FA1L" in capsys.readouterr().out
    engine = engine_for(db)
    jid = join(engine, 1, "pid-7")
    task = S.next_task(engine, jid).task
    S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, answers=all_answers(3)(jid, task))  # intruder
    assert completion(engine, jid)["code"] == "FA1L"  # answered "Relevant": the rule excludes her
    assert main(["study", "judges", "--db", db, "--study", "1"]) == 0
    assert f"{jid}\tparticipant-{jid}\tpid-7\tactive\t" in capsys.readouterr().out
    out = tmp_path / "participants.csv"
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "participants", "--out", str(out)]) == 0
    row = read_csv(out).iloc[0]
    assert (row["participant_id"], row["judge"], row["articles"], row["completion_code"]) == (
        "pid-7", f"participant-{jid}", 1, "FA1L")
    assert row["completed"] and row["failed_check_code"] and row["excluded"] and row["excluded_max_failed_checks"]
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "participants",
                 "--include-simulated"]) == 2
    assert "leave out --include-simulated" in capsys.readouterr().err


def test_tidy_export_writes_csv_and_parquet_that_read_back_typed(db, tmp_path, capsys):
    import pandas as pd

    from dkw_core.study.tidy import CODEBOOK, read_tidy_csv

    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "1", "--seed", "4",
                 "--attention-share", "0.5"]) == 0
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "3"]) == 0
    out = tmp_path / "a\x1b[2J.parquet"  # a hostile name: the 'wrote' line shows it escaped
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "parquet", "--out", str(out),
                 "--include-simulated"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "a\\x1b[2J.parquet" in err
    assert out.is_file() and not list(tmp_path.glob(".*.tmp"))  # written whole, no temporary file left
    frame = pd.read_parquet(out)
    assert {c: str(t) for c, t in frame.dtypes.items()} == {c: d for c, (d, _m) in CODEBOOK.items()}
    assert frame["intruder"].any()
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "tidy-csv", "--include-simulated"]) == 0
    import io

    pd.testing.assert_frame_equal(read_tidy_csv(io.StringIO(capsys.readouterr().out)), frame)
    assert main(["study", "export", "--db", db, "--study", "1", "--format", "parquet"]) == 2
    assert "give --out FILE" in capsys.readouterr().err


def test_plan_keeps_the_study_s_judges_counts_its_pilot_and_reads_plainly(db, capsys):
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "2", "--seed", "4",
                 "--keywords", "3", "--judges", "3"]) == 0
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "4"]) == 0
    capsys.readouterr()
    assert main(["study", "plan", "--db", db, "--study", "1", "--difference", "0.5", "--articles", "10,40",
                 "--simulations", "50", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {r["judges"] for r in result["designs"]} == {3}  # the study's fixed judges per article, not 1,3,5
    assert result["pilot_counts"]["used"] == result["parameters"]["pilot_answers"] > 0
    assert all(0 <= r["se_wilcoxon"] <= 0.5 / 50 ** 0.5 for r in result["designs"])
    assert main(["study", "plan", "--db", db, "--study", "1", "--difference", "0.5", "--articles", "10,40",
                 "--simulations", "50"]) == 0
    out = capsys.readouterr().out
    counts = result["pilot_counts"]
    assert f"{counts['used']} of {counts['stored']} answers used" in out
    assert "significance level 0.05 (two methods, one comparison)" in out and "% ± " in out
    assert "art.means" not in out and "rated d" not in out and "× 1 judges" not in out
    assert "× 3 judges per article" in out or "None of these designs" in out
    assert main(["study", "plan", "--db", db, "--study", "1", "--difference", "0.5", "--articles", "10",
                 "--judges", "1,3", "--simulations", "20", "--json"]) == 0
    assert {r["judges"] for r in json.loads(capsys.readouterr().out)["designs"]} == {1, 3}  # asked for explicitly
