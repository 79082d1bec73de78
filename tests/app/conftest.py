from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.appcache import clear_app_caches

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_caches(monkeypatch, tmp_path):
    """Every test starts with empty Streamlit caches and its own data folder."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DKW_SAMPLE_PER_CATEGORY", raising=False)
    clear_app_caches()
    yield
    finish_jobs()
    clear_app_caches()


def finish_jobs(timeout: float = 30) -> None:
    """Wait for the background jobs a test started (a fake preparation: a moment), then forget them."""
    from dkw_app import jobs

    for job in jobs.all_jobs():
        if job.thread is not None:
            job.thread.join(timeout)
        jobs.forget(job.key)


def page(path: str) -> str:
    return str(ROOT / path)


ARCHIVE_20NG = "20news-bydate.tar.gz"


def real_archives() -> Path | None:
    """The (absolute) archives folder when it holds the real 20 Newsgroups archive, or None."""
    from dkw_core.config import archives_dir

    folder = archives_dir()
    return folder if (folder / ARCHIVE_20NG).is_file() else None


@pytest.fixture(scope="module")
def slice_20ng(tmp_path_factory) -> Path:
    """Archives folder with only 20 Newsgroups (so pages load no other corpus)."""
    found = real_archives()
    if found is None:
        from dkw_core.config import archives_dir

        pytest.skip(f"{ARCHIVE_20NG} not found in {archives_dir()} (DKW_ARCHIVES)")
    folder = tmp_path_factory.mktemp("archives")
    (folder / ARCHIVE_20NG).symlink_to(found / ARCHIVE_20NG)
    return folder
