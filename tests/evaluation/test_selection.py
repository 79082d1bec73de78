"""The robust selection (stratified k-fold CV on the training split) and the curves it gives."""
import numpy as np
import pytest

from dkw_core.corpora import Corpus, Document
from dkw_core.errors import InputError
from dkw_core.evaluation.paired import decode_labels
from dkw_core.evaluation.search import Setup
from dkw_core.evaluation.selection import cv_search

SPORT = ["team", "game", "player", "goal", "coach", "season", "league", "ball"]
SPACE = ["planet", "orbit", "rocket", "moon", "star", "launch", "mission", "earth"]


@pytest.fixture(scope="module")
def corpus():
    rng = np.random.default_rng(3)
    docs = []
    for split, n in (("train", 8), ("test", 4)):
        for label, words in (("sport", SPORT), ("space", SPACE)):
            for i in range(n):
                own = rng.choice(words, size=3, replace=False)
                other = rng.choice(SPACE if label == "sport" else SPORT)
                text = f"The {own[0]} and the {own[1]} near the {own[2]} with a {other}."
                docs.append(Document(id=f"t/{split}/{label}/{i}", text=text, label=label, split=split))
    return Corpus("cvtopics", docs)


def test_cv_search_scores_every_setup_and_picks_the_first_of_equal_scores():
    labels = np.array([0, 1] * 10)
    calls = []

    def predict(setup, tr, va):
        calls.append(setup)
        return labels[va] if setup.k == 2 else 1 - labels[va]

    setups = [Setup(1, "rf", 1), Setup(2, "rf", 1), Setup(2, "ig", 1), Setup(1, "ig", 1)]
    cv = cv_search(setups, labels, predict, folds=4, seed=0)
    assert set(cv.scores) == set(setups)
    assert cv.scores[Setup(2, "rf", 1)] == 1.0 and cv.scores[Setup(1, "rf", 1)] == 0.0
    assert cv.best() == Setup(2, "rf", 1)  # tie with (2, ig, 1): the one listed first
    assert cv.best_k("ig", 1) == Setup(2, "ig", 1)
    assert cv.documents == 20 and len(calls) == 4 * 4  # every setup on every fold
    assert "whole training split" in cv.describe()


def test_cv_search_subsample_keeps_at_most_n_per_category():
    labels = np.array([0] * 30 + [1] * 10)
    cv = cv_search([Setup(1, "rf", 1)], labels, lambda s, tr, va: labels[va], folds=2, max_per_category=5)
    assert cv.documents == 10


def test_cv_search_refuses_one_fold():
    with pytest.raises(InputError):
        cv_search([Setup(1, "rf", 1)], np.array([0, 1]), lambda s, tr, va: va, folds=1)


def test_run_cv_stores_choice_curves_and_predictions(corpus, topic_vectors, tmp_path):
    from dkw_core.evaluation.experiments import Experiment, run_cv
    from dkw_core.keywords import KeywordModel

    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    exp = Experiment(corpus=corpus, vectors=topic_vectors, model=model, dataset="cvtopics", sample=None, k_max=3)
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    out = run_cv(exp, protocol="label-free", ks=[1, 3], metrics=["rf", "ig", "chi2"], tops=[1, 2], folds=2, store=db)
    assert len(out["curves"]) == 6
    assert out["choice"].config.metric != "chi2"  # left out of the choice, as in the paper
    for r in [out["choice"], *out["curves"]]:
        pred = decode_labels(r.details["predictions"]["pred"])
        gold = decode_labels(r.details["predictions"]["gold"])
        assert pred.size == gold.size == 8
        assert r.micro_f1 == pytest.approx(float(np.mean(pred == gold)))
        assert r.config.options["selection"] == "cv"
    again = run_cv(exp, protocol="label-free", ks=[1, 3], metrics=["rf", "ig", "chi2"], tops=[1, 2], folds=2,
                   store=db)
    assert again["cv"] is None and again["choice"].cached


def test_selections_are_named_in_words_and_a_capped_cv_says_its_cap():
    from dkw_core.evaluation.selection import selection_name

    assert selection_name("algorithm2") == "Algorithm 2 (paper)"
    assert selection_name("cv") == "cross-validation on the training split"
    assert selection_name("cv", folds=3, max_per_category=None, detail=True) == \
        "3-fold cross-validation on the whole training split"
    assert selection_name("cv", folds=3.0, max_per_category=float("nan"), detail=True) == \
        "3-fold cross-validation on the whole training split"  # pandas' NaN for "no cap"
    assert selection_name("cv", folds=3, max_per_category=50, detail=True) == \
        "3-fold cross-validation on at most 50 training documents per category"
