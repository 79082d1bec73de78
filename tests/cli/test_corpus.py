"""``python -m dkw_core datasets|prepare|keywords``: JSON shapes and one-line errors."""
import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import types

import pytest
from conftest import ROOT, needs_20ng

from dkw_core.cli import main

TEXTS = {
    ("train", "sport"): ["The team won the game after the coach changed the player.",
                         "A new season of the league starts with a goal by the striker."],
    ("train", "space"): ["The rocket reached orbit around the planet.",
                         "A launch of the mission to the moon with the astronauts."],
    ("test", "sport"): ["The coach praised the team and the league."],
    ("test", "space"): ["The mission put a rocket near the moon."],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus") / "mini"
    for (split, label), texts in TEXTS.items():
        d = root / split / label
        d.mkdir(parents=True)
        for i, t in enumerate(texts):
            (d / f"{i}.txt").write_text(t)
    return root


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_keywords_json_for_a_corpus_document(folder, capsys):
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt",
                         "--metric", "rf", "--metric", "tf-rf", "--k", "10", "--top", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["doc"] == "mini/test/space/0.txt"
    assert set(data["keywords"]) == {"rf", "tf-rf"}
    assert all(len(words) == 3 for words in data["keywords"].values())
    assert data["protocol"] == "label-aware" and data["k"] == 10 and data["vectors"] == "glove-6b-50d"


def test_keywords_for_a_new_text_default_to_label_free_top1_and_say_the_category(folder, tmp_path, capsys):
    f = tmp_path / "new.txt"
    f.write_text("The astronauts trained for the rocket launch.")
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(f), "--metric", "rf",
                         "--k", "10", "--top", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["protocol"] == "label-free-top1" and len(data["keywords"]["rf"]) == 2
    assert data["weighted_as"] in ("sport", "space") and 0.5 <= data["p"] <= 1
    assert isinstance(data["unsure"], bool)
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(f), "--metric", "rf",
                         "--k", "10", "--top", "2")
    assert code == 0 and f"weighted as {data['weighted_as']}, P = {data['p']:.2f}" in out
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(f), "--metric", "rf",
                         "--k", "10", "--top", "2", "--json", "--protocol", "label-free")
    assert code == 0 and json.loads(out)["protocol"] == "label-free" and "weighted_as" not in json.loads(out)


def test_label_aware_for_a_new_text_is_a_one_line_error(folder, tmp_path, capsys):
    f = tmp_path / "new.txt"
    f.write_text("The astronauts trained for the rocket launch.")
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(f), "--protocol",
                         "label-aware")
    assert code == 2 and "no gold category" in err and "Traceback" not in err


def test_baseline_keywords_use_the_documents_own_words(folder, capsys):
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/sport/0.txt",
                         "--baseline", "--metric", "tf-rf", "--top", "3", "--json")
    assert code == 0, err
    assert set(json.loads(out)["keywords"]["tf-rf"]) <= {"coach", "praised", "team", "league"}


@pytest.mark.parametrize("content,message", [
    (b"\x00\x01\x02\x03binary", "binary"),
    ("caf\xe9".encode("latin-1"), "not UTF-8"),
    (b"  \n", "empty"),
    (b"Quickly and slowly, then again.", "no candidate noun phrases"),
    (b"Zqxvkjw qqblorfsz wugxzq.", "word known"),
])
def test_bad_text_files_give_one_line_errors(folder, tmp_path, capsys, content, message):
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(f), "--k", "10")
    assert code == 2
    last = err.rstrip().split("\n")[-1].split("\r")[-1]  # progress bars redraw with \r before it
    assert last.startswith("error:") and message in last
    assert err.count("error:") == 1 and "Traceback" not in err


def test_unknown_document_id(folder, capsys):
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/99.txt")
    assert code == 2 and "no document with id" in err


def test_malformed_vector_file(folder, tmp_path, capsys):
    bad = tmp_path / "vectors.txt"
    bad.write_text("not a vector file\n1 2\n")
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt",
                       "--vectors", str(bad))
    assert code == 2 and "vector file" in err


