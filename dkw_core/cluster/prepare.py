"""Corpus preparation (docs/method.md steps 1–3) on a Dask cluster, written in the cache
format of the single-machine path (:func:`dkw_core.keywords.index.build_index`), so that the
app, the evaluation and the study read it unchanged — and find the same arrays.

The task graph, all of it run on workers:

==================  ==========================================================================
``manifest``        loads the corpus once on a worker: its cache key and document count (the
                    client holds these numbers only, never a text)
``tag[p]``          documents ``[a, b)`` of partition p: tagged with spaCy (loaded once per
                    worker; texts already in the tag cache are not tagged again), candidate
                    phrases counted per document with partition-local phrase ids
``merge``           global phrase ids in order of first appearance — the order the
                    single-machine path gives them, so the documents x phrases matrix is
                    identical — and the unique unit tuples of Algorithm 1
``nearest[b]``      blocks of unique phrase vectors, aligned to the 1,024-row batches of
                    :func:`dkw_core.neighbours.nearest`, so every GEMM has the rows it has on
                    one machine; the vocabulary matrix is built once per worker
``write``           the index folder (``save_index``) and the tag cache, on a worker
==================  ==========================================================================

Only the single ``merge`` task sees every distinct phrase: that is where this design stops
scaling (BENCHMARKS.md, "Past one machine").
"""
from __future__ import annotations

import operator
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .. import cache
from ..types import DEFAULT_K, Progress, report
from .refs import CorpusRef
from .scheduler import run, worker_env

PARTITION_DOCS = 500        # documents per tagging task
NEAREST_BLOCK = 16 * 1024   # unique phrase vectors per nearest-words task (a multiple of nearest()'s batch)
_TAGS: cache.Memo = cache.Memo(maxsize=1)  # a worker's copy of the tag cache it started from


@dataclass
class ClusterPrepared:
    """What the client learns of a preparation: numbers, never texts or matrices."""

    key: str
    name: str
    path: Path
    documents: int
    phrases: int
    unique_vectors: int
    without_keywords: int
    tagged: int
    words: int
    seconds: float
    cached: bool = False
    phases: dict[str, float] | None = None  # wall seconds: tag, merge, nearest, write


# -- tasks (run on workers) ------------------------------------------------------------------------
def _manifest(ref: CorpusRef) -> dict:
    from ..phrases import tag_cache_file

    corpus = ref.load()
    return {"key": corpus.key, "name": corpus.name, "documents": len(corpus.documents),
            "tag_file": str(tag_cache_file(corpus.name))}


def _cached_tags(path: Path) -> dict:
    """The tag cache with the chunks of an unfinished single-machine tagging (phrases.load_tag_cache)."""
    from ..phrases import tag_parts_folder

    stamps = []
    for target in (path, tag_parts_folder(path)):
        try:
            stat = target.stat()
        except OSError:
            continue
        stamps.append((str(target), stat.st_mtime_ns, stat.st_size))
    if not stamps:
        return {}
    from ..phrases import load_tag_cache

    return _TAGS.get(tuple(stamps), lambda: load_tag_cache(path))


def _tag_partition(ref: CorpusRef, start: int, stop: int, tag_file: str) -> tuple[dict, dict]:
    """(new tag-cache entries, phrase counts of documents [start, stop) with local ids)."""
    from ..keywords.index import count_phrases
    from ..phrases import TaggedDoc, corpus_tagger

    docs = ref.load().documents[start:stop]
    cached = _cached_tags(Path(tag_file))
    hashes = [cache.text_hash(d.text) for d in docs]
    todo = list(dict.fromkeys(h for h in hashes if h not in cached))
    texts = {h: d.text for h, d in zip(hashes, docs)}
    new: dict[str, tuple[str, str]] = {}
    words = 0
    for h, tagged in zip(todo, corpus_tagger().tag_many((texts[h] for h in todo), n_process=1)):
        new[h] = (tagged.text, tagged.tags)
        words += len(tagged.tags)
    tagged_docs = [TaggedDoc(*(new.get(h) or cached[h])) for h in hashes]
    phrases, indptr, indices, data = count_phrases(tagged_docs)
    part = {"phrases": phrases, "indptr": indptr, "indices": indices, "data": data,
            "empty_text": np.asarray([not t.text for t in tagged_docs], dtype=bool), "tagged": len(todo), "words": words}
    return new, part


