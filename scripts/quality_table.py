"""Words a reader accepts (docs/method.md §10): every metric's category vocabularies, and the peers', scored
on every corpus, written to ``docs/results/quality/quality.json`` (a folder of its own: ``docs/results/*.json`` are the
evaluation's reference files) and rendered as Markdown from it.

    # measure (full corpora: DKW_DATA_DIR=/work/data-full; one corpus takes minutes)
    DKW_DATA_DIR=... .venv/bin/python scripts/quality_table.py --corpora r8 20ng r52 webkb
    # one more metric after the others (merged into the shipped JSON, the rest kept)
    DKW_DATA_DIR=... .venv/bin/python scripts/quality_table.py --corpora r8 --metrics lo,tf-lo --peers none
    # render the pages and the BENCHMARKS.md section from the JSON alone (no corpus needed)
    .venv/bin/python scripts/quality_table.py --render --write BENCHMARKS.md

For each corpus, each method's top ``--top`` (10) words per category on the training split
(``categories``' rule: over-represented words only), at K = ``--k`` (90, fixed: the Categories
page's and the ``categories`` command's default, the same K for every metric; not the CV-chosen K),
are scored by :func:`dkw_core.evaluation.wordlists.method_quality`: NPMI (gensim c_npmi, test
split's content words, window 10), the share of words absent from the test split, exclusivity,
and the micro/macro F1 of the same method's document keywords at N = ``--top`` under
label-free-top1. Methods: every metric of ``dkw_core.metrics.METRICS`` over latent words (or
``--metrics``), and the peers over the documents' own words, ``fw`` (Fightin' Words) and
``ctfidf`` (c-TF-IDF).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shlex
import sys
import time
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

from dkw_core.evaluation.wordlists import PEER_NAMES as PEERS  # noqa: E402  (the one name of each peer)
from dkw_core.evaluation.wordlists import quality_method_id as method_id  # noqa: E402  (what the app reads back)

ORDER = ["20ng", "r52", "r8", "webkb"]
#: Methods whose category lists the per-corpus pages print in full.
SHOWN = ["ig", "rf", "lo", "fw", "own:fw", "own:ctfidf"]
DEFAULT_JSON = ROOT / "docs" / "results" / "quality" / "quality.json"
BEGIN, END = "<!-- quality-table:begin -->", "<!-- quality-table:end -->"


def method_label(row: dict) -> str:
    if row["words"] == "own words":
        return f"{PEERS.get(row['metric'], row['metric'])} (own words)"
    return row["metric"]


# --------------------------------------------------------------------------- measuring


def measure_corpus(name: str, metrics: list[str], peers: list[str], *, k: int, top: int, protocol: str,
                   log=print) -> dict:
    from dkw_core.corpora import load_corpus
    from dkw_core.evaluation.wordlists import method_quality, reference_tokens
    from dkw_core.keywords import BaselineModel, KeywordModel

    t0 = time.perf_counter()
    corpus = load_corpus(name)
    rows = []
    latent = KeywordModel.prepare(corpus, k_max=max(k, 90)) if metrics else None
    tokens = reference_tokens(corpus)
    log(f"{name}: prepared in {time.perf_counter() - t0:.0f} s")
    for metric in metrics:
        t1 = time.perf_counter()
        got = method_quality(latent, metric=metric, k=k, top=top, protocol=protocol, tokens=tokens)
        rows.append(_row("latent", metric, got, time.perf_counter() - t1))
        log(f"{name} {metric}: {_brief(rows[-1])}")
    if peers:
        base = BaselineModel.prepare(corpus)
        if latent is not None:
            base.use_posteriors_of(latent)  # the same corpus's posteriors: never fitted twice
        for metric in peers:
            t1 = time.perf_counter()
            got = method_quality(base, metric=metric, k=None, top=top, protocol=protocol, tokens=tokens)
            rows.append(_row("own words", metric, got, time.perf_counter() - t1))
            log(f"{name} own {metric}: {_brief(rows[-1])}")
    return {"dataset": name, "categories": list(corpus.categories), "test_documents": len(tokens.test),
            "train_documents": len(tokens.train), "seconds": round(time.perf_counter() - t0, 1), "methods": rows}


def _row(words: str, metric: str, got, seconds: float) -> dict:
    q = got.quality.to_dict()
    f1 = q.pop("f1")
    return {"method": method_id(words, metric), "metric": metric, "words": words, "npmi": _r(q["npmi"]),
            "absent_share": _r(q["absent_share"]), "exclusivity": _r(q["exclusivity"]),
            "npmi_skipped": q["npmi_skipped"], "micro_f1": _r(100 * f1["micro_f1"], 2),
            "macro_f1": _r(100 * f1["macro_f1"], 2), "f1_means": f1["means"], "seconds": round(seconds, 1),
            "lists": got.lists}


def _r(x, digits: int = 4):
    return None if x is None else round(float(x), digits)


def _brief(row: dict) -> str:
    return (f"NPMI {row['npmi']}, absent {row['absent_share']}, exclusivity {row['exclusivity']}, "
            f"micro-F1 {row['micro_f1']} ({row['seconds']} s)")


_STRINGS = re.compile(r'\[\s*("[^"\n]*"(?:,\s*"[^"\n]*")*)\s*\]')


def dump(data: dict) -> str:
    """The JSON with one line per word list (``indent=1`` elsewhere), so a diff shows changed lists."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    return _STRINGS.sub(lambda m: "[" + re.sub(r'",\s+"', '", "', m.group(1)) + "]", text) + "\n"


