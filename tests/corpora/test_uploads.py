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
    assert corpus_key("mine") == corpus.key and corpus_key("mine", 2) == corpus.head(2).key == f"{corpus.key}-head2"


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


# ------------------------------------------------------------------ faults: atomic, consistent, nothing silent
def _good_csv() -> bytes:
    return csv_bytes([f"rocket orbit {i},space,{'test' if i == 0 else 'train'}" for i in range(3)]
                     + [f"team game {i},sport,{'test' if i == 0 else 'train'}" for i in range(3)])


def _files(tmp_path):
    folder = tmp_path / "data" / "corpora"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_ids_that_collide_once_stored_are_refused_before_anything_is_written(tmp_path):
    clash = csv_bytes(["one,a,train,x/y", "two,a,train,x%2Fy", "three,a,test,z"], header="text,label,split,id")
    with pytest.raises(CorpusError, match="duplicate id"):
        import_corpus("clash", clash, "clash.csv", builtin=BUILTIN)
    assert _files(tmp_path) == []


def test_failed_replace_leaves_the_previous_corpus_untouched(tmp_path):
    import_corpus("mine", _good_csv(), "good.csv", builtin=BUILTIN)
    before = {n: (tmp_path / "data" / "corpora" / n).read_bytes() for n in _files(tmp_path)}
    old_key = corpus_key("mine")
    clash = csv_bytes(["one,a,train,x/y", "two,a,train,x%2Fy", "three,a,test,z"], header="text,label,split,id")
    with pytest.raises(CorpusError, match="duplicate id"):
        import_corpus("mine", clash, "clash.csv", builtin=BUILTIN, replace=True)
    after = {n: (tmp_path / "data" / "corpora" / n).read_bytes() for n in _files(tmp_path)}
    assert after == before  # no temporary file left, nothing changed
    assert corpus_key("mine") == old_key and len(load_corpus("mine").documents) == 6


def test_long_texts_up_to_the_text_limit_import(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "1")
    long_text = "rocket orbit planet " * 20_000  # 400 KB, above the csv module's 128 KB default
    data = csv_bytes([f"\"{long_text}\",space,train", "moon,space,test", "team,sport,train", "game,sport,test"])
    report = import_corpus("long", data, "long.csv", builtin=BUILTIN)
    assert report.documents == 4
    assert max(len(d.text) for d in load_corpus("long").documents) == len(long_text)
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "0.2")
    with pytest.raises(CorpusError, match="longer than DKW_MAX_TEXT_MB"):
        import_corpus("long2", data, "long.csv", builtin=BUILTIN)


def test_zip_with_the_same_file_name_in_train_and_test_loads_as_the_folder_does(tmp_path):
    from dkw_core.corpora.user import load_folder

    files = {"train/a/1.txt": b"rocket orbit", "test/a/1.txt": b"moon lander",
             "train/b/1.txt": b"team game", "test/b/1.txt": b"league goal"}
    report = import_corpus("same", zip_bytes(files), "same.zip", builtin=BUILTIN)
    assert (report.train, report.test) == (2, 2)
    root = tmp_path / "folder"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    assert len(load_folder(root).documents) == len(load_corpus("same").documents) == 4


def test_zip_entries_leading_outside_are_named_in_the_report(tmp_path):
    files = {"train/a/1.txt": b"rocket orbit", "test/a/1.txt": b"moon lander", "train/b/1.txt": b"team game",
             "test/b/1.txt": b"league goal", "../evil.txt": b"x", "/etc/abs.txt": b"y"}
    report = import_corpus("tricky", zip_bytes(files), "tricky.zip", builtin=BUILTIN)
    assert set(report.skipped) == {"../evil.txt", "/etc/abs.txt"} and report.documents == 4


def test_utf16_text_is_called_utf16_not_binary(tmp_path):
    data = "text,label\nrocket,space\n".encode("utf-16")
    with pytest.raises(CorpusError, match="UTF-16") as info:
        import_corpus("wide", data, "wide.csv", builtin=BUILTIN)
    assert "binary" not in str(info.value)


def test_a_re_uploaded_corpus_gets_new_sample_keys():
    """DKW_SAMPLE_PER_CATEGORY: the app opens ``load_corpus(name).head(n)``; a corpus replaced
    under the same name must never find the old one's prepared sample."""
    space = csv_bytes(["The rocket reached orbit.,a,train", "The moon.,a,test", "The team won.,b,train",
                       "The coach.,b,test"])
    cars = csv_bytes(["The engine of the car.,a,train", "The wheel.,a,test", "Bake the bread.,b,train",
                      "The oven.,b,test"])
    import_corpus("again", space, "again.csv", builtin=BUILTIN)
    first = load_corpus("again").head(2)
    assert corpus_key("again", 2) == first.key
    import_corpus("again", cars, "again.csv", builtin=BUILTIN, replace=True)
    second = load_corpus("again").head(2)
    assert [d.id for d in second] == [d.id for d in first]  # the same ids, other texts
    assert second.key != first.key and corpus_key("again", 2) == second.key


def _zip_with_raw_name(placeholder: str, raw: bytes) -> bytes:
    """A zip whose entries ``<split>/<category>/<placeholder>.txt`` are renamed to the bytes ``raw``
    (zipfile itself only writes names it can encode): an ASCII placeholder leaves the entry
    unflagged (read as cp437), a non-ASCII one flags it UTF-8."""
    files = {f"{split}/{cat}/{name}.txt": f"A {cat} text.".encode() for split in ("train", "test")
             for cat in ("sport", "space") for name in ("one", placeholder)}
    data = zip_bytes(files)
    assert data.count(placeholder.encode()) == 8  # 4 entries: local header + central directory
    return data.replace(placeholder.encode(), raw)


def test_a_zip_entry_name_that_is_not_utf8_is_read_as_cp437_or_refused_in_one_line():
    # unflagged: read as the zip format's default cp437, every byte a character (0x9b ¢, 0xff nbsp)
    report = import_corpus("cp", _zip_with_raw_name("AB", b"\x9b\xff"), "cp.zip")
    assert report.documents == 8
    assert "cp/test/space/\u00a2\u00a0.txt" in {d.id for d in load_corpus("cp").documents}
    # flagged UTF-8 but not UTF-8: before, a UnicodeDecodeError traceback from zipfile (in the app too)
    with pytest.raises(CorpusError, match=r"^bad\.zip: entry train/sport/\\x9b\\xff\.txt is marked UTF-8") as err:
        import_corpus("bad", _zip_with_raw_name("\u00e9", b"\x9b\xff"), "bad.zip")
    assert not any(c in str(err.value) for c in "\x9b\xff\udc9b\udcff")
    assert user_corpora() == ["cp"]
