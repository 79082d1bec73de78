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


def test_the_deployable_protocol_of_a_choice_is_itself_leak_checked_with_the_wrong_labels_handed_in():
    from dkw_core.evaluation.protocols import evaluate_model

    model = FakeModel(n_categories=4, docs_per_category={"train": 30, "test": 30}, noise=1.5, seed=3)
    handed = []
    rank = model.rank

    def spy(split, **kw):
        handed.append((split, kw["protocol"], kw.get("labels") is not None))
        return rank(split, **kw)

    model.rank = spy
    res = leak_check(model, metric="rf", k=10, top=3, dataset="fake", protocol="label-free-top1").to_dict()
    assert res["protocol"] == "label-free-top1" and "label-aware against label-free-top1" in res["label"]
    assert ("test", "label-free-top1", True) in handed  # ranked with the wrong labels, which it must not read
    model.rank = rank
    scores, _, _ = evaluate_model(model, metric="rf", k=10, top=3, protocol="label-free-top1")
    assert res["gold_label_free"] == pytest.approx(100 * scores.micro_f1, abs=0.01)  # its predictions unchanged
    with pytest.raises(InputError):
        leak_check(model, metric="rf", k=10, top=3, protocol="label-aware")


def test_leak_check_verdict_line_and_plain_column_names():
    from dkw_core.evaluation.leakcheck import PLAIN_COLUMNS, plain_table, verdict

    leak = {"protocol": "label-free-top1", "follow_wrong_label_aware": 82.38, "follow_wrong_label_free": 3.19,
            "expected_no_leak": 2.94, "chance": 5.0}
    assert verdict(leak) == ("label-aware follows the wrong label on 82.4 % of the documents (leak: it reads the "
                             "label); label-free-top1 3.2 % against 2.9 % expected without a leak: no leak")
    assert verdict({**leak, "follow_wrong_label_free": 9.0}).endswith("9.0 % against 2.9 % expected: LEAK")
    # with the test documents counted: a binomial test, so a tiny split's few points of noise read no leak
    assert verdict({**leak, "follow_wrong_label_free": 7.0, "test_documents": 100}).endswith(": no leak")
    assert verdict({**leak, "follow_wrong_label_free": 7.0, "test_documents": 2000}).endswith(": LEAK")
    old = {k: v for k, v in leak.items() if k != "protocol"}  # a file written before the protocol was recorded
    table = plain_table([{**old, "dataset": "20ng", "metric": "ig", "k": 90, "top": 20}])
    assert list(table.columns) == ["corpus", "metric", "K", "N", "deployable protocol",
                                   "follows the wrong label, label-aware (%)",
                                   "follows the wrong label, deployable protocol (%)", "expected without a leak (%)",
                                   "chance (%)", "verdict"]
    assert table["deployable protocol"].iloc[0] == "label-free" and set(table.columns) <= set(PLAIN_COLUMNS.values())
