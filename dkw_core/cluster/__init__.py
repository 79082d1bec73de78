"""dkw past one machine: the heavy steps on a Dask cluster (``--scheduler`` / ``DKW_DASK_SCHEDULER``).

* :mod:`.scheduler` — ``local:N`` or a scheduler address, the session (joblib's ``dask`` backend
  while open), the settings every task carries;
* :mod:`.refs` — what a task carries instead of data (a corpus, a prepared model or a built-in
  corpus's shipped statistics by name);
* :mod:`.prepare` — steps 1–3 on the cluster, written in the single-machine cache format;
* :mod:`.batch` — keyword export of a split or of new texts, streamed through the cluster.

Algorithm 2 and the evaluation grid reach the cluster through joblib
(:func:`dkw_core.evaluation.search.parameter_search`). Results are identical to the
single-machine path (tests/cluster/).
"""
from .prepare import ClusterPrepared, prepare_on_cluster
from .refs import CorpusRef, ModelRef, ShippedRef
from .scheduler import Scheduler, active_client, parse_scheduler, scheduler_from, session

__all__ = ["ClusterPrepared", "CorpusRef", "ModelRef", "Scheduler", "ShippedRef", "active_client",
           "parse_scheduler", "prepare_on_cluster", "scheduler_from", "session"]