def merge(old: dict | None, fresh: dict, about: dict) -> dict:
    """``fresh`` corpora's methods replace the same methods of ``old``; everything else is kept."""
    out = dict(old or {})
    before = list(out.get("commands") or ([out["command"]] if out.get("command") else []))
    out.update(about)
    # every command that wrote rows of the file, in order (a re-run of some methods keeps the rest)
    if about.get("command"):
        out["commands"] = [c for c in before if c != about["command"]] + [about["command"]]
    corpora = dict(out.get("corpora", {}))
    for name, data in fresh.items():
        kept = {r["method"]: r for r in corpora.get(name, {}).get("methods", [])}
        kept.update({r["method"]: r for r in data["methods"]})
        corpora[name] = {**data, "methods": _ordered(kept.values())}
    out["corpora"] = dict(sorted(corpora.items(), key=lambda kv: ORDER.index(kv[0]) if kv[0] in ORDER else 99))
    return out


def _ordered(rows) -> list[dict]:
    from dkw_core.metrics import METRICS

    registry = list(METRICS)

    def key(r):
        own = r["words"] == "own words"
        return (own, registry.index(r["metric"]) if r["metric"] in registry else len(registry), r["metric"])

    return sorted(rows, key=key)


# --------------------------------------------------------------------------- rendering


def _num(x, fmt: str) -> str:
    if x is None:
        return "–"
    text = format(x, fmt)
    return text.replace("-", "−")


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.0f} %"


