"""Tests for dkw_core/corpora/uploads.py: an uploaded CSV or zip becomes a stored user corpus
that opens by name like a built-in one; every invalid upload is one CorpusError line."""
from __future__ import annotations

import io
import zipfile

import pytest

from dkw_core.corpora import corpus_key, dataset_info, list_corpora, list_datasets, load_corpus
from dkw_core.corpora.uploads import import_corpus, user_corpora
from dkw_core.errors import CorpusError

BUILTIN = tuple(list_datasets())


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DKW_MAX_UPLOAD_MB", raising=False)


def csv_bytes(rows, header="text,label,split") -> bytes:
    return (header + "\n" + "\n".join(rows) + "\n").encode()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_csv_with_split_opens_by_name_everywhere():
    data = csv_bytes(['"The rocket, in orbit.",space,train', "The moon.,space,test",
                      "The team won.,sport,train", "The coach.,sport,test"])
    report = import_corpus("mine", data, "mine.csv", builtin=BUILTIN)
    assert (report.documents, report.train, report.test, report.categories) == (4, 2, 2, 2)
    assert report.split == "splits as given in the file"
    assert "mine" in list_corpora() and "mine" not in list_datasets() and user_corpora() == ["mine"]
    corpus = load_corpus("mine")
    assert sorted(d.id for d in corpus.test) == ["mine/test/space/2", "mine/test/sport/4"]
    assert corpus.get("mine/train/space/1").text == "The rocket, in orbit."
    info = dataset_info("mine")
    assert info["available"] and (info["train"], info["test"], info["categories"]) == (2, 2, 2)
    assert corpus_key("mine") == corpus.key and corpus_key("mine", 2) == "mine-head2"


def test_csv_without_split_gets_a_stated_stratified_split():
    rows = [f"doc {i} about rockets,space" for i in range(6)] + [f"doc {i} about teams,sport" for i in range(3)]
    report = import_corpus("nosplit", csv_bytes(rows, "text,label"), "x.csv")
    assert "stratified split" in report.split and "33%" in report.split
    corpus = load_corpus("nosplit")
    by = {(d.label, d.split) for d in corpus}
    assert by == {("space", "train"), ("space", "test"), ("sport", "train"), ("sport", "test")}
    assert (len(corpus.train), len(corpus.test)) == (6, 3)
    again = import_corpus("nosplit2", csv_bytes(rows, "text,label"), "x.csv")
    assert (again.train, again.test) == (6, 3)  # stable


@pytest.mark.parametrize("layout", ["split", "nosplit", "wrapped"])
def test_zip_layouts(layout):
    files = {}
    for cat in ("space", "sport"):
        for i in range(3):
            split = "test" if i == 0 else "train"
            path = f"{split}/{cat}/{i}.txt" if layout != "nosplit" else f"{cat}/{i}.txt"
            if layout == "wrapped":
                path = "corpus/" + path
            files[path] = f"The {cat} text number {i}.".encode()
    files["__MACOSX/._junk"] = b"\x00\x01"
    report = import_corpus("zipped", zip_bytes(files), "c.zip")
    assert report.documents == 6 and report.categories == 2
    corpus = load_corpus("zipped")
    if layout != "nosplit":
        assert "zipped/test/space/0.txt" in corpus
    assert len(corpus.test) == 2


@pytest.mark.parametrize("name,data,filename,message", [
    ("x", csv_bytes(["caf\xe9,a,train"]).replace(b"\xc3\xa9", b"\xe9"), "x.csv", r"x.csv: not valid UTF-8 text \(byte"),
    ("x", csv_bytes([" ,a,train", "t,a,test", "u,b,train", "v,b,test"]), "x.csv", r"empty text in data row 1"),
    ("x", csv_bytes(["t,a", "u,a", "v,b"], "text,label"), "x.csv", r"category 'b' has a single document"),
    ("x", csv_bytes(["t,a,train", "u,a,train", "v,b,train", "w,b,test"]), "x.csv", r"category 'a' has no test document"),
    ("x", csv_bytes(["t,a,dev"]), "x.csv", r"split must be 'train' or 'test' \(data row 1\)"),
    ("x", csv_bytes(["t"], "text"), "x.csv", r"missing column\(s\) label"),
    ("x", b"PK\x03\x04 not really", "x.zip", r"not a readable zip file"),
    ("x", zip_bytes({"train/a/1.txt": b"x", "b/2.txt": b"y"}), "x.zip", r"not inside <split>/<category>/"),
    ("x", zip_bytes({"train/a/1.txt": b"\x00bin", "test/a/2.txt": b"y"}), "x.zip", r"binary file"),
    ("x", b"text,label\n", "x.txt", r"upload a .csv .* or a .zip"),
    ("20ng", csv_bytes(["t,a,train"]), "x.csv", r"is a built-in corpus"),
    ("Bad Name", csv_bytes(["t,a,train"]), "x.csv", r"lower-case letters"),
])
def test_invalid_uploads_are_one_line_errors(name, data, filename, message):
    with pytest.raises(CorpusError, match=message) as err:
        import_corpus(name, data, filename, builtin=BUILTIN)
    assert "\n" not in str(err.value)
    assert user_corpora() == []  # nothing stored


def test_size_limit_and_existing_name(monkeypatch):
    data = csv_bytes(["t,a,train", "u,a,test"])
    import_corpus("once", data, "x.csv")
    with pytest.raises(CorpusError, match="already exists"):
        import_corpus("once", data, "x.csv")
    monkeypatch.setenv("DKW_MAX_UPLOAD_MB", "0.00001")
    with pytest.raises(CorpusError, match=r"above the upload limit of 1e-05 MB \(DKW_MAX_UPLOAD_MB\)"):
        import_corpus("big", data, "x.csv")
    monkeypatch.setenv("DKW_MAX_UPLOAD_MB", "0.001")
    bomb = zip_bytes({"train/a/1.txt": b"a" * 20000, "test/a/2.txt": b"b"})
    assert len(bomb) < 1000
    with pytest.raises(CorpusError, match="unpacked: 0.0 MB is above the upload limit"):
        import_corpus("bomb", bomb, "x.zip")
