"""Where the project reads archives and writes working data.

``DKW_ARCHIVES``  folder of corpus archives (default ``data/archives``).
``DKW_DATA_DIR``  working data: extracted corpora, caches, databases (default ``data``).
``DKW_VECTORS``   optional path of a word2vec/GloVe/fastText/.kv file; default GloVe 6B 50d.
``DKW_CROP_STOPWORDS`` 1 to leave stop words out of the K-nearest vocabulary (default: paper's crop).
``DKW_N_PROCESS`` processes for spaCy tagging (default: 1 on one core, else 2).
``DKW_MODE``      ``explorer`` (default: every page open) or ``study`` (judge-only deployment:
                  every page but the judge page asks for the study admin password).
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def archives_dir() -> Path:
    return Path(os.environ.get("DKW_ARCHIVES") or PROJECT_ROOT / "data" / "archives")


def data_dir() -> Path:
    path = Path(os.environ.get("DKW_DATA_DIR") or PROJECT_ROOT / "data")
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir(*parts: str) -> Path:
    path = data_dir().joinpath("cache", *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def vectors_path() -> str | None:
    return os.environ.get("DKW_VECTORS") or None


def crop_stopwords() -> bool:
    """``DKW_CROP_STOPWORDS=1``: leave stop words out of the cropped vocabulary (not the paper's
    setting; see vectors.py)."""
    return os.environ.get("DKW_CROP_STOPWORDS", "").strip().lower() in {"1", "true", "yes"}


def n_process() -> int:
    value = os.environ.get("DKW_N_PROCESS")
    if value:
        return max(1, int(value))
    return 2 if (os.cpu_count() or 1) > 1 else 1


#: Deployment modes of the app (``DKW_MODE``).
MODES = ("explorer", "study")


def app_mode() -> str:
    """``DKW_MODE``: ``explorer`` (default) or ``study``; anything else is an error."""
    from .errors import InputError

    value = (os.environ.get("DKW_MODE") or "explorer").strip().lower()
    if value not in MODES:
        raise InputError(f"DKW_MODE must be one of {', '.join(MODES)}, got {value!r}")
    return value
