"""How ``make test`` shares the suite between its pytest-xdist workers (``-n 2 --dist loadfile``):
a test file runs whole on one worker, in its order, as in a serial run (its module fixtures are
built once; what its tests leave in the worker's data folder is there for the next), and the files
of a ``SHARED`` folder run together on one worker because they share an expensive session fixture
that each worker would otherwise build: tests/cluster's 2-process Dask cluster and the 20ng slice
prepared on it and on one machine.

An ``xdist_group`` mark would say the same, but with pytest 9.2 pytest-xdist 3.8 loses the group
(it rewrites a node id pytest no longer reads: pytest-dev/pytest-xdist#1386), so the rule lives in
the scheduler, which sees node ids only."""
from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

SHARED = ("tests/cluster/",)


class FileScheduling(LoadFileScheduling):
    """``--dist loadfile`` with each ``SHARED`` folder one unit of work."""

    def _split_scope(self, nodeid: str) -> str:
        for folder in SHARED:
            if nodeid.startswith(folder):
                return folder
        return super()._split_scope(nodeid)
