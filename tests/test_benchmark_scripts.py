"""Every entry script of ``benchmarks/`` and ``scripts/`` runs as BENCHMARKS.md and the docs write
it (``.venv/bin/python benchmarks/x.py …`` from the repository root) in a fresh clone: no
PYTHONPATH and dkw not pip-installed, and the ``dkw_core`` it then imports is the clone's own.

The scripts are run with ``--help`` from a copy of the repository's ``dkw_core/``, ``benchmarks/``
and ``scripts/`` in a temporary folder, by ``python -I`` (no PYTHONPATH, no user site, no current
folder on the path) through a small launcher that takes the editable install's finder (which
points at another checkout) off ``sys.meta_path`` — what a clone before ``pip install -e .``
sees — and then does what ``python script.py`` does: the script's folder first on the path, the
script run as ``__main__``. Besides the usage line, the launcher reports where ``dkw_core`` is
found once the script has set itself up, so a script that imports ``dkw_core`` only inside
``main`` is checked too."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Modules of these folders that other scripts import; not run on their own.
HELPERS = {"benchmarks/measure.py", "benchmarks/repo_root.py", "scripts/repo_root.py", "scripts/mkdocs_hooks.py"}
ENTRY_SCRIPTS = sorted(str(p.relative_to(ROOT)) for folder in ("benchmarks", "scripts")
                       for p in (ROOT / folder).glob("*.py") if str(p.relative_to(ROOT)) not in HELPERS)

LAUNCHER = r"""
import importlib.util, runpy, sys
from pathlib import Path

sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
script = Path(sys.argv[1]).resolve()
sys.argv = sys.argv[1:]
sys.path.insert(0, str(script.parent))
code = 0
try:
    runpy.run_path(str(script), run_name="__main__")
except SystemExit as exc:
    code = exc.code or 0
spec = importlib.util.find_spec("dkw_core")
print("dkw_core from:", spec.origin if spec else None)
sys.exit(code)
"""


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The package, the script folders and the tests' helpers, as a fresh clone has them."""
    root = tmp_path_factory.mktemp("clone")
    for folder in ("dkw_core", "benchmarks", "scripts", "tests"):  # tests/support: a browser benchmark's helpers
        shutil.copytree(ROOT / folder, root / folder, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_helper_list_names_existing_modules_and_the_path_helper_is_one_file():
    assert all((ROOT / h).is_file() for h in HELPERS)
    assert len(ENTRY_SCRIPTS) >= 15
    # one definition of the path helper: the benchmarks' is a link to the scripts'
    assert (ROOT / "benchmarks" / "repo_root.py").resolve() == (ROOT / "scripts" / "repo_root.py").resolve()


@pytest.mark.parametrize("script", ENTRY_SCRIPTS)
def test_script_runs_as_written_without_pythonpath(clone, script):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([sys.executable, "-I", "-c", LAUNCHER, script, "--help"], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "usage:" in res.stdout
    origin = res.stdout.strip().splitlines()[-1].removeprefix("dkw_core from: ")
    assert Path(origin).resolve() == (clone / "dkw_core" / "__init__.py").resolve(), res.stdout[-500:]
