"""Write the shipped training statistics of the built-in corpora into ``dkw_core/shipped/``:
what a new text needs to get its keywords from a fresh clone, without preparing the corpus
(format: ``dkw_core/shipped/README.md``). Each corpus is prepared first if it is not cached in
``DKW_DATA_DIR`` (default GloVe 6B 50d, K = 90, plain cosine); ``manifest.json`` records each
file's size and the shipped posterior's agreement with the full one on the test split.

    DKW_DATA_DIR=/path/with/prepared/corpora .venv/bin/python scripts/ship_stats.py [--stats-only] [20ng r8 r52 webkb]

``--stats-only`` rewrites the statistics files alone (e.g. after a statistic was added to them)
and leaves the posterior files and their manifest figures as they are.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import repo_root  # noqa: F401  (puts the repository root first on sys.path)

from dkw_core import cache  # noqa: E402
from dkw_core.errors import InputError  # noqa: E402
from dkw_core.keywords.compact import CompactPosterior  # noqa: E402
from dkw_core.keywords.shipped import (  # noqa: E402
    FORMAT,
    SHIPPED_DIR,
    posterior_path,
    read_posterior,
    stats_path,
    vocabulary_hash,
)
from dkw_core.types import DEFAULT_K  # noqa: E402

if TYPE_CHECKING:
    from dkw_core.keywords.model import KeywordModel
    from dkw_core.metrics import CategoryStats
    from dkw_core.vectors import Vectors

CORPORA = ("20ng", "r8", "r52", "webkb")
LIMIT = 2_000_000  # the repository's size rule: every file under 2 MB


def _uint(a: np.ndarray) -> np.ndarray:
    """Integer counts in the smallest unsigned type (they are counts: exact)."""
    a = np.asarray(a, dtype=np.float64)
    if a.size and (np.any(a != np.rint(a)) or a.min() < 0):
        raise InputError("statistics to ship must be non-negative integer counts")
    top = a.max(initial=0)
    return a.astype(np.uint16 if top < 2 ** 16 else np.uint32 if top < 2 ** 32 else np.uint64)


def write_stats(path: Path, *, dataset: str, corpus_key: str, categories: list[str], stats: CategoryStats,
                k: int, vectors: Vectors, neighbours: str) -> None:
    """``<corpus>-k<K>-stats.npz``: the statistics over their non-zero columns, and their meta data."""
    own: dict[str, Any] = {} if stats.own_freq is None else {"own_freq": stats.own_freq}
    cols = np.flatnonzero(stats.term_freq.sum(axis=0) + stats.doc_freq.sum(axis=0)
                          + sum(o.sum(axis=0) for o in own.values()))
    from dkw_core.version import __version__

    meta = {"format": FORMAT, "dataset": dataset, "corpus_key": corpus_key, "k": int(k), "neighbours": neighbours,
            "vectors": vectors.name, "vocabulary_size": len(vectors.cropped_words),
            "vocabulary_hash": vocabulary_hash(vectors.cropped_words), "dkw_version": __version__}
    with cache.atomic_file(path) as tmp, tmp.open("wb") as fh:
        arrays: dict[str, Any] = {
            "meta": np.array(json.dumps(meta, sort_keys=True)), "categories": np.array(categories, dtype=str),
            "cols": cols.astype(np.uint32), "doc_freq": _uint(stats.doc_freq[:, cols]),
            "term_freq": _uint(stats.term_freq[:, cols]), "n_docs": _uint(stats.n_docs),
            **{name: _uint(o[:, cols]) for name, o in own.items()}}
        np.savez_compressed(fh, **arrays)


def write_posterior(path: Path, posterior: CompactPosterior) -> None:
    with cache.atomic_file(path) as tmp, tmp.open("wb") as fh:
        np.savez_compressed(fh, **posterior.arrays())


KEEP = 400_000
"""Coefficients kept per calibration fold in the shipped posterior (largest magnitude first)."""
BITS = 8
"""Bits per kept coefficient (integers scaled per category row)."""


def ship(model: KeywordModel, dataset: str, *, folder: Path | None = None, k: int = DEFAULT_K,
         keep: int | None = KEEP, bits: int = BITS, posterior: bool = True) -> dict:
    """Write a prepared corpus's training statistics at ``k`` and its compact posterior into
    ``folder`` (default ``dkw_core/shipped/``); return the files' sizes and how the compact
    posterior agrees with the full one on the test split (top-1 agreement, micro/macro-F1).
    ``posterior=False`` writes the statistics only (the posterior file is left as it is)."""
    from sklearn.metrics import f1_score

    folder = folder or SHIPPED_DIR
    folder.mkdir(parents=True, exist_ok=True)
    docs = model.corpus.documents
    stats = stats_path(dataset, k, folder)
    write_stats(stats, dataset=dataset, corpus_key=model.corpus.key, categories=list(model.categories),
                stats=model.category_stats(k), k=k, vectors=model.vectors, neighbours=model.neighbours)
    if not posterior:
        return {"dataset": dataset, "corpus_key": model.corpus.key, "k": k, "stats_bytes": stats.stat().st_size}
    full = model.posterior_model()
    compact = CompactPosterior.from_fitted(full, [docs[i].text for i in model.rows("train")], keep=keep, bits=bits)
    post = posterior_path(dataset, folder)
    write_posterior(post, compact)
    report = {"dataset": dataset, "corpus_key": model.corpus.key, "k": k, "keep": keep, "bits": bits,
              "stats_bytes": stats.stat().st_size, "posterior_bytes": post.stat().st_size}
    test = model.rows("test")
    if len(test):
        texts, gold = [docs[i].text for i in test], model._labels[test]
        a, b = full.predict(texts).argmax(axis=1), read_posterior(post).predict(texts).argmax(axis=1)
        report.update({"test_documents": len(test), "top1_agreement": float((a == b).mean()),
                       "micro_f1_full": float(f1_score(gold, a, average="micro")),
                       "micro_f1_shipped": float(f1_score(gold, b, average="micro")),
                       "macro_f1_full": float(f1_score(gold, a, average="macro")),
                       "macro_f1_shipped": float(f1_score(gold, b, average="macro"))})
    return report


def main(argv=None) -> int:
    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="*", default=list(CORPORA), help=f"default: {' '.join(CORPORA)}")
    ap.add_argument("--stats-only", action="store_true",
                    help="rewrite the statistics files only; the posterior files stay as they are")
    args = ap.parse_args(argv)
    manifest_path = SHIPPED_DIR / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else {}
    too_big = []
    for name in args.datasets:
        t0 = time.perf_counter()
        model = KeywordModel.prepare(load_corpus(name), k_max=DEFAULT_K)
        report = ship(model, name, k=DEFAULT_K, posterior=not args.stats_only)
        report["seconds"] = round(time.perf_counter() - t0, 1)
        # --stats-only: the posterior's figures (and the time of the run that wrote it) stay
        manifest[name] = ({**manifest.get(name, {}), "stats_bytes": report["stats_bytes"]} if args.stats_only
                          else report)
        print(json.dumps(report), flush=True)
        too_big += [f"{name}: {key} {report[key]:,}" for key in ("stats_bytes", "posterior_bytes")
                    if key in report and report[key] >= LIMIT]
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=2) + "\n", encoding="utf-8")
    if too_big:
        print("files over 2 MB: " + "; ".join(too_big), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
