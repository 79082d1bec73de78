"""User corpora: a folder ``<split>/<category>/<file>`` of UTF-8 text files, or a ``.csv`` with
columns ``text,label,split`` (optional ``id``).

Decisions on bad files: a binary file (NUL bytes) or a file that is not valid UTF-8 raises
:class:`~dkw_core.errors.CorpusError` naming the file — nothing is skipped silently. Hidden files
(``.DS_Store``…) are ignored. Empty documents are kept with ``text == ""`` (the keyword step
raises a clear error for them). Ids: ``<name>/<split>/<category>/<file>`` for a folder (a file or
category name that is not UTF-8 keeps its undecodable bytes as ``\\x9b``, :func:`~.model.name_text`,
as ``keywords --texts`` ids do),
``<name>/<split>/<label>/<row>`` for a CSV (row = 1-based data row, or the value of an ``id``
column). A user corpus's ``key`` is ``<name>-<content hash>``, so caches never mix two versions.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

from ..errors import CorpusError
from ..types import Progress, report
from .model import _SPLIT_RANK, Corpus, Document, content_key, doc_sort_key, name_text, safe_id_part
from .webkb import hidden


def _corpus_name(path: Path) -> str:
    name = re.sub(r"[^\w.-]+", "_", path.stem if path.is_file() else path.name).strip("_")
    return name or "corpus"


def looks_utf16(data: bytes) -> bool:
    """A UTF-16 byte-order mark, or text whose every other byte is NUL (UTF-16 without a BOM)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    head = data[:512]
    if len(head) < 4 or len(head) % 2:
        head = head[: len(head) - len(head) % 2]
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]
    return (odd.count(0) == len(odd) and even.count(0) == 0) or (even.count(0) == len(even) and odd.count(0) == 0)


def decode_text(data: bytes, where: str, *, error: type[Exception] = CorpusError) -> str:
    """UTF-8 text of a user's file (a BOM is dropped); a binary or non-UTF-8 file raises
    ``error`` with one line naming ``where`` — nothing is skipped silently."""
    if looks_utf16(data):
        raise error(f"{where}: UTF-16 text, not UTF-8; re-save it as UTF-8")
    if b"\x00" in data:
        raise error(f"{where}: binary file (contains NUL bytes), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{where}: not valid UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None


def load_folder(path: Path, progress: Progress | None = None) -> Corpus:
    name = _corpus_name(path)
    top = sorted(p for p in path.iterdir() if not p.name.startswith("."))
    bad = [p.name for p in top if not (p.is_dir() and p.name in _SPLIT_RANK)]
    if bad or not top:
        raise CorpusError(f"{path}: expected a folder <split>/<category>/<file> with split 'train' and/or "
                          f"'test'; found {', '.join(bad) if bad else 'nothing'}")
    files = []
    for split_dir in top:
        for cat_dir in sorted(split_dir.iterdir()):
            if cat_dir.name.startswith("."):
                continue
            if not cat_dir.is_dir():
                raise CorpusError(f"{cat_dir}: files must sit in a category folder: <split>/<category>/<file>")
            for f in sorted(cat_dir.rglob("*")):
                if f.is_file() and not hidden(f.relative_to(cat_dir).as_posix()):
                    files.append((split_dir.name, cat_dir.name, f))
    if not files:
        raise CorpusError(f"{path}: no text files under <split>/<category>/")
    docs = []
    for i, (split, label, f) in enumerate(files):
        text = decode_text(f.read_bytes(), str(f))
        rel = safe_id_part(name_text(f.relative_to(path / split / label).as_posix()))
        label = name_text(label)  # a category folder's name is the label every output writes
        docs.append(Document(f"{name}/{split}/{label}/{rel}", text, label, split))
        if i % 200 == 0:
            report(progress, i / len(files), f"{name}: {i}/{len(files)} files read")
    docs.sort(key=doc_sort_key)
    report(progress, 1.0, f"{name}: {len(docs)} documents")
    return Corpus(name, docs, key=content_key(name, docs), sort=False)


def id_part(text: str) -> str:
    """A label or row id as it appears inside a CSV corpus's document id (``/`` as ``%2F``)."""
    return safe_id_part(text.strip()).replace("/", "%2F")


def load_csv(path: Path, *, name: str | None = None) -> Corpus:
    """A CSV corpus (``text,label,split[,id]``), named ``name`` or after the file."""
    import pandas as pd

    name = name or _corpus_name(path)
    try:
        raw = path.read_bytes()
        frame = pd.read_csv(io.BytesIO(raw), dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: not valid UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise CorpusError(f"{path}: not a readable CSV file ({exc})") from None
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    missing = [c for c in ("text", "label", "split") if c not in frame.columns]
    if missing:
        raise CorpusError(f"{path}: missing column(s) {', '.join(missing)}; expected columns text,label,split "
                          f"(found {', '.join(frame.columns)})")
    docs = []
    for row, rec in enumerate(frame.to_dict("records"), start=1):
        split = rec["split"].strip().lower()
        label = rec["label"].strip()
        where = f"{path}, data row {row}"
        if split not in _SPLIT_RANK:
            raise CorpusError(f"{where}: split is {rec['split']!r}; expected 'train' or 'test'")
        if not label:
            raise CorpusError(f"{where}: empty label")
        if "\x00" in rec["text"]:
            raise CorpusError(f"{where}: text contains NUL bytes (binary data)")
        doc_key = id_part(rec["id"]) if "id" in frame.columns and rec["id"].strip() else str(row)
        docs.append(Document(f"{name}/{split}/{id_part(label)}/{doc_key}", rec["text"], label, split))
    if not docs:
        raise CorpusError(f"{path}: the CSV has no data rows")
    docs.sort(key=doc_sort_key)
    return Corpus(name, docs, key=content_key(name, docs), sort=False)

