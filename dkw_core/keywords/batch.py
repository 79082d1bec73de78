"""Keywords of many documents at once (docs/method.md steps 1-5): every document of a corpus
split, or a collection of new texts (a folder, a JSONL or a CSV file), written as JSONL or CSV.

* a split: :meth:`TermModel.rank` on the prepared corpus (tagging and neighbours cached), one
  matrix product per metric;
* new texts, label-free: the one path of new texts (:func:`~.newtexts.text_keywords`: tagged
  with ``nlp.pipe`` in ``n_process`` worker processes, default ``DKW_N_PROCESS``, then the K
  nearest words of *all distinct phrase vectors of a block of texts* in one batched search and
  one posterior product), each text ranked per metric: its keyphrases at ``about`` below 1 or
  by default (``keywords --texts`` without ``--about``: 0 for a text out of the corpus), the
  paper's words at ``about`` 1 — the keywords ``keywords --text-file`` and
  ``extract_keywords`` give the same text, each record made by the builder of their answer.

One record per document: ``{"id", "split", "label", "protocol", "k", "top", "keywords":
{metric: [words]}}`` (new texts: ``split`` and ``label`` empty, ``protocol`` label-free-top1 by
default, ``weighted_as`` and ``p`` the most probable category and its probability under a
posterior protocol, ``about`` and ``out_of_corpus`` for keyphrases, and ``problem`` says why a
text has no keywords: empty, no noun phrase, no word the vectors know). CSV: the same fields
(not ``about`` and ``out_of_corpus``), one column per metric holding its keywords separated by
spaces.

A JSONL of new texts is read by :func:`read_jsonl`, the one reader of ``keywords --texts X.jsonl``
with and without ``--scheduler`` (:mod:`.stream` uses it too): one rule for bad lines, empty
lines and duplicate ids. A folder's text is named by its path below the folder; a file name
that is not UTF-8 keeps its undecodable bytes as ``\\x9b`` (:func:`file_id`), so every id can
be written to JSONL, CSV and a terminal.
"""
from __future__ import annotations

import csv
import io
import json
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import config
from ..errors import InputError
from ..longtext import check_size
from ..types import NEW_TEXT_PROTOCOL, Progress, check_protocol, report
from ..validation import check_top

__all__ = ["FORMATS", "split_records", "text_records", "read_texts", "iter_texts", "read_jsonl", "JsonlText",
           "file_id", "write_records", "write_rows", "format_of"]

FORMATS = ("jsonl", "csv")
BLOCK = 1000  # texts tagged and searched together (bounds memory on large collections)
_FIELDS = ("id", "split", "label", "protocol", "k", "top")


# --------------------------------------------------------------------------- a corpus split

def split_records(model, split: str, *, metrics: Sequence[str], k: int, top: int, protocol: str,
                  progress: Progress | None = None, start: int = 0, stop: int | None = None,
                  about: float = 1.0) -> list[dict]:
    """One record per document of ``split`` of the prepared ``model``'s corpus (or of its
    documents ``[start, stop)``: a block of the split, as a cluster worker exports it): at
    ``about`` 1 the paper's words, ranked a metric at a time for the whole block; below 1 the
    documents' keyphrases, one document at a time (:meth:`~.model.KeywordModel.keywords`)."""
    top = check_top(top)
    model._check_k(k)
    ids = model.doc_ids(split)
    stop = len(ids) if stop is None else min(stop, len(ids))
    ids = ids[start:stop]
    if about < 1.0:
        return [_keyphrase_record(model, doc_id, metrics=metrics, k=k, top=top, protocol=protocol, about=about)
                for doc_id in ids]
    words = {}
    for i, m in enumerate(metrics):
        report(progress, i / max(1, len(metrics)), f"ranking {split} documents by {m}")
        words[m] = model.words(model.rank(split, metric=m, k=k, top=top, protocol=protocol,
                                          positions=slice(start, stop)))
    report(progress, 1.0, f"{len(ids):,} documents ranked")
    docs = [model.corpus.get(i) for i in ids]
    problems = getattr(model, "problems", None) or {}
    records = []
    for r, d in enumerate(docs):
        rec = {"id": d.id, "split": d.split, "label": d.label, "protocol": protocol, "k": k, "top": top,
               "keywords": {m: words[m][r] for m in metrics}}
        if d.id in problems:  # why the row has no keywords, never an empty row without a reason
            rec["problem"] = problems[d.id]
        elif not any(len(w) for w in rec["keywords"].values()):
            rec["problem"] = "no keyword scored above zero for this document"
        records.append(rec)
    return records


