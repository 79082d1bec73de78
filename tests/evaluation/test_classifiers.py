import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.classifiers import CLASSIFIERS, evaluate_vectors, fit_predict, make_classifier, score_predictions


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
    s = evaluate_vectors(X, y, Xt, yt, ["a", "b", "c"], classifier=name)
    assert s.micro_f1 > 0.9


def test_svm_ovr_is_one_vs_rest_and_ovo_wraps():
    from sklearn.multiclass import OneVsOneClassifier
    from sklearn.svm import LinearSVC

    assert isinstance(make_classifier("svm-ovr"), LinearSVC)
    assert isinstance(make_classifier("svm-ovo"), OneVsOneClassifier)


def test_random_labels_score_low():
    X, y = _blobs(n=40)
    rng = np.random.default_rng(3)
    s = evaluate_vectors(X, y, X, rng.permutation(y), ["a", "b", "c"])
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
