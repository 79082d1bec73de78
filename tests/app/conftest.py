from __future__ import annotations

from pathlib import Path

import pytest

from dkw_app import resources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_caches(monkeypatch, tmp_path):
    """Every test starts with empty Streamlit caches and its own data folder."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DKW_SAMPLE_PER_CATEGORY", raising=False)
    resources.clear_all()
    yield
    resources.clear_all()


def page(path: str) -> str:
    return str(ROOT / path)


ARCHIVE_20NG = "20news-bydate.tar.gz"


def real_archives() -> Path | None:
    """The folder holding the real 20 Newsgroups archive, or None."""
    import os

    for candidate in (os.environ.get("DKW_ARCHIVES"), ROOT.parent / "shared" / "datasets",
                      "/work/shared/datasets"):
        if candidate and (Path(candidate) / ARCHIVE_20NG).is_file():
            return Path(candidate)
    return None


@pytest.fixture(scope="module")
def slice_20ng(tmp_path_factory) -> Path:
    """Archives folder with only 20 Newsgroups (so pages load no other corpus)."""
    found = real_archives()
    if found is None:
        pytest.skip(f"{ARCHIVE_20NG} not found (set DKW_ARCHIVES)")
    folder = tmp_path_factory.mktemp("archives")
    (folder / ARCHIVE_20NG).symlink_to(found / ARCHIVE_20NG)
    return folder
