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
    from dkw_core.evaluation.paired import compare, decode_labels, holm

    from .runs import GOLD, make_runs

    runs = make_runs("label-free-top1")
    table = per_document(runs, dataset="toy", protocol="label-free-top1", top=10)
    names = set(table["metric_a"]) | set(table["metric_b"])
    assert names == {"ig", "rf", "tds", "tf-idf", "baseline-tfidf", "baseline-bow"}  # the bow of this protocol only
    assert len(table) == 15 and (table["pairs"] == 15).all()
    row = table[(table["metric_a"] == "ig") & (table["metric_b"] == "baseline-tfidf")].iloc[0]
    pred = {r["metric"] if r["kind"] == "search" else r["kind"]: decode_labels(r["predictions"]["pred"])
            for _, r in runs.iterrows() if r["top"] in (0, 10) and r["protocol"] in ("label-free-top1", "none")}
    direct = compare(GOLD, pred["ig"], pred["baseline-tfidf"])
    assert (row["diff"], row["ci_low"], row["ci_high"], row["p_mcnemar"]) == \
        (direct.diff, direct.ci_low, direct.ci_high, direct.p_mcnemar)
    assert list(table["p_holm"]) == list(holm(table["p_mcnemar"].tolist()))  # Holm over all 15 pairs
    assert row["k_b"] != row["k_b"]  # no K for the classifier (NaN)
    at_5 = per_document(runs, dataset="toy", protocol="label-free-top1", top=5)
    assert "baseline-bow" not in set(at_5["metric_b"]) and "baseline-tfidf" in set(at_5["metric_b"])
    plain = per_document(runs, dataset="toy", protocol="label-free-top1", top=10, baselines=False)
    assert len(plain) == 6
