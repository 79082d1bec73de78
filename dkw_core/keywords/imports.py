"""Keywords computed elsewhere (KeyBERT, an LLM, your own extractor), read from a CSV or JSONL
file and checked line by line before the study or the evaluation uses them (docs/study.md,
docs/extractors.md)."""
from __future__ import annotations

import csv
import functools
import io
import json
import re
import unicodedata
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..terminal import control_char

#: Largest keyword file read (a study has hundreds of articles, not millions).
MAX_IMPORT_BYTES = 50 * 1024 * 1024
#: Longest keyword stored (the width of the study database's keyword column, which is
#: defined with it: dkw_core/study/models.py).
MAX_KEYWORD_CHARS = 300
#: Longest method name stored (likewise the study database's method-name columns).
MAX_METHOD_NAME_CHARS = 200
#: Characters no keyword may hold: control characters (NUL, which PostgreSQL's text type
#: refuses, tab, line breaks, ...) and the Unicode line and paragraph separators.
_FORBIDDEN_CATEGORIES = ("Cc", "Zl", "Zp")


@functools.cache
def _spoof_checker() -> Any:
    """ICU's UTS #39 checker (PyICU; its confusable data ships with the ICU library inside the
    package, nothing is fetched at run time)."""
    import icu

    return icu.SpoofChecker()


def same_keyword(word: str) -> str:
    """What two keywords a judge would read as one compare by: case and Unicode compatibility
    forms folded (``OK`` and ``ok``; a composed and a decomposed ``é``; fullwidth ``ＮＡＳＡ``),
    then Unicode's confusable skeleton (UTS #39, computed by ICU): default-ignorable characters
    removed (a zero-width space, a soft hyphen, a word joiner) and look-alike letters of other
    scripts folded (``NАSA`` with a Cyrillic ``А`` is ``NASA``)."""
    folded = unicodedata.normalize("NFKC", word).casefold()
    return unicodedata.normalize("NFKC", _spoof_checker().getSkeleton(0, folded)).casefold()


def _differs(first: str, word: str) -> str:
    """How ``word`` differs from the keyword ``first`` it repeats (empty when identical)."""
    if first == word:
        return ""
    if first.casefold() == word.casefold():
        how = "but for case"
    elif unicodedata.normalize("NFKC", first).casefold() == unicodedata.normalize("NFKC", word).casefold():
        how = "in another Unicode form"
    else:
        how = "but for look-alike or invisible characters"
    return f"the same as {first!r} {how}"


def _format_of(filename: str) -> str:
    suffix = Path(filename).suffix.lower().lstrip(".")
    if suffix == "csv":
        return "csv"
    if suffix in ("jsonl", "ndjson", "json"):
        return "jsonl"
    raise InputError(f"{filename}: keyword files are .csv or .jsonl, got {suffix or 'no extension'!r}")


