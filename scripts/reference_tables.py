"""The evaluation tables of BENCHMARKS.md, printed from the reference results
(``docs/results/<corpus>.json``) and nothing else, so the document quotes the shipped files.

    .venv/bin/python scripts/reference_tables.py [--folder docs/results]      # print them
    .venv/bin/python scripts/reference_tables.py --write BENCHMARKS.md --readme README.md  # refresh both
    .venv/bin/python scripts/reference_tables.py --report docs/results/report.md   # the report, from the same files

``--write`` replaces the text between ``<!-- reference-tables:begin -->`` and
``<!-- reference-tables:end -->`` in the file.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd  # noqa: E402
from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

from dkw_core.evaluation.comparisons import (  # noqa: E402
    choices,
    format_difference,
    format_p,
    main_choices,
    seed_stability,
)
from dkw_core.evaluation.names import method_name  # noqa: E402
from dkw_core.evaluation.reference import rounded_p_decimals, runs_frame  # noqa: E402
from dkw_core.evaluation.verdict import verdict  # noqa: E402

ORDER = ["20ng", "r52", "r8", "webkb"]
METRICS = ["tf-idf", "tf-ig", "tf-rf", "tf-tds", "tf-tf-dcf", "tf-thd", "tf-dcf", "ig", "rf", "tds", "thd",
           "tf-chi2", "chi2"]
PROTOCOLS = ["label-aware", "label-free-top1", "label-free", "label-free-posterior"]
TOPS = [1, 2, 5, 10, 20, 50]
BEGIN, END = "<!-- reference-tables:begin -->", "<!-- reference-tables:end -->"
HEADLINE_BEGIN, HEADLINE_END = "<!-- headline:begin -->", "<!-- headline:end -->"
COMPARED = ["rf", "ig", "tds", "tf-idf", "baseline-tfidf"]


def load(folder: Path) -> dict[str, dict]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        out[data["dataset"]] = data
    return dict(sorted(out.items(), key=lambda kv: ORDER.index(kv[0]) if kv[0] in ORDER else 99))


def runs(data, **equal):
    return [r for r in data["runs"] if all(r.get(k) == v for k, v in equal.items())]


def selection(r) -> str:
    return "cv" if (r.get("options") or {}).get("selection") == "cv" else "algorithm2"


def headline_choices(data) -> dict[tuple[str, str], dict]:
    """The runs the headline shows, by (protocol, selection): ``comparisons.main_choices``."""
    frame = pd.DataFrame(data["runs"])
    if frame.empty:
        return {}
    frame["dataset"] = data.get("dataset")
    main = main_choices(choices(frame, dataset=data.get("dataset")), frame)
    return {(r["protocol"], r["selection"]): r for r in main.to_dict(orient="records")}


def per_metric(data, protocol, metric, top, sel):
    for r in runs(data, kind="search", protocol=protocol, metric=metric, top=top):
        if len((r.get("options") or {}).get("metrics", [])) == 1 and selection(r) == sel:
            return r
    return None


def mm(r):
    return "—" if r is None else f"{r['micro_f1']:.2f} / {r['macro_f1']:.2f}"


def setup(r):
    return "—" if r is None else f"{r['micro_f1']:.2f} ({r['metric']}, K {r['k']}, N {r['top']})"


def protocols_of(data) -> list[str]:
    present = {r.get("protocol") for r in data["runs"]}
    return [p for p in PROTOCOLS if p in present]


def how_cv(data, protocol) -> str:
    cv = [x for x in runs(data, kind="search", protocol=protocol) if selection(x) == "cv"]
    r = next((x for x in cv if len(x["options"].get("metrics", [])) == 1), cv[0] if cv else None)  # the curves' CV
    if r is None:
        return ""
    o = r["options"]
    cap = f"at most {o['max_per_category']} training documents per category" if o.get("max_per_category") \
        else "the whole training split"
    return f"stratified {o.get('folds')}-fold CV on {cap}, fold-local statistics, seed {o.get('seed')}"


def headline(ref: dict) -> list[str]:
    return ["### Headline (micro-F1 %, test split)", "",
            "The setup chosen over all (K, metric, N) setups on the training split — by the robust CV "
            "selection, and beside it by the paper's Algorithm 2 (seed 0) — trained on the whole training "
            "split and scored once on the test split. GloVe 6B 50d, linear SVM one-vs-rest. "
            "\"—\": not in the shipped results.", "", *headline_table(ref)]


def headline_table(ref: dict) -> list[str]:
    """The headline table alone (BENCHMARKS.md and the README's first screen)."""
    out = ["| corpus | tf-idf + LinearSVC | label-aware (paper's protocol): CV / Algorithm 2 | "
           "label-free-top1 (deployable default): CV / Algorithm 2 | label-free: CV / Algorithm 2 |",
           "| --- | --- | --- | --- | --- |"]
    for name, data in ref.items():
        base = next(iter(runs(data, kind="baseline-tfidf")), None)
        picked = headline_choices(data)
        cells = [f"{setup(picked.get((p, 'cv')))} / {setup(picked.get((p, 'algorithm2')))}"
                 for p in ("label-aware", "label-free-top1", "label-free")]
        base_f1 = "—" if base is None else f"{base['micro_f1']:.2f}"
        out.append(f"| {name} | {base_f1} | " + " | ".join(cells) + " |")
    return out


def curves(data, name) -> list[str]:
    out = []
    for proto in protocols_of(data):
        for sel in ("cv", "algorithm2"):
            rows = {m: [per_metric(data, proto, m, n, sel) for n in TOPS] for m in METRICS}
            rows = {m: cells for m, cells in rows.items() if any(cells)}
            if not rows:
                continue
            k_choice = {(c.get("options") or {}).get("k_choice", "metric-n")
                        for cells in rows.values() for c in cells if c}
            how = (how_cv(data, proto) if sel == "cv" else "Algorithm 2 (the paper's), seed 0")
            per = "once per metric (best mean CV F1 over N)" if k_choice == {"metric"} else "per (metric, N)"
            out += ["", f"F1 against N, {name}, {proto}: micro / macro-F1, K chosen {per} by {how}.", "",
                    "| metric | " + " | ".join(f"N = {n}" for n in TOPS) + " |",
                    "| --- |" + " --- |" * len(TOPS)]
            for m, cells in rows.items():
                out.append(f"| {m} | " + " | ".join(f"{mm(c)} (K {c['k']})" if c else "—" for c in cells) + " |")
            out += ["", smoothness(rows)]
    return out


def smoothness(rows: dict[str, list]) -> str:
    """The largest fall of micro-F1 from one N of the grid to the next, over the table's curves."""
    drops = [(c[i]["micro_f1"] - c[i + 1]["micro_f1"], m, TOPS[i], TOPS[i + 1])
             for m, c in rows.items() for i in range(len(TOPS) - 1) if c[i] and c[i + 1]]
    if not drops:
        return "No metric has two N here: no curve."
    drop, metric, a, b = max(drops)
    if drop <= 0:
        return "Smoothness: every curve rises or stays level from one N to the next."
    return (f"Smoothness: the largest fall of micro-F1 from one N to the next is {drop:.2f} points "
            f"({metric}, N {a} → {b}).")


def comparisons(data, name) -> list[str]:
    out = []
    digits = rounded_p_decimals(data)  # older files rounded p to 4 decimals
    for proto, block in (data.get("comparisons") or {}).items():
        pairs = block["pairs"]
        sig = sum(1 for p in pairs if p["significant"])
        chooser = "stratified k-fold CV" if block.get("selection") == "cv" else "Algorithm 2 (the paper's, seed 0)"
        out += ["", f"Per-document comparison, {name}, {proto}, N = {block['top']} (K each metric's own, chosen on the "
                f"training split by {chooser}): {sig} of {len(pairs)} pairs of metrics and baselines differ at "
                "p < 0.05 after Holm. "
                f"{block['method']}.", "",
                "| A | B | micro-F1 A − B (points) | 95 % CI | only A right / only B right | p (McNemar) | "
                "p (Holm) |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for p in pairs:
            if p["metric_a"] in COMPARED and p["metric_b"] in COMPARED:
                out.append(f"| {method_name(p['metric_a'])} | {method_name(p['metric_b'])} | "
                           f"{format_difference(p['diff'])} | "
                           f"[{format_difference(p['ci_low'])}, {format_difference(p['ci_high'])}] | "
                           f"{p['only_a_right']} / {p['only_b_right']} | "
                           f"{format_p(p['p_mcnemar'], rounded_to=digits)} | {format_p(p['p_holm'], rounded_to=digits)} |")
    return out


def stability(data, name) -> list[str]:
    table = seed_stability(data.get("stability") or [])
    if table.empty:
        return []
    out = ["", f"Seed stability, {name}: the chosen setup's test micro-F1 over seeds (sample sd, n − 1). Algorithm "
           "2's seed draws its growing subsamples and its folds; the CV's seed draws its subsample (when capped) "
           "and its folds.", "",
           "| protocol | selection | seeds | mean | sd | min–max | setups chosen (times) |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for _, r in table.iterrows():
        sel = r["selection"]
        if sel == "cv":
            cap = f"≤ {int(r['max_per_category'])}/category" if r["max_per_category"] else "whole training split"
            sel = f"CV, {int(r['folds'])} folds, {cap}" if r["folds"] else "CV"
        else:
            sel = "Algorithm 2"
        out.append(f"| {r['protocol']} | {sel} | {r['seeds']} | {r['mean']:.2f} | {r['sd']:.2f} | "
                   f"{r['min']:.2f}–{r['max']:.2f} | {r['chosen']} |")
    return out


def leaks(data, name) -> list[str]:
    items = data.get("leakcheck") or []
    if not items:
        return []
    out = ["", f"Leak check, {name} (percent of test documents predicted as the injected wrong label; no leak = "
           "near the expected level (100 − deployable accuracy) / (C − 1), not near chance 100 / C; the deployable "
           "protocol is the choice's own, else label-free):", "",
           "| metric, K, N | setup | label-aware | deployable protocol | expected without a leak | chance |",
           "| --- | --- | --- | --- | --- | --- |"]
    for it in items:
        exp = it.get("expected_no_leak")
        exp_text = "—" if exp is None else f"{exp:.2f}"
        out.append(f"| {it['metric']}, K {it['k']}, N {it['top']} | {it.get('setup', 'fixed')} | "
                   f"{it['follow_wrong_label_aware']:.2f} | {it['follow_wrong_label_free']:.2f} "
                   f"({it.get('protocol') or 'label-free'}) | {exp_text} | {it['chance']:.2f} |")
    return out


def verdicts(data, name) -> list[str]:
    """The verdict of every protocol of the file (``dkw_core.evaluation.verdict``)."""
    frame = runs_frame(data)
    out = []
    for protocol in PROTOCOLS:
        found = verdict(frame, dataset=name, protocol=protocol) if not frame.empty else None
        if found is not None:
            out += ["", f"**Verdict** — {found.headline()}"]
    return out


def tables(ref: dict) -> str:
    out = headline(ref)
    for name, data in ref.items():
        wall = (data.get("wall_seconds") or 0) / 60
        out += ["", f"### {name}", "",
                f"dkw {data['dkw_version']} (reference format {data.get('format')}), {data['date']}, "
                f"{wall:.1f} min wall, peak RSS {(data.get('peak_rss_mib') or 0) / 1024:.2f} GiB; command: "
                f"`{data['command']}`", ""]
        base = next(iter(runs(data, kind="baseline-tfidf")), None)
        bows = {r["protocol"]: r for r in runs(data, kind="baseline-bow", top=10)}
        out.append(f"{method_name('baseline-tfidf')} {mm(base)}; {method_name('baseline-bow')}, tf-rf, N = 10: "
                   + "; ".join(f"{p} {mm(r)}" for p, r in bows.items()))
        out += verdicts(data, name)
        if data.get("format", 1) < 2:
            out += ["", "*No per-document predictions in this file (format 1, dkw "
                    f"{data['dkw_version']}): no CV selection and no per-document comparison yet.*"]
        out += curves(data, name) + comparisons(data, name) + stability(data, name) + leaks(data, name)
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", default=str(ROOT / "docs" / "results"))
    ap.add_argument("--write", default=None, metavar="FILE", help="replace the marked block of FILE")
    ap.add_argument("--readme", default=None, metavar="FILE",
                    help="replace the headline table between the <!-- headline --> markers of FILE (README.md)")
    ap.add_argument("--report", default=None, metavar="FILE",
                    help="also write the Markdown report of the runs in the reference files (docs/results/report.md)")
    args = ap.parse_args(argv)
    if args.report:
        from dkw_core.evaluation.reference import load_reference
        from dkw_core.evaluation.report import markdown_report

        Path(args.report).write_text(markdown_report(load_reference(Path(args.folder))), encoding="utf-8")
    ref = load(Path(args.folder))
    text = tables(ref)
    if not args.write and not args.readme:
        print(text)
        return 0
    for target, begin, end, block in ((args.write, BEGIN, END, text),
                                      (args.readme, HEADLINE_BEGIN, HEADLINE_END, "\n".join(headline_table(ref)) + "\n")):
        if target and not replace_block(Path(target), begin, end, block):
            return 2
    return 0


def replace_block(path: Path, begin: str, end: str, block: str) -> bool:
    """Replace the text between the markers ``begin`` and ``end`` of ``path`` with ``block``."""
    doc = path.read_text(encoding="utf-8")
    if begin not in doc or end not in doc:
        print(f"error: {path} has no {begin} … {end} block", file=sys.stderr)
        return False
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{begin}\n{block}{end}{tail}", encoding="utf-8")
    return True

if __name__ == "__main__":
    sys.exit(main())