def _keyphrase_record(model, doc_id: str, *, metrics: Sequence[str], k: int, top: int, protocol: str,
                      about: float) -> dict:
    rec: dict = {"id": doc_id, "split": "", "label": "", "protocol": protocol, "k": k, "top": top, "about": about}
    try:
        doc = model.corpus.get(doc_id)
        rec.update(split=doc.split, label=doc.label)
        rec["keywords"] = {m: [kw.word for kw in model.keywords(doc_id, metric=m, k=k, top=top, protocol=protocol,
                                                                 about=about)] for m in metrics}
    except InputError as exc:
        rec["keywords"] = {m: [] for m in metrics}
        rec["problem"] = str(exc)
    return rec


# --------------------------------------------------------------------------- new texts

def text_records(model, items: Iterable[tuple[str, str]], *, metrics: Sequence[str], k: int, top: int,
                 n_process: int | None = None, block: int = BLOCK, total: int | None = None,
                 progress: Progress | None = None, protocol: str = NEW_TEXT_PROTOCOL,
                 about: float | None = 1.0) -> Iterator[dict]:
    """Keywords of new texts ``(id, text)`` under a label-free ``protocol`` (default
    label-free-top1), one record each, in input order: the one path of new texts
    (:func:`~.newtexts.text_keywords`, ``block`` texts at a time), each record made by the one
    builder (:func:`~.request.text_answer`, :meth:`~.request.KeywordAnswer.record`). ``about``:
    1 (this function's default) the paper's words; below 1, or ``None`` (the default about, 0
    for a text out of the corpus: what ``keywords --texts`` passes when ``--about`` is not
    given), the text's keyphrases, whose records also say the ``about`` each text got and
    whether it is ``out_of_corpus``."""
    from .newtexts import text_keywords
    from .request import KeywordRequest, text_answer

    if check_protocol(protocol) == "label-aware":
        raise InputError("new texts have no gold category: use a label-free protocol")
    request = KeywordRequest(metrics=tuple(metrics), k=model._check_k(k), top=check_top(top), protocol=protocol,
                             about=about)
    metrics = request.metric_list
    for found in text_keywords(model, items, metrics=metrics, k=request.k_value, top=request.top_value,
                               protocol=protocol, about=about, provenance=False, n_process=n_process, block=block,
                               total=total, progress=progress):
        yield text_answer(request, model, found, protocol, name=found.name).record()


def _decode(data: bytes, where: str) -> str:
    from ..corpora.user import decode_text

    return decode_text(data, where, error=InputError)


def read_texts(path: str | Path, *, warn: Callable[[str], None] | None = None) -> list[tuple[str, str]]:
    """``(id, text)`` pairs from a folder (every non-hidden file below it, id = relative path,
    :func:`file_id`), a ``.jsonl`` file (one object per line with ``text`` and optional ``id``;
    id = line number; bad lines named through ``warn`` and skipped, :func:`read_jsonl`) or a
    ``.csv`` file (column ``text``, optional ``id``; id = data row). One-line
    :class:`InputError` on anything else, naming the file and line."""
    items = list(iter_texts(path, warn=warn))
    if not items:
        raise InputError(f"{Path(path)}: no texts")
    return items


