import json

import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.classifiers import score_predictions
from dkw_core.evaluation.protocols import RunConfig, RunResult
from dkw_core.evaluation.reference import load_reference, load_reference_leakchecks
from dkw_core.evaluation.results import ResultsStore
from tests.support.scripts import load_script

WRITER = load_script("reference_writer")  # the writing side: scripts/reference_writer.py


def _save(store, **kw):
    base = dict(dataset="d", corpus_key="d", vectors="v", protocol="label-free", metric="rf", k=30, top=10)
    config = RunConfig(**(base | kw))
    scores = score_predictions(np.array([0, 1, 1, 1]), np.array([0, 1, 1, 0]), ["a", "b"])
    store.save(RunResult(config=config, scores=scores))


def test_reference_file_round_trip_with_provenance(tmp_path, monkeypatch):
    import dkw_core.version

    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    store = ResultsStore(url)
    monkeypatch.setattr(dkw_core.version, "__version__", "0.0.1")
    _save(store, metric="ig")  # an older version's run: stale, never shipped
    monkeypatch.setattr(dkw_core.version, "__version__", "7.7.7")
    _save(store, kind="search", options={"metrics": ["rf"]})
    _save(store, kind="search", metric="tds", k=50, top=5, options={"metrics": ["rf", "tds"]})
    path = WRITER.write_reference(tmp_path / "out" / "d.json", dataset="d", db=url,
                                  command="python scripts/bench_eval.py",
                                  extra={"leakcheck": [{"dataset": "d", "metric": "rf", "k": 90, "top": 10,
                                                        "follow_wrong_label_aware": 90.0, "follow_wrong_label_free": 5.0,
                                                        "chance": 5.0}]})
    data = json.loads(path.read_text())
    assert data["dkw_version"] == "7.7.7" and data["command"] == "python scripts/bench_eval.py"
    assert data["date"] and data["machine"]["cpus"] >= 1
    frame = load_reference(tmp_path / "out")
    assert sorted(frame["metric"]) == ["rf", "tds"]  # the stale ig run is not shipped
    assert set(frame["source"]) == {"reference results of dkw 7.7.7"}
    assert frame["micro_f1"].iloc[0] == 75.0  # percent
    chosen = dict(zip(frame["metric"], frame["chosen_by"]))
    assert chosen["rf"].startswith("K chosen by Algorithm 2") and "over all setups" in chosen["tds"]
    leaks = load_reference_leakchecks(tmp_path / "out")
    assert list(leaks["follow_wrong_label_aware"]) == [90.0]
    assert load_reference(tmp_path / "empty").empty


def test_a_partial_rerun_keeps_the_other_runs_of_the_same_version():
    merge_kept = WRITER.merge_kept

    old = {"dkw_version": "1.0", "date": "d0", "command": "old", "leakcheck": [{"metric": "rf"}],
           "test_labels": {"s": "01"},
           "runs": [{"kind": "search", "protocol": "label-aware", "metric": "rf", "k": 10, "top": 10,
                     "classifier": "svm-ovr", "sample": None, "options": {"metrics": ["rf"], "tops": [10]}},
                    {"kind": "baseline-tfidf", "protocol": "none", "metric": "tf-idf-sublinear", "k": 0, "top": 0,
                     "classifier": "svm-ovr", "sample": None, "options": {}}]}
    new = {"dkw_version": "1.0", "date": "d1", "leakcheck": None, "test_labels": {},
           "runs": [{"kind": "search", "protocol": "label-aware", "metric": "rf", "k": 30, "top": 10,
                     "classifier": "svm-ovr", "sample": None, "options": {"metrics": ["rf"], "tops": [10]},
                     "predictions": "01", "test_split": "s"}]}
    merged = merge_kept(dict(new), old)
    assert len(merged["runs"]) == 2  # the re-run replaces its old record, the baseline is kept
    assert merged["runs"][0]["k"] == 30 and merged["runs"][1]["kept_from"] == "d0"
    assert merged["leakcheck"] == [{"metric": "rf"}] and merged["test_labels"] == {"s": "01"}
    assert merge_kept(dict(new), {**old, "dkw_version": "0.9"})["runs"] == new["runs"]  # never mixed


def test_a_rerun_of_one_protocol_keeps_the_cv_choices_and_leak_checks_of_the_others():
    merge_kept = WRITER.merge_kept

    old = {"dkw_version": "1.0", "date": "d0", "runs": [],
           "cv_choice": {"label-aware": {"metric": "ig", "k": 90}, "label-free-top1": {"metric": "rf", "k": 10}},
           "leakcheck": [{"metric": "ig", "k": 90, "top": 5, "setup": "CV choice under label-aware", "v": 1},
                         {"metric": "rf", "k": 10, "top": 5, "setup": "CV choice under label-free-top1", "v": 1}]}
    new = {"dkw_version": "1.0", "date": "d1", "runs": [],
           "cv_choice": {"label-free-top1": {"metric": "tds", "k": 50}},
           "leakcheck": [{"metric": "rf", "k": 10, "top": 5, "setup": "CV choice under label-free-top1", "v": 2}]}
    merged = merge_kept(dict(new), old)
    assert merged["cv_choice"] == {"label-aware": {"metric": "ig", "k": 90}, "label-free-top1": {"metric": "tds", "k": 50}}
    assert sorted((c["setup"], c["v"]) for c in merged["leakcheck"]) == [
        ("CV choice under label-aware", 1), ("CV choice under label-free-top1", 2)]


