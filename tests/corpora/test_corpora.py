"""Tests for dkw_core/corpora/: built-in corpus counts (marked ``corpus``), ids, samples,
user folder / CSV corpora, bad files, missing archives and the 7 Sectors layout."""
from __future__ import annotations

import collections
import io
import tarfile
from pathlib import Path

import pytest

from dkw_core import corpora
from dkw_core.config import archives_dir
from dkw_core.corpora import Corpus, Document, dataset_info, hash_split, list_datasets, load_corpus
from dkw_core.errors import CorpusError, DkwError

SHARED = archives_dir()  # absolute, DKW_ARCHIVES or data/archives


@pytest.fixture(autouse=True)
def _tmp_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DKW_DOWNLOAD", "0")


def _needs(archive: str):
    return pytest.mark.skipif(not (SHARED / archive).is_file(),
                              reason=f"{SHARED} (DKW_ARCHIVES) lacks {archive}")


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def _page(title: str, body: str) -> bytes:
    return (f"MIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n"
            f"<html><head><title>{title}</title></head><body><p>{body} <a href='x.html'>link</a>"
            f"<img src='y.gif' alt='pic'></p></body></html>").encode()


# --------------------------------------------------------------------------- real corpora

@pytest.mark.corpus
@_needs("20news-bydate.tar.gz")
def test_20ng_counts_ids_and_head(monkeypatch):
    monkeypatch.setenv("DKW_ARCHIVES", str(SHARED))
    corpus = load_corpus("20ng")
    assert (len(corpus.train), len(corpus.test), len(corpus.categories)) == (11314, 7532, 20)
    by_group = collections.Counter((d.split, d.label) for d in corpus)
    assert by_group[("train", "alt.atheism")] == 480 and by_group[("test", "comp.graphics")] == 389
    ids = [d.id for d in corpus]
    assert len(set(ids)) == len(ids)
    doc = corpus.get("20ng/test/comp.graphics/38758")
    assert doc.label == "comp.graphics" and doc.split == "test" and doc.text.startswith("From:")
    # stable order: train before test, categories sorted, numeric ids ascending
    assert corpus.documents[0].split == "train" and corpus.documents[-1].split == "test"
    first = [int(d.id.rsplit("/", 1)[1]) for d in corpus.train if d.label == "alt.atheism"]
    assert first == sorted(first)
    sample = corpus.head(1, include=["20ng/test/comp.graphics/38758"])
    assert "20ng/test/comp.graphics/38758" in sample
    first_graphics_test = next(d.id for d in corpus.test if d.label == "comp.graphics")
    assert len(sample) == 2 * 20 + (first_graphics_test != "20ng/test/comp.graphics/38758")
    last_space = [d.id for d in corpus.train if d.label == "sci.space"][-1]  # not a first doc
    with_extra = corpus.head(1, include=[last_space])
    assert len(with_extra) == 41
    # an included document outside the head changes the sample, so it changes the key;
    # one already in the head does not
    assert with_extra.key.startswith("20ng-head1-") and corpus.key == "20ng"
    assert corpus.head(1).key == "20ng-head1"
    assert first_graphics_test == "20ng/test/comp.graphics/38758"  # the paper's "first document"
    assert sample.key == "20ng-head1"
    # a second load comes from the cache and is identical
    again = load_corpus("20ng")
    assert [d.id for d in again] == ids and again.get(doc.id) == doc


@pytest.mark.corpus
@_needs("reuters21578.tar.gz")
def test_reuters_r52_r8_counts(monkeypatch):
    monkeypatch.setenv("DKW_ARCHIVES", str(SHARED))
    r52 = load_corpus("r52")
    assert (len(r52.train), len(r52.test), len(r52.categories)) == (6532, 2568, 52)
    r8 = load_corpus("r8")
    assert (len(r8.train), len(r8.test)) == (5485, 2189)
    assert r8.categories == sorted(corpora.R8_TOPICS)
    ids = [d.id for d in r52]
    assert len(set(ids)) == len(ids)
    assert all(d.id.startswith(f"r52/{d.split}/{d.label}/") for d in r52)
    # TITLE + BODY, entities decoded, no SGML left
    assert not any("<BODY>" in d.text or "&lt;" in d.text for d in r52)
    assert sum(1 for d in r52 if not d.text) == 0


