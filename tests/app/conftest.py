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