def test_predictions_are_packed_in_the_file_and_read_back_exactly():
    from dkw_core.evaluation.paired import encode_labels
    from dkw_core.evaluation.reference import unpack_predictions

    pack_predictions = WRITER.pack_predictions

    rng = np.random.default_rng(0)
    pred = np.repeat(np.arange(20), 377)[:7532]  # a test split in category order, 5 % of it wrong
    wrong = rng.choice(pred.size, pred.size // 20, replace=False)
    pred[wrong] = rng.integers(0, 20, wrong.size)
    plain = encode_labels(pred)
    packed = pack_predictions(plain)
    assert packed.startswith("zlib:") and len(packed) < len(plain) / 1.5
    assert unpack_predictions(packed) == plain and pack_predictions(packed) == packed
    assert unpack_predictions(plain) == plain  # a format-2 file's plain string still reads
    with pytest.raises(InputError, match="not valid packed predictions"):
        unpack_predictions("zlib:not base64!")


def test_p_values_are_written_unrounded_and_both_kinds_of_file_read():
    """The writer keeps p-values unrounded (a McNemar p of 1e-50 is not 0) and says so; an older
    file's p-values were rounded to 4 decimals, which the reader still takes, with a 0 read as < 5e-05."""
    from dkw_core.evaluation.reference import P_VALUES_KEY, rounded_p_decimals

    _clean, merge_kept = WRITER._clean, WRITER.merge_kept

    row = _clean({"diff": -56.01434, "p_mcnemar": 1e-50, "p_holm": 0.123456789})
    assert row == {"diff": -56.0143, "p_mcnemar": 1e-50, "p_holm": 0.123456789}
    assert rounded_p_decimals({P_VALUES_KEY: "unrounded"}) is None
    assert rounded_p_decimals({"format": 3}) == 4  # the shipped files before this field
    new = {"dkw_version": "1", P_VALUES_KEY: "unrounded", "runs": [], "comparisons": {}}
    old = {"dkw_version": "1", "runs": [], "comparisons": {"label-aware": {"pairs": [{"p_mcnemar": 0.0}]}}}
    assert rounded_p_decimals(merge_kept(new, old)) == 4  # tables kept from the older file stay "rounded"


def _document(runs) -> dict:
    """A reference document of synthetic runs, predictions packed as the writer packs them."""
    pack_predictions = WRITER.pack_predictions

    records, labels = [], {}
    for rec in runs.to_dict(orient="records"):
        p = rec.pop("predictions")
        labels[p["split"]] = p["gold"]
        records.append({**rec, "test_split": p["split"], "predictions": pack_predictions(p["pred"])})
    return {"format": 3, "dataset": "toy", "dkw_version": "1", "runs": records, "test_labels": labels,
            "comparisons": {"label-free-top1": {"pairs": [{"p_mcnemar": 0.0}]}}}


def test_refreshed_tables_compare_the_baselines_per_document_with_p_unrounded():
    from dkw_core.evaluation.comparisons import per_document
    from dkw_core.evaluation.reference import P_VALUES_KEY, rounded_p_decimals

    from .runs import make_runs

    runs = make_runs("label-free-top1")
    data = WRITER.refresh_tables(_document(runs))
    assert rounded_p_decimals(data) is None and data[P_VALUES_KEY] == "unrounded"
    pairs = data["comparisons"]["label-free-top1"]["pairs"]
    assert len(pairs) == 15 and "baseline-tfidf" in data["comparisons"]["label-free-top1"]["method"]
    direct = per_document(runs, dataset="toy", protocol="label-free-top1", top=10)
    assert [p["p_mcnemar"] for p in pairs] == list(direct["p_mcnemar"])  # unrounded: equal to the float
    assert set(data["comparisons"]) == {"label-free-top1"}  # the classifier's protocol "none" is no table


def test_the_hubness_of_the_reference_results_reads_back_per_corpus(tmp_path):
    from dkw_core.evaluation.reference import load_reference_hubness

    hub = {"k": 90, "queries": 10, "vocabulary": 5, "skewness": 6.9, "top1_share": 0.2, "never_share": 0.1,
           "max_k_occurrence": 9, "hubs": [{"word": "company", "k_occurrence": 9, "query_share": 0.9}],
           "dataset": "", "vectors": "v", "neighbours": "cosine"}
    (tmp_path / "r8.json").write_text(json.dumps({"dataset": "r8", "dkw_version": "1", "runs": [], "hubness": hub}))
    (tmp_path / "webkb.json").write_text(json.dumps({"dataset": "webkb", "runs": []}))  # none stored
    frame = load_reference_hubness(tmp_path)
    assert list(frame["dataset"]) == ["r8"] and frame["skewness"].iloc[0] == 6.9
    assert frame["source"].iloc[0] == "reference results of dkw 1" and frame["hubs"].iloc[0][0]["word"] == "company"
    assert load_reference_hubness(tmp_path / "none").empty
