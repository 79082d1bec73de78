"""End to end on a real slice: 20 Newsgroups, first 5 documents per category and split."""
import json
from dataclasses import replace

import numpy as np
import pytest

from dkw_core.cli import main
from dkw_core.config import archives_dir
from dkw_core.errors import InputError

ARCHIVES = archives_dir()  # absolute, DKW_ARCHIVES or data/archives
pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not (ARCHIVES / "20news-bydate.tar.gz").is_file(), reason=f"{ARCHIVES} (DKW_ARCHIVES) lacks 20ng"),
]


@pytest.fixture(scope="module")
def exp():
    from dkw_core.evaluation.experiments import load_experiment

    return load_experiment("20ng", sample=5, k_max=30)


def _shuffled_test_labels(corpus):
    from dkw_core.corpora import Corpus

    test = [d for d in corpus.documents if d.split == "test"]
    perm = np.random.default_rng(7).permutation([d.label for d in test])
    assert (perm != np.array([d.label for d in test])).any()
    relabel = {d.id: lab for d, lab in zip(test, perm)}
    docs = [replace(d, label=relabel.get(d.id, d.label)) for d in corpus.documents]
    return Corpus(corpus.name, docs, categories=corpus.categories, key=corpus.key + "-shuffled", sort=False)


def test_protocol_honesty_on_real_slice(exp):
    from dkw_core.evaluation.protocols import evaluate_model
    from dkw_core.keywords import KeywordModel

    shuffled = KeywordModel.prepare(_shuffled_test_labels(exp.corpus), exp.vectors, k_max=30, cache=False)
    kw = dict(metric="rf", k=30, top=10)
    free = exp.model.rank("test", protocol="label-free", **kw)
    assert np.array_equal(free, shuffled.rank("test", protocol="label-free", **kw))
    _, _, pred = evaluate_model(exp.model, protocol="label-free", **kw)
    _, _, pred_shuffled = evaluate_model(shuffled, protocol="label-free", **kw)
    assert np.array_equal(pred, pred_shuffled)  # label-free predictions never saw the test labels
    aware = exp.model.rank("test", protocol="label-aware", **kw)
    assert not np.array_equal(aware, shuffled.rank("test", protocol="label-aware", **kw))
    _, _, pred_aware_shuffled = evaluate_model(shuffled, protocol="label-aware", **kw)
    # label-aware predictions follow the labels written into the keywords
    assert (pred_aware_shuffled == shuffled.labels("test")).mean() > (pred == shuffled.labels("test")).mean()


