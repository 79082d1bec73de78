"""Every environment switch of dkw, read here and nowhere else.

docs/configuration.md lists the same table. Paths may be relative (to the current directory) or absolute.

==============================  ============================================================="""
from __future__ import annotations

import os
from pathlib import Path

from .errors import InputError

PROJECT_ROOT = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


def _flag(name: str) -> bool:
    return _env(name).lower() in _TRUE


def _positive_int(name: str) -> int | None:
    raw = _env(name)
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise InputError(f"{name} must be a positive integer, got {raw!r}")
    return value


def archives_dir() -> Path:
    """``DKW_ARCHIVES`` (absolute or relative to the current directory), else ``data/archives``."""
    raw = _env("DKW_ARCHIVES")
    return Path(raw).expanduser().resolve() if raw else PROJECT_ROOT / "data" / "archives"


def keyphrases_dir() -> Path:
    """``DKW_KEYPHRASES`` (absolute or relative to the current directory), else ``data/keyphrases``:
    the folder of the keyphrase gold-standard zips (benchmarks/keyphrase_gold.py)."""
    raw = _env("DKW_KEYPHRASES")
    return Path(raw).expanduser().resolve() if raw else PROJECT_ROOT / "data" / "keyphrases"


def data_dir() -> Path:
    raw = _env("DKW_DATA_DIR")
    path = Path(raw).expanduser().resolve() if raw else PROJECT_ROOT / "data"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if not path.is_dir():
            raise InputError(f"data folder {path} (DKW_DATA_DIR) cannot be created: {exc.strerror or exc}") from None
    return path


def cache_dir(*parts: str) -> Path:
    path = data_dir().joinpath("cache", *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def vectors_path() -> str | None:
    return _env("DKW_VECTORS") or None


def crop_stopwords() -> bool:
    """``DKW_CROP_STOPWORDS=1``: leave stop words out of the cropped vocabulary (not the paper's
    setting; see docs/method.md)."""
    return _flag("DKW_CROP_STOPWORDS")


def n_process() -> int:
    value = _positive_int("DKW_N_PROCESS")
    if value:
        return value
    return 2 if (os.cpu_count() or 1) > 1 else 1


#: Part-of-speech taggers of the candidate phrases: spaCy's ``en_core_web_sm`` (``tok2vec`` +
#: ``tagger``, the reference) or the fast coarse tagger (:mod:`dkw_core.fasttagger`).
TAGGERS = ("spacy", "fast")
#: New texts' tagger unless ``DKW_TAGGER`` says otherwise: the fast tagger, whose keyphrase F1@10
#: and keywords-alone micro-F1 on new texts are within 0.5 points of spaCy's (docs/measurements.md
#: "The fast tagger").
DEFAULT_TAGGER = "fast"
#: A corpus's preparation tagger unless ``DKW_PREPARE_TAGGER`` says otherwise: its statistics, the
#: reference results and the quality table rest on spaCy's tags.
DEFAULT_PREPARE_TAGGER = "spacy"


def _tagger_setting(name: str, default: str) -> str:
    value = (_env(name) or default).lower()
    if value not in TAGGERS:
        raise InputError(f"{name} must be one of {', '.join(TAGGERS)}, got {value!r}")
    return value


def tagger() -> str:
    """``DKW_TAGGER``: the tagger of new texts (``extract_keywords``, ``keywords --texts``, the
    app's text boxes, streams, the estimator's ``transform``), ``spacy`` or ``fast`` (default
    :data:`DEFAULT_TAGGER`); anything else is an error."""
    return _tagger_setting("DKW_TAGGER", DEFAULT_TAGGER)


def prepare_tagger() -> str:
    """``DKW_PREPARE_TAGGER``: the tagger of a corpus's preparation (its tag cache, statistics and
    evaluation runs), ``spacy`` (default) or ``fast``; anything else is an error."""
    return _tagger_setting("DKW_PREPARE_TAGGER", DEFAULT_PREPARE_TAGGER)


def download_enabled() -> bool:
    """A missing corpus archive is downloaded on first use unless ``DKW_DOWNLOAD=0``."""
    return _env("DKW_DOWNLOAD").lower() not in _FALSE


def download_base_url() -> str | None:
    """``DKW_DOWNLOAD_BASE_URL``: a mirror serving ``<base>/<archive file name>``."""
    return _env("DKW_DOWNLOAD_BASE_URL") or None


DEFAULT_MAX_TEXT_MB = 10.0


def _megabytes(name: str, default: float) -> float:
    raw = _env(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise InputError(f"{name} must be a positive number of megabytes, got {raw!r}")
    return value


def max_text_mb() -> float:
    """``DKW_MAX_TEXT_MB``: the largest new text accepted, in MB (10^6 bytes of UTF-8; default 10)."""
    return _megabytes("DKW_MAX_TEXT_MB", DEFAULT_MAX_TEXT_MB)


def max_upload_mb() -> float:
    """``DKW_MAX_UPLOAD_MB``: the largest corpus file uploaded in the app, in MB (default 50)."""
    return _megabytes("DKW_MAX_UPLOAD_MB", 50.0)


def db_timeout() -> float:
    raw = _env("DKW_DB_TIMEOUT")
    try:
        return float(raw) if raw else 30.0
    except ValueError:
        raise InputError(f"DKW_DB_TIMEOUT must be a number of seconds, got {raw!r}") from None


def sample_per_category() -> int | None:
    """``DKW_SAMPLE_PER_CATEGORY=n``: the app works on the first n documents per category and split."""
    return _positive_int("DKW_SAMPLE_PER_CATEGORY")


def study_db_url() -> str | None:
    return _env("DKW_STUDY_DB") or None


def admin_password() -> str | None:
    return os.environ.get("DKW_ADMIN_PASSWORD") or None


def study_fake_keywords() -> bool:
    return _flag("DKW_STUDY_FAKE_KEYWORDS")


def reference_dir() -> Path:
    """``DKW_REFERENCE_DIR`` or the repository's ``docs/results``."""
    raw = _env("DKW_REFERENCE_DIR")
    return Path(raw).expanduser().resolve() if raw else PROJECT_ROOT / "docs" / "results"


#: Deployment modes of the app (``DKW_MODE``).
MODES = ("explorer", "study")


def app_mode() -> str:
    """``DKW_MODE``: ``explorer`` (default) or ``study``; anything else is an error."""
    value = (_env("DKW_MODE") or "explorer").lower()
    if value not in MODES:
        raise InputError(f"DKW_MODE must be one of {', '.join(MODES)}, got {value!r}")
    return value


def app_host() -> str:
    """``DKW_HOST``: the address ``make run`` listens on (default this machine only)."""
    return _env("DKW_HOST") or "127.0.0.1"


def app_port() -> str:
    """``PORT``: the port ``make run`` listens on (default 8501)."""
    return _env("PORT") or "8501"


def admin_token() -> str | None:
    """``DKW_ADMIN_TOKEN``: the one-time admin token the launcher generated (None: none given)."""
    return _env("DKW_ADMIN_TOKEN") or None


def dask_scheduler() -> str | None:
    """``DKW_DASK_SCHEDULER``: a Dask scheduler address (``tcp://host:8786``) or ``local:N`` (a
    ``LocalCluster`` of N worker processes) for ``prepare``, batch ``keywords``, ``evaluate`` and
    ``search``; the command line's ``--scheduler`` wins. None: the single-machine path."""
    return _env("DKW_DASK_SCHEDULER") or None