def iter_texts(path: str | Path, *, warn: Callable[[str], None] | None = None) -> Iterator[tuple[str, str]]:
    """:func:`read_texts` one text at a time, the file read as it goes (a collection larger
    than memory streams through ``keywords --texts --scheduler``). Errors are raised when the
    reader reaches them; the path's kind is checked before the first text."""
    p = Path(path)
    if p.is_dir():
        files = [f for f in sorted(p.rglob("*")) if f.is_file()
                 and not any(part.startswith(".") for part in f.relative_to(p).parts)]
        if not files:
            raise InputError(f"{p}: the folder holds no text files")
        return ((file_id(f.relative_to(p)), _checked(_decode(_read_file(f), str(f)), f"{f}")) for f in files)
    if not p.is_file():
        raise InputError(f"{p}: no such file or folder")
    suffix = p.suffix.lower()
    if suffix not in (".jsonl", ".csv"):
        raise InputError(f"{p}: give a folder of text files, a .jsonl or a .csv file")
    return ((t.id, t.text) for t in read_jsonl(p, warn=warn)) if suffix == ".jsonl" else _csv_texts(p)


def file_id(relative: Path) -> str:
    """The id of a folder's text file: its path below the folder (``sub/one.txt``). The bytes
    of a name that is not UTF-8 (Python holds them as lone surrogates, ``os.fsdecode``) are
    written ``\\x9b``, as :func:`dkw_core.terminal.escape` shows them: the raw name cannot be
    written to a UTF-8 file at all (:func:`dkw_core.corpora.model.name_text`)."""
    from ..corpora.model import name_text

    return name_text(relative.as_posix())


def _read_file(f: Path) -> bytes:
    check_size(f.stat().st_size, str(f))
    return f.read_bytes()


def _checked(text: str, where: str) -> str:
    check_size(len(text.encode("utf-8", "surrogatepass")), where)
    return text


@dataclass(frozen=True)
class JsonlText:
    """One usable text of a JSONL file, its line number and where its line ends in the file (bytes)."""

    id: str
    text: str
    line: int
    end: int


_SURROGATE = re.compile("[\ud800-\udfff]")


def _warn(message: str) -> None:
    warnings.warn(message, UserWarning, stacklevel=3)


def read_jsonl(path: str | Path, *, start: int = 0, line: int = 0, seen: MutableMapping[str, int] | None = None,
               warn: Callable[[str], None] | None = None) -> Iterator[JsonlText]:
    """The usable texts of a JSONL file (one object per line with a string ``text`` and an
    optional ``id``; id = line number) from byte ``start`` (the file's line ``line`` + 1 on),
    read line by line: the one reader of ``keywords --texts X.jsonl``, with and without
    ``--scheduler``. A file in UTF-16 is one :class:`InputError`; each bad line is named in one
    message through ``warn`` (default: a Python warning), ``<file name>, line N: <why>; skipped``,
    and skipped:

    * an empty line; a line that is not UTF-8; a line holding a NUL byte; a line that is not
      JSON (the parser's message and the column), or not an object with a string field ``text``;
      an id or text holding a lone surrogate (``"\\udc9b"`` in the JSON: no UTF-8 file can hold it);
    * a text above ``DKW_MAX_TEXT_MB`` (a smaller long text is kept and tagged in pieces);
    * a text whose id was already seen on an earlier line (the first one is kept).

    ``seen``: ids already met (id -> line), updated as the file is read (a dict, or a stream's ids on
    disk: :class:`~.stream.SeenIds`)."""
    from ..corpora.user import looks_utf16

    p = Path(path)
    seen = {} if seen is None else seen
    warn = _warn if warn is None else warn
    limit = config.max_text_mb() * 1e6

    def skip(n: int, why: str) -> None:
        warn(f"{p.name}, line {n}: {why}; skipped")

    with p.open("rb") as fh:
        if looks_utf16(fh.read(512)):
            raise InputError(f"{p}: UTF-16 text, not UTF-8; re-save it as UTF-8")
        fh.seek(start)
        offset, n = start, line
        for raw in fh:
            offset += len(raw)
            n += 1
            body = raw.rstrip(b"\r\n")
            if n == 1 and body.startswith(b"\xef\xbb\xbf"):
                body = body[3:]  # a byte-order mark on the first line
            if not body.strip():
                skip(n, "empty line")
                continue
            if b"\x00" in body:
                skip(n, "a NUL byte, not text")
                continue
            try:
                decoded = body.decode("utf-8")
            except UnicodeDecodeError as exc:
                skip(n, f"not UTF-8 ({exc.reason} at byte {exc.start}); re-save the file as UTF-8")
                continue
            try:
                obj = json.loads(decoded)
            except json.JSONDecodeError as exc:  # its msg ends on "at" where the position follows
                skip(n, f"not JSON ({exc.msg.removesuffix(' at')} at line {n} column {exc.colno})")
                continue
            if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
                skip(n, 'expected an object with a string field "text"')
                continue
            text, doc_id = obj["text"], str(obj.get("id", n))
            if "\x00" in text:
                skip(n, "a NUL byte, not text")
                continue
            lone = _SURROGATE.search(doc_id) or _SURROGATE.search(text)
            if lone is not None:
                skip(n, f"a lone surrogate (\\u{ord(lone.group()):04x}), not text")
                continue
            size = len(text.encode("utf-8"))
            if size > limit:
                skip(n, f"a text of {size / 1e6:.1f} MB is above the limit of {limit / 1e6:g} MB (DKW_MAX_TEXT_MB)")
                continue
            if doc_id in seen:
                skip(n, f"duplicate id {json.dumps(doc_id, ensure_ascii=True)} (first on line {seen[doc_id]})")
                continue
            seen[doc_id] = n
            yield JsonlText(doc_id, text, n, offset)


