"""Helpers for tests and benchmarks (like ``numpy.testing``): never used by the library itself.

``postgres``  a throw-away PostgreSQL server from Debian's ``postgresql`` package.
"""
__all__ = ["postgres"]
