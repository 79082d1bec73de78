"""docs/results/keyphrases/corpus-fit.json is what ``scripts/corpus_fit.py`` computes from the texts'
signals it stores beside it (corpus-fit.signals.npz), and its thresholds are the ones
:mod:`dkw_core.keywords.fit` applies (docs/method.md §13)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from dkw_core.keywords import fit
from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "results" / "keyphrases"


def _script():
    return load_script("corpus_fit")


def test_the_shipped_choice_is_recomputed_from_the_stored_signals(tmp_path, capsys):
    shutil.copy(FOLDER / "corpus-fit.signals.npz", tmp_path / "corpus-fit.signals.npz")
    out = tmp_path / "corpus-fit.json"
    assert _script().main(["--out", str(out)]) == 0
    capsys.readouterr()
    assert json.loads(out.read_text()) == json.loads((FOLDER / "corpus-fit.json").read_text())


def test_the_library_applies_the_thresholds_chosen_on_the_training_split():
    shipped = json.loads((FOLDER / "corpus-fit.json").read_text())
    assert shipped["chosen_on"] == "train"
    assert (fit.MIN_SIMILARITY, fit.MIN_P) == (shipped["min_similarity"], shipped["min_p"])


def test_the_scores_count_a_text_out_only_when_both_signals_are_low():
    score = _script().scores
    inside = np.array([[0.99, 0.9], [0.5, 0.9], [0.99, 0.1]])  # each has one high signal: inside
    outside = np.array([[0.5, 0.1], [0.99, 0.1]])  # one told out, one missed
    got = score(inside, outside, 0.97, 0.6)
    assert (got["precision"], got["recall"]) == (1.0, 0.5)
    got = score(np.array([[0.5, 0.1]]), outside, 0.97, 0.6)  # one inside text wrongly told out
    assert (got["precision"], got["recall"]) == (0.5, 0.5)
