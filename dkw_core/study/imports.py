"""Imported keywords as study methods: the file is read by :mod:`dkw_core.keywords.imports`
(shared with the evaluation), each of its methods becomes a :class:`MethodSpec`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..keywords.imports import read_imported, same_keyword  # noqa: F401  (re-exported)
from .limits import check_imported
from .settings import UNKNOWN_PROTOCOL, MethodSpec


def imported_methods(parsed: Mapping[str, Mapping[str, Sequence[str]]], *, source: str = "",
                     protocol: str = UNKNOWN_PROTOCOL, top: int | None = None) -> list[MethodSpec]:
    """One :class:`MethodSpec` per method of :func:`read_imported`'s result, in file order;
    every name, document id and keyword checked against what the study database stores
    (:func:`~.limits.check_imported`, one line naming the method and the document)."""
    check_imported(parsed)
    return [MethodSpec(name=name, protocol=protocol, top=top, keywords={d: list(ws) for d, ws in docs.items()},
                       source=source) for name, docs in parsed.items()]
