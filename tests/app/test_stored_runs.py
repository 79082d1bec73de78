"""``dkw_app.stored_runs``: the Metrics page's tables kept on disk; the app's loaders stay cheap to import."""
from __future__ import annotations

from dkw_app import stored_runs


def test_a_metrics_table_is_computed_once_and_then_read_from_disk(monkeypatch, tmp_path):
    """The verdict's bootstrap made the Metrics page's first open slow on every fresh server: a
    table is kept on disk under its runs' key and the code's, so it is computed once."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    calls = []

    def compute(value):
        calls.append(value)
        return value

    assert stored_runs.disk_cached("verdict", ("runs-a", "r8"), lambda: compute({"text": "r8"})) == {"text": "r8"}
    assert stored_runs.disk_cached("verdict", ("runs-a", "r8"), lambda: compute({"text": "again"})) == {"text": "r8"}
    assert stored_runs.disk_cached("verdict", ("runs-b", "r8"), lambda: compute(None)) is None  # other runs: computed
    assert stored_runs.disk_cached("verdict", ("runs-b", "r8"), lambda: compute("not again")) is None  # None is kept too
    assert calls == [{"text": "r8"}, None]
    monkeypatch.setattr(stored_runs, "_CODE_KEY", ["other code"])
    assert stored_runs.disk_cached("verdict", ("runs-a", "r8"), lambda: compute("new code")) == "new code"


def test_the_pages_loaders_import_neither_scikit_learn_nor_scipy_stats():
    """Every page imports the app's loaders and caches on its first open; scikit-learn and scipy.stats (about a
    second and a half together) are imported where a classifier is fitted or a test is run, not
    there (BENCHMARKS.md, "Every page's first open")."""
    import subprocess
    import sys

    code = ("import sys, dkw_app.resources, dkw_app.tables, dkw_app.study_setup, dkw_core.study.service, "
            "dkw_core.study.analysis; print(sorted(m for m in ('sklearn', 'scipy.stats') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
