"""Corpus archives downloaded on first use, the way scikit-learn's dataset fetchers do it.

Each built-in corpus lives in one archive (``20ng`` → ``20news-bydate.tar.gz``; ``r52`` and ``r8``
→ ``reuters21578.tar.gz``; ``webkb`` and ``webkb4`` → ``webkb-data.tar.gz``) in the archives
folder (:func:`dkw_core.config.archives_dir`); the archives, their sources and the structure a
valid copy has are in :data:`.specs.CORPORA`. :func:`fetch` downloads a missing one:

* sources are tried in order: 20 Newsgroups from scikit-learn's figshare mirror (its SHA-256 as
  scikit-learn pins it), then Jason Rennie's page; Reuters-21578 from the UCI KDD archive (then
  the UCI repository's zip, which holds the same ``.tar.gz``); WebKB from CMU.
  ``DKW_DOWNLOAD_BASE_URL`` replaces them all by one mirror: ``<base>/<archive file name>``.
* the bytes go to a temporary file in the archives folder itself (``.<archive>.<random>.part``),
  so the final ``os.replace`` is atomic and a partial file is never taken for an archive;
* the file is accepted when its SHA-256 equals the published one, or else when its structure is
  right (expected files and document counts, read through the whole gzip stream, so truncation
  and corruption are caught). Structure validation is what accepts re-packed copies of the same
  files (another checksum). The SHA-256 of every accepted download is written beside it
  (``<archive>.sha256``);
* every failure (offline, HTTP error, truncated or invalid file) removes the temporary file and
  raises :class:`~dkw_core.errors.CorpusError` with one line naming the URL(s), the reason and the
  folder.
"""
from __future__ import annotations

import gzip
import hashlib
import http.client
import os
import socket
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from pathlib import Path

from .. import config
from ..errors import CorpusError
from ..types import Progress, report
from .specs import CORPORA, DOWNLOADABLE, ArchiveSpec, Source

__all__ = ["Source", "ArchiveSpec", "DOWNLOADABLE", "archive_for", "fetch", "validate", "sha256_of"]

_CHUNK = 1 << 16


def archive_for(name: str) -> ArchiveSpec:
    """The archive spec of a downloadable corpus; :class:`CorpusError` for any other name."""
    spec = CORPORA.get(name)
    if spec is None or not spec.downloadable:
        raise CorpusError(f"{name!r} cannot be downloaded; downloadable corpora: {', '.join(DOWNLOADABLE)}, all")
    return spec.archive


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def validate(path: Path, spec: ArchiveSpec) -> str:
    """``"checksum"`` or ``"structure"`` (how ``path`` was found valid); :class:`CorpusError` with
    the reason otherwise."""
    digest = sha256_of(path)
    if any(s.sha256 == digest for s in spec.sources):
        return "checksum"
    try:
        _check_gzip(path)
        found = spec.count(path)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise CorpusError(f"not a readable {spec.archive} (truncated or corrupted: {exc})") from None
    wrong = {k: (found.get(k), v) for k, v in spec.expected.items() if found.get(k) != v}
    if wrong:
        detail = ", ".join(f"{k} {got} (expected {want})" for k, (got, want) in wrong.items())
        raise CorpusError(f"not the expected {spec.archive}: {detail}")
    return "structure"


def _check_gzip(path: Path) -> None:
    """Decompress the whole gzip stream: its CRC and length trailer catch corruption and
    truncation anywhere (a tar reader may stop at zeroed blocks before reaching them)."""
    with open(path, "rb") as fh:
        if fh.read(2) != b"\x1f\x8b":
            raise CorpusError("not a gzip file")
    with gzip.open(path, "rb") as fh:
        while fh.read(1 << 20):
            pass


def _sources(spec: ArchiveSpec, base_url: str | None) -> tuple[Source, ...]:
    base = base_url if base_url is not None else config.download_base_url()
    if base:
        return (Source(base.rstrip("/") + "/" + urllib.parse.quote(spec.archive)),)
    return spec.sources


def _describe(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}".strip()
    if isinstance(exc, urllib.error.URLError):
        reason = exc.reason
        if isinstance(reason, socket.gaierror):
            return "host not found (offline?)"
        if isinstance(reason, ConnectionRefusedError):
            return "connection refused"
        return f"unreachable ({reason})"
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(exc, CorpusError):
        return str(exc)
    if isinstance(exc, http.client.IncompleteRead):
        return f"truncated download: connection closed after {len(exc.partial):,} bytes"
    return f"{type(exc).__name__}: {exc}"


