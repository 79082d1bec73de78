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
