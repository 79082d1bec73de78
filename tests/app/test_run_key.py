"""The app and the CLI build one run configuration, so one evaluation is stored once."""
from dkw_app import stored_runs
from dkw_core.evaluation import experiments, results


def test_app_and_cli_store_the_same_evaluation_under_one_key(topic_corpus, topic_vectors, tmp_path, monkeypatch):
    from dkw_core.evaluation.experiments import Experiment, method_config, run_method
    from dkw_core.evaluation.results import ResultsStore, load_runs
    from dkw_core.keywords import KeywordModel

    db = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    monkeypatch.setenv("DKW_RESULTS_DB", db)
    store = ResultsStore(db)
    monkeypatch.setattr(results, "ResultsStore", lambda url=None: store)
    model = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=3, cache=False)
    exp = Experiment(corpus=topic_corpus, vectors=topic_vectors, model=model, dataset="topics", sample=None, k_max=3)
    cli = run_method(exp, metric="rf", k=2, top=2, protocol="label-free", store=store)
    assert not cli.cached
    app = stored_runs.run_evaluation(model, dataset="topics", sample=None, protocol="label-free", metrics=["rf"], k=2,
                                 top=2)[0]
    assert app.cached  # the app found the CLI's run: same configuration, same key
    assert method_config(exp, metric="rf", k=2, top=2, protocol="label-free").config_hash() == \
        experiments.method_config(experiments.model_experiment(model, dataset="topics", sample=None),
                                          metric="rf", k=2, top=2, protocol="label-free").config_hash()
    runs = load_runs(db)
    assert len(runs) == 1 and runs["options"].iloc[0]["k_max"] == 3
    assert runs["predictions"].iloc[0]["pred"]