def test_missing_archive_says_where_to_put_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path))
    code, _, err = run(capsys, "keywords", "--doc", "20ng/test/comp.graphics/38758")
    assert code == 2
    assert "20news-bydate.tar.gz not found in" in err and str(tmp_path) in err


def test_k_above_prepared_maximum_is_refused(folder, capsys):
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt",
                       "--k", "0")
    assert code == 2 and "K must be" in err


@needs_20ng
def test_datasets_json_counts(capsys):
    code, out, _ = run(capsys, "datasets", "--json")
    assert code == 0
    rows = {r["name"]: r for r in json.loads(out)}
    assert {k: rows["20ng"][k] for k in ("train", "test", "categories")} == {"train": 11314, "test": 7532,
                                                                             "categories": 20}
    assert (rows["r52"]["train"], rows["r52"]["test"], rows["r52"]["categories"]) == (6532, 2568, 52)
    assert (rows["r8"]["train"], rows["r8"]["test"], rows["r8"]["categories"]) == (5485, 2189, 8)
    assert rows["webkb"]["train"] + rows["webkb"]["test"] == 8282 and rows["webkb"]["categories"] == 7


def test_module_entry_point_exits_non_zero_on_bad_input(tmp_path):
    res = subprocess.run([sys.executable, "-m", "dkw_core", "keywords", "--doc", "x/y", "--protocol", "psychic"],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode != 0 and "protocol" in res.stderr


def test_hubness_command_reports_the_k_occurrence_figures(folder, capsys):
    code, out, err = run(capsys, "hubness", "--dataset", str(folder), "--k", "5", "--k-max", "10", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["k"] == 5 and data["neighbours"] == "cosine" and data["vectors"] == "glove-6b-50d"
    assert data["queries"] > 0 and 0 < data["top1_share"] <= 1 and len(data["hubs"]) == 20
    counts = [h["k_occurrence"] for h in data["hubs"]]
    assert counts == sorted(counts, reverse=True) and counts[0] <= data["queries"]
    code, out, err = run(capsys, "hubness", "--dataset", str(folder), "--k", "5", "--k-max", "10",
                         "--neighbours", "csls-k10")
    assert code == 0, err
    assert "neighbours=csls-k10" in out and "biggest hubs" in out


def test_bad_neighbours_spec_is_a_one_line_error(folder, capsys):
    code, out, err = run(capsys, "prepare", "--dataset", str(folder), "--neighbours", "knn")
    assert code == 2 and err.startswith("error: unknown neighbours 'knn'") and err.count("\n") == 1
    code, out, err = run(capsys, "hubness", "--dataset", str(folder), "--k", "95")
    assert code == 2 and err.startswith("error: --k 95")


def test_texts_csv_with_a_text_above_128_kb_and_utf16_files(folder, tmp_path, capsys):
    long_text = "The rocket reached orbit around the planet. " * 4000  # 176 KB in one CSV field
    texts = tmp_path / "texts.csv"
    texts.write_text(f'id,text\nlong,"{long_text}"\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--texts", str(texts), "--metric", "rf",
                       "--k", "10", "--top", "2", "--out", str(out))
    assert code == 0, err
    assert json.loads(out.read_text())["id"] == "long"
    wide = tmp_path / "wide.txt"
    wide.write_text("The astronauts trained for the launch.", encoding="utf-16")
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(wide), "--metric", "rf")
    assert code == 2 and "UTF-16" in err and "binary" not in err and err.count("\n") == 1


def test_split_export_names_the_problem_of_a_document_without_known_words(tmp_path, capsys):
    root = tmp_path / "odd"
    for (split, label), text in {("train", "sport"): "The team won the game.", ("train", "space"): "The rocket reached orbit.",
                                 ("test", "sport"): "Zzqxvor blorptangs fnurglewock.",
                                 ("test", "space"): "The mission put a rocket near the moon."}.items():
        (root / split / label).mkdir(parents=True)
        (root / split / label / "0.txt").write_text(text)
    out = tmp_path / "kw.csv"
    code, _, err = run(capsys, "keywords", "--dataset", str(root), "--split", "test", "--metric", "rf", "--k", "10",
                       "--top", "2", "--out", str(out))
    assert code == 0, err
    import csv as _csv

    rows = {r["id"]: r for r in _csv.DictReader(out.open(newline=""))}
    odd = rows["odd/test/sport/0.txt"]
    assert odd["rf"] == "" and odd["problem"]  # no keywords, and it says why
    assert rows["odd/test/space/0.txt"]["problem"] == ""


# ------------------------------------------------------------------ hostile input: out-of-range options, shared caches
SPACE_CSV = {  # (split, label) -> texts; ids 1, 2, … per label, the same in both corpora
    ("train", "a"): ["The rocket reached orbit around the planet.", "A shuttle launch from the space station.",
                     "The astronauts landed on the moon."],
    ("test", "a"): ["The spacecraft entered orbit after the launch."],
    ("train", "b"): ["The team won the game.", "The coach praised the players.", "The league season starts."],
    ("test", "b"): ["The striker scored a goal."],
}
CARS_CSV = {
    ("train", "a"): ["The engine of the car needs a new wheel.", "The driver parked the vehicle in the garage.",
                     "A motor with more power and speed."],
    ("test", "a"): ["The car has a powerful engine and new tires."],
    ("train", "b"): ["Bake the bread in the oven.", "The recipe needs flour and sugar.", "Cook the soup with onions."],
    ("test", "b"): ["She cooked pasta with tomato sauce."],
}


def _write_csv(path, texts) -> str:
    import csv as _csv

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = _csv.writer(fh)
        w.writerow(["id", "text", "label", "split"])
        for label in ("a", "b"):  # ids 1-3 train, 4 test
            rows = [(split, t) for split in ("train", "test") for t in texts[(split, label)]]
            for i, (split, t) in enumerate(rows, 1):
                w.writerow([i, t, label, split])
    return str(path)


def test_two_csv_corpora_of_one_name_never_share_a_sample_cache(tmp_path, monkeypatch, capsys):
    space = _write_csv(tmp_path / "one" / "corp.csv", SPACE_CSV)
    cars = _write_csv(tmp_path / "two" / "corp.csv", CARS_CSV)

    def keywords(dataset: str, data) -> dict:
        monkeypatch.setenv("DKW_DATA_DIR", str(data))
        code, out, err = run(capsys, "keywords", "--dataset", dataset, "--doc", "corp/test/a/4", "--sample", "3",
                             "--metric", "rf", "--k", "10", "--top", "5", "--json")
        assert code == 0, err
        return json.loads(out)

    on_space = keywords(space, tmp_path / "shared")
    shared = keywords(cars, tmp_path / "shared")   # same file name, same ids, other texts
    fresh = keywords(cars, tmp_path / "fresh")     # an empty data folder
    assert shared["dataset"] != on_space["dataset"] and shared["dataset"].endswith("-head3")
    assert shared["keywords"] == fresh["keywords"] != on_space["keywords"]
    _write_csv(tmp_path / "one" / "corp.csv", CARS_CSV)  # the space CSV edited in place into the cars one
    assert keywords(space, tmp_path / "shared")["keywords"] == fresh["keywords"]


@pytest.mark.parametrize("argv,message", [
    (["keywords", "--doc", "nowhere/test/a/1", "--top", "-1"], "N must be between 1 and 1000"),
    (["keywords", "--doc", "nowhere/test/a/1", "--top", "0"], "N must be between 1 and 1000"),
    (["keywords", "--dataset", "nowhere", "--texts", "nowhere.csv", "--top", "-2"], "got -2"),
    (["keywords", "--doc", "nowhere/test/a/1", "--k", "1000000000"], "K must be between 1 and 20000"),
    (["keywords", "--doc", "nowhere/test/a/1", "--neighbours", "csls-k99999"], "CSLS neighbourhood k"),
    (["prepare", "--dataset", "nowhere", "--k-max", "0"], "K and k_max must be between 1 and"),
    (["categories", "--dataset", "nowhere", "--metric", "rf", "--top", "0"], "N must be between"),
    (["categories", "--dataset", "nowhere", "--metric", "rf", "--phrases", "-1"], "--phrases must be between"),
    (["evaluate", "--dataset", "nowhere", "--metric", "rf", "--k", "1000000000", "--top", "10"],
     "K must be between 1 and 20000"),
    (["evaluate", "--dataset", "nowhere", "--metric", "rf", "--k", "10", "--top", "-3"], "N must be between"),
    (["search", "--dataset", "nowhere", "--tops", "5,0"], "N must be between"),
    (["search", "--dataset", "nowhere", "--ks", "10,95"], "K must be between 1 and 90 (--k-max)"),
    (["search", "--dataset", "nowhere", "--seed", "-1"], "the seed must be between 0 and"),
    (["search", "--dataset", "nowhere", "--selection", "cv", "--cv-folds", "1"], "--cv-folds must be between 2"),
    (["leakcheck", "--dataset", "nowhere", "--metric", "rf", "--k", "10", "--top", "10", "--seed", "-1"],
     "the seed must be"),
    (["study", "simulate", "--db", "sqlite:////nowhere/x.sqlite", "--study", "1", "--seed", "-1"], "the seed must"),
    (["study", "invite", "--db", "sqlite:////nowhere/x.sqlite", "--study", "1", "--count", "1001"],
     "--count must be between 1 and 1000"),
])
def test_out_of_range_numbers_are_refused_in_one_line_before_any_work(capsys, argv, message):
    code, out, err = run(capsys, *argv)  # "nowhere" does not exist: any work would fail on it first
    assert code == 2 and message in err and out == ""
    assert err.count("\n") == 1 and "usage:" not in err and "Traceback" not in err


def _no_tagging(*args, **kwargs):
    raise AssertionError("tagging started")


def test_neighbours_or_k_beyond_the_vectors_are_refused_before_tagging(folder, tmp_path, monkeypatch, capsys):
    import dkw_core.keywords.model as model_module
    from tests.test_vectors import _glove_rows, _write_glove

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(model_module, "tag_corpus", _no_tagging)
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt",
                       "--neighbours", "abtt-d9999")  # GloVe 6B has 50 dimensions
    assert code == 2 and "the all-but-the-top D of abtt-d9999 must be between 0 and 49" in err
    small = _write_glove(tmp_path / "small.txt", *_glove_rows(3000))
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt",
                       "--vectors", str(small), "--k", "5000")
    assert code == 2 and "K and k_max must be between 1 and" in err and "cropped vocabulary of small-" in err
    assert err.count("\n") == 1


