"""A module imported on its first attribute access, not when the importing module is imported.

``stats = lazy_module("scipy.stats")`` at the top of a module reads like ``from scipy import stats``
and costs nothing until ``stats.wilcoxon`` is first called: importing scipy.stats (and
scikit-learn) takes about a second, and the app's pages import the study and evaluation
modules on their first open without always testing anything (BENCHMARKS.md, "Every page's first
open").
"""
from __future__ import annotations

import importlib
from typing import Any


class _LazyModule:
    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """``name`` imported on first attribute access (then from ``sys.modules``: no cost after)."""
    return _LazyModule(name)
