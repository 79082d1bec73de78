"""dkw_core/evaluation/comparisons.py: the choice of each selection and its seed stability."""
from __future__ import annotations

import statistics

import pandas as pd

from dkw_core.evaluation.comparisons import choices, seed_stability


def search_run(protocol, selection, seed, metric, k, top, micro, *, cap=50):
    options = {"metrics": ["rf", "ig", "tds"], "seed": seed}
    if selection == "cv":
        options.update(selection="cv", folds=3, max_per_category=cap)
    return {"dataset": "r8", "kind": "search", "protocol": protocol, "metric": metric, "k": k, "top": top,
            "micro_f1": micro, "macro_f1": micro - 3, "classifier": "svm-ovr", "vectors": "v", "options": options}


def test_seed_stability_equals_a_direct_computation_and_counts_the_setups():
    runs = pd.DataFrame([
        search_run("label-free-top1", "algorithm2", 0, "ig", 30, 20, 96.89),
        search_run("label-free-top1", "algorithm2", 1, "ig", 30, 20, 97.44),
        search_run("label-free-top1", "algorithm2", 2, "tf-dcf", 90, 5, 92.37),
        search_run("label-free-top1", "cv", 0, "ig", 50, 10, 97.17),
        search_run("label-free-top1", "cv", 1, "ig", 50, 10, 96.93),
        search_run("label-free-top1", "cv", 0, "rf", 90, 10, 95.00, cap=200),  # another cap: its own group
        search_run("label-aware", "cv", 0, "ig", 90, 5, 99.68),  # one seed: no stability row
    ])
    table = seed_stability(choices(runs, dataset="r8"))
    assert list(zip(table["selection"], table["seeds"])) == [("algorithm2", "0, 1, 2"), ("cv", "0, 1")]
    a2 = table.iloc[0]
    assert abs(a2["mean"] - statistics.mean([96.89, 97.44, 92.37])) < 1e-9
    assert abs(a2["sd"] - statistics.stdev([96.89, 97.44, 92.37])) < 1e-9
    assert a2["min"] == 92.37 and a2["max"] == 97.44
    assert a2["chosen"] == "ig K 30 N 20 (2); tf-dcf K 90 N 5 (1)"
    cv = table.iloc[1]
    assert cv["folds"] == 3 and cv["max_per_category"] == 50 and cv["chosen"] == "ig K 50 N 10 (2)"


def test_seed_stability_of_nothing_is_an_empty_table():
    assert seed_stability([]).empty
    assert seed_stability(choices(pd.DataFrame([search_run("label-aware", "cv", 0, "ig", 90, 5, 99.0)]),
                                  dataset="r8")).empty


def test_the_headline_choice_is_the_cv_whose_curves_are_shipped_then_the_smallest_seed():
    from dkw_core.evaluation.comparisons import main_choices

    whole = search_run("label-free-top1", "cv", 0, "rf", 90, 50, 97.35, cap=None)
    capped = search_run("label-free-top1", "cv", 0, "ig", 50, 10, 97.17)
    capped_seed1 = search_run("label-free-top1", "cv", 1, "ig", 70, 10, 96.0)
    curve = {**capped, "metric": "ig", "top": 5, "options": {**capped["options"], "metrics": ["ig"]}}
    a2 = [search_run("label-free-top1", "algorithm2", s, "ig", 30, 20, 96.0 + s) for s in (2, 1)]
    runs = pd.DataFrame([whole, capped_seed1, capped, curve, *a2])
    main = main_choices(choices(runs, dataset="r8"), runs)
    assert list(zip(main["selection"], main["metric"], main["seed"])) == [("algorithm2", "ig", 1), ("cv", "ig", 0)]
    assert main.iloc[1]["max_per_category"] == 50
    no_curves = runs.drop(index=3)  # without the curve run: the smallest seed, whatever its configuration
    main = main_choices(choices(no_curves, dataset="r8"), no_curves)
    assert main.iloc[1]["seed"] == 0 and len(main) == 2