def _get(source: Source, out, progress: Progress | None, label: str, timeout: float) -> None:
    """Stream ``source.url`` into the open file ``out``; raise on a short read."""
    request = urllib.request.Request(source.url, headers={"User-Agent": "dkw (python urllib)"})
    with urllib.request.urlopen(request, timeout=timeout) as resp:
        total = int(resp.headers.get("Content-Length") or 0)
        done = 0
        last = 0.0
        while chunk := resp.read(_CHUNK):
            out.write(chunk)
            done += len(chunk)
            now = time.monotonic()
            if now - last > 0.2:
                last = now
                size = f"{done / 1e6:.1f} of {total / 1e6:.1f} MB" if total else f"{done / 1e6:.1f} MB"
                report(progress, 0.9 * done / total if total else 0.0, f"{label}: {size}")
        if total and done != total:
            raise CorpusError(f"truncated download: {done:,} of {total:,} bytes")
        if done == 0:
            raise CorpusError("empty response")


def _unzip_member(zpath: Path, member: str, dest: Path) -> None:
    try:
        with zipfile.ZipFile(zpath) as zf:
            names = [n for n in zf.namelist() if n.rsplit("/", 1)[-1] == member]
            if not names:
                raise CorpusError(f"the zip file holds no {member}")
            with zf.open(names[0]) as src, open(dest, "wb") as out:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise CorpusError(f"not a readable zip file ({exc})") from None


def fetch(name: str, *, archives: Path | None = None, progress: Progress | None = None, force: bool = False,
          base_url: str | None = None, timeout: float = 30.0, spec: ArchiveSpec | None = None) -> Path:
    """The archive of corpus ``name`` in ``archives`` (default: the archives folder), downloaded
    first when missing (or when ``force``). Returns its path."""
    spec = spec or archive_for(name)
    folder = Path(archives) if archives else config.archives_dir()
    target = folder / spec.archive
    if target.is_file() and not force:
        return target
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CorpusError(f"{name}: cannot create the archives folder {folder} ({exc.strerror}); "
                          "set DKW_ARCHIVES to a writable folder") from None
    failures = []
    for source in _sources(spec, base_url):
        try:
            fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{spec.archive}.", suffix=".part")
        except OSError as exc:
            raise CorpusError(f"{name}: cannot write into the archives folder {folder} ({exc.strerror}); "
                              "set DKW_ARCHIVES to a writable folder") from None
        tmp = Path(tmp_name)
        extra: Path | None = None
        try:
            with os.fdopen(fd, "wb") as out:
                _get(source, out, progress, f"{name}: downloading {spec.archive}", timeout)
            if source.member:
                extra, tmp = tmp, tmp.with_name(tmp.name + ".inner")
                _unzip_member(extra, source.member, tmp)
            report(progress, 0.92, f"{name}: validating {spec.archive}")
            how = validate(tmp, spec)
            digest = sha256_of(tmp)
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the archive from other users
            os.replace(tmp, target)
        except (OSError, CorpusError, ValueError, http.client.HTTPException) as exc:
            failures.append(f"{source.url}: {_describe(exc)}")
            continue
        finally:
            for leftover in (tmp, extra):
                if leftover is not None and leftover.exists():
                    leftover.unlink()
        _record(target, digest, source.url, how)
        report(progress, 1.0, f"{name}: {spec.archive} downloaded ({how} verified)")
        return target
    raise CorpusError(f"{name}: could not download {spec.archive} into {folder}: " + "; ".join(failures)
                      + " — check the connection, set DKW_DOWNLOAD_BASE_URL to a mirror, or put the file there yourself")


def _record(target: Path, digest: str, url: str, how: str) -> None:
    """``<archive>.sha256`` beside the archive: the checksum of what was downloaded (sha256sum format)."""
    try:
        target.with_name(target.name + ".sha256").write_text(
            f"{digest}  {target.name}\n# from {url}, {how} verified, {time.strftime('%Y-%m-%d')}\n")
    except OSError:
        pass  # the archive is valid; the record is a convenience
