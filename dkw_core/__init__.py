"""dkw: discriminative keywords in word-vector space (Sajgalik, Barla & Bielikova 2017).

The method step by step is in ``docs/method.md``; the public API in ``ARCHITECTURE.md``.

``__version__`` is recorded with every stored evaluation run and every shipped reference
result; runs of another version are never mixed into a chart or a table. Bump it whenever
a change can move a number the evaluation reports.
"""
__version__ = "0.3.0"

__all__ = ["__version__"]
"""The library's API lives in its packages and step modules (listed in ``ARCHITECTURE.md``):
:mod:`dkw_core.corpora`, :mod:`dkw_core.keywords`, :mod:`dkw_core.evaluation`, :mod:`dkw_core.study`,
:mod:`dkw_core.cluster`, :mod:`dkw_core.cli`, and the shared types and defaults in
:mod:`dkw_core.types` (the canonical home of ``PROTOCOLS``, ``DEFAULT_PROTOCOL``, ``Progress``)."""
