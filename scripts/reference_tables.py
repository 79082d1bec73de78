"""Markdown tables quoted in README.md and BENCHMARKS.md, printed from the reference results
(``docs/results/<corpus>.json``), so the documents quote the shipped files and nothing else.

    .venv/bin/python scripts/reference_tables.py [--folder docs/results]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["20ng", "r52", "r8", "webkb"]
METRICS = ["tf-idf", "tf-ig", "tf-rf", "tf-tds", "tf-tf-dcf", "tf-thd", "tf-dcf", "ig", "rf", "tds", "thd",
           "tf-chi2", "chi2"]


def load(folder: Path) -> dict[str, dict]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        out[data["dataset"]] = data
    return dict(sorted(out.items(), key=lambda kv: ORDER.index(kv[0]) if kv[0] in ORDER else 99))


def runs(data, **equal):
    return [r for r in data["runs"] if all(r.get(k) == v for k, v in equal.items())]


def full_search(data, protocol):
    for r in runs(data, kind="search", protocol=protocol):
        if len((r.get("options") or {}).get("metrics", [])) > 1:
            return r
    return None


def per_metric(data, protocol, metric, top):
    for r in runs(data, kind="search", protocol=protocol, metric=metric, top=top):
        if len((r.get("options") or {}).get("metrics", [])) == 1:
            return r
    return None


def f(r, key="micro_f1"):
    return "" if r is None else f"{r[key]:.2f}"


def mm(r):
    return "—" if r is None else f"{r['micro_f1']:.2f} / {r['macro_f1']:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", default=str(ROOT / "docs" / "results"))
    args = ap.parse_args(argv)
    ref = load(Path(args.folder))
    print("## Headline (micro-F1 %, test split)\n")
    print("| corpus | tf-idf + LinearSVC (full text) | paper protocol (label-aware), Algorithm 2 | "
          "deployable (label-free), Algorithm 2 |")
    print("| --- | --- | --- | --- |")
    for name, data in ref.items():
        base = next(iter(runs(data, kind="baseline-tfidf")), None)
        cells = []
        for proto in ("label-aware", "label-free"):
            r = full_search(data, proto)
            cells.append("—" if r is None else f"{r['micro_f1']:.2f} ({r['metric']}, K {r['k']}, N {r['top']})")
        print(f"| {name} | {f(base)} | {cells[0]} | {cells[1]} |")
    for name, data in ref.items():
        print(f"\n## {name} (dkw {data['dkw_version']}, {data['date']}, {data.get('wall_seconds', 0) / 60:.1f} min "
              f"wall, peak RSS {data.get('peak_rss_mib', 0) / 1024:.2f} GiB)\n")
        print(f"command: `{data['command']}`\n")
        base = next(iter(runs(data, kind="baseline-tfidf")), None)
        bows = {r["protocol"]: r for r in runs(data, kind="baseline-bow", top=10)}
        print(f"tf-idf + LinearSVC {mm(base)}; bag-of-words tf-rf keyword sets N = 10: paper protocol "
              f"{mm(bows.get('label-aware'))}, label-free {mm(bows.get('label-free'))}\n")
        print("| metric | paper protocol | label-free |\n| --- | --- | --- |")
        for m in METRICS:
            cells = []
            for proto in ("label-aware", "label-free"):
                r = per_metric(data, proto, m, 10)
                cells.append("—" if r is None else f"{mm(r)} (K {r['k']})")
            print(f"| {m} | {cells[0]} | {cells[1]} |")
        for proto in ("label-aware", "label-free"):
            r = full_search(data, proto)
            print(f"\nAlgorithm 2 over all setups, {proto}: "
                  + ("—" if r is None else f"{r['metric']}, K = {r['k']}, N = {r['top']} → **{mm(r)}**"))
        curve = data.get("curve_metrics") or []
        if curve:
            tops = [1, 2, 5, 10, 20, 50]
            print("\n| metric, protocol | " + " | ".join(f"N = {n}" for n in tops) + " |")
            print("| --- |" + " --- |" * len(tops))
            for m in curve:
                for proto in ("label-aware", "label-free"):
                    cells = [per_metric(data, proto, m, n) for n in tops]
                    print(f"| {m}, {'paper' if proto == 'label-aware' else 'label-free'} | "
                          + " | ".join(f"{mm(c)} (K {c['k']})" if c else "—" for c in cells) + " |")
        for item in data.get("leakcheck") or []:
            print(f"\nleak check {item['metric']} K = {item['k']} N = {item['top']}: follows the wrong label "
                  f"label-aware {item['follow_wrong_label_aware']:.2f} %, label-free "
                  f"{item['follow_wrong_label_free']:.2f} %, chance {item['chance']:.2f} % "
                  f"(gold kept: label-aware {item.get('gold_label_aware', float('nan')):.2f} %, "
                  f"label-free {item.get('gold_label_free', float('nan')):.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
