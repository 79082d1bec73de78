"""dkw: discriminative keywords in word-vector space (Sajgalik, Barla & Bielikova 2017).

The method step by step is in ``docs/method.md``; the public API in ``ARCHITECTURE.md``.

``__version__`` (defined in the leaf module :mod:`dkw_core.version`, so that any layer reads
it without importing this package's facade) is recorded with every stored evaluation run and
every shipped reference result; runs of another version are never mixed into a chart or a
table. Bump it whenever a change can move a number the evaluation reports.
"""
from .version import __version__

__all__ = ["__version__", "extract_keywords"]
"""The library's API lives in its packages and step modules (listed in ``ARCHITECTURE.md``):
:mod:`dkw_core.corpora`, :mod:`dkw_core.keywords`, :mod:`dkw_core.evaluation`, :mod:`dkw_core.study`,
:mod:`dkw_core.cluster`, :mod:`dkw_core.cli`, and the shared types and defaults in
:mod:`dkw_core.types` (the canonical home of ``PROTOCOLS``, ``DEFAULT_PROTOCOL``, ``Progress``)."""


def __getattr__(name: str):
    """``extract_keywords`` (:mod:`dkw_core.keywords.request`), imported on first use so that
    ``import dkw_core`` stays light for the command line."""
    if name == "extract_keywords":
        from .keywords.request import extract_keywords

        return extract_keywords
    raise AttributeError(f"module 'dkw_core' has no attribute {name!r}")
