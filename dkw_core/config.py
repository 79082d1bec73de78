"""Where the project reads archives and writes working data.

``DKW_ARCHIVES``  folder of corpus archives (default ``data/archives`` of the project; a relative
                 value is taken relative to the current folder and made absolute).
``DKW_DATA_DIR``  working data: extracted corpora, caches, databases (default ``data``).
``DKW_VECTORS``   optional path of a word2vec/GloVe/fastText/.kv file; default GloVe 6B 50d.
``DKW_CROP_STOPWORDS`` 1 to leave stop words out of the K-nearest vocabulary (default: paper's crop).
``DKW_N_PROCESS`` processes for spaCy tagging (default: 1 on one core, else 2).
``DKW_DOWNLOAD``  0 to never download a missing corpus archive on first use (default 1).
``DKW_DOWNLOAD_BASE_URL`` a mirror serving ``<base>/<archive file name>``, used instead of the
                 upstream sources.
``DKW_MAX_TEXT_MB`` the largest new text accepted for keywords, in MB (default 50).
``DKW_PROGRESS``  1 / 0 to force progress bars on / off (default: only when stderr is a terminal).
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def archives_dir() -> Path:
    """The folder searched for corpus archives, always absolute (so that symlinks and messages
    naming it stay valid whatever the current folder becomes later)."""
    value = os.environ.get("DKW_ARCHIVES")
    if not value:
        return PROJECT_ROOT / "data" / "archives"
    return Path(os.path.abspath(Path(value).expanduser()))


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


def download_enabled() -> bool:
    """Whether a missing corpus archive is downloaded on first use (``DKW_DOWNLOAD``, default on)."""
    return os.environ.get("DKW_DOWNLOAD", "1").strip().lower() not in {"0", "false", "no", "off"}


def download_base_url() -> str | None:
    return os.environ.get("DKW_DOWNLOAD_BASE_URL", "").strip() or None


def progress_bars() -> bool | None:
    """``DKW_PROGRESS`` forced on (True) or off (False); None = decide by the terminal."""
    value = os.environ.get("DKW_PROGRESS", "").strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    return None


DEFAULT_MAX_TEXT_MB = 50.0


def max_text_mb() -> float:
    """``DKW_MAX_TEXT_MB``: the largest new text accepted, in MB (10^6 bytes of UTF-8)."""
    from .errors import InputError

    raw = os.environ.get("DKW_MAX_TEXT_MB", "").strip()
    if not raw:
        return DEFAULT_MAX_TEXT_MB
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise InputError(f"DKW_MAX_TEXT_MB must be a positive number of megabytes, got {raw!r}")
    return value
