import numpy as np
import pytest

from dkw_core.errors import InputError, StoreError
from dkw_core.evaluation.classifiers import score_predictions
from dkw_core.evaluation.protocols import RunConfig, RunResult
from dkw_core.evaluation.results import ResultsStore, load_runs


def _config(**kw):
    base = dict(dataset="20ng", corpus_key="20ng-head5", vectors="glove-6B-50d", protocol="label-free",
                metric="rf", k=30, top=10)
    return RunConfig(**(base | kw))


def _result(config, micro_pred=(0, 1, 1, 0)):
    scores = score_predictions(np.array([0, 1, 1, 1]), np.array(micro_pred), ["a", "b"])
    return RunResult(config=config, scores=scores, seconds={"classify": 0.5})


def test_rerun_is_cache_hit(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    store = ResultsStore(url)
    calls = []

    def compute():
        calls.append(1)
        return _result(_config())

    first = store.run(_config(), compute)
    second = ResultsStore(url).run(_config(), compute)
    assert len(calls) == 1
    assert not first.cached and second.cached
    assert second.micro_f1 == pytest.approx(first.micro_f1) == pytest.approx(0.75)
    assert second.scores.confusion == first.scores.confusion
    # a different configuration is not a hit
    store.run(_config(protocol="label-aware"), lambda: _result(_config(protocol="label-aware"), (0, 1, 1, 1)))
    df = load_runs(url, dataset="20ng")
    assert len(df) == 2
    assert sorted(df["micro_f1"].round(2)) == [75.0, 100.0]  # percentages in the reader
    assert set(df["protocol"]) == {"label-free", "label-aware"}
    assert all("label-" in label for label in df["label"])
    assert ResultsStore(url).get(_config()).scores.per_category()[1]["recall"] == pytest.approx(2 / 3)
    assert load_runs(url, dataset="r52").empty


def test_force_recomputes(tmp_path):
    store = ResultsStore(f"sqlite:///{tmp_path / 'r.sqlite'}")
    store.run(_config(), lambda: _result(_config()))
    again = store.run(_config(), lambda: _result(_config(), (0, 1, 1, 1)), force=True)
    assert not again.cached and store.get(_config()).micro_f1 == pytest.approx(1.0)


def test_hash_distinguishes_every_field():
    base = _config()
    for change in (dict(k=50), dict(top=5), dict(metric="ig"), dict(classifier="lda"), dict(sample=5),
                   dict(split="cv"), dict(kind="search"), dict(options={"seed": 1}), dict(vectors="w2v")):
        assert _config(**change).config_hash() != base.config_hash()
    assert _config().config_hash() == base.config_hash()


def test_bad_config_and_bad_database(tmp_path):
    with pytest.raises(InputError):
        _config(protocol="oracle")
    with pytest.raises(InputError):
        _config(classifier="forest")
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError):
        ResultsStore(f"sqlite:///{bad}")


def test_label_names_protocol_split_vectors_k_n_metric_classifier():
    text = _config().label()
    for part in ("label-free", "test split", "glove-6B-50d", "K=30", "N=10", "metric=rf", "linear SVM one-vs-rest"):
        assert part in text


def test_runs_of_another_version_are_never_reused_and_marked_stale(tmp_path, monkeypatch):
    import dkw_core.version

    url = f"sqlite:///{tmp_path / 'v.sqlite'}"
    monkeypatch.setattr(dkw_core.version, "__version__", "0.0.1-old")
    ResultsStore(url).run(_config(), lambda: _result(_config()))
    df = load_runs(url)
    assert list(df["dkw_version"]) == ["0.0.1-old"] and not df["stale"].any()
    assert df["settings_hash"].iloc[0] == _config().settings_hash()
    monkeypatch.setattr(dkw_core.version, "__version__", "0.0.2-new")
    calls = []
    rerun = ResultsStore(url).run(_config(), lambda: calls.append(1) or _result(_config(), (0, 1, 1, 1)))
    assert calls == [1] and not rerun.cached  # the old version's run is not a cache hit
    df = load_runs(url)
    assert sorted(df["stale"]) == [False, True]
    assert list(load_runs(url, include_stale=False)["dkw_version"]) == ["0.0.2-new"]


def test_database_from_before_versions_gains_the_columns(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite"
    store = ResultsStore(f"sqlite:///{path}")
    store.run(_config(), lambda: _result(_config()))
    store.engine.dispose()
    with sqlite3.connect(path) as conn:  # the table as an older dkw created it
        conn.execute("DROP INDEX IF EXISTS ix_evaluation_runs_dkw_version")
        conn.execute("ALTER TABLE evaluation_runs DROP COLUMN dkw_version")
        conn.execute("ALTER TABLE evaluation_runs DROP COLUMN settings_hash")
    df = load_runs(f"sqlite:///{path}")
    assert len(df) == 1 and df["stale"].all() and df["dkw_version"].isna().all()


def test_posterior_settings_enter_the_settings_hash_of_posterior_runs_only(monkeypatch):
    from dataclasses import replace

    from dkw_core.keywords import posterior

    post = replace(_config(), protocol="label-free-posterior")
    before, plain = post.settings_hash(), _config().settings_hash()
    monkeypatch.setitem(posterior.SETTINGS, "classifier", "something else")
    assert post.settings_hash() != before  # a changed posterior is never a cache hit
    assert _config().settings_hash() == plain
