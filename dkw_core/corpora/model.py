"""The data model: :class:`Document` and :class:`Corpus` (paper §5's corpora and user corpora).

``documents`` are kept in a stable order: split (train first), category, file id (numeric ids
numerically). ``Corpus.key`` names the corpus's *content* in every cache: it equals ``name`` for
the full built-in corpora whose archives are fixed by checksums, ``7sectors-<hash of its files>``
for 7 Sectors (not distributed: an edited folder gets another key), ``<name>-<content hash>`` for user corpora,
so editing a document gives another key, and ``<key>-head<n>`` for samples (built from the
content key, never the name: two CSV files of one name in different folders, an edited CSV or a
re-uploaded corpus give different sample keys).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..errors import CorpusError

SPLITS = ("train", "test")
_SPLIT_RANK = {"train": 0, "test": 1}

@dataclass(frozen=True)
class Document:
    """One labelled document of a corpus."""

    id: str
    text: str
    label: str
    split: str


def _natural_key(text: str) -> tuple:
    """Sort key putting ``9`` before ``10``: digit runs compare as numbers."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", text) if part)


def doc_sort_key(doc: Document) -> tuple:
    # id = <name>/<split or all>/<label>/<rest>: order by split, label, then the rest naturally.
    rest = doc.id.split("/", 3)[3] if doc.id.count("/") >= 3 else doc.id
    return (_SPLIT_RANK.get(doc.split, 2), doc.label, _natural_key(rest))


class Corpus:
    """A labelled corpus with a train and a test split (paper §5: 20NG, R52, R8, WebKB, 7 Sectors).

    ``documents`` are kept in the stable order: split (train first), category, file id
    (numeric ids numerically). ``key`` names the corpus in caches; it equals ``name`` for the
    full built-in corpora and differs for samples (``20ng-head15``) and user corpora.
    """

    def __init__(self, name: str, documents: Iterable[Document], categories: Iterable[str] | None = None,
                 *, key: str | None = None, sort: bool = True) -> None:
        docs = list(documents)
        if sort:
            docs.sort(key=doc_sort_key)
        self.name = name
        self.key = key or name
        self.documents: list[Document] = docs
        present = {d.label for d in docs}
        self.categories: list[str] = sorted(set(categories) if categories is not None else present)
        missing = present - set(self.categories)
        if missing:
            raise CorpusError(f"{name}: documents have labels not in the category list: {sorted(missing)[:5]}")
        self._index: dict[str, int] = {}
        for i, doc in enumerate(docs):
            if doc.split not in _SPLIT_RANK:
                raise CorpusError(f"{name}: document {doc.id!r} has split {doc.split!r}; expected 'train' or 'test'")
            if doc.id in self._index:
                raise CorpusError(f"{name}: duplicate document id {doc.id!r}")
            self._index[doc.id] = i

    def split(self, split: str) -> list[Document]:
        """Documents of ``"train"``, ``"test"`` or ``"all"``."""
        if split == "all":
            return list(self.documents)
        if split not in _SPLIT_RANK:
            raise CorpusError(f"unknown split {split!r}; use 'train', 'test' or 'all'")
        return [d for d in self.documents if d.split == split]

    @property
    def train(self) -> list[Document]:
        return self.split("train")

    @property
    def test(self) -> list[Document]:
        return self.split("test")

    def get(self, doc_id: str) -> Document:
        """The document with id ``doc_id``; :class:`CorpusError` if this corpus has none."""
        try:
            return self.documents[self._index[doc_id]]
        except KeyError:
            example = self.documents[0].id if self.documents else "(corpus is empty)"
            raise CorpusError(f"{self.key}: no document with id {doc_id!r} "
                              f"({len(self.documents)} documents; ids look like {example!r})") from None

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._index

    def head(self, per_category: int, *, include: Iterable[str] = ()) -> Corpus:
        """Deterministic sample: the first ``per_category`` documents of every (split, category)
        in the stable order, plus the documents named in ``include``."""
        if not isinstance(per_category, int) or per_category < 0:
            raise CorpusError(f"head(): per_category must be a non-negative integer, got {per_category!r}")
        include = list(dict.fromkeys(include))
        extra = {self._index[i] for i in include if self.get(i)}
        wanted: set[int] = set()
        seen: dict[tuple[str, str], int] = {}
        for i, doc in enumerate(self.documents):
            group = (doc.split, doc.label)
            if seen.get(group, 0) < per_category:
                seen[group] = seen.get(group, 0) + 1
                wanted.add(i)
        extra -= wanted  # documents already in the head do not change the sample or its key
        key = f"{self.key}-head{per_category}"  # the content key: two corpora of one name never share it
        if extra:
            key += "-" + hashlib.sha1("\n".join(sorted(self.documents[i].id for i in extra)).encode()).hexdigest()[:8]
        wanted |= extra
        docs = [self.documents[i] for i in sorted(wanted)]
        return Corpus(self.name, docs, key=key, sort=False)

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __repr__(self) -> str:
        return (f"Corpus({self.key!r}: {len(self.train)} train / {len(self.test)} test, "
                f"{len(self.categories)} categories)")



def content_key(name: str, docs: list[Document]) -> str:
    """``<name>-<hash of every id, label, split and text>``: the cache key of a user corpus."""
    h = hashlib.sha1()
    for d in docs:
        for field in (d.id, d.label, d.split, d.text):
            h.update(field.encode("utf-8", "surrogatepass"))
            h.update(b"\x00")
    return f"{name}-{h.hexdigest()[:10]}"


def name_text(name: str | bytes) -> str:
    """A file, folder or archive member name as text every output can write: the bytes of a
    name that is not UTF-8 (lone surrogates in a ``str``, ``os.fsdecode``'s ``surrogateescape``)
    are written ``\\x9b``, as :func:`dkw_core.terminal.escape` shows them; other names unchanged."""
    raw = name if isinstance(name, bytes) else name.encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "backslashreplace")


def safe_id_part(text: str) -> str:
    """File names as id parts: control characters (e.g. a trailing ``\\r``) become ``%0D``."""
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"%{ord(m.group()):02X}", text)
