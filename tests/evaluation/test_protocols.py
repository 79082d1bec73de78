import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.protocols import evaluate_model

from .fakes import FakeModel


def test_label_free_never_reads_test_labels_before_predicting():
    model = FakeModel(seed=4, noise=1.0)
    shuffled = model.shuffled_test_labels()
    _, _, pred = evaluate_model(model, metric="rf", k=10, top=3, protocol="label-free")
    _, _, pred_shuffled = evaluate_model(shuffled, metric="rf", k=10, top=3, protocol="label-free")
    assert np.array_equal(pred, pred_shuffled)
    # the keywords themselves are identical too
    assert np.array_equal(model.rank("test", metric="rf", k=10, top=3, protocol="label-free"),
                          shuffled.rank("test", metric="rf", k=10, top=3, protocol="label-free"))


def test_label_aware_uses_test_labels():
    model = FakeModel(seed=4, noise=1.5)
    shuffled = model.shuffled_test_labels()
    _, _, pred = evaluate_model(model, metric="rf", k=10, top=3, protocol="label-aware")
    _, _, pred_shuffled = evaluate_model(shuffled, metric="rf", k=10, top=3, protocol="label-aware")
    assert not np.array_equal(pred, pred_shuffled)
    # label-aware predictions follow the (shuffled) labels written into the keyword vectors
    agree = (pred_shuffled == shuffled._labels["test"]).mean()
    assert agree > (pred == shuffled._labels["test"]).mean()


def test_scores_match_predictions():
    model = FakeModel(seed=5)
    scores, seconds, pred = evaluate_model(model, metric="tf-rf", k=10, top=4, protocol="label-free")
    truth = model._labels["test"]
    assert scores.micro_f1 == pytest.approx((pred == truth).mean())
    assert set(seconds) == {"keywords", "classify"}
    assert scores.micro_f1 > 0.5  # well-separated synthetic categories


def test_unknown_protocol():
    with pytest.raises(InputError, match="protocol"):
        evaluate_model(FakeModel(), metric="rf", k=10, top=3, protocol="oracle")


def test_hypothesis_decoding_is_label_free():
    model = FakeModel(seed=4, noise=1.0)
    shuffled = model.shuffled_test_labels()
    scores, _, pred = evaluate_model(model, metric="rf", k=10, top=3, protocol="label-free", decoding="hypotheses")
    _, _, pred_shuffled = evaluate_model(shuffled, metric="rf", k=10, top=3, protocol="label-free", decoding="hypotheses")
    assert np.array_equal(pred, pred_shuffled)
    assert scores.micro_f1 == pytest.approx((pred == model._labels["test"]).mean())
    assert scores.micro_f1 > 1 / 3  # better than chance on separable synthetic categories
    with pytest.raises(InputError):
        evaluate_model(model, metric="rf", k=10, top=3, protocol="label-aware", decoding="hypotheses")
    with pytest.raises(InputError):
        evaluate_model(model, metric="rf", k=10, top=3, protocol="label-free", decoding="hypotheses", classifier="knn-cosine")