@pytest.mark.corpus
@_needs("webkb-data.tar.gz")
def test_webkb_counts_and_split(monkeypatch):
    monkeypatch.setenv("DKW_ARCHIVES", str(SHARED))
    webkb = load_corpus("webkb")
    assert len(webkb) == 8282 and len(webkb.categories) == 7
    counts = collections.Counter(d.label for d in webkb)
    assert counts["student"] == 1641 and counts["staff"] == 137
    for label, n in counts.items():  # stratified 2/3 - 1/3
        n_test = sum(1 for d in webkb.test if d.label == label)
        assert abs(n_test - n / 3) <= 1
    ids = [d.id for d in webkb]
    assert len(set(ids)) == len(ids) and all(i.startswith("webkb/all/") for i in ids)
    assert not any("\r" in i for i in ids)
    assert not any(d.text.startswith("MIME-Version") for d in webkb)
    info = dataset_info("webkb")
    assert (info["train"], info["test"]) == (len(webkb.train), len(webkb.test))
    webkb4 = load_corpus("webkb4")
    assert webkb4.categories == ["course", "faculty", "project", "student"]
    split_of = {d.id.split("/", 1)[1]: d.split for d in webkb}
    assert all(split_of[d.id.split("/", 1)[1]] == d.split for d in webkb4)
    assert len(webkb4) == sum(counts[c] for c in webkb4.categories)


# --------------------------------------------------------------------------- registry / errors

def test_dataset_info_shape(tmp_path):
    names = list_datasets()
    assert {"20ng", "r52", "r8", "webkb", "webkb4", "7sectors"} <= set(names)
    for name in names:
        info = dataset_info(name, archives=tmp_path)
        assert {"name", "train", "test", "categories", "available", "archive"} <= set(info)
        assert info["name"] == name and info["available"] is False
        assert info["archive"].endswith(".tar.gz")
    assert dataset_info("r52", archives=tmp_path)["categories"] == 52
    with pytest.raises(CorpusError, match="unknown dataset"):
        dataset_info("nope")


def test_missing_archive_message(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path))
    with pytest.raises(CorpusError) as err:
        load_corpus("20ng")
    msg = str(err.value)
    assert msg.startswith(f"20ng: archive 20news-bydate.tar.gz not found in {tmp_path}")
    assert "DKW_ARCHIVES" in msg and "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz" in msg
    assert not corpora.available("20ng")


