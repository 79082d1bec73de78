"""Pure document browsing: filter a corpus by split and category, search by id or text."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SPLITS: tuple[str, ...] = ("train", "test")


def documents_of(corpus: Any) -> list[Any]:
    """All ``Document`` objects of a corpus (``corpus.documents``)."""
    return list(getattr(corpus, "documents", []))


def categories_in(docs: Iterable[Any], *, split: str | None = None) -> list[str]:
    """Sorted categories that have at least one document (in ``split`` when given)."""
    return sorted({d.label for d in docs if split is None or d.split == split})


def find_documents(docs: Iterable[Any], *, split: str | None = None, category: str | None = None,
                   query: str = "", limit: int | None = None) -> list[str]:
    """Ids of the documents of ``split`` and ``category`` matching ``query``.

    ``query`` matches a document whose id contains it or whose text contains it, both
    case-insensitively; an empty query matches everything. Order is the corpus order.
    """
    needle = query.strip().lower()
    found: list[str] = []
    for doc in docs:
        if split and doc.split != split:
            continue
        if category and doc.label != category:
            continue
        if needle and needle not in doc.id.lower() and needle not in doc.text.lower():
            continue
        found.append(doc.id)
        if limit is not None and len(found) >= limit:
            break
    return found
