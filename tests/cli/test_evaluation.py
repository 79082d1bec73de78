"""``python -m dkw_core evaluate --method … --import …``: any keyword method beside dkw's metrics."""
import json

import pytest

from dkw_core.cli import main

TEXTS = {
    ("train", "sport"): ["The team won the game after the coach changed the player.",
                         "A new season of the league starts with a goal by the striker.",
                         "The player kicked the ball and the team celebrated the goal."],
    ("train", "space"): ["The rocket reached orbit around the planet.",
                         "A launch of the mission to the moon with the astronauts.",
                         "The star and the earth seen from orbit by the astronauts."],
    ("test", "sport"): ["The coach praised the team and the league.", "Goal for the team in the last game."],
    ("test", "space"): ["The mission put a rocket near the moon.", "Astronauts saw the planet from orbit."],
}


class FirstWords:
    reads_labels = False

    def extract(self, text, top):
        return list(dict.fromkeys(w.strip(".,").lower() for w in text.split()))[:top]


@pytest.fixture
def setup(tmp_path, monkeypatch):
    from dkw_core.keywords import register_extractor
    from dkw_core.keywords.extractors import unregister_extractor

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "mini"
    ids = []
    for (split, label), texts in TEXTS.items():
        d = root / split / label
        d.mkdir(parents=True)
        for i, t in enumerate(texts):
            (d / f"{i}.txt").write_text(t)
            ids.append((f"mini/{split}/{label}/{i}.txt", t))
    register_extractor(r"first-words", lambda _m: FirstWords())
    yield root, ids
    unregister_extractor(r"first-words")


def _import(path, ids, skip=()):
    path.write_text("".join(json.dumps({"doc_id": d, "method": "mine", "keywords": FirstWords().extract(t, 50)}) + "\n"
                            for d, t in ids if d not in skip), encoding="utf-8")
    return str(path)


def test_evaluate_scores_an_extractor_and_an_import_beside_a_metric_and_compares_them(setup, tmp_path, capsys):
    root, ids = setup
    argv = ["evaluate", "--dataset", str(root), "--metric", "rf", "--k", "10", "--top", "2", "--tops", "1,2",
            "--protocol", "label-free", "--method", "first-words", "--import", _import(tmp_path / "mine.jsonl", ids),
            "--db", f"sqlite:///{tmp_path / 'runs.sqlite'}", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    runs = {(r["metric"], r["top"]): r for r in out["runs"]}
    assert set(runs) == {(m, n) for m in ("rf", "first-words", "mine") for n in (1, 2)}
    assert runs[("first-words", 2)]["reads"] == "reads no label" and runs[("first-words", 2)]["kind"] == "extractor"
    assert runs[("mine", 2)]["reads"] == "unknown (computed elsewhere)" and runs[("rf", 2)]["reads"] == "reads no label"
    for n in (1, 2):  # the same keywords, imported or extracted, give the same F1
        assert runs[("mine", n)]["micro_f1"] == runs[("first-words", n)]["micro_f1"]
    pairs = {(p["a"], p["b"]) for p in out["comparisons"]["label-free"]}
    assert pairs == {("dkw rf K10", "first-words"), ("dkw rf K10", "mine"), ("first-words", "mine"),
                     ("dkw rf K10", "tf-idf + LinearSVC (classifier)"), ("first-words", "tf-idf + LinearSVC (classifier)"),
                     ("mine", "tf-idf + LinearSVC (classifier)")}
    assert all(p["pairs"] == 6 and 0 <= p["p_holm"] <= 1 for p in out["comparisons"]["label-free"])


def test_an_import_missing_a_test_document_is_one_line_naming_it(setup, tmp_path, capsys):
    root, ids = setup
    argv = ["evaluate", "--dataset", str(root), "--metric", "rf", "--k", "10", "--top", "2", "--tops", "2",
            "--import", _import(tmp_path / "mine.jsonl", ids, skip={"mini/test/space/1.txt"}),
            "--db", f"sqlite:///{tmp_path / 'runs.sqlite'}"]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip()
    assert "1 of the 4 test document(s)" in err and "'mini/test/space/1.txt'" in err and "\n" not in err


def test_a_dkw_spec_given_as_method_points_to_metric(setup, tmp_path, capsys):
    root, _ids = setup
    assert main(["evaluate", "--dataset", str(root), "--metric", "rf", "--k", "10", "--top", "2",
                 "--method", "latent-5word-knn90-ig"]) != 0
    err = capsys.readouterr().err
    assert "not a keyword extractor" in err and "--metric ig" in err


@pytest.mark.parametrize("flag", [["--decoding", "hypotheses"], ["--train-protocol", "label-aware"]])
def test_evaluate_offers_no_option_that_no_table_reads(flag, capsys):
    """Every comparison, verdict and reference table left such runs out: the options are gone."""
    assert main(["evaluate", "--dataset", "r8", "--metric", "rf", "--k", "10", "--top", "10", *flag]) == 2
    assert f"unrecognized arguments: {' '.join(flag)}" in capsys.readouterr().err