def test_corrupt_archive_is_a_corpus_error(tmp_path):
    _write(tmp_path / "reuters21578.tar.gz", b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(CorpusError, match="unreadable|corrupt"):
        load_corpus("r8", archives=tmp_path)


def test_unknown_name_or_path():
    with pytest.raises(CorpusError, match="not a built-in name"):
        load_corpus("no-such-corpus-xyz")


def test_download_failure_is_clear(tmp_path, monkeypatch):
    """On first use a failing download is one CorpusError line naming the folder (no real network:
    the mirror is a closed port on 127.0.0.1); nothing is left in the folder."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("DKW_DOWNLOAD", "1")
    monkeypatch.setenv("DKW_DOWNLOAD_BASE_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(CorpusError, match="could not download .*connection refused") as err:
        load_corpus("20ng", archives=tmp_path)
    assert str(tmp_path) in str(err.value) and "\n" not in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_tiny_20ng_archive_and_progress(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for split, group, fid, text in [("train", "sci.space", "10", b"orbit"), ("train", "sci.space", "9", b"moon\xe9"),
                                        ("test", "alt.atheism", "5", b"")]:
            data = text
            info = tarfile.TarInfo(f"20news-bydate-{split}/{group}/{fid}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    _write(tmp_path / "20news-bydate.tar.gz", buf.getvalue())
    calls = []
    corpus = load_corpus("20ng", archives=tmp_path, progress=lambda f, m: calls.append((f, m)))
    assert [d.id for d in corpus] == ["20ng/train/sci.space/9", "20ng/train/sci.space/10", "20ng/test/alt.atheism/5"]
    assert corpus.get("20ng/train/sci.space/9").text == "moon\u00e9"  # latin-1
    assert corpus.get("20ng/test/alt.atheism/5").text == ""  # empty documents are kept
    assert calls and all(0.0 <= f <= 1.0 for f, _ in calls) and calls[-1][0] == 1.0


# --------------------------------------------------------------------------- Corpus

def _small_corpus() -> Corpus:
    docs = [Document(f"t/{s}/{c}/{i}", f"{c} {i}", c, s) for s in ("test", "train") for c in ("b", "a") for i in (3, 1, 2)]
    return Corpus("t", docs)


def test_corpus_order_get_and_head():
    corpus = _small_corpus()
    assert corpus.categories == ["a", "b"]
    assert [d.id for d in corpus.documents[:4]] == ["t/train/a/1", "t/train/a/2", "t/train/a/3", "t/train/b/1"]
    assert len(corpus.split("all")) == 12 and len(corpus.train) == 6 == len(corpus.test)
    with pytest.raises(CorpusError, match="no document with id 't/train/a/9'"):
        corpus.get("t/train/a/9")
    with pytest.raises(CorpusError, match="unknown split"):
        corpus.split("dev")
    sample = corpus.head(1, include=["t/test/b/3"])
    assert [d.id for d in sample] == ["t/train/a/1", "t/train/b/1", "t/test/a/1", "t/test/b/1", "t/test/b/3"]
    assert sample.key != corpus.head(1, include=["t/test/b/2"]).key
    with pytest.raises(CorpusError):
        corpus.head(1, include=["t/test/zzz/1"])
    with pytest.raises(CorpusError):
        corpus.head(-1)


def test_duplicate_ids_rejected():
    doc = Document("x/train/a/1", "t", "a", "train")
    with pytest.raises(CorpusError, match="duplicate"):
        Corpus("x", [doc, doc])


# --------------------------------------------------------------------------- user corpora

def test_user_folder_corpus(tmp_path):
    root = tmp_path / "my corpus"
    _write(root / "train" / "sport" / "2.txt", "football match")
    _write(root / "train" / "sport" / "10.txt", "tennis")
    _write(root / "train" / "politics" / "a.txt", "election\u00e9")
    _write(root / "test" / "sport" / "1.txt", "")
    _write(root / "train" / "sport" / ".DS_Store", b"\x00\x01")
    corpus = load_corpus(str(root))
    assert corpus.name == "my_corpus" and corpus.key.startswith("my_corpus-")
    assert corpus.categories == ["politics", "sport"]
    assert [d.id for d in corpus] == ["my_corpus/train/politics/a.txt", "my_corpus/train/sport/2.txt",
                                      "my_corpus/train/sport/10.txt", "my_corpus/test/sport/1.txt"]
    assert corpus.get("my_corpus/train/politics/a.txt").text == "election\u00e9"
    assert corpus.get("my_corpus/test/sport/1.txt").text == ""
    # a changed file changes the cache key
    _write(root / "train" / "sport" / "10.txt", "squash")
    assert load_corpus(root).key != corpus.key


def test_user_folder_binary_file_is_an_error(tmp_path):
    root = tmp_path / "c"
    _write(root / "train" / "a" / "ok.txt", "fine")
    bad = _write(root / "train" / "a" / "img.png", b"\x89PNG\x00\x00data")
    with pytest.raises(CorpusError, match=r"img\.png.*binary"):
        load_corpus(root)
    bad.write_bytes(b"caf\xe9 latin-1")
    with pytest.raises(CorpusError, match=r"img\.png.*not valid UTF-8"):
        load_corpus(root)


def test_user_folder_wrong_layout(tmp_path):
    _write(tmp_path / "c" / "sport" / "1.txt", "x")
    with pytest.raises(CorpusError, match="<split>/<category>/<file>"):
        load_corpus(tmp_path / "c")


def test_csv_corpus(tmp_path):
    path = _write(tmp_path / "news.csv", 'text,label,split\n"a, b",x,train\nsecond,y,TEST\n,x,train\n')
    corpus = load_corpus(str(path))
    assert corpus.name == "news"
    assert [(d.id, d.text, d.label, d.split) for d in corpus] == [
        ("news/train/x/1", "a, b", "x", "train"), ("news/train/x/3", "", "x", "train"),
        ("news/test/y/2", "second", "y", "test")]


@pytest.mark.parametrize("content, match", [
    ("text,label\nx,a\n", "missing column.*split"),
    ("text,label,split\nx,a,dev\n", "row 1.*'dev'"),
    ("text,label,split\nx,,train\n", "row 1.*empty label"),
    ("text,label,split\n", "no data rows"),
])
def test_csv_errors(tmp_path, content, match):
    path = _write(tmp_path / "bad.csv", content)
    with pytest.raises(CorpusError, match=match):
        load_corpus(path)


def test_csv_not_utf8(tmp_path):
    path = _write(tmp_path / "bad.csv", b"text,label,split\ncaf\xe9,a,train\n")
    with pytest.raises(DkwError, match="UTF-8"):
        load_corpus(path)


# --------------------------------------------------------------------------- WebKB pages, 7 Sectors

def test_html_page_to_text_strips_header_links_images():
    text = corpora.html_page_to_text(_page("Home", "Operating systems course"))
    assert "Operating systems course" in text and "link" in text  # anchor text kept, URL dropped
    assert "MIME" not in text and "x.html" not in text and "y.gif" not in text
    assert corpora.html_page_to_text(b"MIME-Version: 1.0\r\n\r\n") == ""
    assert "caf\u00e9" in corpora.html_page_to_text(b"<p>caf\xe9</p>")  # not UTF-8: latin-1


def test_hash_split_is_stratified_and_stable():
    pairs = [(f"{c}/u/{i}", c) for c in ("a", "b") for i in range(30)]
    split = hash_split(pairs)
    assert split == hash_split(list(reversed(pairs)))
    for c in ("a", "b"):
        assert sum(1 for p, lab in pairs if lab == c and split[p] == "test") == 10
    # the split of a page does not depend on the other classes present
    only_a = hash_split([p for p in pairs if p[1] == "a"])
    assert all(only_a[p] == split[p] for p, lab in pairs if lab == "a")


SECTORS = {"basic.materials.sector": ["chemical.manufacturing.industry", "metals.industry"],
           "energy.sector": ["oil.industry"], "utilities.sector": ["electric.industry"]}


def _build_sectors_folder(root: Path) -> int:
    n = 0
    for sector, industries in SECTORS.items():
        for industry in industries:
            for i in range(3):
                _write(root / "7sectors" / sector / industry / f"http:^^www.{industry}{i}.com^", _page(industry, f"page {i}"))
                n += 1
    return n


def test_7sectors_folder_and_archive(tmp_path):
    n = _build_sectors_folder(tmp_path / "src")
    corpus = corpora.load_7sectors(tmp_path / "src" / "7sectors")
    assert len(corpus) == n and corpus.categories == sorted(SECTORS)
    doc = corpus.get("7sectors/all/energy.sector/oil.industry/http:^^www.oil.industry0.com^")
    assert doc.label == "energy.sector" and "page 0" in doc.text and "MIME" not in doc.text
    assert collections.Counter(d.split for d in corpus) == {"train": 8, "test": 4}  # round(n/3) per sector
    # as a .tar.gz in the archives folder (with a wrapper folder), loaded by name
    archives = tmp_path / "archives"
    archives.mkdir()
    with tarfile.open(archives / "7sectors.tar.gz", "w:gz") as tar:
        tar.add(tmp_path / "src" / "7sectors", arcname="7sectors")
    assert corpora.available("7sectors", archives=archives)
    by_name = load_corpus("7sectors", archives=archives)
    assert [(d.id, d.split, d.label, d.text) for d in by_name] == [(d.id, d.split, d.label, d.text) for d in corpus]


def test_7sectors_missing_message(tmp_path):
    with pytest.raises(CorpusError, match=r"7sectors: archive 7sectors\.tar\.gz not found .*folder 7sectors/"):
        load_corpus("7sectors", archives=tmp_path)


def test_7sectors_file_outside_industry(tmp_path):
    _build_sectors_folder(tmp_path)
    _write(tmp_path / "7sectors" / "energy.sector" / "stray.html", b"<p>x</p>")
    _write(tmp_path / "7sectors" / "top.html", b"<p>x</p>")
    with pytest.raises(CorpusError, match="top.html"):
        corpora.load_7sectors(tmp_path / "7sectors")


def test_a_sample_is_keyed_by_its_corpus_content_not_its_name(tmp_path):
    from dkw_core.corpora import load_corpus

    def write(path, topic: str):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("id,text,label,split\n" + "".join(
            f"{i},{topic} text {i},{label},{split}\n" for label in ("a", "b") for i, split in
            ((1, "train"), (2, "train"), (3, "test"))))
        return path

    one = load_corpus(str(write(tmp_path / "one" / "corp.csv", "space")))
    two = load_corpus(str(write(tmp_path / "two" / "corp.csv", "cars")))
    assert one.name == two.name and [d.id for d in one] == [d.id for d in two]
    assert one.head(1).key != two.head(1).key and one.head(1).key.startswith(one.key)
    write(tmp_path / "one" / "corp.csv", "engines")  # edited in place
    assert load_corpus(str(tmp_path / "one" / "corp.csv")).head(1).key != one.head(1).key


def test_an_edited_7sectors_folder_gets_a_new_cache_key(tmp_path, monkeypatch):
    """7 Sectors has no checksum (not distributed): a folder or an archive is keyed by its files, so
    an edited page gives another key (the corpus's, its samples' and ``corpus_key``'s, which Home
    reads without loading), never the model prepared from the old pages."""
    from dkw_core.corpora import corpus_key

    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path))
    _build_sectors_folder(tmp_path)
    first = load_corpus("7sectors")
    assert first.key.startswith("7sectors-") and first.key == corpus_key("7sectors")
    assert first.head(1).key == corpus_key("7sectors", 1) == f"{first.key}-head1"
    _write(tmp_path / "7sectors" / "energy.sector" / "oil.industry" / "http:^^www.oil.industry0.com^",
           _page("oil.industry", "an edited page about refineries"))
    edited = load_corpus("7sectors")
    assert [d.id for d in edited] == [d.id for d in first]
    assert edited.key != first.key and edited.key == corpus_key("7sectors")
    assert edited.head(1).key != first.head(1).key and edited.head(1).key == corpus_key("7sectors", 1)
    # an archive of the same pages: keyed by its bytes too, also when read back from the parse cache
    archives = tmp_path / "archives"
    with tarfile.open(_write(archives / "7sectors.tar.gz", b"").as_posix(), "w:gz") as tar:
        tar.add(tmp_path / "7sectors", arcname="7sectors")
    packed = [load_corpus("7sectors", archives=archives).key for _ in range(2)]
    assert packed[0] == packed[1] and packed[0].startswith("7sectors-") and packed[0] not in (first.key, edited.key)
