"""The third-party extractors' reference results: YAKE! and TextRank evaluated the paper's way
on a built-in corpus, beside dkw's default (DEFAULT_METRIC, K = 90, label-free-top1) and tf-idf + LinearSVC,
compared per document at every N (docs/extractors.md).

    nice .venv/bin/python scripts/extractor_results.py --dataset r8 [--out docs/results/extractors/r8.json]
    .venv/bin/python scripts/extractor_results.py --render docs/extractors.md   # the N = 10 table, from the files

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

BEGIN, END = "<!-- extractor-table:begin -->", "<!-- extractor-table:end -->"
ORDER = ["20ng", "r8", "r52", "webkb"]
NAMES = {"yake": "YAKE!", "textrank": "TextRank"}
#: What dkw's keywords read beyond the training statistics, named in its row (the extractors read the text alone).
PROTOCOL_READS = {"label-free-top1": " + the category a tf-idf classifier predicts",
                  "label-free-posterior": " + a tf-idf classifier's posterior", "label-aware": " + the gold category"}


def table(folder: Path | None = None) -> str:
    """The N = 10 table of docs/extractors.md, generated from ``docs/results/extractors/*.json``:
    each method's micro/macro-F1 and its per-document comparison with dkw's default."""
    from dkw_core.evaluation.comparisons import format_difference, format_p

    folder = folder or ROOT / "docs" / "results" / "extractors"
    files = sorted(folder.glob("*.json"), key=lambda p: ORDER.index(p.stem) if p.stem in ORDER else 99)
    lines = ["| corpus | method | micro-F1 | macro-F1 | micro-F1 difference to dkw (points, 95 % CI) "
             "| McNemar p (Holm over the pairs) |", "| --- | --- | --- | --- | --- | --- |"]
    for path in files:
        d = json.loads(path.read_text(encoding="utf-8"))
        dkw = d["dkw_default"]
        name = f"dkw {dkw['metric']} K{dkw['k']}"
        protocol = dkw["protocol"]
        at10 = {r["top"]: r for r in dkw["runs"]}[10]
        reads = PROTOCOL_READS.get(protocol, "")
        rows = [(f"dkw {dkw['metric']}, K = {dkw['k']}, {protocol}{reads}", at10, None)]
        pairs = d["comparisons"][protocol]["by_top"]["10"]
        for run in (r for r in d["runs"] if r["top"] == 10):
            rows.append((NAMES.get(run["metric"], run["metric"]), run, run["metric"]))
        rows.append(("tf-idf + LinearSVC (classifier)", d["baseline"], "tf-idf + LinearSVC (classifier)"))
        for label, run, other in rows:
            pair = next((p for p in pairs if {p["a"], p["b"]} == {name, other}), None) if other else None
            if pair is None:
                diff = p_text = "—"
            else:
                sign = 1 if pair["b"] == name else -1  # the method minus dkw
                lo, hi = sorted((sign * pair["ci_low"], sign * pair["ci_high"]))
                diff = (f"{format_difference(sign * pair['diff'], '+.2f')} "
                        f"[{format_difference(lo, '+.2f')}, {format_difference(hi, '+.2f')}]")
                p_text = f"{format_p(pair['p_mcnemar'])} ({format_p(pair['p_holm'])})"
            lines.append(f"| {d['dataset']} | {label} | {run['micro_f1']:.2f} | {run['macro_f1']:.2f} | {diff} | {p_text} |")
    return "\n".join(lines) + "\n"


def render(path: Path) -> bool:
    """Replace the block between the markers of ``path`` with :func:`table`; False without markers."""
    body = path.read_text(encoding="utf-8")
    if BEGIN not in body or END not in body:
        return False
    head, rest = body.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(head + BEGIN + "\n" + table() + END + tail, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    from dkw_core.evaluation.experiments import load_experiment
    from dkw_core.evaluation.keyword_methods import REFERENCE_METHODS, extractor_payload
    from dkw_core.evaluation.search import DEFAULT_N_GRID

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset")
    ap.add_argument("--render", type=Path, metavar="FILE",
                    help=f"write the N = 10 table of every shipped file between {BEGIN} and {END} of FILE")
    ap.add_argument("--method", action="append", help=f"default: {', '.join(REFERENCE_METHODS)}")
    ap.add_argument("--tops", default=",".join(map(str, DEFAULT_N_GRID)))
    ap.add_argument("--out", default=None, help="default docs/results/extractors/<dataset>.json")
    args = ap.parse_args(argv)
    if args.render:
        if not render(args.render):
            print(f"error: no {BEGIN} … {END} in {args.render}", file=sys.stderr)
            return 2
        print(f"wrote the table into {args.render}")
        return 0
    if not args.dataset:
        ap.error("--dataset is required (or --render FILE)")
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
