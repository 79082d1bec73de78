"""Algorithm 2 and the evaluation grid through joblib's dask backend
(dkw_core/evaluation/search.py ``score_round``, dkw_core/evaluation/experiments.py ``run_methods``):
the same scores as on one machine, computed by the workers."""
from __future__ import annotations

import pytest

from tests.cluster.conftest import SLICE, data_dir, needs_20ng

pytestmark = needs_20ng

GRID = dict(ks=(10, 50), metrics=("rf", "tf-idf", "ig"), tops=(1, 5, 10), sizes=(5, 10, 20))


def _worker_predictors(client) -> int:
    def count():
        from dkw_core.evaluation import predictor

        return len(predictor._PREDICTORS)

    return sum(client.run(count).values())


@pytest.mark.parametrize("protocol", ["label-aware", "label-free"])
def test_algorithm2_on_the_cluster_scores_every_setup_alike(client, twin, protocol):
    from dkw_core.cluster import CorpusRef, ModelRef
    from dkw_core.cluster.scheduler import using
    from dkw_core.evaluation.search import search_model

    single = search_model(twin.single, protocol=protocol, **GRID)
    with data_dir(twin.cluster_dir), using(client):
        spread = search_model(twin.cluster, protocol=protocol, ref=ModelRef(CorpusRef("20ng", SLICE)), **GRID)
    assert _worker_predictors(client) >= 1  # the workers did the cross-validation
    assert [s.scores for s in spread.stages] == [s.scores for s in single.stages]
    assert len(single.stages[0].scores) == 2 * 3 * 3 and spread.best == single.best


def _single_experiment(model):
    from dkw_core.evaluation.experiments import Experiment

    return Experiment(corpus=model.corpus, vectors=model.vectors, model=model, dataset="20ng", sample=SLICE,
                      k_max=90, source="20ng")


def _cluster_experiment(client, twin):
    """The client's view in a Dask session: prepared on the cluster (a cache hit), nothing loaded here."""
    from dkw_core.evaluation.experiments import cluster_experiment

    exp = cluster_experiment("20ng", sample=SLICE, k_max=90)
    assert exp.model is None and not hasattr(exp.corpus, "documents")
    assert exp.corpus.key == twin.single.corpus.key
    return exp


def test_evaluation_grid_on_the_cluster(client, twin, tmp_path):
    from dkw_core.cluster.scheduler import using
    from dkw_core.evaluation.experiments import run_methods

    runs = [dict(metric=m, k=50, top=10, protocol=p) for m in ("rf", "tf-idf") for p in ("label-aware", "label-free")]
    single = run_methods(_single_experiment(twin.single), runs, store=f"sqlite:///{tmp_path / 'a.sqlite'}")
    with data_dir(twin.cluster_dir), using(client):
        spread = run_methods(_cluster_experiment(client, twin), runs, store=f"sqlite:///{tmp_path / 'b.sqlite'}")
    assert [r.summary()["micro_f1"] for r in spread] == [r.summary()["micro_f1"] for r in single]
    assert [r.summary()["macro_f1"] for r in spread] == [r.summary()["macro_f1"] for r in single]
    assert [r.config.protocol for r in spread] == [r["protocol"] for r in runs]
    assert [r.config.config_hash() for r in spread] == [r.config.config_hash() for r in single]


def test_search_run_with_no_model_on_the_client(client, twin, tmp_path):
    from dkw_core.cluster.scheduler import using
    from dkw_core.evaluation.experiments import run_search, search_summary

    grid = dict(ks=(10, 50), metrics=("rf", "tf-idf"), tops=(1, 10), sizes=(5, 10))
    single = search_summary(run_search(_single_experiment(twin.single), protocol="label-free", **grid,
                                       store=f"sqlite:///{tmp_path / 'a.sqlite'}"))
    with data_dir(twin.cluster_dir), using(client):
        spread = search_summary(run_search(_cluster_experiment(client, twin), protocol="label-free", **grid,
                                           store=f"sqlite:///{tmp_path / 'b.sqlite'}"))
    for key in ("micro_f1", "macro_f1", "label", "search_rounds"):
        assert spread[key] == single[key], key
