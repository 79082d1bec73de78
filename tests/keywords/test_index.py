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


def test_damaged_cached_neighbours_are_rebuilt_with_a_notice(tmp_path, monkeypatch, capsys):
    """Zeroed bytes in the cached neighbour matrix are caught by its checksum: one notice line,
    then the same keywords as a fresh build (never silently other keywords)."""
    import json

    from dkw_core.cli import main

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    corpus = tmp_path / "mini"
    for (split, label), text in {("train", "sport"): "The team won the game after the coach changed the player. "
                                                     "A new season of the league starts with a goal by the striker.",
                                 ("train", "space"): "The rocket reached orbit around the planet. A launch of the "
                                                     "mission to the moon with the astronauts and the shuttle.",
                                 ("test", "sport"): "The coach praised the team and the league and the referee.",
                                 ("test", "space"): "The mission put a rocket near the moon and the station."}.items():
        (corpus / split / label).mkdir(parents=True)
        (corpus / split / label / "0.txt").write_text(text)
    argv = ["keywords", "--dataset", str(corpus), "--doc", "mini/test/space/0.txt", "--metric", "rf", "--metric",
            "tf-rf", "--k", "90", "--top", "10", "--json"]
    assert main(argv) == 0
    fresh = json.loads(capsys.readouterr().out)["keywords"]
    (nbr,) = (tmp_path / "data").rglob("nbr_idx.npy")
    raw = bytearray(nbr.read_bytes())
    assert len(raw) > 3200
    raw[128:3128] = bytes(3000)  # a few thousand zeroed bytes after the .npy header
    nbr.write_bytes(bytes(raw))
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["keywords"] == fresh
    notices = [line for line in err.splitlines() if line.startswith("notice:")]
    assert len(notices) == 1 and "damaged" in notices[0] and "rebuilding" in notices[0]
    assert main(argv) == 0  # rebuilt and saved: no notice any more
    assert "notice:" not in capsys.readouterr().err


def test_unchanged_arrays_are_hashed_once_and_a_rewrite_is_verified_again(tmp_path, monkeypatch):
    """verify_index hashes a folder's arrays once; while their size and modification time stay,
    a later load trusts them (a second of every page's first open); a rewrite of the same size
    is hashed again and caught."""
    import os

    import pytest

    from dkw_core.keywords import index

    for name, data in {"a.npy": b"x" * 1000, "b.npy": b"y" * 10}.items():
        (tmp_path / name).write_bytes(data)
    meta = {"checksums": {n: cache.file_checksum(tmp_path / n) for n in ("a.npy", "b.npy")}}
    hashed = []
    real = cache.file_checksum
    monkeypatch.setattr(cache, "file_checksum", lambda p: hashed.append(p.name) or real(p))
    index.verify_index(tmp_path, meta)
    assert sorted(hashed) == ["a.npy", "b.npy"] and (tmp_path / index.VERIFIED).is_file()
    hashed.clear()
    index.verify_index(tmp_path, meta)
    assert hashed == []
    stat = (tmp_path / "a.npy").stat()
    (tmp_path / "a.npy").write_bytes(b"z" * 1000)  # same size, other bytes
    os.utime(tmp_path / "a.npy", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    with pytest.raises(index.DamagedIndex, match="a.npy"):
        index.verify_index(tmp_path, meta)