def corpus_page(data: dict, name: str) -> str:
    c = data["corpora"][name]
    lines = [f"# Words a reader accepts: {name}", "",
             f"Generated by `scripts/quality_table.py` from `quality.json` (do not edit): "
             f"{_setting(data)}", "",
             f"{c['train_documents']:,} training and {c['test_documents']:,} test documents, "
             f"{len(c['categories'])} categories; measured in {c['seconds']:.0f} s.", "",
             "| method | words | NPMI | absent from test split | exclusivity | micro-F1 | macro-F1 |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in c["methods"]:
        words = r["words"] if r["words"] == "own words" else f"{r['words']}, K {data['k']}"
        lines.append(f"| {method_label(r)} | {words} | {_num(r['npmi'], '+.3f')} | {_pct(r['absent_share'])} "
                     f"| {_num(r['exclusivity'], '.3f')} | {_num(r['micro_f1'], '.2f')} | "
                     f"{_num(r['macro_f1'], '.2f')} |")
    by_id = {r["method"]: r for r in c["methods"]}
    shown = [m for m in SHOWN if m in by_id]
    if shown:
        lines += ["", "## Each category's top 10", "",
                  "| category | " + " | ".join(method_label(by_id[m]) for m in shown) + " |",
                  "| --- |" + " --- |" * len(shown)]
        for cat in c["categories"]:
            cells = [", ".join(by_id[m]["lists"].get(cat, [])) or "–" for m in shown]
            lines.append(f"| {cat} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _setting(data: dict) -> str:
    return (f"top {data['top']} words per category on the training split, K = {data['k']} ({data['k_choice']}); "
            f"NPMI: gensim `c_npmi` over {data['reference']}, boolean sliding window of {data['window']} words "
            f"(absent words left out and counted); exclusivity: share of the training documents containing the "
            f"word that belong to the category; F1: {data['f1']}. dkw {data['dkw_version']}, {data['date']}, "
            + ", then ".join(f"`{c}`" for c in data.get("commands") or [data["command"]]) + ".")


def summary(data: dict) -> str:
    names = list(data["corpora"])
    rows: dict[str, dict] = {}
    for name in names:
        for r in data["corpora"][name]["methods"]:
            rows.setdefault(r["method"], {"label": method_label(r)})[name] = r
    lines = [f"Generated by `scripts/quality_table.py` from `docs/results/quality/quality.json`: {_setting(data)} "
             f"Each cell: NPMI / exclusivity / micro-F1 (%); the tf- variants (and gr, which ranks as ig), "
             f"absent shares and every category's list on the "
             f"per-corpus pages (" + ", ".join(f"[{n}](docs/results/quality/{n}.md)" for n in names) + ").", "",
             "| method | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for method, row in rows.items():
        if method.startswith("tf-") or method == "gr":
            continue  # the summary keeps the plain metrics (gr ranks as ig); every row is on the corpus pages
        cells = [(f"{_num(row[n]['npmi'], '+.3f')} / {_num(row[n]['exclusivity'], '.3f')} / "
                  f"{_num(row[n]['micro_f1'], '.2f')}") if n in row else "–" for n in names]
        lines.append(f"| {row['label']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_between_markers(path: Path, text: str) -> bool:
    body = path.read_text(encoding="utf-8")
    if BEGIN not in body or END not in body:
        print(f"{path}: no {BEGIN} ... {END} markers", file=sys.stderr)
        return False
    head, rest = body.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{text}{END}{tail}", encoding="utf-8")
    return True


def render(data: dict, pages: Path) -> list[Path]:
    written = []
    for name in data["corpora"]:
        path = pages / f"{name}.md"
        path.write_text(corpus_page(data, name), encoding="utf-8")
        written.append(path)
    return written


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", nargs="+", default=ORDER, metavar="NAME", help="corpora to measure (default: all four)")
    ap.add_argument("--metrics", default="all",
                    help="comma-separated registry metrics over latent words, 'all' (every metric of "
                         "dkw_core.metrics.METRICS when run; the default) or 'none'")
    ap.add_argument("--peers", default="fw,ctfidf",
                    help="comma-separated metrics over the documents' own words (default fw,ctfidf: Fightin' Words, "
                         "c-TF-IDF) or 'none'")
    ap.add_argument("--k", type=int, default=90, help="K for every latent metric (default 90, fixed)")
    ap.add_argument("--top", type=int, default=10, help="words per list and N of the F1 (default 10)")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON,
                    help="the results file (default docs/results/quality/quality.json)")
    ap.add_argument("--render", action="store_true", help="only render the Markdown from the JSON (no measuring)")
    ap.add_argument("--pages", type=Path, default=None,
                    help="folder of the per-corpus pages <corpus>.md (default: the JSON's folder)")
    ap.add_argument("--write", type=Path, metavar="MD",
                    help=f"also replace the summary between {BEGIN} and {END} in this file (BENCHMARKS.md)")
    args = ap.parse_args(argv)
    pages = args.pages or args.json.parent

    if not args.render:
        from dkw_core import __version__
        from dkw_core.errors import DkwError
        from dkw_core.metrics import METRICS, get_metric
        from dkw_core.quality import REFERENCE, npmi_window
        from dkw_core.types import NEW_TEXT_PROTOCOL

        def names(value: str, every: list[str]) -> list[str]:
            picked = every if value == "all" else [] if value == "none" else [m.strip() for m in value.split(",")]
            for m in picked:
                get_metric(m)
            return picked

        try:
            metrics, peers = names(args.metrics, list(METRICS)), names(args.peers, list(PEERS))
            fresh = {name: measure_corpus(name, metrics, peers, k=args.k, top=args.top, protocol=NEW_TEXT_PROTOCOL)
                     for name in args.corpora}
        except DkwError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        about = {"command": "scripts/quality_table.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
                 "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"), "dkw_version": __version__,
                 "k": args.k, "k_choice": "fixed, the Categories page's and categories command's default; the same "
                                          "K for every metric, not the CV-chosen K",
                 "top": args.top, "protocol": NEW_TEXT_PROTOCOL, "reference": REFERENCE, "window": npmi_window(),
                 "f1": f"micro/macro F1 of the same method's test-document keywords at N = {args.top} under "
                       f"{NEW_TEXT_PROTOCOL} (latent words: keyword-vector sums; own words: binary keyword sets; "
                       f"LinearSVC one-vs-rest)"}
        old = json.loads(args.json.read_text(encoding="utf-8")) if args.json.exists() else None
        data = merge(old, fresh, about)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(dump(data), encoding="utf-8")
        print(f"wrote {args.json}")
    if not args.json.exists():
        print(f"error: {args.json} does not exist; measure first", file=sys.stderr)
        return 2
    data = json.loads(args.json.read_text(encoding="utf-8"))
    for path in render(data, pages):
        print(f"wrote {path}")
    if args.write is not None:
        if not write_between_markers(args.write, summary(data)):
            return 2
        print(f"wrote the summary into {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
