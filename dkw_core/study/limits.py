"""What the study database can store, checked before any work, the same on SQLite and PostgreSQL.

The limits are read from the models' column types (:mod:`.models`, the one definition):
``String(n)`` holds at most ``n`` characters — PostgreSQL refuses a longer value, SQLite would
store it anyway — and no text may hold U+0000 (NUL), which PostgreSQL's text types refuse and
SQLite stores. So a study that one database would refuse is refused on both, before any
keyword is computed, in one line naming the field, the start of the value (escaped, shortened)
and its row: ``document id 'aaaa'… (400 characters) of drawn article 3 is longer than the 300
characters the study database stores``.

Keywords a method *computes* during creation (dkw, the own-words baselines, extractors) cannot
be checked before they exist: one the study cannot store (a 50,000-letter "word" the tf-rf
baseline picked from an article) is left out and the method's next word is shown in its place
(:func:`storable_keywords`); the creation log names each one left out. Imported keywords are
the organiser's own: they are refused, never left out (:func:`check_imported`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import String
from sqlalchemy.orm import InstrumentedAttribute

from ..errors import InputError
from ..types import METHOD_SLOTS
from .models import Article, Judge, Study, StudyKeyword, StudyMethod

#: Every text field a study stores that comes from outside dkw -> its model column.
FIELDS: dict[str, InstrumentedAttribute[Any]] = {
    "study name": Study.name,
    "corpus": Study.corpus,
    "method name": StudyMethod.name,
    "method source": StudyMethod.source,
    "document id": Article.doc_id,
    "category": Article.category,
    "article text": Article.text,
    "keyword": StudyKeyword.word,
    "judge name": Judge.name,
}
#: Characters of a value quoted in a message.
PREVIEW = 40


def max_chars(field: str) -> int | None:
    """The most characters the study database stores in ``field`` (None: no limit but memory)."""
    column_type = FIELDS[field].property.columns[0].type
    return column_type.length if isinstance(column_type, String) else None


def source_of(spec: Any) -> str:
    """The imported file's name as recorded: shortened to the column's width (a record shown to
    the organiser only, never a reason to refuse a study)."""
    return (spec.source or "")[:max_chars("method source")]


def preview(value: str, chars: int = PREVIEW) -> str:
    """The start of ``value`` as an escaped, quoted one-line string, ``…`` when shortened."""
    return repr(value[:chars]) + ("…" if len(value) > chars else "")


def problem(field: str, value: str) -> str | None:
    """Why ``value`` cannot be stored in ``field`` (None when it can)."""
    if "\x00" in value:
        return (f"holds a NUL character (U+0000) at position {value.index(chr(0)) + 1}, which the study "
                f"database cannot store")
    limit = max_chars(field)
    if limit is not None and len(value) > limit:
        return f"is longer than the {limit} characters the study database stores"
    return None


def check(field: str, value: str, where: str) -> None:
    """Raise a one-line :class:`InputError` when ``value`` cannot be stored in ``field``;
    ``where`` names its row (``of drawn article 3``, ``of method B``)."""
    why = problem(field, value)
    if why is not None:
        size = f" ({len(value):,} characters)" if "longer" in why else ""
        raise InputError(f"{field} {preview(value)}{size} {where} {why}")


def check_study(config: Any, documents: Sequence[Any]) -> None:
    """Every value :func:`~.creation.create_study` will store from ``config`` (a
    :class:`~.settings.StudyConfig`) and the drawn ``documents``, before any keyword is computed:
    names, sources, document ids, categories, texts and imported keywords of those documents."""
    check("study name", config.name.strip(), "of the study")
    check("corpus", config.corpus, "of the study")
    specs = config.method_specs()
    for label, spec in zip(METHOD_SLOTS, specs, strict=False):
        check("method name", spec.name.strip(), f"of method {label}")
        check("method source", source_of(spec), f"of method {label}")
    for i, doc in enumerate(documents, start=1):
        where = f"of drawn article {i}"
        check("document id", doc.id, where)
        check("category", doc.label, f"{where} ({preview(doc.id)})")
        check("article text", doc.text, f"{where} ({preview(doc.id)})")
    for label, spec in zip(METHOD_SLOTS, specs, strict=False):
        if spec.imported:
            top = spec.top or config.keywords_per_method
            check_imported({spec.name: {d.id: list(spec.keywords.get(d.id, ()))[:top] for d in documents}},
                           method_label=label)


def check_imported(parsed: Mapping[str, Mapping[str, Sequence[str]]], *, method_label: str = "") -> None:
    """Imported methods (``{name: {doc id: [keyword, ...]}}``): every name, document id and
    keyword storable, else one line naming the method and the document."""
    for name, docs in parsed.items():
        method = f"method {method_label} ({preview(name)})" if method_label else f"method {preview(name)}"
        check("method name", name.strip(), f"of imported {method}")
        for doc_id, words in docs.items():
            check("document id", doc_id, f"of imported {method}")
            for word in words:
                check("keyword", str(word).strip(), f"of imported {method}, document {preview(doc_id)}")


def unstorable(word: str) -> str:
    """A computed keyword left out, for the log: its start and why (``'aaaa'… (50,000 characters)``)."""
    return f"{preview(word)} ({'holds a NUL' if chr(0) in word else f'{len(word):,} characters'})"


def storable_keywords(words: Sequence[str], top: int) -> tuple[list[str], list[str]]:
    """``(the first top storable words, the words left out before them)`` of a computed list."""
    kept: list[str] = []
    left_out: list[str] = []
    for word in words:
        if len(kept) == top:
            break
        if problem("keyword", str(word).strip()) is None:
            kept.append(word)
        else:
            left_out.append(word)
    return kept, left_out
