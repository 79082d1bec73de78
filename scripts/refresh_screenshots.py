"""Refresh the README's screenshots (docs/screenshots/*.png) on the full 20 Newsgroups.

    nice -n 10 .venv/bin/python scripts/refresh_screenshots.py

Prepares full 20ng in DKW_DATA_DIR if needed (about 5 minutes on two free cores; cached
afterwards), then runs the opt-in browser test ``tests/app/test_browser.py::
test_refresh_readme_screenshots`` with ``DKW_SCREENSHOTS=1``: Home, Documents with the paper's
example's keywords (and the phrases behind its first rf keyword marked), Categories
(comp.graphics beside sci.space), Metrics, and the judge page of a small 20ng study. Needs
Debian's Chromium and the 20ng archive (DKW_ARCHIVES). Look at the PNGs before committing them.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


def main() -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel

    os.environ.pop("DKW_SAMPLE_PER_CATEGORY", None)
    corpus = load_corpus("20ng")
    if not KeywordModel.is_prepared(corpus):
        print("preparing full 20ng (tagging and the 90 nearest words of every phrase)…", flush=True)
        KeywordModel.prepare(corpus, progress=lambda f, m: print(f"  {100 * f:5.1f} % {m}", flush=True))
    from dkw_core.config import data_dir

    # explicit: the test session would otherwise work in a private temporary DKW_DATA_DIR
    env = {**os.environ, "DKW_SCREENSHOTS": "1", "DKW_DATA_DIR": str(data_dir())}
    cmd = [sys.executable, "-m", "pytest", "tests/app/test_browser.py::test_refresh_readme_screenshots", "-q",
           "-p", "no:cacheprovider"]
    return subprocess.call(cmd, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
