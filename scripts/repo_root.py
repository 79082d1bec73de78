"""``import repo_root`` (or ``from repo_root import ROOT``) in a script of ``scripts/`` or
``benchmarks/``, before any ``dkw_core`` import: puts the repository root first on ``sys.path``, so
the script runs as written from a fresh clone (``.venv/bin/python scripts/x.py``) with this
checkout's ``dkw_core`` — without PYTHONPATH and whether or not the package is pip-installed.

The one definition: ``benchmarks/repo_root.py`` is a link to this file (a script's own folder is
the one place Python looks before the root is on the path).
"""
from __future__ import annotations

import sys
from pathlib import Path

#: The repository root (the folder holding ``dkw_core/``).
ROOT = Path(__file__).resolve().parents[1]

if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))
