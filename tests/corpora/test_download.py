"""Tests for dkw_core/download.py: archives served by a local HTTP server on 127.0.0.1 (small
archives built here, and the real ones when present): success by checksum and by structure,
corrupted, truncated (short file and short read), 404, no server, a zip holding the archive,
first use through load_corpus, and the ``download`` command."""
from __future__ import annotations

import hashlib
import http.server
import io
import socket
import tarfile
import threading
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from dkw_core.cli import main
from dkw_core.config import archives_dir
from dkw_core.corpora import download, load_corpus
from dkw_core.corpora.download import Source, fetch, validate
from dkw_core.corpora.specs import CORPORA
from dkw_core.errors import CorpusError

NG = "20news-bydate.tar.gz"
SMALL = {"train": 3, "test": 2, "groups": 2}


def small_20ng() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for split, group, fid, text in [("train", "sci.space", "1", b"The rocket reached orbit." * 50),
                                        ("train", "sci.space", "2", b"A launch to the moon." * 50),
                                        ("train", "rec.sport", "3", b"The team won the game." * 50),
                                        ("test", "sci.space", "4", b"Mission to the planet." * 50),
                                        ("test", "rec.sport", "5", b"The coach and the league." * 50)]:
            info = tarfile.TarInfo(f"20news-bydate-{split}/{group}/{fid}")
            info.size = len(text)
            tar.addfile(info, io.BytesIO(text))
    return buf.getvalue()


ARCHIVES = {spec.archive.archive: spec.archive for spec in CORPORA.values() if spec.downloadable}


def small_spec(**changes) -> download.ArchiveSpec:
    return replace(ARCHIVES[NG], expected=SMALL, **changes)


