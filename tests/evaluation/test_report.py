import numpy as np

from dkw_core.evaluation.classifiers import score_predictions
from dkw_core.evaluation.protocols import RunConfig, RunResult
from dkw_core.evaluation.report import markdown_report
from dkw_core.evaluation.results import ResultsStore, load_runs


def _save(store, *, kind="method", metric="rf", protocol="label-free", k=30, top=10, correct=3, options=None):
    cfg = RunConfig(dataset="toy", corpus_key="toy", vectors="v", protocol=protocol, metric=metric, k=k, top=top,
                    kind=kind, options=options or {})
    y = np.array([0, 1, 0, 1])
    pred = y.copy()
    pred[correct:] = 1 - pred[correct:]
    store.save(RunResult(config=cfg, scores=score_predictions(y, pred, ["a", "b"])))


def test_report_tables_from_stored_runs(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    store = ResultsStore(url)
    _save(store, kind="baseline-tfidf", metric="tf-idf-sublinear", protocol="none", k=0, top=0, correct=4)
    for top in (1, 5, 10):
        _save(store, metric="rf", protocol="label-aware", top=top, correct=4)
        _save(store, metric="rf", protocol="label-free", top=top, correct=3)
        _save(store, metric="ig", protocol="label-free", top=top, correct=2)
    _save(store, kind="search", metric="ig", protocol="label-free", k=50, top=10, correct=2,
          options={"metrics": ["rf", "ig"], "seed": 0})
    text = markdown_report(load_runs(url))
    assert "## toy (full corpus)" in text
    assert ("| tf-idf + LinearSVC (classifier), sublinear tf-idf of the full text | none |  | linear SVM one-vs-rest "
            "| 100.00 | 100.00 |") in text
    # rf at N=10: label-aware 4/4 correct = 100, label-free 3/4 = 75
    assert "| rf | 10 | fixed K | 30 | 100.00 | 100.00 | 30 | 75.00 |" in text
    assert "### Algorithm 2 over all setups" in text and "| label-free | 50 | ig | 10 | 50.00 |" in text
    assert "Significance between metrics, label-free" in text


def test_empty_store_says_so(tmp_path):
    assert "No evaluation runs" in markdown_report(load_runs(f"sqlite:///{tmp_path / 'e.sqlite'}"))


def test_report_leaves_out_stale_runs_and_says_how_parameters_were_chosen(tmp_path, monkeypatch):
    import dkw_core.version

    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    store = ResultsStore(url)
    monkeypatch.setattr(dkw_core.version, "__version__", "0.0.1")
    _save(store, metric="tds", protocol="label-free", top=10, correct=4)
    monkeypatch.setattr(dkw_core.version, "__version__", "0.0.2")
    _save(store, kind="search", metric="ig", protocol="label-free", k=50, top=10, correct=2,
          options={"metrics": ["rf", "ig"], "seed": 0})
    _save(store, kind="search", metric="rf", protocol="label-free", k=10, top=10, correct=3,
          options={"metrics": ["rf"], "seed": 0})
    text = markdown_report(load_runs(url))
    assert "1 stored run(s) of another dkw version left out" in text and "| tds |" not in text
    assert "dkw 0.0.2." in text
    assert "K, metric and N chosen by Algorithm 2 on the training split alone" in text
    assert "metric and N are fixed per row" in text


def test_runs_of_another_neighbours_spec_are_reported_apart(tmp_path):
    url = f"sqlite:///{tmp_path / 'n.sqlite'}"
    store = ResultsStore(url)
    _save(store, metric="rf", protocol="label-free", correct=3)
    _save(store, metric="rf", protocol="label-free", correct=2, options={"neighbours": "csls-k10"})
    runs = load_runs(url)
    assert len(runs) == 2 and runs["config_hash"].nunique() == 2
    text = markdown_report(runs)
    assert "vectors: v, v (csls-k10)" in text
    assert "| 30 | 75.00 | 73.33 | linear SVM one-vs-rest | v |" in text
    assert "| 30 | 50.00 | 50.00 | linear SVM one-vs-rest | v (csls-k10) |" in text


def test_report_and_app_name_a_run_variant_alike():
    from dkw_app.stored_runs import run_variant as app_variant
    from dkw_core.evaluation.protocols import STANDARD, run_variant
    from dkw_core.evaluation.report import _variant

    opts = {"decoding": "hypotheses", "train_protocol": "label-aware", "neighbours": "csls-k10", "k_max": 90}
    assert app_variant is run_variant
    assert run_variant(opts) == "decoding hypotheses, training documents label-aware, neighbours csls-k10"
    assert _variant({"options": opts}) == "decoding hypotheses, training documents label-aware"
    assert run_variant({"k_max": 90}) == STANDARD and run_variant(None) == STANDARD
    assert _variant({"options": {"neighbours": "abtt-d3"}}) == ""


def test_report_names_the_two_tfidfs_apart_and_opens_with_the_verdict():
    from dkw_core.evaluation.verdict import verdict

    from .runs import make_runs

    runs = make_runs("label-free-top1")
    text = markdown_report(runs.assign(stale=False))
    assert "### Verdict per protocol" in text
    assert verdict(runs, dataset="toy", protocol="label-free-top1").text() in text
    assert "| tf-idf + LinearSVC (classifier), sublinear tf-idf of the full text | none |" in text
    assert "| ig | tf-idf + LinearSVC (classifier) |" in text and "| ig | tf-idf (keyword metric) |" in text
    assert "| tf-idf | " not in text
