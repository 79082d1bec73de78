"""Your own corpus: an uploaded CSV (``text,label[,split][,id]``) or zip of
``[<split>/]<category>/<file>`` text files, validated and stored under ``DKW_DATA_DIR`` so that
it opens by name everywhere a built-in corpus does.

Validation (each problem is one :class:`~dkw_core.errors.CorpusError` line naming the file,
row or member):

* size: at most ``DKW_MAX_UPLOAD_MB`` (default 50) — for a zip, of its unpacked files too;
* encoding: UTF-8 (a BOM is allowed); binary files (NUL bytes) are refused. Zip entry names
  are read as :mod:`zipfile` reads them: UTF-8 when the entry is flagged UTF-8, else cp437 (the
  zip format's default, where every byte is a character: ``0x9b`` is ``¢``); an entry flagged
  UTF-8 whose name is not valid UTF-8 refuses the zip, naming the entry with its bytes as ``\\x9b``;
* empty texts and empty labels are refused, naming the rows or files;
* splits are ``train`` / ``test``. Without a split (no ``split`` column, or a zip of
  ``<category>/<file>``) a deterministic stratified split puts a third of every category into
  test (:func:`~dkw_core.corpora.webkb.hash_split`), and the import report says so;
* every category needs a training and a test document (the method scores categories from
  the training split and evaluates on the test split): a category with a single document is
  refused by name.

Stored as ``<DKW_DATA_DIR>/corpora/<name>.csv`` (columns ``id,text,label,split``) plus
``<name>.json`` (counts, how the split was made). Names are lower-case letters, digits, ``-``
and ``_``, and never a built-in corpus name.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import config
from ..errors import CorpusError, DkwError
from .model import name_text
from .user import decode_text
from .webkb import TEST_FRACTION, hash_split

__all__ = ["UploadReport", "import_corpus", "user_corpora", "user_corpus_path", "user_corpus_meta",
           "valid_name"]

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_SPLITS = ("train", "test")


@dataclass(frozen=True)
class UploadReport:
    name: str
    documents: int
    train: int
    test: int
    categories: int
    split: str  # how the split was made, one sentence
    source: str  # the uploaded file's name
    skipped: tuple[str, ...] = ()  # zip entries left out: paths leading outside the folder (``../``, ``/``)


def _folder() -> Path:
    path = config.data_dir() / "corpora"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CorpusError(f"cannot store corpora in {path}: {exc.strerror or exc}") from None
    return path


def user_corpus_path(name: str) -> Path:
    return _folder() / f"{name}.csv"


def user_corpora() -> list[str]:
    """Names of the stored user corpora."""
    folder = config.data_dir() / "corpora"
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.csv") if _NAME.match(p.stem) and p.with_suffix(".json").is_file())


def user_corpus_meta(name: str) -> dict:
    try:
        return json.loads((_folder() / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise CorpusError(f"{name}: no stored user corpus of that name in {_folder()}") from None


def valid_name(name: str, builtin: tuple[str, ...] = ()) -> str:
    name = (name or "").strip()
    if not _NAME.match(name):
        raise CorpusError(f"corpus name {name!r}: use 1-40 lower-case letters, digits, '-' or '_', "
                          "starting with a letter or digit")
    if name in builtin:
        raise CorpusError(f"corpus name {name!r} is a built-in corpus; choose another")
    return name


def _limit_bytes() -> float:
    try:
        return config.max_upload_mb() * 1e6
    except DkwError as exc:  # a malformed DKW_MAX_UPLOAD_MB
        raise CorpusError(str(exc)) from None


def _check_size(n: int, what: str) -> None:
    limit = _limit_bytes()
    if n > limit:
        raise CorpusError(f"{what}: {n / 1e6:.1f} MB is above the upload limit of {limit / 1e6:g} MB "
                          "(DKW_MAX_UPLOAD_MB)")


def _rows_from_csv(data: bytes, source: str) -> tuple[list[dict], bool]:
    from ..csvsafe import allow_long_fields, field_error

    text = decode_text(data, source)
    try:
        allow_long_fields()
    except DkwError as exc:  # a malformed DKW_MAX_TEXT_MB
        raise CorpusError(str(exc)) from None
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = [str(f).strip().lower() for f in (reader.fieldnames or [])]
        missing = [c for c in ("text", "label") if c not in header]
        if missing:
            raise CorpusError(f"{source}: missing column(s) {', '.join(missing)}; expected text,label[,split][,id] "
                              f"(found {', '.join(header) or 'no header'})")
        reader.fieldnames = header
        rows = []
        for n, rec in enumerate(reader, start=1):
            if rec.get("text") is None or rec.get("label") is None:
                raise CorpusError(f"{source}, data row {n}: fewer fields than the header")
            rows.append({"where": f"data row {n}", "id": (rec.get("id") or "").strip() or str(n),
                         "text": rec["text"], "label": rec["label"].strip(),
                         "split": (rec.get("split") or "").strip().lower()})
    except csv.Error as exc:
        raise CorpusError(f"{source}: {field_error(exc)}") from None
    return rows, "split" in header


def _unsafe(filename: str) -> bool:
    """A zip entry whose path leads outside the folder: absolute, a drive, or a ``..`` part."""
    name = filename.replace("\\", "/")
    return name.startswith("/") or re.match(r"^[A-Za-z]:", name) is not None or ".." in name.split("/")


def _rows_from_zip(data: bytes, source: str, skipped: list[str] | None = None) -> tuple[list[dict], bool]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise CorpusError(f"{source}: not a readable zip file") from None
    except UnicodeDecodeError as exc:  # an entry flagged UTF-8 whose name is not: zipfile cannot open it
        raise CorpusError(f"{source}: entry {name_text(exc.object)} is marked UTF-8 but its name is not valid "
                          "UTF-8; re-create the zip") from None
    with zf:
        unsafe = [m.filename for m in zf.infolist() if not m.is_dir() and _unsafe(m.filename)]
        if skipped is not None:
            skipped.extend(unsafe)  # named in the import report, never unpacked
        members = [m for m in zf.infolist() if not m.is_dir() and not _unsafe(m.filename)
                   and not any(p.startswith(".") or p == "__MACOSX" for p in m.filename.split("/"))]
        _check_size(sum(m.file_size for m in members), f"{source} unpacked")
        parts = [[p for p in m.filename.split("/") if p] for m in members]
        while parts and all(len(p) > 2 for p in parts) and len({p[0] for p in parts}) == 1 \
                and parts[0][0] not in _SPLITS:
            parts = [p[1:] for p in parts]  # a single wrapper folder
        if not members:
            raise CorpusError(f"{source}: the zip holds no files")
        with_split = all(len(p) >= 3 and p[0] in _SPLITS for p in parts)
        rows = []
        for m, p in zip(members, parts):
            if with_split:
                split, label, rel = p[0], p[1], "/".join(p[2:])
            elif len(p) >= 2 and not any(q[0] in _SPLITS for q in parts):
                split, label, rel = "", p[0], "/".join(p[1:])
            else:
                raise CorpusError(f"{source}: {m.filename} is not inside <split>/<category>/ (split train or test) "
                                  "nor <category>/; use one layout for every file")
            try:
                raw = zf.read(m)
            except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
                raise CorpusError(f"{source}: cannot read {m.filename} ({exc})") from None
            rows.append({"where": m.filename, "id": rel, "text": decode_text(raw, f"{source}: {m.filename}"),
                         "label": label, "split": split})
    return rows, with_split


def _validate(rows: list[dict], has_split: bool, source: str) -> tuple[list[dict], str]:
    if not rows:
        raise CorpusError(f"{source}: no documents")
    empty = [r["where"] for r in rows if not r["text"].strip()]
    if empty:
        more = f" and {len(empty) - 5} more" if len(empty) > 5 else ""
        raise CorpusError(f"{source}: empty text in {', '.join(empty[:5])}{more}; remove or fill them")
    nolabel = [r["where"] for r in rows if not r["label"]]
    if nolabel:
        raise CorpusError(f"{source}: empty label in {', '.join(nolabel[:5])}")
    from .user import id_part

    # ids as the stored corpus spells them (``a/b`` and ``a%2Fb`` are one id), per split: a zip
    # may hold train/a/1.txt beside test/a/1.txt, as a folder may
    seen: Counter = Counter((r["split"], id_part(r["label"]), id_part(r["id"])) for r in rows)
    dupes = [f"{split + '/' if split else ''}{label}/{i}" for (split, label, i), n in seen.items() if n > 1]
    if dupes:
        raise CorpusError(f"{source}: duplicate id(s) {', '.join(dupes[:5])} within a category "
                          "('/' in an id is stored as %2F)")
    if has_split:
        bad = [r["where"] for r in rows if r["split"] not in _SPLITS]
        if bad:
            raise CorpusError(f"{source}: split must be 'train' or 'test' ({', '.join(bad[:5])}); "
                              "or leave the split column out for a stratified split")
        how = "splits as given in the file"
    else:
        sizes = Counter(r["label"] for r in rows)
        single = sorted(label for label, n in sizes.items() if n < 2)
        if single:
            raise CorpusError(f"{source}: category {', '.join(map(repr, single[:5]))} has a single document; "
                              "every category needs at least 2 (one to learn from, one to test on)")
        splits = hash_split((f"{r['label']}/{r['id']}", r["label"]) for r in rows)
        for r in rows:
            r["split"] = splits[f"{r['label']}/{r['id']}"]
        how = (f"no split given: a stratified split put {TEST_FRACTION:.0%} of every category into test "
               "(documents ordered by a hash of their id, so the split is stable)")
    for split in _SPLITS:
        have = {r["label"] for r in rows if r["split"] == split}
        lacking = sorted({r["label"] for r in rows} - have)
        if lacking:
            raise CorpusError(f"{source}: category {', '.join(map(repr, lacking[:5]))} has no {split} document; "
                              "every category needs both a train and a test document")
    return rows, how


def import_corpus(name: str, data: bytes, filename: str, *, builtin: tuple[str, ...] = (),
                  replace: bool = False) -> UploadReport:
    """Validate an uploaded CSV or zip and store it as user corpus ``name``."""
    name = valid_name(name, builtin)
    _check_size(len(data), filename)
    if not replace and name in user_corpora():
        raise CorpusError(f"a corpus named {name!r} already exists; choose another name")
    suffix = Path(filename).suffix.lower()
    skipped: list[str] = []
    if suffix == ".csv":
        rows, has_split = _rows_from_csv(data, filename)
    elif suffix == ".zip":
        rows, has_split = _rows_from_zip(data, filename, skipped)
    else:
        raise CorpusError(f"{filename}: upload a .csv (text,label[,split]) or a .zip of <split>/<category>/<file>")
    rows, how = _validate(rows, has_split, filename)
    counts = Counter(r["split"] for r in rows)
    report = UploadReport(name, len(rows), counts["train"], counts["test"], len({r["label"] for r in rows}), how,
                          filename, tuple(skipped))
    from .user import load_csv

    # Atomic: both files are written under temporary names and read back as the stored corpus
    # will be read; only then renamed into place. A failure leaves the previous corpus of that
    # name untouched and no file behind. (This is dkw's own store, read back exactly, so its
    # cells are not formula-neutralised like the CSV files dkw hands out.)
    folder = _folder()
    tmps = []
    try:
        fd, tmp_csv = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".csv.tmp")
        tmps.append(tmp_csv)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "text", "label", "split"])
            for r in rows:
                w.writerow([r["id"], r["text"], r["label"], r["split"]])
        corpus = load_csv(Path(tmp_csv), name=name)  # the complete check: exactly what a later load sees
        meta = {**asdict(report), "key": corpus.key}  # content key: caches never mix uploads
        fd, tmp_json = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".json.tmp")
        tmps.append(tmp_json)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(meta, ensure_ascii=False))
        os.replace(tmp_csv, folder / f"{name}.csv")
        os.replace(tmp_json, folder / f"{name}.json")
    except OSError as exc:
        raise CorpusError(f"cannot store corpus {name!r} in {folder}: {exc.strerror or exc}") from None
    finally:
        for tmp in tmps:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return report