def test_a_folder_or_a_device_as_text_file_is_named_for_what_it_is(folder, tmp_path, capsys):
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(tmp_path))
    assert code == 2 and "a folder, not a text file" in err and "no such file" not in err
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", "/dev/zero")
    assert code == 2 and "not a regular file" in err and "no such file" not in err


def test_vectors_with_fewer_words_than_the_default_k_say_so(folder, tmp_path, capsys):
    from tests.test_vectors import _glove_rows, _write_glove

    tiny = _write_glove(tmp_path / "tiny.txt", *_glove_rows(60))  # fewer cropped words than K = 90
    code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--doc", "mini/test/space/0.txt",
                       "--vectors", str(tiny), "--metric", "rf")  # no --k given
    assert code == 2 and "(the default K; give a K of" in err and "cropped vocabulary of tiny-" in err
    assert "the prepared k_max" not in err and err.count("\n") == 1


def test_about_moves_between_the_texts_keyphrases_and_its_categorys_words(folder, tmp_path, capsys):
    """``--about 1`` gives the paper's words (what ``--about`` was before it existed: the
    ``category_words`` of the default answer); the default gives the text's own phrases, says
    which category weighted them and lists the category's words beside them."""
    f = tmp_path / "new.txt"
    f.write_text("The astronauts trained for the rocket launch.")
    base = ("keywords", "--dataset", str(folder), "--text-file", str(f), "--metric", "rf", "--k", "10", "--top", "3",
            "--json")
    code, out, err = run(capsys, *base, "--about", "1")
    assert code == 0, err
    paper = json.loads(out)
    assert paper["about"] == 1.0 and "category_words" not in paper
    code, out, err = run(capsys, *base)
    assert code == 0, err
    default = json.loads(out)
    assert default["about"] in (0.0, 0.4)  # 0 when the text is told it fits the corpus poorly
    assert default["category_words"]["rf"] == paper["keywords"]["rf"]
    own = {"astronauts", "rocket launch", "the rocket launch", "rocket", "launch"}
    assert set(default["keywords"]["rf"]) & own, default
    assert default["weighted_as"] in ("sport", "space") and "out_of_corpus" in default
    code, out, err = run(capsys, *base[:-1])
    assert code == 0 and "about = " in out and "category: " in out


