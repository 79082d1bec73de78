"""Pure document browsing: filter a corpus by split and category, search by id or text."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SPLITS: tuple[str, ...] = ("train", "test")


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
