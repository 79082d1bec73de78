"""The third-party extractors' reference results: YAKE! and TextRank evaluated the paper's way
on a built-in corpus, beside dkw's default (ig, K = 90, label-free-top1) and tf-idf + LinearSVC,
compared per document at every N (docs/extractors.md).

    DKW_DATA_DIR=/work/data-full nice .venv/bin/python scripts/extractor_results.py --dataset r8 \
        [--out docs/results/extractors/r8.json]

Extracted keywords are cached per document (``cache/v3/extractor-keywords``), so a re-run (or a
run killed midway) extracts only what is missing; the Metrics page reads the file through
``dkw_core.evaluation.reference.load_reference``.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

from dkw_core.errors import DkwError  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    from dkw_core.evaluation.experiments import load_experiment
    from dkw_core.evaluation.keyword_methods import REFERENCE_METHODS, extractor_payload
    from dkw_core.evaluation.search import DEFAULT_N_GRID

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--method", action="append", help=f"default: {', '.join(REFERENCE_METHODS)}")
    ap.add_argument("--tops", default=",".join(map(str, DEFAULT_N_GRID)))
    ap.add_argument("--out", default=None, help="default docs/results/extractors/<dataset>.json")
    args = ap.parse_args(argv)
    try:
        exp = load_experiment(args.dataset)
        payload = extractor_payload(exp, methods=args.method or REFERENCE_METHODS,
                                    tops=[int(n) for n in args.tops.split(",")],
                                    command="python scripts/extractor_results.py " + shlex.join(sys.argv[1:] if argv is None
                                                                                                else argv))
    except DkwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out) if args.out else ROOT / "docs" / "results" / "extractors" / f"{exp.dataset}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, out)
    n10 = payload["comparisons"][payload["dkw_default"]["protocol"]]["by_top"].get("10", [])
    for row in n10:
        print(f"N=10 {row['a']} vs {row['b']}: {row['f1_a']:.2f} vs {row['f1_b']:.2f}, diff {row['diff']:+.2f} "
              f"[{row['ci_low']:+.2f}, {row['ci_high']:+.2f}], McNemar p={row['p_mcnemar']:.3g}, Holm {row['p_holm']:.3g}")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