@pytest.mark.parametrize("about", [(), ("--about", "0"), ("--about", "1")])
def test_texts_give_each_text_the_keywords_and_about_of_text_file(folder, tmp_path, capsys, about):
    """``keywords --texts`` (the batched path) and ``--text-file`` (one text) agree at every
    about, the default's out-of-corpus rule included."""
    text = "The astronauts trained for the rocket launch."
    f = tmp_path / "new.txt"
    f.write_text(text)
    texts = tmp_path / "new.jsonl"
    texts.write_text(json.dumps({"id": "x", "text": text}) + "\n")
    opts = ("--dataset", str(folder), "--metric", "rf", "--k", "10", "--top", "3", *about)
    code, out, err = run(capsys, "keywords", "--text-file", str(f), "--json", *opts)
    assert code == 0, err
    one = json.loads(out)
    code, out, err = run(capsys, "keywords", "--texts", str(texts), "--n-process", "1", *opts)
    assert code == 0, err
    rec = json.loads(out)
    assert rec["keywords"] == one["keywords"] and rec["weighted_as"] == one["weighted_as"]
    if about != ("--about", "1"):
        assert (rec["about"], rec["out_of_corpus"]) == (one["about"], one["out_of_corpus"])


@pytest.mark.parametrize("about", ["2", "-0.5", "nan"])
def test_about_outside_zero_to_one_is_a_one_line_error(folder, tmp_path, capsys, about):
    f = tmp_path / "new.txt"
    f.write_text("The astronauts trained for the rocket launch.")
    code, out, err = run(capsys, "keywords", "--dataset", str(folder), "--text-file", str(f), "--about", about)
    assert code == 2 and "about must be between 0" in err and "Traceback" not in err