def use_small_20ng(monkeypatch) -> None:
    """20ng's archive spec expects the small archive built here."""
    monkeypatch.setitem(CORPORA, "20ng", replace(CORPORA["20ng"], archive=small_spec()))


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the folder; ``/short/<name>`` announces the full length but sends half."""

    def do_GET(self):  # noqa: N802
        if self.path.startswith("/short/"):
            data = (Path(self.directory) / self.path[len("/short/"):]).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path):
    """(url, served folder) of a local HTTP server on 127.0.0.1."""
    served = tmp_path / "served"
    served.mkdir()

    def handler(*args, **kwargs):
        return _Handler(*args, directory=str(served), **kwargs)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", served
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def dest(tmp_path):
    folder = tmp_path / "archives"
    folder.mkdir()
    return folder


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".part", ".inner")))


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_success_by_structure_writes_archive_and_checksum(server, dest):
    url, served = server
    data = small_20ng()
    (served / NG).write_bytes(data)
    seen = []
    path = fetch("20ng", archives=dest, base_url=url, spec=small_spec(), progress=lambda f, m: seen.append((f, m)))
    assert path == dest / NG and path.read_bytes() == data
    record = (dest / f"{NG}.sha256").read_text()
    assert record.startswith(f"{hashlib.sha256(data).hexdigest()}  {NG}\n") and "structure verified" in record
    assert leftovers(dest) == []
    assert seen[-1][0] == 1.0 and "downloaded" in seen[-1][1]
    assert all(0.0 <= f <= 1.0 for f, _ in seen)


def test_published_checksum_is_enough(server, dest):
    url, served = server
    data = small_20ng()
    (served / "file").write_bytes(data)
    spec = replace(ARCHIVES[NG], expected={"train": 999}, sources=(Source(f"{url}/file", hashlib.sha256(data).hexdigest()),))
    fetch("20ng", archives=dest, spec=spec, base_url="")
    assert "checksum verified" in (dest / f"{NG}.sha256").read_text()


def test_present_archive_is_not_downloaded_again(server, dest):
    url, _ = server  # the server holds nothing: a request would fail
    (dest / NG).write_bytes(b"already here")
    assert fetch("20ng", archives=dest, base_url=url, spec=small_spec()).read_bytes() == b"already here"


@pytest.mark.parametrize("damage", ["corrupted", "truncated", "wrong content"])
def test_invalid_file_is_refused_and_removed(server, dest, damage):
    url, served = server
    data = bytearray(small_20ng())
    if damage == "corrupted":
        data[len(data) // 2: len(data) // 2 + 64] = bytes(64)
    elif damage == "truncated":
        data = data[: len(data) // 2]
    else:
        data = bytearray(small_20ng())
        spec_expected = {"train": 4}  # the counts differ from what the archive holds
    (served / NG).write_bytes(bytes(data))
    spec = small_spec() if damage != "wrong content" else replace(ARCHIVES[NG], expected=spec_expected)
    with pytest.raises(CorpusError) as err:
        fetch("20ng", archives=dest, base_url=url, spec=spec)
    msg = str(err.value)
    assert "\n" not in msg and str(dest) in msg and f"{url}/{NG}" in msg
    expected = {"corrupted": "truncated or corrupted", "truncated": "truncated or corrupted",
                "wrong content": "train 3 (expected 4)"}[damage]
    assert expected in msg
    assert list(dest.iterdir()) == []  # no archive, no partial file, no checksum record


def test_short_read_is_a_truncated_download(server, dest):
    url, served = server
    (served / NG).write_bytes(small_20ng())
    with pytest.raises(CorpusError, match="truncated download") as err:
        fetch("20ng", archives=dest, base_url=f"{url}/short", spec=small_spec())
    assert "\n" not in str(err.value)
    assert list(dest.iterdir()) == []


def test_404(server, dest):
    url, _ = server
    with pytest.raises(CorpusError, match=r"HTTP 404") as err:
        fetch("20ng", archives=dest, base_url=url, spec=small_spec())
    assert str(err.value).startswith(f"20ng: could not download {NG} into {dest}: {url}/{NG}: HTTP 404")
    assert "DKW_DOWNLOAD_BASE_URL" in str(err.value)
    assert list(dest.iterdir()) == []


def test_no_server(dest):
    with pytest.raises(CorpusError, match="connection refused"):
        fetch("20ng", archives=dest, base_url=f"http://127.0.0.1:{closed_port()}", spec=small_spec())
    assert list(dest.iterdir()) == []


def test_second_source_used_when_first_fails(server, dest):
    url, served = server
    (served / "b.tgz").write_bytes(small_20ng())
    spec = small_spec(sources=(Source(f"{url}/missing"), Source(f"{url}/b.tgz")))
    assert fetch("20ng", archives=dest, spec=spec, base_url="").is_file()
    assert f"{url}/b.tgz" in (dest / f"{NG}.sha256").read_text()


def test_zip_holding_the_archive(server, dest):
    url, served = server
    with zipfile.ZipFile(served / "collection.zip", "w") as zf:
        zf.writestr("collection/" + NG, small_20ng())
        zf.writestr("collection/README", "x")
    spec = small_spec(sources=(Source(f"{url}/collection.zip", member=NG),))
    assert fetch("20ng", archives=dest, spec=spec, base_url="").read_bytes() == small_20ng()
    assert leftovers(dest) == []
    spec = small_spec(sources=(Source(f"{url}/collection.zip", member="other.tar.gz"),))
    (dest / NG).unlink()
    with pytest.raises(CorpusError, match="holds no other.tar.gz"):
        fetch("20ng", archives=dest, spec=spec, base_url="")
    assert leftovers(dest) == [] and not (dest / NG).exists()


def test_first_use_through_load_corpus(server, dest, monkeypatch):
    url, served = server
    (served / NG).write_bytes(small_20ng())
    use_small_20ng(monkeypatch)
    monkeypatch.setenv("DKW_DOWNLOAD_BASE_URL", url)
    monkeypatch.setenv("DKW_DOWNLOAD", "0")
    with pytest.raises(CorpusError, match=rf"not found in {dest}; run `python -m dkw_core download 20ng`"):
        load_corpus("20ng", archives=dest)
    monkeypatch.setenv("DKW_DOWNLOAD", "1")
    corpus = load_corpus("20ng", archives=dest)
    assert (len(corpus.train), len(corpus.test)) == (3, 2) and "20ng/test/sci.space/4" in corpus


def test_unknown_or_undownloadable_corpus():
    with pytest.raises(CorpusError, match="cannot be downloaded"):
        download.archive_for("7sectors")


def test_download_command(server, tmp_path, monkeypatch, capsys):
    url, served = server
    (served / NG).write_bytes(small_20ng())
    use_small_20ng(monkeypatch)
    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path / "a"))
    monkeypatch.setenv("DKW_DOWNLOAD_BASE_URL", url)
    assert main(["download", "20ng"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith(f"20ng: {tmp_path / 'a' / NG} (") and "structure verified" in out.out
    assert "\r" not in out.err  # stderr is not a terminal here: no progress bar
    assert main(["download", "20ng"]) == 0
    assert "already in" in capsys.readouterr().out
    monkeypatch.setenv("DKW_DOWNLOAD_BASE_URL", f"{url}/nowhere")
    assert main(["download", "r8"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: r8: could not download reuters21578.tar.gz") and err.count("\n") == 1


@pytest.mark.corpus
@pytest.mark.parametrize("archive", sorted(ARCHIVES))
def test_real_archive_served_locally_is_accepted(archive, server, dest):
    """The real archives (re-packed copies: other checksums than upstream) pass structure validation."""
    real = archives_dir() / archive
    if not real.is_file():
        pytest.skip(f"{archive} not in {archives_dir()} (DKW_ARCHIVES)")
    url, served = server
    (served / archive).symlink_to(real.resolve())
    name = next(n for n, s in CORPORA.items() if s.archive.archive == archive)
    path = fetch(name, archives=dest, base_url=url)
    assert path.stat().st_size == real.stat().st_size
    assert validate(path, ARCHIVES[archive]) in {"checksum", "structure"}


def test_unwritable_folder_is_one_line(server, dest, monkeypatch):
    url, served = server
    (served / NG).write_bytes(small_20ng())

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(download.tempfile, "mkstemp", refuse)
    with pytest.raises(CorpusError, match=rf"cannot write into the archives folder {dest} \(Permission denied\)"):
        fetch("20ng", archives=dest, base_url=url, spec=small_spec())