def _csv_texts(p: Path) -> Iterator[tuple[str, str]]:
    with p.open("rb") as raw:
        head = raw.read(1 << 16)
        from ..corpora.user import looks_utf16

        if looks_utf16(head):
            raise InputError(f"{p}: UTF-16 text, not UTF-8; re-save it as UTF-8")
        if b"\x00" in head:
            raise InputError(f"{p}: binary file (contains NUL bytes), not text")
        raw.seek(0)
        fh = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        from ..csvsafe import allow_long_fields, field_error

        allow_long_fields()
        try:
            reader = csv.DictReader(fh)
            fields = [f.strip().lower() for f in reader.fieldnames or []]
            if "text" not in fields:
                raise InputError(f"{p}: needs a column text (found {', '.join(fields) or 'no header'})")
            reader.fieldnames = fields
            for n, row in enumerate(reader, start=1):
                if row.get("text") is None:
                    raise InputError(f"{p}, data row {n}: missing the text field")
                doc_id = (row.get("id") or "").strip() or str(n)
                yield doc_id, _checked(row["text"], f"{p}, text {doc_id}")
        except csv.Error as exc:
            raise InputError(f"{p}: {field_error(exc)}") from None
        except UnicodeDecodeError as exc:
            raise InputError(f"{p}: not valid UTF-8 text ({exc.reason}); re-save it as UTF-8") from None


# --------------------------------------------------------------------------- output

def format_of(fmt: str | None, out: str | None) -> str:
    """``--format``, else the output file's suffix, else JSONL."""
    if fmt:
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; use {' or '.join(FORMATS)}")
        return fmt
    suffix = Path(out).suffix.lower().lstrip(".") if out else ""
    return suffix if suffix in FORMATS else "jsonl"


def write_records(records: Iterable[dict], fh, fmt: str, metrics: Sequence[str]) -> int:
    """Write ``records`` to the open text file ``fh`` (CSV: the header first); returns how many
    were written."""
    if fmt == "csv":
        from ..csvsafe import writer as safe_writer

        safe_writer(fh).writerow([*_FIELDS, *metrics, "problem", "weighted_as", "p"])
    return write_rows(records, fh, fmt, metrics)


def write_rows(records: Iterable[dict], fh, fmt: str, metrics: Sequence[str]) -> int:
    """:func:`write_records` without the CSV header (a stream's later chunks)."""
    n = 0
    if fmt == "jsonl":
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
        return n
    from ..csvsafe import writer as safe_writer

    writer = safe_writer(fh)  # spreadsheet formulas neutralised (JSONL above stays exact)
    for rec in records:
        writer.writerow([*(rec[f] for f in _FIELDS), *(" ".join(rec["keywords"][m]) for m in metrics),
                         rec.get("problem", ""), rec.get("weighted_as", ""), rec.get("p", "")])
        n += 1
    return n
