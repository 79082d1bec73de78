"""The generated reference-result pages and tables, from the reference results
(``docs/results/<corpus>.json``) and nothing else, so the documents quote the shipped files.

    .venv/bin/python scripts/reference_tables.py --update    # rewrite every generated file (below)
    .venv/bin/python scripts/reference_tables.py --check     # exit 1 naming the generated files that are stale
    .venv/bin/python scripts/reference_tables.py             # print the corpus pages

``--update`` writes, from the JSON files of ``--folder`` (default ``docs/results``):

* ``docs/results/<corpus>.md``: one page per corpus (the docs site's "Reference results"), every
  table of the corpus — chosen setups, baselines, F1 against N, per-document comparisons, seed
  stability, leak checks — one section per entry of ``SECTIONS``;
* ``BENCHMARKS.md``: the summary between ``<!-- reference-tables:begin -->`` and
  ``<!-- reference-tables:end -->`` (the headline table and one line per corpus, linking its page);
* ``README.md``: the headline table between ``<!-- headline:begin -->`` and ``<!-- headline:end -->``;
* ``docs/results/report.md``: the report of ``python -m dkw_core report`` over the same runs.

``--write FILE``, ``--readme FILE``, ``--pages FOLDER`` and ``--report FILE`` write one of them to
another place. ``tests/test_reference_tables.py`` fails when a committed page or block differs from
what the JSON files generate.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd  # noqa: E402
from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

from dkw_core.evaluation.classifiers import CLASSIFIER_LABELS  # noqa: E402
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
FOLDER_KEY = "_folder"  # set by load(): the folder a corpus's reference file was read from


def load(folder: Path) -> dict[str, dict]:
    """The reference results of ``folder``, by corpus: its ``<corpus>.json`` files (a JSON file
    beside them without ``dataset`` and ``runs``, e.g. another table's data, is not a corpus)."""
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and "dataset" in data and "runs" in data:
            data[FOLDER_KEY] = str(path.parent)  # for beside(): the results a section keeps in their own file
            out[data["dataset"]] = data
    return dict(sorted(out.items(), key=lambda kv: ORDER.index(kv[0]) if kv[0] in ORDER else 99))


def beside(data, *parts: str):
    """A JSON file of the reference-results folder beside the corpus's own file, or ``None`` when there
    is none: a section whose results live in their own file, e.g. ``beside(data, "extractors",
    f"{name}.json")`` or ``beside(data, "quality.json")``."""
    path = Path(data[FOLDER_KEY]).joinpath(*parts)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


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
            out.append(f"- {found.headline()}")
    return out


def provenance(data, name) -> list[str]:
    wall = (data.get("wall_seconds") or 0) / 60
    machine = data.get("machine") or {}
    where = (f"; machine: {machine.get('cpus')} CPUs, {machine.get('memory_gib')} GiB, Python {machine.get('python')}"
             if machine else "")
    out = [f"dkw {data['dkw_version']} (reference format {data.get('format')}), {data['date']}, {wall:.1f} min wall, "
           f"peak RSS {(data.get('peak_rss_mib') or 0) / 1024:.2f} GiB{where}. Command:", "",
           f"    {data['command']}"]
    if data.get("backfill_command"):
        out += ["", "Predictions of runs stored before they were kept, added by:", "", f"    {data['backfill_command']}"]
    kept = data.get("kept_runs") or {}
    if kept.get("count"):
        out += ["", f"{kept['count']} run(s) kept from an earlier file of the same version"
                + (f" ({kept['from']})" if kept.get("from") else "")
                + (f", written by `{kept['command']}`" if kept.get("command") else "") + "."]
    return out


def chosen(data, name) -> list[str]:
    return ["The setup chosen over all (K, metric, N) setups on the training split — by the robust CV selection, and "
            "beside it by the paper's Algorithm 2 (seed 0) — trained on the whole training split and scored once on "
            "the test split (the corpus's row of the headline in BENCHMARKS.md).", "", *headline_table({name: data})]


def baselines(data, name) -> list[str]:
    base = next(iter(runs(data, kind="baseline-tfidf")), None)
    bows = {r["protocol"]: r for r in runs(data, kind="baseline-bow", top=10)}
    out = [f"{method_name('baseline-tfidf')} {mm(base)}; {method_name('baseline-bow')}, tf-rf, N = 10: "
           + "; ".join(f"{p} {mm(r)}" for p, r in bows.items())]
    if data.get("format", 1) < 2:
        out += ["", "*No per-document predictions in this file (format 1, dkw "
                f"{data['dkw_version']}): no CV selection and no per-document comparison yet.*"]
    return out


#: The sections of every corpus page, in order: (heading, renderer). A renderer takes the corpus's
#: reference results (the parsed ``docs/results/<corpus>.json``) and its name and returns Markdown
#: lines; a section it returns nothing for is left out. A new kind of result in the JSON is one
#: renderer added here (results kept in a file of their own: ``beside``): ``--update`` then writes
#: it into every page and the test checks it.
SECTIONS = [
    ("Verdict", verdicts),
    ("Where the figures come from", provenance),
    ("Chosen setups", chosen),
    ("Baselines", baselines),
    ("F1 against N", curves),
    ("Per-document comparison", comparisons),
    ("Seed stability", stability),
    ("Leak check", leaks),
]


def page(data, name) -> str:
    """The docs site's page of one corpus (``docs/results/<name>.md``), generated whole."""
    docs = data.get("documents") or {}
    split = (f" ({docs['test']:,} documents; {docs['train']:,} training documents)"
             if docs.get("test") and docs.get("train") else "")
    vectors = sorted({r.get("vectors") for r in data["runs"]} - {None, "none"})
    classifiers = sorted({r.get("classifier") for r in data["runs"]} - {None})
    out = [f"# Reference results: {name}", "",
           f"<!-- Generated by scripts/reference_tables.py from docs/results/{name}.json; do not edit. "
           "Regenerate with: python scripts/reference_tables.py --update -->", "",
           f"Every table on this page is generated by `scripts/reference_tables.py` from "
           f"`docs/results/{name}.json` and nothing else (`python scripts/reference_tables.py --update`); "
           "`tests/test_reference_tables.py` fails when the page differs from what that file generates. "
           f"F1 in percent on the **test split**{split}, vectors "
           + ", ".join(f"`{v}`" for v in vectors) + ", classifier "
           + ", ".join(CLASSIFIER_LABELS.get(c, c) for c in classifiers) + " (`LinearSVC`, C = 1). "
           "What the protocols and the two selections are, and how each parameter was chosen (on the training "
           "split only): [Reference results](README.md); the statistics: [the method, §8]"
           "(../method.md#8-choosing-parameters-and-comparing-metrics)."]
    for heading, render in SECTIONS:
        lines = render(data, name)
        while lines and lines[0] == "":
            lines = lines[1:]
        if lines:
            out += ["", f"## {heading}", "", *lines]
    return "\n".join(out) + "\n"


def summary(ref: dict) -> str:
    """BENCHMARKS.md's generated block: the headline and one line per corpus, linking its page."""
    out = headline(ref) + ["", "### Per corpus", "",
                           "Every table of a corpus — F1 against N under each protocol and selection, the "
                           "per-document comparisons, seed stability, leak checks — is on its page of the docs site, "
                           "generated from the same file.", "",
                           "| corpus | page | reference file | dkw | date | wall | peak RSS | runs |",
                           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, data in ref.items():
        out.append(f"| {name} | [{name}](docs/results/{name}.md) | `docs/results/{name}.json` | {data['dkw_version']} | "
                   f"{data['date'][:10]} | {(data.get('wall_seconds') or 0) / 60:.1f} min | "
                   f"{(data.get('peak_rss_mib') or 0) / 1024:.2f} GiB | {len(data['runs'])} |")
    return "\n".join(out) + "\n"


def tables(ref: dict) -> str:
    """Every corpus page, one after the other (what the script prints without options)."""
    return "\n".join(page(data, name) for name, data in ref.items())


def generated(folder: Path, *, benchmarks: Path | None = None, readme: Path | None = None,
              pages: Path | None = None, report: Path | None = None) -> dict[Path, str]:
    """What each generated file should hold, by path (in full: the marked files with their block
    replaced). A file given as ``None`` is left out; the report is the slow one (about a minute)."""
    ref = load(folder)
    out: dict[Path, str] = {}
    if pages is not None:
        for name, data in ref.items():
            out[pages / f"{name}.md"] = page(data, name)
    for target, begin, end, block in ((benchmarks, BEGIN, END, lambda: summary(ref)),
                                      (readme, HEADLINE_BEGIN, HEADLINE_END,
                                       lambda: "\n".join(headline_table(ref)) + "\n")):
        if target is not None:
            out[target] = with_block(target, begin, end, block())
    if report is not None:
        from dkw_core.evaluation.reference import load_reference
        from dkw_core.evaluation.report import markdown_report

        out[report] = markdown_report(load_reference(folder))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", default=str(ROOT / "docs" / "results"), help="the reference results (<corpus>.json)")
    ap.add_argument("--update", action="store_true",
                    help="rewrite every generated file: the corpus pages, BENCHMARKS.md's and README.md's blocks and "
                         "docs/results/report.md")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 naming every generated file that differs from what --update writes")
    ap.add_argument("--write", default=None, metavar="FILE",
                    help="replace the <!-- reference-tables --> block of FILE (BENCHMARKS.md)")
    ap.add_argument("--readme", default=None, metavar="FILE",
                    help="replace the headline table between the <!-- headline --> markers of FILE (README.md)")
    ap.add_argument("--pages", default=None, metavar="FOLDER", help="write the corpus pages <corpus>.md into FOLDER")
    ap.add_argument("--report", default=None, metavar="FILE",
                    help="also write the Markdown report of the runs in the reference files (docs/results/report.md)")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    if args.update or args.check:
        targets = {"benchmarks": ROOT / "BENCHMARKS.md", "readme": ROOT / "README.md",
                   "pages": ROOT / "docs" / "results", "report": ROOT / "docs" / "results" / "report.md"}
    else:
        targets = {"benchmarks": args.write, "readme": args.readme, "pages": args.pages, "report": args.report}
        if not any(targets.values()):
            print(tables(load(folder)))
            return 0
    try:
        files = generated(folder, **{k: None if v is None else Path(v) for k, v in targets.items()})
    except MarkerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stale = [path for path, text in files.items()
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"stale: {path} (python scripts/reference_tables.py --update)", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
    return 0


class MarkerError(ValueError):
    """A file to refresh has no begin … end markers."""


def with_block(path: Path, begin: str, end: str, block: str) -> str:
    """The text of ``path`` with the text between the markers ``begin`` and ``end`` replaced by ``block``."""
    doc = path.read_text(encoding="utf-8")
    if begin not in doc or end not in doc:
        raise MarkerError(f"{path} has no {begin} … {end} block")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{block}{end}{tail}"


if __name__ == "__main__":
    sys.exit(main())