def test_format_p_underflow_old_rounding_and_ties():
    from dkw_core.evaluation.comparisons import format_difference, format_p

    assert format_p(0.0) == "< 1e-300"  # underflowed: never "0.00e+0"
    assert format_p(0.0, rounded_to=4) == "< 5e-05"  # an older reference file rounded p to 4 decimals
    assert (format_p(0.0273), format_p(1.23e-45), format_p(float("nan")), format_p(None)) == ("0.027", "1.2e-45", "", "")
    assert format_difference(-0.0) == format_difference(-0.001) == "0" and format_difference(-1.234) == "-1.23"


def test_the_baselines_are_compared_per_document_like_the_metrics():
    from dkw_core.evaluation.comparisons import per_document
    from dkw_core.evaluation.paired import compare_all, decode_labels, holm

    from .runs import GOLD, make_runs

    runs = make_runs("label-free-top1")
    table = per_document(runs, dataset="toy", protocol="label-free-top1", top=10)
    names = set(table["metric_a"]) | set(table["metric_b"])
    assert names == {"ig", "rf", "tds", "tf-idf", "baseline-tfidf", "baseline-bow"}  # the bow of this protocol only
    assert len(table) == 15 and (table["pairs"] == 15).all()
    row = table[(table["metric_a"] == "ig") & (table["metric_b"] == "baseline-tfidf")].iloc[0]
    pred = {r["metric"] if r["kind"] == "search" else r["kind"]: decode_labels(r["predictions"]["pred"])
            for _, r in runs.iterrows() if r["top"] in (0, 10) and r["protocol"] in ("label-free-top1", "none")}
    direct = compare_all(GOLD, {"ig": pred["ig"], "baseline-tfidf": pred["baseline-tfidf"]}).iloc[0]
    assert (row["diff"], row["ci_low"], row["ci_high"], row["p_mcnemar"]) == \
        (direct["diff"], direct["ci_low"], direct["ci_high"], direct["p_mcnemar"])
    assert list(table["p_holm"]) == list(holm(table["p_mcnemar"].tolist()))  # Holm over all 15 pairs
    assert row["k_b"] != row["k_b"]  # no K for the classifier (NaN)
    at_5 = per_document(runs, dataset="toy", protocol="label-free-top1", top=5)
    assert "baseline-bow" not in set(at_5["metric_b"]) and "baseline-tfidf" in set(at_5["metric_b"])
    plain = per_document(runs, dataset="toy", protocol="label-free-top1", top=10, baselines=False)
    assert len(plain) == 6


def _predicted(gold, right, rng):
    """Predictions right on ``right`` documents of a shuffled order."""
    pred = gold.copy()
    wrong = rng.permutation(len(gold))[: len(gold) - right]
    pred[wrong] = (gold[wrong] + 1) % 4
    return pred


def _overview_runs(*, baseline_predictions: bool):
    import numpy as np

    from dkw_core.evaluation.paired import encode_labels

    rng = np.random.default_rng(1)
    gold = rng.integers(0, 4, 200)
    runs = []
    for protocol, selection, right in (("label-aware", "cv", 196), ("label-free-top1", "cv", 170),
                                       ("label-free-top1", "algorithm2", 160)):
        run = search_run(protocol, selection, 0, "ig", 50, 10, right / 2)
        run["predictions"] = {"split": "s", "gold": encode_labels(gold), "pred": encode_labels(_predicted(gold, right, rng))}
        runs.append(run)
    base = {"dataset": "r8", "kind": "baseline-tfidf", "protocol": "none", "metric": "tf-idf-sublinear", "k": 0,
            "top": 0, "micro_f1": 87.5, "macro_f1": 86.0, "classifier": "svm-ovr", "vectors": "none", "options": {}}
    if baseline_predictions:
        base["predictions"] = {"split": "s", "gold": encode_labels(gold), "pred": encode_labels(_predicted(gold, 175, rng))}
    return pd.DataFrame([*runs, base]), gold


