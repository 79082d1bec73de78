"""dkw_core/evaluation/verdict.py: the verdict's numbers are the direct computation from the
stored predictions, and it names the protocol's selection, the runner-up and the baseline."""
from __future__ import annotations

import numpy as np
import pytest

from dkw_core.evaluation.paired import bootstrap_f1, compare_all, decode_labels, holm
from dkw_core.evaluation.verdict import verdict

from .runs import GOLD, make_runs


def _pred(runs, metric, top):
    row = runs[(runs["metric"] == metric) & (runs["top"] == top) & (runs["kind"] == "search")].iloc[0]
    return decode_labels(row["predictions"]["pred"])


def test_verdict_equals_a_direct_computation_from_the_predictions():
    runs = make_runs("label-free-top1", choice=("ig", 90, 10))
    v = verdict(runs, dataset="toy", protocol="label-free-top1")
    assert (v.metric, v.k, v.top, v.selection, v.reads_labels) == ("ig", 90, 10, "cv", False)
    best = _pred(runs, "ig", 10)
    assert v.f1 == pytest.approx(100 * np.mean(best == GOLD))
    assert (v.ci_low, v.ci_high) == bootstrap_f1(best == GOLD, resamples=2000, seed=0)
    others = {m: _pred(runs, m, 10) for m in ("rf", "tds", "tf-idf")}
    for kind in ("baseline-tfidf", "baseline-bow"):
        row = runs[(runs["kind"] == kind) & runs["protocol"].isin(["none", "label-free-top1"])].iloc[0]
        others[kind] = decode_labels(row["predictions"]["pred"])
    direct = {m: compare_all(GOLD, {"ig": best, m: p}).iloc[0] for m, p in others.items()}
    p_holm = dict(zip(direct, holm([c["p_mcnemar"] for c in direct.values()])))
    assert {r.method for r in v.versus} == set(others) and v.comparisons == 5
    strongest = max(("rf", "tds", "tf-idf"), key=lambda m: direct[m]["f1_b"])
    for row, name in ((v.runner_up, strongest), (v.baseline, "baseline-tfidf")):
        c = direct[name]
        assert row.method == name
        assert (row.diff, row.ci_low, row.ci_high, row.p_mcnemar) == (c["diff"], c["ci_low"], c["ci_high"], c["p_mcnemar"])
        assert row.p_holm == pytest.approx(p_holm[name])
    text = v.text()
    assert text.startswith(f"label-free-top1, toy: ig {v.f1:.2f} [{v.ci_low:.2f}, {v.ci_high:.2f}]; vs runner-up ")
    assert "vs tf-idf + LinearSVC (classifier) " in text and "after Holm" in text
    assert "reads no gold label" in text and "stratified 3-fold CV on the training split" in text
    assert "seed 0" in text and "2,000 resamples" in text


def test_the_label_aware_verdict_says_it_reads_the_gold_label_and_none_without_a_choice():
    v = verdict(make_runs("label-aware"), dataset="toy", protocol="label-aware")
    assert v.reads_labels and "reads the gold label of every document it weights" in v.headline()
    runs = make_runs("label-free")
    runs = runs[~runs["options"].map(lambda o: len(o.get("metrics", [])) > 1)]
    assert verdict(runs, dataset="toy", protocol="label-free") is None  # no run chose over all setups
    assert verdict(make_runs("label-free"), dataset="toy", protocol="label-aware") is None


def test_without_the_baseline_the_verdict_says_so():
    v = verdict(make_runs("label-free", baselines=False), dataset="toy", protocol="label-free")
    assert v.baseline is None and "no tf-idf + LinearSVC (classifier) run with stored predictions" in v.headline()