def test_cli_evaluate_json_and_cache_hit(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    argv = ["evaluate", "--dataset", "20ng", "--sample", "5", "--k-max", "30", "--metric", "tf-rf", "--k", "10",
            "--top", "5", "--protocol", "label-free", "--json", "--db", db]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    for key in ("micro_f1", "macro_f1", "protocol", "dataset", "metric", "k", "top", "classifier"):
        assert key in first
    assert first["protocol"] == "label-free" and first["dataset"] == "20ng" and first["k"] == 10
    assert 0 <= first["macro_f1"] <= 100 and 0 < first["micro_f1"] <= 100 and first["cached"] is False
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["cached"] is True and second["micro_f1"] == first["micro_f1"]

    assert main(["report", "--db", db]) == 0
    report = capsys.readouterr().out
    assert "## 20ng" in report and "tf-rf" in report and "label-free" in report


def test_cli_errors_are_one_line(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    code = main(["evaluate", "--dataset", "20ng", "--sample", "5", "--k-max", "30", "--metric", "nope", "--k", "10",
                 "--top", "5", "--protocol", "label-free", "--db", db])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error:") and "nope" in err and "Traceback" not in err
    code = main(["search", "--dataset", "20ng", "--sample", "5", "--k-max", "30", "--ks", "10,50", "--db", db])
    assert code == 2 and "(--k-max), got 50" in capsys.readouterr().err


def test_search_and_baselines_on_real_slice(exp, tmp_path):
    from dkw_core.evaluation.experiments import run_bow, run_search, run_tfidf, search_summary

    db = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    res = run_search(exp, protocol="label-free", ks=[10, 30], metrics=["rf", "tf-idf", "chi2"], tops=[5, 10],
                     store=db)
    s = search_summary(res)
    assert s["metric"] in {"rf", "tf-idf"} and s["k"] in {10, 30} and s["top"] in {5, 10}  # chi2 excluded
    assert s["search_rounds"][0]["max_doc_count"] == 5 and s["search_rounds"][0]["ratio"] == 2
    again = run_search(exp, protocol="label-free", ks=[10, 30], metrics=["rf", "tf-idf", "chi2"], tops=[5, 10], store=db)
    assert again.cached and again.config.metric == s["metric"]
    tfidf = run_tfidf(exp, store=db)
    assert 0 < tfidf.micro_f1 <= 1
    bow = run_bow(exp, metric="tf-rf", top=10, protocol="label-free", store=db)
    assert bow.config.kind == "baseline-bow" and 0 <= bow.micro_f1 <= 1
    # with the metric fixed, Algorithm 2 chooses K for chi2 too (the paper's per-metric figures)
    only = run_search(exp, protocol="label-free", ks=[10, 30], metrics=["chi2"], tops=[5], sizes=[5], store=db)
    assert only.config.metric == "chi2" and only.config.k in {10, 30}
    with pytest.raises(InputError):
        run_search(exp, protocol="label-free", ks=[10, 999], metrics=["rf"], tops=[5], store=db)


def test_cli_leakcheck_json_on_real_slice(tmp_path, capsys):
    code = main(["leakcheck", "--dataset", "20ng", "--sample", "5", "--k-max", "30", "--metric", "rf", "--k", "30",
                 "--top", "10", "--json", "--db", f"sqlite:///{tmp_path / 'r.sqlite'}"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert {"dataset", "metric", "k", "top", "follow_wrong_label_aware", "follow_wrong_label_free", "chance"} <= set(out)
    assert (out["dataset"], out["metric"], out["k"], out["top"], out["chance"]) == ("20ng", "rf", 30, 10, 5.0)
    # the paper's protocol follows a label written into the document far more often than label-free does
    assert out["follow_wrong_label_aware"] > out["follow_wrong_label_free"] + 10


def test_cli_leakcheck_of_the_deployable_default_on_real_slice(tmp_path, capsys):
    code = main(["leakcheck", "--dataset", "20ng", "--sample", "5", "--k-max", "30", "--metric", "ig", "--k", "30",
                 "--top", "10", "--deployable", "label-free-top1", "--json",
                 "--db", f"sqlite:///{tmp_path / 'r.sqlite'}"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["protocol"] == "label-free-top1" and "label-aware against label-free-top1" in out["label"]
    assert out["follow_wrong_label_aware"] > out["follow_wrong_label_free"] + 10 and "no leak" in out["verdict"]


def test_runs_under_another_neighbours_spec_never_share_a_stored_result(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    base = ["evaluate", "--dataset", "20ng", "--sample", "5", "--k-max", "30", "--metric", "rf", "--k", "10",
            "--top", "5", "--protocol", "label-free", "--json", "--db", db]
    results = {}
    for spec in ("cosine", "csls-k10", "abtt-d3"):
        assert main([*base, "--neighbours", spec]) == 0
        results[spec] = json.loads(capsys.readouterr().out)
    assert not any(r["cached"] for r in results.values())  # three separate runs
    assert {r["neighbours"] for r in results.values()} == {"cosine", "csls-k10", "abtt-d3"}
    assert "neighbours=csls-k10" in results["csls-k10"]["label"] and "neighbours" not in results["cosine"]["label"]
    assert main([*base, "--neighbours", "csls"]) == 0  # the canonical spec finds the stored run
    assert json.loads(capsys.readouterr().out)["cached"] is True
