import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.search import (
    ModelPredictor,
    Setup,
    make_setups,
    parameter_search,
    subsample,
    tolerance,
)

from .fakes import FakeModel


def test_tolerance_formula():
    # paper: ratio / (2 * max_doc_count * categories), micro-F1 as a fraction
    assert tolerance(2, 5, 4) == pytest.approx(0.05)
    assert tolerance(5, 1000, 20) == pytest.approx(5 / 40000)


def test_chi2_left_out_of_metric_choice():
    setups = make_setups([10, 30], ["rf", "chi2", "tf-chi2", "tf-idf"], [1, 5])
    assert {s.metric for s in setups} == {"rf", "tf-idf"}
    assert len(setups) == 2 * 2 * 2
    with pytest.raises(InputError):
        make_setups([10], ["chi2"], [5])


def test_subsample_caps_each_category_and_is_nested():
    labels = np.repeat([0, 1, 2], [30, 3, 12])
    order = np.random.default_rng(0).permutation(labels.size)
    small, big = subsample(labels, 5, order=order), subsample(labels, 10, order=order)
    assert np.bincount(labels[small]).tolist() == [5, 3, 5]
    assert np.bincount(labels[big]).tolist() == [10, 3, 10]
    assert set(small) <= set(big)


def _scripted(errors: dict[Setup, set[int]], labels, *, wrong_when_small_val: set[Setup] = frozenset()):
    """predict: correct except on the listed document positions (and, for some setups, on every
    validation document when the validation fold is small, i.e. at ratios 3 and 5)."""
    calls = []

    def predict(setup, train_pos, val_pos):
        calls.append(setup)
        pred = labels[val_pos].copy()
        for i, p in enumerate(val_pos):
            if p in errors.get(setup, ()) or (setup in wrong_when_small_val and len(val_pos) < 8):
                pred[i] = (pred[i] + 1) % 4
        return pred

    return predict, calls


def test_tolerance_filter_keeps_within_drops_outside():
    labels = np.repeat(np.arange(4), 5)  # 4 categories x 5 docs: every max_doc_count sees all 20
    A, B, C, D = Setup(10, "rf", 5), Setup(10, "ig", 5), Setup(30, "rf", 5), Setup(30, "ig", 5)
    # micro-F1 over 20 docs: A 1.0, B 0.95 (1 error), D 0.90 (2 errors), C 0.85 (3 errors)
    predict, _ = _scripted({B: {0}, C: {1, 6, 11}, D: {2, 7}}, labels)
    res = parameter_search([A, B, C, D], labels, predict, seed=0)
    first = res.stages[0]
    assert (first.max_doc_count, first.ratio) == (5, 2)
    assert first.tolerance == pytest.approx(0.05)
    assert first.scores[str(B)] == pytest.approx(0.95)
    # B is exactly best - tolerance: kept; D (0.10 below) and C are outside: dropped
    assert set(res.survivors) == {A, B}
    assert res.best == A
    # ratios 3 and 5 run on the smallest size only; bigger sizes hold the same 20 docs: skipped
    assert [(s.max_doc_count, s.ratio) for s in res.stages] == [(5, 2), (5, 3), (5, 5)]


def test_stops_as_soon_as_one_setup_is_left():
    labels = np.repeat(np.arange(4), 5)
    A, B = Setup(10, "rf", 5), Setup(10, "ig", 5)
    predict, calls = _scripted({}, labels, wrong_when_small_val={B})
    res = parameter_search([A, B], labels, predict, seed=0)
    assert res.best == A and res.survivors == [A]
    assert [(s.max_doc_count, s.ratio) for s in res.stages] == [(5, 2), (5, 3)]
    assert res.stages[0].kept == 2 and res.stages[1].kept == 1


def test_later_sizes_use_five_fold_and_bigger_subsamples():
    labels = np.repeat(np.arange(2), 40)
    seen = []

    def predict(setup, train_pos, val_pos):
        seen.append(len(train_pos) + len(val_pos))
        return labels[val_pos]

    res = parameter_search([Setup(10, "rf", 1), Setup(10, "rf", 2)], labels, predict, sizes=(5, 10, 20, 100))
    assert [(s.max_doc_count, s.ratio, s.n_docs) for s in res.stages] == [
        (5, 2, 10), (5, 3, 10), (5, 5, 10), (10, 5, 20), (20, 5, 40), (100, 5, 80)]
    assert max(seen) == 80 and res.seed == 0


def test_search_on_fake_model_prefers_more_keywords():
    model = FakeModel(n_categories=3, docs_per_category={"train": 20, "test": 5}, noise=1.0, seed=2)
    predictor = ModelPredictor(model, protocol="label-free", max_top=8)
    setups = make_setups([10], ["rf"], [1, 8])
    res = parameter_search(setups, model.labels("train"), predictor, sizes=(5, 10, 20), seed=1)
    assert res.stages and all(0.0 <= v <= 1.0 for st in res.stages for v in st.scores.values())
    # ranks are computed once per fold and (metric, K) and sliced for every N
    assert all(list(fold["ranks"]) == [("rf", 10)] for fold in predictor._folds.values())
    assert "test" not in model.reads
