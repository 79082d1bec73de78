"""One p-value whatever it is computed from: the results database, the shipped reference JSON
(F1 rounded to 4 decimals) or the report printed from the database."""
import numpy as np
import pytest

from dkw_core.evaluation.classifiers import Scores
from dkw_core.evaluation.protocols import RunConfig, RunResult


def _store_runs(db):
    from dkw_core.evaluation.results import ResultsStore

    store = ResultsStore(db)
    rng = np.random.default_rng(11)
    base = 0.8 + rng.random(6) * 0.1
    # differences that are exactly tied once rounded, but not as the floats the database holds
    shifts = {"rf": np.zeros(6), "ig": np.array([0.005, 0.005 + 1e-12, -0.002, 0.01, 0.003, 0.004]),
              "tds": np.array([0.001, -0.003, 0.002, 0.0021, 0.0005, -0.001])}
    for metric, shift in shifts.items():
        for top, value in zip((1, 2, 5, 10, 20, 50), base - shift):
            grid = {"ks": [10, 30], "metrics": [metric], "tops": [top], "seed": 0, "k_max": 30,
                    "selection": "cv", "folds": 5, "max_per_category": None}
            key = RunConfig(dataset="toy", corpus_key="toy-key", vectors="v", protocol="label-free", metric="*",
                            k=0, top=0, kind="search", options=grid)
            config = RunConfig(dataset="toy", corpus_key="toy-key", vectors="v", protocol="label-free",
                               metric=metric, k=10, top=top, kind="search", options=grid)
            store.save(RunResult(config=config, key=key, scores=Scores(micro_f1=float(value),
                                                                       macro_f1=float(value), categories=["a", "b"])))


def test_database_reference_json_and_report_give_the_same_wilcoxon_p(tmp_path):
    from dkw_core.evaluation.reference import load_reference
    from dkw_core.evaluation.report import _fmt, markdown_report, significance_table
    from dkw_core.evaluation.results import load_runs
    from tests.support.scripts import load_script

    db = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    _store_runs(db)
    from_db = significance_table(load_runs(db, include_stale=False), "label-free")
    load_script("reference_writer").write_reference(tmp_path / "ref" / "toy.json", dataset="toy", db=db, command="test")
    from_json = significance_table(load_reference(tmp_path / "ref"), "label-free")
    assert len(from_db) == 3
    key = ["metric_a", "metric_b"]
    db_p = from_db.set_index(key)[["p_wilcoxon", "wilcoxon_method"]]
    json_p = from_json.set_index(key)[["p_wilcoxon", "wilcoxon_method"]]
    assert db_p.equals(json_p)
    assert (from_db["wilcoxon_method"] == "approx").any()  # the tie decided the method the same way
    report = markdown_report(load_runs(db))
    for p in from_db["p_wilcoxon_bonferroni"]:
        assert _fmt(float(p)) in report
    assert from_db["p_wilcoxon"].tolist() == pytest.approx(from_json["p_wilcoxon"].tolist(), abs=0)
