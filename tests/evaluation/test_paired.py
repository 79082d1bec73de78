"""Per-document comparison of two runs: McNemar exact, paired bootstrap CI, Holm."""
import math

import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.paired import (
    bootstrap_diff,
    compare_all,
    decode_labels,
    encode_labels,
    holm,
    mcnemar_exact,
    split_fingerprint,
)


def test_labels_round_trip_compactly():
    values = np.array([0, 5, 51, 63, 7])
    text = encode_labels(values)
    assert len(text) == 5 and (decode_labels(text) == values).all()
    wide = np.array([0, 64, 200])
    assert (decode_labels(encode_labels(wide)) == wide).all()
    with pytest.raises(InputError):
        decode_labels("0!")


def test_mcnemar_exact_equals_the_binomial_sum_by_hand():
    # 7 documents only A gets right, 2 only B gets right, 11 concordant
    ca = np.array([1] * 7 + [0] * 2 + [1] * 6 + [0] * 5, dtype=bool)
    cb = np.array([0] * 7 + [1] * 2 + [1] * 6 + [0] * 5, dtype=bool)
    b, c, p = mcnemar_exact(ca, cb)
    assert (b, c) == (7, 2)
    n = 9
    by_hand = 2 * sum(math.comb(n, j) for j in range(0, 3)) / 2 ** n  # P(X <= 2) + P(X >= 7)
    assert p == pytest.approx(by_hand)
    assert mcnemar_exact(ca, ca)[2] == 1.0


def test_bootstrap_matches_a_direct_resampling_loop():
    rng = np.random.default_rng(1)
    ca = rng.random(300) < 0.8
    cb = rng.random(300) < 0.7
    low, high = bootstrap_diff(ca, cb, resamples=1000, seed=42)
    direct_rng = np.random.default_rng(42)
    d = ca.astype(float) - cb.astype(float)
    means = [d[direct_rng.integers(0, 300, size=300)].mean() for _ in range(1000)]
    assert low == pytest.approx(100 * np.quantile(means, 0.025))
    assert high == pytest.approx(100 * np.quantile(means, 0.975))
    assert low < 100 * d.mean() < high
    assert bootstrap_diff(ca, cb, resamples=1000, seed=42) == (low, high)  # seeded: reproducible


def test_compare_reports_micro_f1_difference_and_direction():
    gold = np.array([0, 1, 2, 0, 1, 2, 0, 1])
    a = np.array([0, 1, 2, 0, 1, 2, 0, 0])  # 7/8
    b = np.array([0, 0, 0, 0, 1, 2, 1, 1])  # 5/8
    from sklearn.metrics import f1_score

    out = compare_all(gold, {"rf": a, "tf-idf": b}, resamples=500).iloc[0]
    assert out["f1_a"] == pytest.approx(100 * f1_score(gold, a, average="micro"))
    assert out["diff"] == pytest.approx(25.0)
    assert out["higher"] == "rf" and (out["only_a_right"], out["only_b_right"]) == (3, 1)
    with pytest.raises(InputError):
        compare_all(gold, {"rf": a, "tf-idf": b[:-1]})


def test_holm_by_hand_and_compare_all_corrects_over_every_pair():
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]).tolist() == pytest.approx([1.0, 1.0])
    gold = np.zeros(40, dtype=int)
    preds = {"x": np.zeros(40, dtype=int), "y": np.r_[np.zeros(20), np.ones(20)].astype(int),
             "z": np.ones(40, dtype=int)}
    table = compare_all(gold, preds, resamples=200)
    assert len(table) == 3 and (table["pairs"] == 3).all()
    assert (table["p_holm"] >= table["p_mcnemar"]).all()
    xz = table[(table["a"] == "x") & (table["b"] == "z")].iloc[0]
    assert xz["significant"] and xz["diff"] == 100.0


def test_split_fingerprint_depends_on_documents_and_gold():
    assert split_fingerprint(["a", "b"], [0, 1]) != split_fingerprint(["a", "b"], [1, 0])
    assert split_fingerprint(["a", "b"], [0, 1]) != split_fingerprint(["a", "c"], [0, 1])


def test_intervals_drawn_once_for_many_pairs_equal_each_pair_bootstrapped_alone():
    from dkw_core.evaluation.paired import bootstrap_diff, bootstrap_diffs

    rng = np.random.default_rng(5)
    correct = [rng.random(3001) < p for p in (0.9, 0.85, 0.6)]  # 3,001 documents: several resample batches
    pairs = [(0, 1), (0, 2), (1, 2)]
    many = bootstrap_diffs([correct[a].astype(float) - correct[b] for a, b in pairs], resamples=1500, seed=3)
    assert many == [bootstrap_diff(correct[a], correct[b], resamples=1500, seed=3) for a, b in pairs]
    assert bootstrap_diffs([], resamples=10) == []


def test_every_pair_from_per_method_counts_equals_each_difference_bootstrapped_to_the_last_bit():
    """compare_all's intervals come from one gather per method (bootstrap_pairs), and are exactly
    the intervals of the per-pair differences bootstrapped on the same resamples."""
    import itertools

    import numpy as np

    from dkw_core.evaluation.paired import bootstrap_diffs, bootstrap_pairs, compare_all

    rng = np.random.default_rng(7)
    gold = rng.integers(0, 3, 301)
    preds = {f"m{i}": np.where(rng.random(301) < 0.5 + 0.1 * i, gold, (gold + 1) % 3) for i in range(4)}
    correct = {name: p == gold for name, p in preds.items()}
    pairs = list(itertools.combinations(preds, 2))
    direct = bootstrap_diffs([correct[a].astype(np.float64) - correct[b] for a, b in pairs], resamples=500, seed=3)
    assert bootstrap_pairs(correct, pairs, resamples=500, seed=3) == direct
    table = compare_all(gold, preds, resamples=500, seed=3)
    assert list(zip(table["ci_low"], table["ci_high"])) == direct
