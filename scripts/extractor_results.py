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
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from reference_writer import _clean, chosen_by, pack_predictions, payload_head  # scripts/reference_writer.py
from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

from dkw_core.errors import DkwError  # noqa: E402
from dkw_core.evaluation.classifiers import DEFAULT_CLASSIFIER  # noqa: E402
from dkw_core.evaluation.search import DEFAULT_N_GRID  # noqa: E402

if TYPE_CHECKING:
    from dkw_core.evaluation.classifiers import Scores
    from dkw_core.evaluation.experiments import Experiment
    from dkw_core.evaluation.protocols import RunConfig
    from dkw_core.types import Progress

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


#: The methods of the shipped extractor reference results, and dkw's default they are compared with.
REFERENCE_METHODS = ("yake", "textrank")


def _record(config: RunConfig, scores: Scores, seconds: dict, predictions: dict | None) -> dict:
    """One run as a reference file stores it (F1 in percent, predictions packed)."""
    from dkw_core.evaluation.protocols import dkw_version

    rec = {"dataset": config.dataset, "protocol": config.protocol, "metric": config.metric, "k": config.k,
           "top": config.top, "classifier": config.classifier, "split": config.split, "vectors": config.vectors,
           "kind": config.kind, "sample": config.sample, "micro_f1": 100 * scores.micro_f1,
           "macro_f1": 100 * scores.macro_f1, "seconds": sum(seconds.values()), "options": config.options,
           "label": config.label(), "dkw_version": dkw_version(), "settings_hash": config.settings_hash()}
    rec = {k: _clean(v) for k, v in rec.items()}
    rec["chosen_by"] = chosen_by(rec)
    if predictions:
        rec["test_split"], rec["predictions"] = predictions["split"], pack_predictions(predictions["pred"])
    return rec


def extractor_payload(exp: Experiment, *, methods: Sequence[str] = REFERENCE_METHODS,
                      tops: Sequence[int] = DEFAULT_N_GRID, metric: str | None = None, k: int | None = None,
                      protocol: str | None = None, classifier: str = DEFAULT_CLASSIFIER, command: str = "",
                      progress: Progress | None = None) -> dict:
    """The extractors' reference document of one corpus (``docs/results/extractors/<corpus>.json``):
    every method at every N (runs of kind ``extractor`` with per-document predictions, what each
    reads), dkw's default (``metric`` at K = ``k`` under ``protocol``; defaults: DEFAULT_METRIC, 90,
    label-free-top1, the deployable protocol) and the tf-idf + LinearSVC baseline at the same
    N, and their per-document comparison at every N (McNemar exact, paired bootstrap CI, Holm)."""
    from dkw_core.errors import InputError
    from dkw_core.evaluation.experiments import method_config, test_predictions
    from dkw_core.evaluation.keyword_methods import evaluate_keywords, extractor_keywords, method_run_config, tfidf_record
    from dkw_core.evaluation.paired import compare_all, decode_labels
    from dkw_core.evaluation.protocols import KIND_LABELS, RunConfig, evaluate_tops
    from dkw_core.types import DEFAULT_K, DEFAULT_METRIC, NEW_TEXT_PROTOCOL

    metric, k, protocol = metric or DEFAULT_METRIC, int(k or DEFAULT_K), protocol or NEW_TEXT_PROTOCOL
    tops = sorted({int(n) for n in tops})
    if exp.model is None:
        raise InputError("the extractors' reference results need the prepared keyword model")
    t0 = time.perf_counter()
    base_scores, base = tfidf_record(exp, classifier=classifier)
    baseline_config = RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors="none", protocol="none",
                                metric="tf-idf-sublinear", k=0, top=0, classifier=classifier, kind="baseline-tfidf",
                                sample=exp.sample)
    gold = base["gold"]
    dkw_runs: list[dict] = []
    predictions: dict[int, dict[str, np.ndarray]] = {}
    for n, (scores, seconds, y_pred) in evaluate_tops(exp.model, metric=metric, k=k, tops=tops, protocol=protocol,
                                                      classifier=classifier).items():
        config = method_config(exp, metric=metric, k=k, top=n, protocol=protocol, classifier=classifier)
        record = test_predictions(exp.model, y_pred)
        dkw_runs.append(_record(config, scores, seconds, record))
        predictions.setdefault(n, {})[f"dkw {metric} K{k}"] = decode_labels(record["pred"])
    runs, extraction = [], {}
    for spec in methods:
        t1 = time.perf_counter()
        method = extractor_keywords(exp.corpus, spec, progress=progress)
        extraction[spec] = {"source": method.source, "reads": method.reads, "documents": len(method.lists),
                            "seconds": round(time.perf_counter() - t1, 1),
                            "mean_keywords": round(float(np.mean([len(v) for v in method.lists.values()])), 2)}
        for n, (scores, seconds, y_pred) in evaluate_keywords(exp.corpus, exp.vectors, method, tops=tops,
                                                              classifier=classifier).items():
            record = test_predictions(exp.model, y_pred)
            runs.append(_record(method_run_config(exp, method, top=n, classifier=classifier), scores, seconds, record))
            predictions.setdefault(n, {})[spec] = decode_labels(record["pred"])
    tfidf = KIND_LABELS["baseline-tfidf"]
    comparisons = {}
    for n in tops:
        table = compare_all(decode_labels(gold), {**predictions[n], tfidf: decode_labels(base["pred"])})
        comparisons[str(n)] = [_clean(r) for r in table.to_dict(orient="records")]
    return {
        **payload_head(exp.dataset, command),
        "documents": {"train": len(exp.model.doc_ids("train")), "test": len(exp.model.doc_ids("test"))},
        "vectors": exp.vectors_name,
        "runs": runs,
        "test_labels": {base["split"]: gold},
        "extraction": extraction,
        "dkw_default": {"metric": metric, "k": k, "protocol": protocol, "runs": dkw_runs},
        "baseline": _record(baseline_config, base_scores, {}, base),
        "comparisons": {protocol: {"method": "McNemar exact (binomial on discordant documents); paired bootstrap "
                                             "95 % percentile CI of the micro-F1 difference; Holm over the pairs "
                                             "of each N",
                                   "by_top": comparisons}},
        "wall_seconds": round(time.perf_counter() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    from dkw_core.evaluation.experiments import load_experiment

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
