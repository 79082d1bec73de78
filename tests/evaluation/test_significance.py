import math

import numpy as np
import pandas as pd
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.significance import compare_metrics, sign_test, wilcoxon_signed_rank


def _runs(table: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for metric, values in table.items():
        for i, v in enumerate(values):
            rows.append(dict(dataset="d", protocol="label-free", k=10, top=i + 1, classifier="svm-ovr",
                             split="test", vectors="v", sample=None, metric=metric, micro_f1=v))
    return pd.DataFrame(rows)


def test_wilcoxon_hand_computed_mixed_signs():
    # differences 1, -2, 3, 4, -5: ranks 1..5, R+ = 1+3+4 = 8, R- = 2+5 = 7 -> T = 7
    a = [11, 8, 13, 14, 5]
    b = [10, 10, 10, 10, 10]
    T, z, p, n, method = wilcoxon_signed_rank(a, b)
    assert (T, n, method) == (7, 5, "exact")
    # exact two-sided p: P(T <= 7) * 2 over the 32 equally likely sign patterns of ranks 1..5
    sums = [sum(r for r, keep in zip(range(1, 6), format(i, "05b")) if keep == "1") for i in range(32)]
    assert p == pytest.approx(2 * sum(s <= 7 for s in sums) / 32)
    # normal approximation: mean n(n+1)/4 = 7.5, sd sqrt(5*6*11/24) = sqrt(13.75)
    assert z == pytest.approx((7 - 7.5) / math.sqrt(13.75), abs=1e-9)
    assert p > 0.5
    M, p_sign, n_sign = sign_test(a, b)
    assert (M, n_sign) == (0.5, 5)  # n+ = 3, n- = 2
    assert p_sign == pytest.approx(sum(math.comb(5, j) for j in (3, 4, 5)) / 32)


def test_compare_metrics_all_pairs_bonferroni():
    # rf beats ig on all 10 paired configurations; tds ties rf except one
    base = np.linspace(0.5, 0.9, 10)
    runs = _runs({"rf": list(base + 0.01 * np.arange(1, 11)), "ig": list(base), "tds": list(base + 0.01 * np.arange(1, 11))})
    runs.loc[(runs.metric == "tds") & (runs.top == 3), "micro_f1"] += 0.001
    out = compare_metrics(runs)
    assert len(out) == 3  # 3 metrics -> 3 pairs
    row = out[(out.metric_a == "rf") & (out.metric_b == "ig")].iloc[0]
    assert row["n"] == 10 and row["T"] == 0
    assert row.z == pytest.approx(-27.5 / math.sqrt(10 * 11 * 21 / 24))
    assert row.p_wilcoxon == pytest.approx(2 / 2**10)          # exact two-sided, all differences positive
    assert row.p_wilcoxon_bonferroni == pytest.approx(3 * 2 / 2**10)
    assert row.M == 5 and row.p_sign == pytest.approx(1 / 2**10)
    assert row.p_sign_bonferroni == pytest.approx(3 / 2**10)
    assert bool(row.significant)
    tie = out[(out.metric_a == "rf") & (out.metric_b == "tds")].iloc[0]
    assert not tie.significant and tie.p_wilcoxon_bonferroni == pytest.approx(1.0)


def test_only_paired_configurations_count():
    runs = _runs({"rf": [0.9, 0.8, 0.7], "ig": [0.5, 0.4]})  # ig lacks N=3
    out = compare_metrics(runs)
    assert out.iloc[0].n == 2


def test_missing_columns_is_clear_error():
    with pytest.raises(InputError, match="columns"):
        compare_metrics(pd.DataFrame({"metric": ["rf"], "micro_f1": [1.0]}))


def test_direction_and_signed_z_and_two_sided_sign_test():
    from dkw_core.evaluation.significance import sign_test_two_sided, signed_rank_direction

    a = [11, 8, 13, 14, 5]  # differences 1, -2, 3, 4, -5: R+ = 8, R- = 7
    b = [10, 10, 10, 10, 10]
    r_plus, r_minus, z = signed_rank_direction(a, b)
    assert (r_plus, r_minus) == (8, 7) and z == pytest.approx(0.5 / math.sqrt(13.75))
    assert signed_rank_direction(b, a)[2] == pytest.approx(-z)  # swapping the sides flips the sign
    assert sign_test_two_sided(a, b) == pytest.approx(1.0)  # 3 of 5 positive
    base = np.linspace(0.5, 0.9, 10)
    out = compare_metrics(_runs({"ig": list(base), "rf": list(base + 0.01 * np.arange(1, 11))}))
    row = out.iloc[0]
    assert (row.metric_a, row.metric_b, row.higher) == ("ig", "rf", "rf")
    assert row.z_signed == pytest.approx(-27.5 / math.sqrt(10 * 11 * 21 / 24)) and row.z <= 0
    assert row.p_sign_two_sided == pytest.approx(2 / 2**10) and row.p_sign == pytest.approx(1 / 2**10)
    assert row.p_sign_two_sided_bonferroni == pytest.approx(2 / 2**10)


def test_wilcoxon_p_is_the_same_from_rounded_json_and_full_database_floats():
    """The reference JSON stores F1 percentages with 4 decimals, the database full floats:
    the p-value and its method must not depend on which one it is computed from."""
    from dkw_core.evaluation.significance import RESOLUTION

    rng = np.random.default_rng(5)
    a = 90 + rng.random(6) * 5
    b = a - np.array([0.5, 0.25, 0.5, 1.0, -0.125, 2.0])  # two differences tied at 0.5
    full_a, full_b = a + 1e-9, b - 1e-9  # what the database holds (the JSON is rounded)
    json_a, json_b = np.round(a, RESOLUTION), np.round(b, RESOLUTION)
    from_db = wilcoxon_signed_rank(full_a, full_b)
    from_json = wilcoxon_signed_rank(json_a, json_b)
    assert from_db[4] == from_json[4] == "approx"  # a tie among |d| rules the exact method out
    assert from_db[2] == from_json[2]
    untied = wilcoxon_signed_rank(json_a, json_b - np.array([0, 0, 0.01, 0, 0, 0]))
    assert untied[4] == "exact"


def test_compare_metrics_names_the_wilcoxon_method():
    runs = _runs({"rf": [0.9, 0.8, 0.85, 0.7], "ig": [0.8, 0.81, 0.7, 0.6]})
    table = compare_metrics(runs)
    assert set(table["wilcoxon_method"]) <= {"exact", "approx", "none"}
    noisy = runs.assign(micro_f1=runs["micro_f1"] + 1e-10)
    assert compare_metrics(noisy)["p_wilcoxon"].tolist() == table["p_wilcoxon"].tolist()


def _tie_broken_by_rounding(documents: int = 7532) -> tuple[np.ndarray, np.ndarray]:
    """Correct-document counts of two metrics on 6 configurations whose first two differences
    are tied (−40 and −40) but whose F1 percentages, rounded to 4 decimals, differ by unequal amounts."""
    other = np.array([3000, 3100, 3500, 3600, 3700, 3800])
    steps = np.array([40, 40, 7, 11, 13, 17])
    for start in range(0, documents):
        a = other.copy()
        a[0] = start
        b = a + steps
        f1_a, f1_b = np.round(a * 100 / documents, 4), np.round(b * 100 / documents, 4)
        d = np.round(f1_a - f1_b, 4)
        if d[0] != d[1]:
            return a, b
    raise AssertionError("no count the 4-decimal rounding breaks")


def test_wilcoxon_on_correct_document_counts_keeps_real_ties():
    """A real tie of correct-document differences stays a tie although the F1 percentages (4
    decimals, as the reference JSON holds them) differ by unequal amounts: the method is the
    tie-corrected approximation, and the p-value is scipy's on the integer differences."""
    from scipy import stats

    documents = 7532
    a, b = _tie_broken_by_rounding(documents)
    f1 = {"tf-idf": list(np.round(a * 100 / documents, 4)), "thd": list(np.round(b * 100 / documents, 4))}
    runs = _runs(f1).assign(test_documents=documents)
    row = compare_metrics(runs).iloc[0]
    d = a - b
    expected = stats.wilcoxon(d, zero_method="wilcox", correction=False, method="asymptotic").pvalue
    assert row.wilcoxon_method == "approx"  # |d| tied at 40: the exact distribution does not apply
    assert row.p_wilcoxon == pytest.approx(expected, abs=1e-12)
    assert row.p_wilcoxon != pytest.approx(2 / 2**6)  # what the exact test on the rounded F1 said
    assert row.mean_diff == pytest.approx(float(np.mean(np.array(f1["tf-idf"]) - np.array(f1["thd"]))))
    # no tie: the exact test, as scipy picks it
    untied = _runs({"x": [10.0, 20.0, 30.0, 40.0, 50.0], "y": [11.0, 22.0, 33.0, 44.0, 45.0]}).assign(test_documents=100)
    row = compare_metrics(untied).iloc[0]
    assert row.wilcoxon_method == "exact"
    assert row.p_wilcoxon == pytest.approx(stats.wilcoxon([-1, -2, -3, -4, 5]).pvalue)


def test_test_size_from_stored_predictions_gives_counts():
    """Without a test_documents column the size comes from the run's stored gold labels."""
    documents = 7532
    a, b = _tie_broken_by_rounding(documents)
    runs = _runs({"tf-idf": list(np.round(a * 100 / documents, 4)), "thd": list(np.round(b * 100 / documents, 4))})
    runs["predictions"] = [{"split": "s", "gold": "0" * documents, "pred": ""}] + [None] * (len(runs) - 1)
    assert compare_metrics(runs).iloc[0].wilcoxon_method == "approx"


def test_shipped_reference_20ng_tie_is_the_approximation():
    from dkw_core.evaluation.reference import load_reference
    from dkw_core.evaluation.report import significance_table

    runs = load_reference()
    table = significance_table(runs[runs["dataset"] == "20ng"], "label-aware")
    row = table[(table.metric_a == "tf-idf") & (table.metric_b == "thd")].iloc[0]
    assert row.wilcoxon_method == "approx" and row.p_wilcoxon == pytest.approx(0.0273, abs=1e-4)