def _merge(vectors_path: str | None, n_docs: int, *parts: dict) -> dict:
    """Global phrase ids in first-appearance order, the documents x phrases matrix, unique units."""
    from ..keywords.index import unique_units
    from ..vectors import load_vectors

    phrase_id: dict[str, int] = {}
    indptr, indices, data = [np.zeros(1, dtype=np.int64)], [], []
    offset = 0
    for part in parts:
        local = np.fromiter((phrase_id.setdefault(p, len(phrase_id)) for p in part["phrases"]), dtype=np.int64,
                            count=len(part["phrases"]))
        indices.append(local[part["indices"]])
        data.append(part["data"])
        indptr.append(part["indptr"][1:] + offset)
        offset += len(part["indices"])
    phrases = list(phrase_id)
    doc_phrase = sp.csr_matrix((np.concatenate(data).astype(np.float32), np.concatenate(indices).astype(np.int64),
                                np.concatenate(indptr).astype(np.int64)), shape=(n_docs, len(phrases)))
    vectors = load_vectors(vectors_path)
    phrase_uid, units = unique_units(vectors, phrases)
    return {"phrases": phrases, "doc_phrase": doc_phrase, "phrase_uid": phrase_uid, "units": units,
            "vocabulary_size": len(vectors.cropped_words), "vectors": vectors.name,
            "empty_text": np.concatenate([p["empty_text"] for p in parts]) if parts else np.zeros(0, bool)}


def _units(merged: dict, start: int, stop: int) -> list:
    return merged["units"][start:stop]


def _nearest_block(units: list, vectors_path: str | None, spec: str, k_max: int) -> tuple[np.ndarray, np.ndarray]:
    from ..neighbours import searcher
    from ..vectors import load_vectors

    vectors = load_vectors(vectors_path)
    return searcher(vectors, spec).nearest(vectors.compose(units), k_max)


def _write(ref: CorpusRef, path: str, spec: str, k_max: int, merged: dict, *blocks) -> dict:
    """Save the index exactly as ``KeywordModel.prepare`` does; returns its numbers."""
    from ..keywords.index import NeighbourIndex, document_problems, save_index

    corpus = ref.load()
    idx = np.concatenate([b[0] for b in blocks]) if blocks else np.zeros((0, min(k_max, merged["vocabulary_size"])), np.int32)
    sims = np.concatenate([b[1] for b in blocks]) if blocks else np.zeros(idx.shape, np.float32)
    idx = idx.astype(np.uint16 if merged["vocabulary_size"] < 65536 else np.int32)
    index = NeighbourIndex(merged["phrases"], merged["doc_phrase"], merged["phrase_uid"], idx, sims.astype(np.float16))
    ids = [d.id for d in corpus.documents]
    found = document_problems(ids, merged["empty_text"], index, merged["vectors"])
    meta = {"corpus": corpus.key, "vectors": merged["vectors"], "k_max": k_max, "neighbours": spec,
            "doc_ids": ids, "problems": found,
            "vocabulary_size": merged["vocabulary_size"]}
    save_index(Path(path), index, meta)
    return {"phrases": len(index.phrases), "unique_vectors": int(idx.shape[0]), "without_keywords": len(found)}


def _write_tags(tag_file: str, *news: dict) -> int:
    """Add the partitions' new entries to the tag cache (read again here: the newest copy)."""
    from ..phrases import load_tag_cache, tag_parts_folder, write_tag_cache

    path = Path(tag_file)
    current = load_tag_cache(path)
    added = 0
    for new in news:
        for h, entry in new.items():
            if h not in current:
                current[h] = entry
                added += 1
    if added or tag_parts_folder(path).is_dir():
        write_tag_cache(path, current)
    return added


