"""No silent skips: with ``DKW_REQUIRE_ARCHIVES=1`` (set by ``.ci/run``) a test that would skip
because a corpus archive is missing fails instead, naming the file.

Every skip for a missing archive names the archive file in its reason (``<name>.tar.gz``);
this hook turns such a skip into a failure when the switch is on. Other skips (no Chromium,
an optional package) are untouched."""
from __future__ import annotations

import os
import re

import pytest

SWITCH = "DKW_REQUIRE_ARCHIVES"
_ARCHIVE = re.compile(r"[\w.-]+\.(?:tar\.gz|tgz|zip|tar\.bz2)")


def required() -> bool:
    return os.environ.get(SWITCH, "").strip() not in ("", "0", "false", "no")


def missing_archive(reason: str) -> str | None:
    """The archive file a skip reason names, or None."""
    m = _ARCHIVE.search(reason or "")
    return m.group(0) if m else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and required()):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    name = missing_archive(reason)
    if name is None:
        return
    folder = os.environ.get("DKW_ARCHIVES") or "data/archives"
    if name.endswith(".zip"):  # the keyphrase gold standards (benchmarks/keyphrase_gold.py)
        folder = os.environ.get("DKW_KEYPHRASES") or "data/keyphrases"
    report.outcome = "failed"
    report.longrepr = (f"{SWITCH}=1: corpus archive {name} is missing from {folder} "
                       f"(the test needs it; put the file there or unset {SWITCH})")