def test_overview_gives_each_choice_its_bootstrap_interval_the_gold_label_flag_and_the_baseline_difference():
    import numpy as np

    from dkw_core.evaluation.comparisons import overview
    from dkw_core.evaluation.paired import bootstrap_diff, bootstrap_f1, decode_labels

    runs, gold = _overview_runs(baseline_predictions=False)
    table = overview(runs, dataset="r8", classifier="svm-ovr")
    assert list(zip(table["protocol"], table["selection"])) == [
        ("label-aware", "cv"), ("label-free-top1", "algorithm2"), ("label-free-top1", "cv")]  # PROTOCOLS order
    assert list(table["reads_labels"]) == [True, False, False]  # from PROTOCOL_INFO
    for _, row in table.iterrows():
        run = runs[(runs["protocol"] == row["protocol"]) & (runs["micro_f1"] == row["micro_f1"])].iloc[0]
        correct = decode_labels(run["predictions"]["pred"]) == gold
        assert (row["ci_low"], row["ci_high"]) == bootstrap_f1(correct, resamples=1000, seed=0)
        assert row["diff"] == row["micro_f1"] - 87.5 and not row["paired"]  # no baseline predictions: shifted CI
        assert row["diff_low"] == row["ci_low"] - 87.5
    paired = overview(_overview_runs(baseline_predictions=True)[0], dataset="r8")
    runs, gold = _overview_runs(baseline_predictions=True)
    base = decode_labels(runs[runs["kind"] == "baseline-tfidf"].iloc[0]["predictions"]["pred"]) == gold
    aware = decode_labels(runs.iloc[0]["predictions"]["pred"]) == gold
    row = paired.iloc[0]
    assert row["paired"] and (row["diff_low"], row["diff_high"]) == bootstrap_diff(aware, base, resamples=1000, seed=0)
    assert np.isclose(row["diff"], 98.0 - 87.5)


def _pairs(rows):
    columns = ["metric_a", "metric_b", "f1_a", "f1_b", "diff", "ci_low", "ci_high", "p_holm", "significant"]
    return pd.DataFrame(rows, columns=columns)


def test_best_method_never_is_the_baseline_and_a_tie_is_named():
    from dkw_core.evaluation.comparisons import against, best_method, tied_best

    pairs = _pairs([
        ("rf", "ig", 85.0, 85.0, 0.0, -0.3, 0.3, 1.0, False),
        ("rf", "baseline-tfidf", 85.0, 86.2, -1.2, -1.9, -0.5, 0.002, True),
        ("ig", "baseline-tfidf", 85.0, 86.2, -1.2, -1.9, -0.5, 0.002, True),
        ("tf-idf", "rf", 38.0, 85.0, -47.0, -48.0, -46.0, 0.0, True),
        ("tf-idf", "ig", 38.0, 85.0, -47.0, -48.0, -46.0, 0.0, True),
        ("tf-idf", "baseline-tfidf", 38.0, 86.2, -48.2, -49.0, -47.0, 0.0, True),
    ])
    assert best_method(pairs) == "ig" and tied_best(pairs) == ["ig", "rf"]  # the classifier is higher, never "best"
    vs = against(pairs, "baseline-tfidf")
    assert list(vs["method"]) == ["rf", "ig", "tf-idf"]
    assert list(vs["diff"]) == [-1.2, -1.2, -48.2] and list(vs["ci_high"]) == [-0.5, -0.5, -47.0]
    vs = against(pairs, "ig")  # ig on the b side of rf and tf-idf, on the a side of the baseline
    row = vs[vs["method"] == "baseline-tfidf"].iloc[0]
    assert (row["diff"], row["ci_low"], row["ci_high"], row["f1"]) == (1.2, 0.5, 1.9, 86.2)
    assert list(vs["method"]) == ["baseline-tfidf", "rf", "tf-idf"]