# -- hostile input to keywords --texts: file names, one JSONL rule, the scheduler ---------------------
BAD_NAME = b"bad\x9b[2Jname\xff.txt"  # not UTF-8: 0x9b is the C1 form of ESC [, 0xff no character at all
ESCAPED_NAME = "bad\\x9b[2Jname\\xff.txt"


@pytest.fixture
def texts_folder(tmp_path):
    root = tmp_path / "texts"
    root.mkdir()
    (root / os.fsdecode(BAD_NAME)).write_text("The astronauts flew the rocket to the moon.")
    (root / "good.txt").write_text("The coach praised the team.")
    return root


@pytest.mark.parametrize("out_name", ["x.jsonl", "x.csv", "-"])
def test_a_text_file_name_that_is_not_utf8_is_written_escaped_in_every_output(folder, texts_folder, tmp_path, capsys,
                                                                                out_name):
    out = tmp_path / out_name
    code, stdout, err = run(capsys, "keywords", "--dataset", str(folder), "--texts", str(texts_folder), "--metric",
                            "rf", "--k", "10", "--top", "2", "--n-process", "1",
                            "--out", out_name if out_name == "-" else str(out))
    assert code == 0, err  # before: UnicodeEncodeError, a 0-byte JSONL / header-only CSV, raw 0x9b on stdout
    text = stdout if out_name == "-" else out.read_text(encoding="utf-8")
    rows = (list(csv.DictReader(io.StringIO(text))) if out_name.endswith(".csv")
            else [json.loads(line) for line in text.splitlines()])
    assert [r["id"] for r in rows] == [ESCAPED_NAME, "good.txt"]
    assert not any(c in stdout + err for c in "\udc9b\udcff\x9b\x1b")


