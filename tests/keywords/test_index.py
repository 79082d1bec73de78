"""The cache folder of a prepared corpus is keyed by everything its neighbours depend on."""
from dkw_core import cache
from dkw_core.keywords.index import FORMAT, index_path


def test_every_neighbours_spec_gets_its_own_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    paths = {spec: index_path("20ng-abc", "glove-6b-50d", 90, spec)
             for spec in ("cosine", "csls-k10", "csls-k5", "abtt-d3", "abtt-d1")}
    assert len(set(paths.values())) == len(paths)
    assert index_path("20ng-abc", "glove-6b-50d", 90, "csls") == paths["csls-k10"]  # canonical spec
    # plain cosine keeps the key it had before the spec existed
    assert paths["cosine"] == index_path("20ng-abc", "glove-6b-50d", 90)
    assert paths["cosine"].name == cache.key(FORMAT, "20ng-abc", "glove-6b-50d", 90,
                                             readable="20ng-abc__glove-6b-50d__k90")