def read_imported(source: bytes | str | Path, *, filename: str | None = None,
                  doc_ids: Collection[str] | None = None) -> dict[str, dict[str, list[str]]]:
    """Keywords computed elsewhere: ``{method name: {doc id: [keyword, ...] best first}}``.

    ``source`` is the file's content (bytes) or its path. Formats (by the file name's extension):

    * CSV with a header, either ``doc_id,method,keywords`` (keywords best first, separated by
      ``;`` or ``|``) or one keyword per row ``doc_id,method,rank,keyword``;
    * JSONL: one object per line ``{"doc_id": "...", "method": "...", "keywords": ["...", ...]}``.

    Checked, with a one-line :class:`InputError` naming the file and line: malformed lines,
    missing columns, unknown document ids (when ``doc_ids`` is given), empty keyword lists,
    a document given twice for a method, a keyword repeated in a list (also when only its case
    differs, ``OK`` and ``ok``), a keyword holding a control character (NUL, a line break, a
    tab), a repeated rank."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        filename = filename or path.name
        try:
            if path.stat().st_size > MAX_IMPORT_BYTES:
                raise InputError(f"{filename}: larger than {MAX_IMPORT_BYTES // 2**20} MB")
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read keyword file {str(path)!r}: {exc.strerror or exc}") from None
    else:
        data = bytes(source)
        filename = filename or "keywords"
    if len(data) > MAX_IMPORT_BYTES:
        raise InputError(f"{filename}: larger than {MAX_IMPORT_BYTES // 2**20} MB")
    fmt = _format_of(filename)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{filename} line {line}: not UTF-8 text") from None
    known = set(doc_ids) if doc_ids is not None else None
    builder = _Builder(filename, known)
    if fmt == "csv":
        _read_csv(text, builder)
    else:
        _read_jsonl(text, builder)
    return builder.result()


class _Builder:
    def __init__(self, filename: str, known: set[str] | None) -> None:
        self.filename = filename
        self.known = known
        self.lists: dict[tuple[str, str], list[str]] = {}
        self.where: dict[tuple[str, str], int] = {}
        self.ranked: dict[tuple[str, str], dict[int, tuple[str, int]]] = {}

    def error(self, line: int, message: str) -> InputError:
        return InputError(f"{self.filename} line {line}: {message}")

    def _ids(self, line: int, doc_id: Any, method: Any) -> tuple[str, str]:
        if doc_id is None or str(doc_id).strip() == "":
            raise self.error(line, "no document id")
        if method is None or str(method).strip() == "":
            raise self.error(line, "no method name")
        doc, name = str(doc_id).strip(), str(method).strip()
        if len(name) > MAX_METHOD_NAME_CHARS:
            raise self.error(line, f"method name longer than {MAX_METHOD_NAME_CHARS} characters")
        bad = control_char(name)
        if bad is not None:
            raise self.error(line, f"method name {name!r} holds a control character ({bad}); a name is one line "
                                   f"of plain text")
        if self.known is not None and doc not in self.known:
            raise self.error(line, f"unknown document id {doc!r} (not in the study's corpus)")
        return doc, name

    def _word(self, line: int, word: Any) -> str:
        if not isinstance(word, (str, int, float)) or isinstance(word, bool):
            raise self.error(line, f"keyword {word!r} is not text")
        w = str(word).strip()
        if not w:
            raise self.error(line, "empty keyword")
        if len(w) > MAX_KEYWORD_CHARS:
            raise self.error(line, f"keyword longer than {MAX_KEYWORD_CHARS} characters")
        bad = next((c for c in w if unicodedata.category(c) in _FORBIDDEN_CATEGORIES), None)
        if bad is not None:
            what = {"\x00": "NUL", "\n": "a line break", "\r": "a line break", "\t": "a tab"}.get(bad, f"U+{ord(bad):04X}")
            raise self.error(line, f"keyword {w!r} holds a control character ({what}); a keyword is one line of text")
        return w

    def add_list(self, line: int, doc_id: Any, method: Any, words: Sequence[Any]) -> None:
        doc, name = self._ids(line, doc_id, method)
        key = (doc, name)
        if key in self.where or key in self.ranked:
            first = self.where.get(key) or min(ln for _w, ln in self.ranked[key].values())
            raise self.error(line, f"duplicate: document {doc!r} of method {name!r} already given on line {first}")
        cleaned = [self._word(line, w) for w in words]
        if not cleaned:
            raise self.error(line, f"empty keyword list for document {doc!r} of method {name!r}")
        seen: dict[str, str] = {}
        for w in cleaned:
            earlier = seen.get(same_keyword(w))
            seen.setdefault(same_keyword(w), w)
            if earlier is not None:
                also = _differs(earlier, w)
                raise self.error(line, f"duplicate keyword {w!r}{f' ({also})' if also else ''} for document "
                                       f"{doc!r} of method {name!r}")
        self.lists[key] = cleaned
        self.where[key] = line

    def add_ranked(self, line: int, doc_id: Any, method: Any, rank: Any, word: Any) -> None:
        doc, name = self._ids(line, doc_id, method)
        key = (doc, name)
        if key in self.where:
            raise self.error(line, f"duplicate: document {doc!r} of method {name!r} already given on line "
                                   f"{self.where[key]}")
        try:
            r = int(str(rank).strip())
        except ValueError:
            raise self.error(line, f"rank {rank!r} is not a whole number") from None
        if r < 1:
            raise self.error(line, f"rank {r} must be 1 or more")
        w = self._word(line, word)
        ranks = self.ranked.setdefault(key, {})
        if r in ranks:
            raise self.error(line, f"duplicate: rank {r} of document {doc!r} of method {name!r} already given on "
                                   f"line {ranks[r][1]}")
        other = next(((ww, ln) for ww, ln in ranks.values() if same_keyword(ww) == same_keyword(w)), None)
        if other is not None:
            also = _differs(other[0], w)
            raise self.error(line, f"duplicate keyword {w!r} for document {doc!r} of method {name!r} "
                                   f"({also + ', ' if also else ''}also on line {other[1]})")
        ranks[r] = (w, line)

    def result(self) -> dict[str, dict[str, list[str]]]:
        out: dict[str, dict[str, list[str]]] = {}
        for (doc, name), words in self.lists.items():
            out.setdefault(name, {})[doc] = words
        for (doc, name), ranks in self.ranked.items():
            out.setdefault(name, {})[doc] = [ranks[r][0] for r in sorted(ranks)]
        if not out:
            raise InputError(f"{self.filename}: no keywords found")
        return out


def _read_csv(text: str, b: _Builder) -> None:
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{b.filename}: empty file") from None
    except csv.Error as exc:
        raise b.error(1, f"malformed CSV: {exc}") from None
    cols = [h.strip().lower() for h in header]
    need_list, need_ranked = {"doc_id", "method", "keywords"}, {"doc_id", "method", "rank", "keyword"}
    if need_list <= set(cols):
        ranked = False
    elif need_ranked <= set(cols):
        ranked = True
    else:
        raise b.error(1, f"the header must hold doc_id,method,keywords or doc_id,method,rank,keyword; "
                         f"got {','.join(header)[:200]!r}")
    pos = {c: cols.index(c) for c in (need_ranked if ranked else need_list)}
    line = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise b.error(reader.line_num, f"malformed CSV: {exc}") from None
        line = reader.line_num
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(cols):
            raise b.error(line, f"malformed line: {len(row)} fields, the header has {len(cols)}")
        if ranked:
            b.add_ranked(line, row[pos["doc_id"]], row[pos["method"]], row[pos["rank"]], row[pos["keyword"]])
        else:
            cell = row[pos["keywords"]]
            words = [w for w in re.split(r"[;|]", cell)] if cell.strip() else []
            if any(not w.strip() for w in words):
                raise b.error(line, "empty keyword (two separators in a row, or one at an end)")
            b.add_list(line, row[pos["doc_id"]], row[pos["method"]], words)


def _read_jsonl(text: str, b: _Builder) -> None:
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise b.error(line, f"malformed line, not JSON: {exc.msg}") from None
        if not isinstance(obj, dict):
            raise b.error(line, "malformed line: expected an object {\"doc_id\", \"method\", \"keywords\"}")
        missing = [k for k in ("doc_id", "method", "keywords") if k not in obj]
        if missing:
            raise b.error(line, f"malformed line: missing {', '.join(missing)}")
        words = obj["keywords"]
        if not isinstance(words, list):
            raise b.error(line, "malformed line: keywords must be a list of strings, best first")
        b.add_list(line, obj["doc_id"], obj["method"], words)