def test_a_failed_export_leaves_no_partial_file(folder, texts_folder, tmp_path, monkeypatch, capsys):
    from dkw_core.errors import InputError
    from dkw_core.keywords import batch

    def one_then_fail(*args, **kwargs):
        yield {"id": "first", "split": "", "label": "", "protocol": "label-free-top1", "k": 10, "top": 2,
               "keywords": {"rf": ["moon"]}}
        raise InputError("failed half way")

    monkeypatch.setattr(batch, "text_records", one_then_fail)
    kept = tmp_path / "kept.csv"
    kept.write_text("an older export\n")
    for out in (tmp_path / "new.jsonl", kept):
        code, _, err = run(capsys, "keywords", "--dataset", str(folder), "--texts", str(texts_folder), "--metric",
                           "rf", "--k", "10", "--top", "2", "--out", str(out))
        assert code == 2 and "error: failed half way" in err
    assert not (tmp_path / "new.jsonl").exists()  # before: a file holding the first record
    assert kept.read_text() == "an older export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv", "texts"]  # no temporary file left


class _Here:
    """A Dask client stand-in: every task runs at once, in this process."""

    def submit(self, fn, *args, pure=True):
        value = fn(*args)
        return types.SimpleNamespace(result=lambda: value)

    def scheduler_info(self):
        return {"workers": {"here": {}}}


@pytest.fixture
def here(monkeypatch):
    """``--scheduler`` answered by :class:`_Here`; ``prepare_on_cluster`` recorded and refused (no test
    prepares 20ng); every progress bar's title recorded. The tasks' settings are undone afterwards."""
    import dkw_core.cluster as cluster
    from dkw_core.cli import corpus as corpus_cli
    from dkw_core.errors import InputError

    calls = types.SimpleNamespace(prepared=[], bars=[])

    def prepare(client, corpus, **kwargs):
        calls.prepared.append(corpus.dataset)
        raise InputError("the test stops before preparing")

    def bar(desc, **kwargs):
        calls.bars.append(desc)
        return contextlib.nullcontext(lambda fraction, message: None)

    monkeypatch.setattr(cluster, "session", lambda scheduler: contextlib.nullcontext(_Here()))
    monkeypatch.setattr(cluster, "prepare_on_cluster", prepare)
    monkeypatch.setattr(corpus_cli, "ProgressBar", bar)
    saved = dict(os.environ)
    yield calls
    os.environ.clear()
    os.environ.update(saved)


TWO = [{"id": "a", "text": "The astronauts flew the rocket to the moon."},
       {"id": "b", "text": "The goalkeeper saved a penalty in the hockey game."}]


def test_new_texts_on_a_scheduler_are_scored_with_the_shipped_statistics_not_a_prepared_corpus(here, tmp_path,
                                                                                               capsys):
    src = tmp_path / "two.jsonl"
    src.write_text("".join(json.dumps(t) + "\n" for t in TWO))
    folder = tmp_path / "two"
    folder.mkdir()
    for t in TWO:
        (folder / t["id"]).write_text(t["text"])
    outputs = {}
    for name, texts, scheduler in (("local", src, ()), ("stream", src, ("--scheduler", "local:1")),
                                   ("folder", folder, ("--scheduler", "local:1"))):
        out = tmp_path / f"{name}.jsonl"
        code, _, err = run(capsys, "keywords", "--texts", str(texts), "--top", "5", "--out", str(out), *scheduler)
        assert code == 0, err
        assert "statistics from the training split of 20ng" in err
        outputs[name] = [json.loads(line) for line in out.read_text().splitlines()]
    # before: prepare_on_cluster ran (all of 20ng, 3 GB, 11 min) under a bar "preparing None on local:1"
    assert here.prepared == [] and not any(b.endswith(" on local:1") or "None" in b for b in here.bars)
    assert outputs["stream"] == outputs["folder"] == outputs["local"] and len(outputs["local"]) == 2


def test_a_scheduler_that_must_prepare_names_the_corpus_it_prepares(here, tmp_path, capsys):
    src = tmp_path / "two.jsonl"
    src.write_text("".join(json.dumps(t) + "\n" for t in TWO))
    code, _, err = run(capsys, "keywords", "--texts", str(src), "--k", "50", "--scheduler", "local:1")
    assert code == 2 and "the test stops before preparing" in err  # K 50: not what the shipped statistics hold
    assert here.prepared == ["20ng"] and here.bars == ["preparing 20ng on local:1"]  # before: "preparing None on …"


