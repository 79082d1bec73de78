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

import repo_root  # noqa: F401  (puts the repository root first on sys.path)

CORPORA = ("20ng", "r8", "r52", "webkb")
LIMIT = 2_000_000  # the repository's size rule: every file under 2 MB


def main(argv=None) -> int:
    from dkw_core.corpora import load_corpus
    from dkw_core.keywords import KeywordModel
    from dkw_core.keywords.shipped import SHIPPED_DIR, ship
    from dkw_core.types import DEFAULT_K

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
