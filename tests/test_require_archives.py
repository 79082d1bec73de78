"""DKW_REQUIRE_ARCHIVES=1 turns a skip for a missing corpus archive into a failure naming it."""
import os
import subprocess
import sys

from conftest import ROOT

TEST = '''
import pytest

@pytest.mark.skipif(True, reason="nothere-bydate.tar.gz not in DKW_ARCHIVES")
def test_needs_archive():
    pass

def test_skips_for_another_reason():
    pytest.skip("Debian chromium is not installed")
'''


def _run(tmp_path, switch: str | None):
    (tmp_path / "test_probe.py").write_text(TEST)
    env = {k: v for k, v in os.environ.items() if k != "DKW_REQUIRE_ARCHIVES"}
    if switch is not None:
        env["DKW_REQUIRE_ARCHIVES"] = switch
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.support.archives", "-p", "no:cacheprovider",
                           "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path / "test_probe.py")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


def test_missing_archive_fails_naming_the_file_when_required(tmp_path):
    res = _run(tmp_path, "1")
    assert res.returncode == 1, res.stdout
    assert "corpus archive nothere-bydate.tar.gz is missing" in res.stdout, res.stdout
    assert "1 skipped, 1 error" in res.stdout  # the other skip stays a skip


def test_without_the_switch_it_skips(tmp_path):
    res = _run(tmp_path, None)
    assert res.returncode == 0 and "2 skipped" in res.stdout, res.stdout


def test_a_missing_keyphrase_zip_fails_naming_its_folder(tmp_path):
    """The keyphrase gold standards' zips live in DKW_KEYPHRASES (default data/keyphrases), not with
    the corpus archives: the failure names that folder."""
    (tmp_path / "test_probe.py").write_text(
        "import pytest\n\n@pytest.mark.skipif(True, reason='Inspec.zip not in data/keyphrases (DKW_KEYPHRASES)')\n"
        "def test_needs_zip():\n    pass\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DKW_KEYPHRASES", "DKW_ARCHIVES")}
    env.update(DKW_REQUIRE_ARCHIVES="1", PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.support.archives", "-p", "no:cacheprovider",
                          "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path / "test_probe.py")],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert res.returncode == 1, res.stdout
    assert "corpus archive Inspec.zip is missing from data/keyphrases" in res.stdout, res.stdout
