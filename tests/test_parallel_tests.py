"""`make test` runs the suite on two pytest-xdist workers (tests/support/xdist.py): a test file is
one unit of work, tests/cluster one unit for all its files (one Dask cluster, one twin preparation),
and each worker has its own data folder (tests/conftest.py)."""
from __future__ import annotations

import os

import pytest

from tests.support.xdist import FileScheduling


def scope(nodeid: str) -> str:
    return object.__new__(FileScheduling)._split_scope(nodeid)


def test_a_file_is_one_unit_and_the_cluster_folder_is_one():
    assert scope("tests/keywords/test_model.py::test_a") == scope("tests/keywords/test_model.py::test_b[x-1]") \
        == "tests/keywords/test_model.py"
    assert scope("tests/keywords/test_model.py::test_a") != scope("tests/keywords/test_batch.py::test_a")
    assert scope("tests/cluster/test_batch.py::test_a[label-aware]") == scope("tests/cluster/test_search.py::test_b") \
        == scope("tests/cluster/test_prepare.py::test_c") == "tests/cluster/"
    assert scope("tests/test_cluster_x.py::test_a") == "tests/test_cluster_x.py"


def test_every_test_session_writes_its_own_data_folder():
    """A worker's folder, or the serial session's; a DKW_DATA_DIR the caller set is kept instead."""
    if "DKW_TEST_DATA_DIR" not in os.environ:
        pytest.skip("DKW_DATA_DIR was set by the caller: the tests use it")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    assert os.path.basename(os.environ["DKW_DATA_DIR"]).startswith(f"dkw-test-{worker}-")
