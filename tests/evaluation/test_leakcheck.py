import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.leakcheck import leak_check, wrong_labels

from .fakes import FakeModel


def test_wrong_labels_are_never_the_gold_one_and_cover_the_others():
    gold = np.repeat(np.arange(4), 50)
    wrong = wrong_labels(gold, 4, seed=1)
    assert (wrong != gold).all() and set(wrong[gold == 0]) == {1, 2, 3}
    with pytest.raises(InputError):
        wrong_labels(gold[:3] * 0, 1)


def test_label_aware_follows_the_injected_label_label_free_does_not():
    model = FakeModel(n_categories=4, docs_per_category={"train": 30, "test": 30}, noise=1.5, seed=3)
    res = leak_check(model, metric="rf", k=10, top=3, dataset="fake").to_dict()
    assert {"dataset", "metric", "k", "top", "follow_wrong_label_aware", "follow_wrong_label_free",
            "chance"} <= set(res)
    assert res["chance"] == 25.0
    assert res["follow_wrong_label_aware"] > 50 > res["follow_wrong_label_free"]
    assert res["follow_wrong_label_free"] < res["chance"] + 15


def test_expected_no_leak_level_is_the_error_share_spread_over_the_other_categories():
    from dkw_core.evaluation.leakcheck import expected_no_leak

    # 20ng label-free: accuracy 46.0 % over 20 categories -> 54 / 19 = 2.84 %
    assert expected_no_leak(46.0, 20) == pytest.approx(54 / 19)
    assert expected_no_leak(100.0, 8) == 0.0
    with pytest.raises(InputError):
        expected_no_leak(50.0, 1)
    # a classifier that ignores the injected label: simulate one and count how often it lands on it
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 5, 20000)
    pred = np.where(rng.random(gold.size) < 0.7, gold, (gold + rng.integers(1, 5, gold.size)) % 5)
    wrong = wrong_labels(gold, 5, seed=2)
    accuracy = 100 * float(np.mean(pred == gold))
    assert 100 * float(np.mean(pred == wrong)) == pytest.approx(expected_no_leak(accuracy, 5), abs=0.5)


def test_leak_check_reports_the_expected_level_from_the_label_free_accuracy():
    model = FakeModel(n_categories=4, docs_per_category={"train": 30, "test": 30}, noise=1.5, seed=3)
    res = leak_check(model, metric="rf", k=10, top=3, dataset="fake").to_dict()
    assert res["expected_no_leak"] == pytest.approx((100 - res["gold_label_free"]) / 3, abs=0.01)
