import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.classifiers import CLASSIFIERS, fit_predict, make_classifier, score_predictions


def _blobs(seed=0, n=30, C=3, dim=5, spread=0.3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(C, dim)) * 3
    y = np.repeat(np.arange(C), n)
    return centres[y] + spread * rng.normal(size=(y.size, dim)), y


def test_scores_hand_computed():
    y_true = np.array([0, 0, 0, 1, 1, 2])
    y_pred = np.array([0, 0, 1, 1, 1, 0])
    s = score_predictions(y_true, y_pred, ["a", "b", "c"])
    assert s.micro_f1 == pytest.approx(4 / 6)
    # per category: a P=2/3 R=2/3 F=2/3; b P=2/3 R=1 F=0.8; c P=0 R=0 F=0
    assert s.f1 == pytest.approx([2 / 3, 0.8, 0.0])
    assert s.macro_f1 == pytest.approx((2 / 3 + 0.8 + 0) / 3)
    assert s.precision[1] == pytest.approx(2 / 3) and s.recall[1] == pytest.approx(1.0)
    assert s.confusion == [[2, 1, 0], [0, 2, 0], [1, 0, 0]]
    assert s.support == [3, 2, 1]


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_every_classifier_separates_blobs(name):
    X, y = _blobs()
    Xt, yt = _blobs(seed=0)  # same centres, same points: training accuracy
    s = score_predictions(yt, fit_predict(X, y, Xt, classifier=name), ["a", "b", "c"])
    assert s.micro_f1 > 0.9


def test_svm_ovr_is_one_vs_rest_and_ovo_wraps():
    from sklearn.multiclass import OneVsOneClassifier
    from sklearn.svm import LinearSVC

    assert isinstance(make_classifier("svm-ovr"), LinearSVC)
    assert isinstance(make_classifier("svm-ovo"), OneVsOneClassifier)


def test_random_labels_score_low():
    X, y = _blobs(n=40)
    rng = np.random.default_rng(3)
    s = score_predictions(rng.permutation(y), fit_predict(X, y, X), ["a", "b", "c"])
    assert s.micro_f1 < 0.6


def test_bad_input():
    with pytest.raises(InputError, match="unknown classifier"):
        make_classifier("forest")
    with pytest.raises(InputError):
        fit_predict(np.zeros((3, 2)), np.array([0, 1]), np.zeros((1, 2)))
    with pytest.raises(InputError):
        score_predictions(np.array([0, 1]), np.array([0]), ["a", "b"])


def test_single_category_training_predicts_it():
    assert list(fit_predict(np.zeros((3, 2)), np.array([1, 1, 1]), np.ones((2, 2)))) == [1, 1]


# ------------------------------------------------------------------ a one-category corpus is never "evaluated"
@pytest.fixture(scope="module")
def one_category(tmp_path_factory):
    root = tmp_path_factory.mktemp("onecat") / "solo"
    for split, texts in {"train": ["The team won the game.", "The coach praised the league."],
                         "test": ["The player kicked the ball."]}.items():
        (root / split / "sport").mkdir(parents=True)
        for i, t in enumerate(texts):
            (root / split / "sport" / f"{i}.txt").write_text(t)
    return root


@pytest.mark.parametrize("command", [["evaluate", "--metric", "rf", "--k", "10", "--top", "3"], ["search", "--metric", "rf"],
                                     ["baseline"], ["leakcheck", "--metric", "rf", "--k", "10", "--top", "3"]])
def test_one_category_corpus_is_refused_by_every_evaluation_command(one_category, command, capsys):
    from dkw_core.cli import main

    assert main([command[0], "--dataset", str(one_category), *command[1:]]) == 2
    err = capsys.readouterr().err
    assert "needs at least two" in err and err.count("\n") == 1 and "F1" not in err


def test_one_category_corpus_still_gives_keywords(one_category, capsys):
    import json

    from dkw_core.cli import main

    assert main(["keywords", "--dataset", str(one_category), "--doc", "solo/test/sport/0.txt", "--metric", "rf",
                 "--k", "10", "--top", "3", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["keywords"]["rf"]) == 3
