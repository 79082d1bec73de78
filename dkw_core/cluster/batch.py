"""Batch keyword export (:mod:`dkw_core.keywords.batch`) streamed through a Dask cluster.

The client submits one block at a time and keeps at most ``window`` blocks in flight; it
yields a block's records as soon as that block and every block before it are done, in input
order, then lets the workers forget it. Each worker loads the prepared model from the shared
cache once (:class:`~dkw_core.cluster.refs.ModelRef`). So the client holds at most ``window``
blocks of texts and records, whatever the size of the split or of the collection; and since a
worker runs the very functions the single-machine path runs, on the same blocks (``BLOCK``
new texts; a split's rows ranked independently), the records are identical.
"""
from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Sequence

from ..keywords.batch import BLOCK
from ..types import NEW_TEXT_PROTOCOL, POSTERIOR_PROTOCOLS, Progress, report
from .refs import ModelRef, ShippedRef
from .scheduler import run, worker_env

SPLIT_BLOCK = 2000  # documents of a split per task


def _split_size(ref: ModelRef, split: str, protocol: str) -> int:
    model = ref.load()
    if protocol in POSTERIOR_PROTOCOLS:
        model.posteriors(split)  # fitted once here and cached beside the model, not by every worker at once
    return len(model.doc_ids(split))


def _fit_posterior(ref: ModelRef) -> int:
    return len(ref.load().posteriors("all"))


def _split_block(ref: ModelRef, split: str, start: int, stop: int, metrics: list[str], k: int, top: int,
                 protocol: str, about: float = 1.0) -> list[dict]:
    from ..keywords.batch import split_records

    return split_records(ref.load(), split, metrics=metrics, k=k, top=top, protocol=protocol, start=start, stop=stop,
                         about=about)


def _text_block(ref: ModelRef | ShippedRef, items: list[tuple[str, str]], metrics: list[str], k: int, top: int,
                protocol: str = NEW_TEXT_PROTOCOL, about: float | None = 1.0) -> list[dict]:
    from ..keywords.batch import text_records

    return list(text_records(ref.load(), items, metrics=metrics, k=k, top=top, n_process=1, block=len(items),
                             protocol=protocol, about=about))


def _fit_posterior_once(client, ref: ModelRef | ShippedRef, protocol: str, about: float | None) -> None:
    """The prepared corpus's category posterior fitted once and cached beside the model, not by
    every worker at once, when the workers read it: a posterior protocol, or keyphrases (their
    corpus fit reads the top P under every protocol). Shipped statistics carry theirs."""
    if isinstance(ref, ModelRef) and (protocol in POSTERIOR_PROTOCOLS or about is None or about < 1.0):
        client.submit(run, worker_env(), _fit_posterior, ref, pure=False).result()


def _window(client, window: int | None) -> int:
    """Blocks in flight: ``window``, or two per worker."""
    return window or 2 * max(1, len(client.scheduler_info()["workers"]))


def _blocks_in_order(client, calls: Iterable[tuple], window: int, total: int | None,
                     progress: Progress | None, unit: str) -> Iterator[list[dict]]:
    """Each call's records (a list), in the order of the calls, ``window`` calls in flight."""
    env = worker_env()
    pending: deque = deque()
    done = 0
    calls = iter(calls)
    while True:
        while len(pending) < window:
            call = next(calls, None)
            if call is None:
                break
            pending.append(client.submit(run, env, *call, pure=False))
        if not pending:
            break
        records = pending.popleft().result()
        done += len(records)
        report(progress, done / total if total else 0.0, f"{done:,} {unit}")
        yield records
    report(progress, 1.0, f"{done:,} {unit}")


def split_records_on_cluster(client, ref: ModelRef, split: str, *, metrics: Sequence[str], k: int, top: int,
                             protocol: str, block: int = SPLIT_BLOCK, window: int | None = None,
                             progress: Progress | None = None, about: float = 1.0) -> Iterator[dict]:
    """:func:`dkw_core.keywords.batch.split_records` of every document of ``split``, block by block
    (``about`` as there: below 1 the documents' keyphrases)."""
    env = worker_env()
    n = client.submit(run, env, _split_size, ref, split, protocol, pure=False).result()
    calls = ((_split_block, ref, split, a, min(n, a + block), list(metrics), k, top, protocol, about)
             for a in range(0, n, block))
    return itertools.chain.from_iterable(_blocks_in_order(client, calls, _window(client, window), n, progress,
                                                          "documents"))


def text_records_on_cluster(client, ref: ModelRef | ShippedRef, items: Iterable[tuple[str, str]], *,
                            metrics: Sequence[str], k: int, top: int, block: int = BLOCK, window: int | None = None,
                            total: int | None = None, progress: Progress | None = None,
                            protocol: str = NEW_TEXT_PROTOCOL, about: float | None = 1.0) -> Iterator[dict]:
    """:func:`dkw_core.keywords.batch.text_records` of a stream of new texts, ``block`` at a time
    (``about`` as there: 1 the paper's words, below 1 or ``None`` the texts' keyphrases); ``ref``
    a prepared model, or the shipped statistics (:class:`~.refs.ShippedRef`: nothing prepared)."""
    items = iter(items)
    _fit_posterior_once(client, ref, protocol, about)

    def calls():
        while chunk := list(itertools.islice(items, block)):
            yield (_text_block, ref, chunk, list(metrics), k, top, protocol, about)

    return itertools.chain.from_iterable(_blocks_in_order(client, calls(), _window(client, window), total, progress,
                                                          "texts"))


def text_chunks_on_cluster(client, ref: ModelRef | ShippedRef, *, metrics: Sequence[str], k: int, top: int,
                           protocol: str = NEW_TEXT_PROTOCOL, window: int | None = None, about: float | None = 1.0):
    """A runner for :func:`dkw_core.keywords.stream.stream_keywords`: each chunk of ``(id, text)``
    computed by a worker, the chunks' records returned in order, ``window`` chunks in flight."""
    window = _window(client, window)
    _fit_posterior_once(client, ref, protocol, about)

    def runner(chunks: Iterator[list[tuple[str, str]]]) -> Iterator[list[dict]]:
        calls = ((_text_block, ref, items, list(metrics), k, top, protocol, about) for items in chunks)
        return _blocks_in_order(client, calls, window, None, None, "texts")

    return runner