def test_stream_warnings_show_a_hostile_file_name_escaped(here, tmp_path, capsys):
    src = tmp_path / "in\x1b[2J\x1b]8;;evil.example\x07x.jsonl"  # a screen clear and a planted hyperlink
    src.write_text(json.dumps(TWO[0]) + "\n\n{bad\n")
    code, _, err = run(capsys, "keywords", "--texts", str(src), "--top", "3", "--scheduler", "local:1",
                       "--out", str(tmp_path / "out.jsonl"))
    assert code == 0, err
    assert "\x1b" not in err and "\x07" not in err  # before: the name went to the terminal raw
    name = "in\\x1b[2J\\x1b]8;;evil.example\\x07x.jsonl"
    assert f"warning: {name}, line 2: empty line; skipped" in err
    assert f"warning: {name}, line 3: not JSON (Expecting property name enclosed in double quotes at line 3 column 2)" \
           in err
    assert "2 lines skipped (named above)" in err


# -- a --dataset folder whose category and file names are not UTF-8 (docs/bad-inputs.md) ----------------------
BAD_CATEGORY = b"space\x9b[2J\xff"
ESCAPED_CATEGORY = "space\\x9b[2J\\xff"


@pytest.fixture(scope="module")
def hostile_folder(tmp_path_factory):
    """:data:`TEXTS` with category ``space`` renamed :data:`BAD_CATEGORY` and each first file
    :data:`BAD_NAME`."""
    root = tmp_path_factory.mktemp("hostile") / "odd"
    for (split, label), texts in TEXTS.items():
        d = root / split / (os.fsdecode(BAD_CATEGORY) if label == "space" else label)
        d.mkdir(parents=True)
        for i, t in enumerate(texts):
            (d / (os.fsdecode(BAD_NAME) if i == 0 else f"{i}.txt")).write_text(t)
    return root


@pytest.mark.parametrize("out_name", ["x.jsonl", "x.csv", "-"])
def test_a_corpus_folder_whose_names_are_not_utf8_has_escaped_ids_and_labels_in_every_output(
        hostile_folder, tmp_path, capsys, out_name):
    out = tmp_path / out_name
    code, stdout, err = run(capsys, "keywords", "--dataset", str(hostile_folder), "--split", "test", "--metric", "rf",
                            "--k", "10", "--top", "2", "--out", out_name if out_name == "-" else str(out))
    assert code == 0, err  # before: UnicodeEncodeError into x.jsonl, raw 0x9b/0xff bytes on standard output
    text = stdout if out_name == "-" else out.read_text(encoding="utf-8")
    rows = (list(csv.DictReader(io.StringIO(text))) if out_name.endswith(".csv")
            else [json.loads(line) for line in text.splitlines()])
    assert sorted((r["id"], r["label"]) for r in rows) == [
        (f"odd/test/{ESCAPED_CATEGORY}/{ESCAPED_NAME}", ESCAPED_CATEGORY), (f"odd/test/sport/{ESCAPED_NAME}", "sport")]
    assert not any(c in stdout + err for c in "\udc9b\udcff\x9b\x1b")
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())  # no temporary file left


def test_a_document_of_a_corpus_folder_whose_names_are_not_utf8_opens_by_its_escaped_id(hostile_folder, capsys):
    doc = f"odd/test/{ESCAPED_CATEGORY}/{ESCAPED_NAME}"
    code, out, err = run(capsys, "keywords", "--dataset", str(hostile_folder), "--doc", doc, "--metric", "rf",
                         "--k", "10", "--top", "2")
    assert code == 0, err
    assert out.startswith(doc + "  [label-aware") and not any(c in out + err for c in "\udc9b\udcff\x9b\x1b")
    code, out, err = run(capsys, "categories", "--dataset", str(hostile_folder), "--metric", "rf", "--top", "1")
    assert code == 0, err
    assert f"{ESCAPED_CATEGORY} (2 training documents)" in out and not any(c in out for c in "\udc9b\x9b\x1b")