# -- the client side -----------------------------------------------------------------------------
def prepare_on_cluster(client, ref: CorpusRef, *, vectors_path: str | None = None, k_max: int = DEFAULT_K,
                       neighbours: str | None = None, partition_docs: int = PARTITION_DOCS,
                       block: int = NEAREST_BLOCK, progress: Progress | None = None,
                       force: bool = False) -> ClusterPrepared:
    """Prepare ``ref``'s corpus on ``client``'s cluster into the shared cache (see the module)."""
    from distributed import as_completed

    from ..errors import InputError
    from ..keywords.index import index_path, read_meta
    from ..neighbours import check_prepare
    from ..validation import check_k_max
    from ..vectors import load_vectors, vectors_name

    check_k_max(k_max)
    if block % 1024:
        raise InputError("the nearest-words block must be a multiple of 1,024 rows")
    start = time.perf_counter()
    env = worker_env()
    # k_max and the neighbours spec against the vectors' cropped vocabulary, as on one machine
    # (KeywordModel.prepare), before any task is submitted: the same refusal and the same cache path
    k_max, spec = check_prepare(k_max, neighbours, load_vectors(vectors_path))

    def submit(fn, *args, **kw):
        return client.submit(run, env, fn, *args, pure=False, **kw)

    report(progress, 0.0, f"loading {ref.dataset} on a worker")
    info = submit(_manifest, ref).result()
    path = index_path(info["key"], vectors_name(vectors_path), k_max, spec)
    meta = None if force else read_meta(path)
    if meta is not None:
        return ClusterPrepared(info["key"], info["name"], path, info["documents"], -1, -1, len(meta.get("problems", {})), 0, 0,
                               time.perf_counter() - start, cached=True)
    n, tag_file = info["documents"], info["tag_file"]
    if n == 0:
        raise InputError(f"{ref.dataset}: the corpus has no documents")
    bounds = [(a, min(n, a + partition_docs)) for a in range(0, n, partition_docs)]
    tagged = [submit(_tag_partition, ref, a, b, tag_file) for a, b in bounds]
    done = 0
    for _ in as_completed(tagged):
        done += 1
        report(progress, 0.6 * done / max(1, len(tagged)), f"tagged {done}/{len(tagged)} partitions")
    phases = {"tag": time.perf_counter() - start}
    news = [client.submit(operator.getitem, f, 0) for f in tagged]
    parts = [client.submit(operator.getitem, f, 1) for f in tagged]
    stats = client.gather([client.submit(lambda p: (p["tagged"], p["words"]), p) for p in parts])
    tags_written = submit(_write_tags, tag_file, *news)
    report(progress, 0.62, "merging phrases of every partition")
    merged = submit(_merge, vectors_path, n, *parts)
    n_units = client.submit(lambda m: len(m["units"]), merged).result()
    phases["merge"] = time.perf_counter() - start - sum(phases.values())
    workers = list(client.scheduler_info()["workers"]) or [None]
    blocks = []
    for i, a in enumerate(range(0, n_units, block)):
        units = client.submit(_units, merged, a, min(n_units, a + block))
        where = dict(workers=[workers[i % len(workers)]], allow_other_workers=True) if workers[0] else {}
        blocks.append(submit(_nearest_block, units, vectors_path, spec, k_max, **where))
    done = 0
    for _ in as_completed(blocks):
        done += 1
        report(progress, 0.65 + 0.3 * done / max(1, len(blocks)), f"nearest words: {done}/{len(blocks)} blocks")
    phases["nearest"] = time.perf_counter() - start - sum(phases.values())
    report(progress, 0.96, "writing the prepared corpus")
    numbers = submit(_write, ref, str(path), spec, k_max, merged, *blocks).result()
    tags_written.result()
    phases["write"] = time.perf_counter() - start - sum(phases.values())
    report(progress, 1.0, f"prepared {info['key']} on the cluster")
    return ClusterPrepared(info["key"], info["name"], path, n, numbers["phrases"], numbers["unique_vectors"],
                           numbers["without_keywords"], sum(t for t, _ in stats), sum(w for _, w in stats),
                           time.perf_counter() - start, phases=phases)
