"""dkw: discriminative keywords in word-vector space (Sajgalik, Barla & Bielikova 2017).

The method step by step is in ``docs/method.md``; the public API in ``ARCHITECTURE.md``.
"""
__version__ = "0.3.0"
