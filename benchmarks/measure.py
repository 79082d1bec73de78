"""The one measuring helper of the benchmark recipes: peak memory and CPU seconds of a process
tree, sampled in a background thread.

    from measure import TreeSampler
    with TreeSampler() as tree:              # this process and its children
        ...
    tree.peak_pss_mb, tree.peak_rss_mb, tree.cpu_seconds

    tree = TreeSampler(popen.pid)            # a child process and its descendants
    ...; popen.wait(); tree.stop()

PSS (proportional set size) splits shared pages between the processes that map them, so the
sum over a tree is not inflated by copy-on-write children; RSS is given beside it (root and
descendants apart). CPU seconds are the last sample of every process seen (user + system):
what a loaded machine inflates least.
"""
from __future__ import annotations

import resource
import threading


def peak_rss_mib() -> float:
    """Peak resident memory of this process (``getrusage``, KiB → MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class TreeSampler:
    """Samples a process (default: this one) and its descendants every ``interval`` seconds."""

    def __init__(self, pid: int | None = None, *, interval: float = 0.2) -> None:
        import psutil

        self._psutil = psutil
        self.root = psutil.Process(pid)
        self.interval = interval
        self.peak_pss_mb = self.peak_rss_mb = self.peak_root_rss_mb = self.peak_descendants_rss_mb = 0.0
        self._cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @property
    def cpu_seconds(self) -> float:
        return sum(self._cpu.values())

    @property
    def root_cpu_seconds(self) -> float:
        return self._cpu.get(self.root.pid, 0.0)

    def sample(self) -> None:
        psutil = self._psutil
        try:
            procs = [self.root, *self.root.children(recursive=True)]
        except psutil.Error:
            return
        pss = rss = root_rss = 0
        for p in procs:
            try:
                info = p.memory_full_info()
                times = p.cpu_times()
            except (psutil.Error, OSError):
                continue
            pss += getattr(info, "pss", info.rss)
            rss += info.rss
            if p.pid == self.root.pid:
                root_rss = info.rss
            self._cpu[p.pid] = max(self._cpu.get(p.pid, 0.0), times.user + times.system)
        self.peak_pss_mb = max(self.peak_pss_mb, pss / 2**20)
        self.peak_rss_mb = max(self.peak_rss_mb, rss / 2**20)
        self.peak_root_rss_mb = max(self.peak_root_rss_mb, root_rss / 2**20)
        self.peak_descendants_rss_mb = max(self.peak_descendants_rss_mb, (rss - root_rss) / 2**20)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def stop(self) -> TreeSampler:
        self._stop.set()
        self._thread.join()
        return self

    def __enter__(self) -> TreeSampler:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
