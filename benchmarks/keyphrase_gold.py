"""Keyphrases against people's own: the three public gold-standard data sets and their usual scoring.

The zips (``Inspec.zip``, ``SemEval2017.zip``, ``500N-KPCrowd-v1.1.zip``: the files of
``LIAAD/KeywordExtractor-Datasets``) sit in :func:`dkw_core.config.keyphrases_dir`
(``DKW_KEYPHRASES``, default ``data/keyphrases``); each holds ``<name>/docsutf8/<id>.txt`` and
``<name>/keys/<id>.key`` (one gold keyphrase a line). They are read, never unpacked, and their
SHA-256 is checked against the published one (:func:`~dkw_core.corpora.download.sha256_of`, as the
corpus fetchers do). A missing zip is one :class:`~dkw_core.errors.CorpusError` line naming the file
and the folder.

Scoring (:func:`score`), the usual rule of keyphrase extraction (docs/keyphrases.md):

* a phrase is normalised by lower-casing, turning punctuation and hyphens into spaces and
  Porter-stemming every token (NLTK's ``PorterStemmer``); two phrases match when their stemmed
  token sequences are equal; duplicates after stemming count once (predicted and gold);
* F1@k of one document: the first k distinct predicted phrases against the gold set,
  precision = matches / k, recall = matches / gold size; a document without gold scores 0;
* **as given**: all the gold; **present-only**: the gold whose stemmed tokens occur as a
  contiguous sequence in the stemmed text;
* a data set's figure is the mean over its documents (macro), in percent.

Cross-fitting (:func:`cross_fit`) for a data set with categories (500N-KPCrowd: the file name's
prefix): 5 folds stratified by category (scikit-learn's ``StratifiedKFold``, shuffled with a fixed
seed); the statistics of four folds give the keywords of the fifth, so every document is scored
once and never with statistics that include it.
"""
from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dkw_core import config
from dkw_core.errors import CorpusError, InputError

__all__ = ["GOLD_SETS", "GoldSet", "GoldDocument", "gold_set", "read_zip", "load_gold", "normalise",
           "is_present", "f1_at", "score", "SCORES", "fold_of", "cross_fit", "dev_part", "summarise",
           "results_table", "summary_table", "run_line", "published_table", "PUBLISHED", "embedded_table", "with_table"]

#: The F1 figures of every document, in this order: F1@5 and F1@10, gold as given, then present-only.
SCORES = ("f1@5", "f1@10", "present f1@5", "present f1@10")


@dataclass(frozen=True)
class GoldSet:
    """One data set: its short name, zip file, published SHA-256, whether its documents have
    categories (500N-KPCrowd) and its development part (:func:`dev_part`)."""

    name: str
    zip: str
    sha256: str
    title: str
    categories: bool = False
    dev_docs: int | None = None     # the first this many documents (by id) are the development part


GOLD_SETS: dict[str, GoldSet] = {s.name: s for s in (
    GoldSet("inspec", "Inspec.zip", "0868ca0753b69bcea9132def9f2a65c087bca39fc0360d82905e3debb0bf4de2",
            "Inspec", dev_docs=500),
    GoldSet("semeval2017", "SemEval2017.zip", "c1653edc039abdd45d747dfb73d971422355f8151cbed00ad17fbce92a0981e9",
            "SemEval2017", dev_docs=120),
    GoldSet("500n", "500N-KPCrowd-v1.1.zip", "ee422c40d2655ee59c02add44319ea9b7a9b25947dc21947da73a2a6e47fbbf7",
            "500N-KPCrowd", categories=True),
)}


def gold_set(name: str) -> GoldSet:
    spec = GOLD_SETS.get(name.strip().lower())
    if spec is None:
        raise InputError(f"unknown keyphrase data set {name!r}; known: {', '.join(GOLD_SETS)}")
    return spec


@dataclass(frozen=True)
class GoldDocument:
    """One document: its id (file name without ``.txt``), text, gold keyphrases as given and
    category (500N-KPCrowd: the id's prefix before the last ``-``; else None)."""

    id: str
    text: str
    keys: tuple[str, ...]
    category: str | None = None


def _id_order(doc_id: str) -> tuple:
    return (0, int(doc_id), "") if doc_id.isdigit() else (1, 0, doc_id)


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{where}: not valid UTF-8 text (byte {exc.start})") from None


def read_zip(path: Path, *, categories: bool = False, limit: int | None = None) -> list[GoldDocument]:
    """The documents of one zip (``<name>/docsutf8/<id>.txt`` with ``<name>/keys/<id>.key``), in
    the order of their ids (numeric ids as numbers), the first ``limit`` of them. A text without
    a key file, or a zip with no texts, is a :class:`CorpusError` naming the zip."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            texts = {m.group(1): n for n in names if (m := re.search(r"(?:^|/)docsutf8/([^/]+)\.txt$", n))}
            keys = {m.group(1): n for n in names if (m := re.search(r"(?:^|/)keys/([^/]+)\.key$", n))}
            if not texts:
                raise CorpusError(f"{path}: no <name>/docsutf8/<id>.txt in the zip")
            missing = sorted(set(texts) - set(keys), key=_id_order)
            if missing:
                raise CorpusError(f"{path}: {len(missing)} text(s) without keys/<id>.key, e.g. {missing[0]}")
            ids = sorted(texts, key=_id_order)[:limit]
            docs = []
            for doc_id in ids:
                text = _decode(zf.read(texts[doc_id]), f"{path}:{texts[doc_id]}")
                lines = _decode(zf.read(keys[doc_id]), f"{path}:{keys[doc_id]}").splitlines()
                gold = tuple(k for k in (" ".join(line.split()) for line in lines) if k)
                category = doc_id.rsplit("-", 1)[0] if categories else None
                docs.append(GoldDocument(doc_id, text, gold, category))
    except (zipfile.BadZipFile, OSError) as exc:
        raise CorpusError(f"{path}: not a readable zip file ({exc})") from None
    return docs


def load_gold(name: str, *, folder: Path | None = None, limit: int | None = None,
              verify: bool = True) -> list[GoldDocument]:
    """The documents of data set ``name`` (:data:`GOLD_SETS`) from ``folder`` (default
    ``DKW_KEYPHRASES``), its SHA-256 checked first (``verify``)."""
    from dkw_core.corpora.download import sha256_of

    spec = gold_set(name)
    folder = Path(folder) if folder is not None else config.keyphrases_dir()
    path = folder / spec.zip
    if not path.is_file():
        raise CorpusError(f"{spec.zip} not found in {folder}: put the zip there or set DKW_KEYPHRASES to its folder")
    if verify:
        digest = sha256_of(path)
        if digest != spec.sha256:
            raise CorpusError(f"{path}: SHA-256 {digest[:12]}… is not the published {spec.sha256[:12]}… "
                              "(another version of the file?)")
    return read_zip(path, categories=spec.categories, limit=limit)


def dev_part(name: str, documents: Sequence[GoldDocument]) -> list[GoldDocument]:
    """The development part where parameters are chosen: Inspec's first 500 documents (by id),
    SemEval2017's first 120; 500N-KPCrowd's training folds (every document outside fold 0 of
    :func:`fold_of`). Results are reported on the other documents (``--test``)."""
    spec = gold_set(name)
    if spec.dev_docs:
        return list(documents[:spec.dev_docs])
    if spec.categories:
        folds = fold_of([d.category or "" for d in documents])
        return [d for d, f in zip(documents, folds) if f != 0]
    return []


# --------------------------------------------------------------------------- scoring

def normalise(phrase: str) -> tuple[str, ...]:
    """A phrase's stemmed tokens: lower-cased, punctuation and hyphens as spaces, each token
    Porter-stemmed (``"Web-based Systems."`` → ``("web", "base", "system")``; the keyphrase lists'
    own rule, :func:`dkw_core.keywords.candidates.stemmed`)."""
    from dkw_core.keywords.candidates import stemmed

    return stemmed(phrase)


def _distinct(phrases: Sequence[str]) -> list[tuple[str, ...]]:
    """Normalised phrases in order, empty ones and repeats (after stemming) dropped."""
    return [p for p in dict.fromkeys(normalise(p) for p in phrases) if p]


def is_present(gold: tuple[str, ...], text_tokens: tuple[str, ...]) -> bool:
    """Whether the stemmed phrase ``gold`` occurs as a contiguous token sequence in ``text_tokens``."""
    return bool(gold) and f" {' '.join(gold)} " in f" {' '.join(text_tokens)} "


def f1_at(predicted: Sequence[tuple[str, ...]], gold: Sequence[tuple[str, ...]], k: int) -> float:
    """F1 of the first ``k`` distinct normalised predictions against the distinct normalised gold
    (precision over ``k``, recall over the gold's size; 0 without gold or matches)."""
    top = list(dict.fromkeys(predicted))[:k]
    truth = set(gold)
    matches = len(set(top) & truth)
    if not matches:
        return 0.0
    precision, recall = matches / k, matches / len(truth)
    return 2 * precision * recall / (precision + recall)


def score(predicted: Sequence[str], doc: GoldDocument) -> dict[str, float]:
    """:data:`SCORES` of one document's predicted keyphrases (best first), as fractions."""
    pred = _distinct(predicted)
    gold = _distinct(doc.keys)
    text = normalise(doc.text)
    present = [g for g in gold if is_present(g, text)]
    return {"f1@5": f1_at(pred, gold, 5), "f1@10": f1_at(pred, gold, 10),
            "present f1@5": f1_at(pred, present, 5), "present f1@10": f1_at(pred, present, 10)}


# --------------------------------------------------------------------------- cross-fitting

#: Folds and seed of the cross-fitting.
FOLDS = 5
SEED = 0


def fold_of(categories: Sequence[str], *, folds: int = FOLDS, seed: int = SEED) -> np.ndarray:
    """Each document's fold (0 … ``folds`` − 1), stratified by category (``StratifiedKFold``,
    shuffled with ``seed``)."""
    from sklearn.model_selection import StratifiedKFold

    y = np.asarray(categories)
    out = np.full(len(y), -1, dtype=np.int64)
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    for f, (_train, test) in enumerate(splitter.split(np.zeros(len(y)), y)):
        out[test] = f
    return out


def cross_fit(documents: Sequence[GoldDocument],
              extract: Callable[[list[GoldDocument], list[GoldDocument]], Sequence[Sequence[str]]], *,
              folds: int = FOLDS, seed: int = SEED) -> tuple[list[list[str]], np.ndarray]:
    """Every document's keyphrases from ``extract(train, test)`` — the statistics of the other
    folds (``train``) and the documents of one fold (``test``) — and each document's fold. Every
    document is in exactly one ``test`` and never in its own ``train``."""
    if any(d.category is None for d in documents):
        raise InputError("cross-fitting needs every document's category")
    fold = fold_of([d.category or "" for d in documents], folds=folds, seed=seed)
    found: list[list[str] | None] = [None] * len(documents)
    for f in range(folds):
        test_idx = np.flatnonzero(fold == f)
        train = [documents[int(i)] for i in np.flatnonzero(fold != f)]
        test = [documents[int(i)] for i in test_idx]
        result = list(extract(train, test))
        if len(result) != len(test):
            raise InputError(f"fold {f}: {len(result)} keyword lists for {len(test)} documents")
        for i, words in zip(test_idx, result):
            found[i] = list(words)
    return [w if w is not None else [] for w in found], fold


# --------------------------------------------------------------------------- summaries and the table

def summarise(per_doc: dict[str, list[dict[str, float]]], peers: Sequence[str], *, resamples: int = 2000,
              seed: int = 0) -> dict:
    """One data set's figures from every method's per-document :func:`score` (all methods on the
    same documents, in the same order): per method and score the mean in percent and its 95 %
    percentile bootstrap interval over documents; the best peer (of ``peers`` present, by F1@10
    as given); every other method against it, per score: the mean difference in points, its paired
    bootstrap interval, the two-sided Wilcoxon signed-rank p (``scipy.stats.wilcoxon``) and
    Holm's adjustment over the methods compared."""
    from scipy import stats

    from dkw_core.evaluation.paired import bootstrap_diffs, holm

    methods = list(per_doc)
    values = {m: {s: np.array([d[s] for d in per_doc[m]], dtype=np.float64) for s in SCORES} for m in methods}
    n = len(next(iter(per_doc.values()))) if per_doc else 0
    if any(len(v) != n for v in per_doc.values()):
        raise InputError("every method must be scored on the same documents")
    out: dict = {"documents": n, "methods": {}, "best_peer": None, "against_best_peer": {}}
    for m in methods:
        cis = bootstrap_diffs([values[m][s] for s in SCORES], resamples=resamples, seed=seed)
        out["methods"][m] = {s: {"mean": round(100 * float(values[m][s].mean()), 2),
                                 "ci": [round(lo, 2), round(hi, 2)]} for s, (lo, hi) in zip(SCORES, cis)}
    present_peers = [p for p in peers if p in values]
    if not present_peers:
        return out
    best = max(present_peers, key=lambda p: values[p]["f1@10"].mean())
    out["best_peer"] = best
    others = [m for m in methods if m != best]
    for s in SCORES:
        diffs = [values[m][s] - values[best][s] for m in others]
        cis = bootstrap_diffs(diffs, resamples=resamples, seed=seed) if diffs else []
        ps = [float(stats.wilcoxon(d).pvalue) if np.any(d != 0) else 1.0 for d in diffs]
        adjusted = holm(ps)
        out["against_best_peer"][s] = {
            m: {"diff": round(100 * float(d.mean()), 2), "ci": [round(lo, 2), round(hi, 2)], "p_wilcoxon": p,
                "p_holm": float(a)}
            for m, d, (lo, hi), p, a in zip(others, diffs, cis, ps, adjusted)}
    return out


def _cell(fig: dict) -> str:
    lo, hi = fig["ci"]
    return f"{fig['mean']:.2f} [{lo:.2f}, {hi:.2f}]"


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def run_line(results: dict) -> str:
    """One sentence on the run: scope, when, commit, wall time and the machine's load."""
    if results.get("dev"):
        scope = ("the development part (Inspec's first 500 documents, SemEval2017's first 120, 500N-KPCrowd's "
                 "training folds)")
        if results.get("limit"):
            scope += f", its first {results['limit']:,} documents"
    elif results.get("test"):
        scope = ("the documents outside the development part where parameters were chosen (Inspec's documents "
                 "501–2,000 by id, SemEval2017's 121–493, 500N-KPCrowd's fold 0: 100 documents)")
        if results.get("limit"):
            scope += f", their first {results['limit']:,}"
    elif results.get("limit"):
        scope = f"the first {results['limit']:,} documents of each data set"
    else:
        scope = "every document of each data set"
    machine = results.get("machine", {})
    start, end = machine.get("load_at_start"), machine.get("load_at_end")
    load = f"; 1-minute load average {start[0]} at the start, {end[0]} at the end" if start and end else ""
    seconds = results.get("seconds")
    took = f", {seconds / 60:.0f} min wall time" if seconds is not None else ""
    return (f"Scope: {scope}. Run {results.get('started', '?')} (commit {results.get('commit', '?')}, dkw "
            f"{results.get('dkw_version', '?')}){took} on {machine.get('cpus', '?')} cores shared with other work"
            f"{load}; top {results.get('top', 10)} keyphrases per document.")


def results_table(results: dict) -> str:
    """The Markdown table of a benchmark's results (``docs/results/keyphrases/gold-standards.json``):
    every data set and method, F1@5 and F1@10 as given and present-only with their 95 % CIs, and
    F1@10 (as given) against the data set's best peer (difference, paired bootstrap CI, Holm-adjusted
    Wilcoxon p). docs/keyphrases.md and BENCHMARKS.md carry it as generated."""
    lines = [run_line(results), "",
             "| data set | method | F1@5 | F1@10 | present-only F1@5 | present-only F1@10 | "
             "F1@10 − best peer [95 % CI], Holm p |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for ds in results["datasets"]:
        summary = ds["summary"]
        best = summary["best_peer"]
        for method, figs in summary["methods"].items():
            if method == best:
                against = "best peer"
            elif method in summary["against_best_peer"].get("f1@10", {}):
                c = summary["against_best_peer"]["f1@10"][method]
                against = f"{c['diff']:+.2f} [{c['ci'][0]:+.2f}, {c['ci'][1]:+.2f}], p {_p(c['p_holm'])}"
            else:
                against = "–"
            lines.append(f"| {ds['title']} ({summary['documents']:,}) | {method} | "
                         + " | ".join(_cell(figs[s]) for s in SCORES) + f" | {against} |")
    ratios = ratio_table(results)
    if ratios:
        lines += ["", "Each dkw row's F1@5 and F1@10 (gold as given) divided by each peer's, on the same documents "
                      "(the goal: 1.3 × the best peer on both):", "", ratios.rstrip("\n")]
    beside = published_table(results)
    if beside:
        lines += ["", "Published figures beside ours (never instead of ours; ours present-only, as papers usually "
                      "count):", "", beside.rstrip("\n")]
    return "\n".join(lines) + "\n"


def ratio_table(results: dict) -> str:
    """Per data set, each dkw method (but the category's words, about 1) against each peer of the
    run: its F1@5 and F1@10 (gold as given) divided by the peer's, ``1.12 / 1.10``; empty without
    peers. The figures behind the issue's goal (1.3 × the best peer), computed, never typed."""
    peers = list(dict.fromkeys(p for ds in results["datasets"] for p in ds["summary"]["methods"]
                               if not p.startswith("dkw")))
    if not peers:
        return ""
    lines = ["| data set | method | " + " | ".join(f"× {p} (F1@5 / F1@10)" for p in peers) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in peers) + " |"]
    for ds in results["datasets"]:
        methods = ds["summary"]["methods"]
        for m, figs in methods.items():
            if not m.startswith("dkw") or " about 1," in m:
                continue
            cells = []
            for p in peers:
                base = methods.get(p)
                ok = base and base["f1@5"]["mean"] > 0 and base["f1@10"]["mean"] > 0
                cells.append(f"{figs['f1@5']['mean'] / base['f1@5']['mean']:.2f} / "
                             f"{figs['f1@10']['mean'] / base['f1@10']['mean']:.2f}" if ok else "–")
            lines.append(f"| {ds['title']} | {m} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" if len(lines) > 2 else ""


NO_STATISTICS = ", no statistics"
"""How a dkw method that reads no corpus statistics ends its name (the research ranking at about 0)."""


def summary_table(results: dict) -> str:
    """The short form of :func:`results_table` that BENCHMARKS.md carries: F1@10 (gold as given) with
    its 95 % CI, one row per data set and statistics, one column per method (the figures of the peers
    and of a method without statistics repeated on each row of their data set); the full table is
    docs/keyphrases.md's."""
    peers: list[str] = []
    ours: list[str] = []
    rows: list[tuple[str, str, dict]] = []
    for ds in results["datasets"]:
        methods = {m.removesuffix(NO_STATISTICS): figs for m, figs in ds["summary"]["methods"].items()}
        found = [m for m in ds["summary"]["methods"] if not m.startswith("dkw") or m.endswith(NO_STATISTICS)]
        found = sorted((m.removesuffix(NO_STATISTICS) for m in found), key=lambda m: m.startswith("dkw"))  # peers first
        peers += [m for m in found if m not in peers]
        by_stats: dict[str, dict] = {}
        for m, figs in methods.items():
            if m.startswith("dkw") and m not in found:
                name, _, stats = m.partition(", ")
                ours += [name] if name not in ours else []
                by_stats.setdefault(stats, {m: methods[m] for m in found})[name] = figs
        for stats, figs in (by_stats or {"": {m: methods[m] for m in found}}).items():
            rows.append((f"{ds['title']} ({ds['summary']['documents']:,})", stats, figs))
    columns = peers + ours
    lines = [run_line(results), "", "F1@10 (gold as given) with its 95 % CI; every method and score with its "
             "paired comparison: [docs/keyphrases.md](docs/keyphrases.md).", "",
             "| data set | dkw's statistics | " + " | ".join(columns) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in columns) + " |"]
    for title, stats, figs in rows:
        cells = [_cell(figs[c]["f1@10"]) if c in figs else "–" for c in columns]
        lines.append(f"| {title} | {stats or '–'} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


#: Published figures (percent) set beside ours, never instead of ours: data set → (method and paper,
#: F1@5, F1@10 or None when not reported, how its evaluation differs from ours).
PUBLISHED: dict[str, list[tuple[str, float, float | None, str]]] = {
    "inspec": [("PromptRank (Kong et al., ACL 2023)", 31.73, 37.88,
                "Inspec's 500-document test split (ours: the run's documents of the zip, which marks no split); the "
                "paper's own candidates, stemming and gold handling; a T5 language model")],
    "semeval2017": [("PromptRank (Kong et al., ACL 2023)", 27.14, None,
                     "all 493 documents (ours: the run's documents); the paper's own candidates, stemming and gold "
                     "handling; a T5 language model")],
}


def published_table(results: dict) -> str:
    """Published figures beside ours measured the way papers usually count (present-only): per data
    set with published figures, the best dkw method and the best peer of the run, then the papers'."""
    lines = ["| data set | method | F1@5 | F1@10 | evaluation |", "| --- | --- | ---: | ---: | --- |"]
    for ds in results["datasets"]:
        published = PUBLISHED.get(ds.get("name", ""))
        summary = ds["summary"]
        if not published:
            continue
        methods = summary["methods"]
        ours = [m for m in methods if m.startswith("dkw")]
        rows = []
        if ours:
            rows.append(max(ours, key=lambda m: methods[m]["present f1@10"]["mean"]))
        if summary["best_peer"]:
            rows.append(summary["best_peer"])
        for m in rows:
            lines.append(f"| {ds['title']} | ours: {m} | {_cell(methods[m]['present f1@5'])} | "
                         f"{_cell(methods[m]['present f1@10'])} | this run, present-only, {summary['documents']:,} "
                         "documents |")
        for method, f5, f10, how in published:
            lines.append(f"| {ds['title']} | published: {method} | {f5:.2f} | "
                         f"{'–' if f10 is None else f'{f10:.2f}'} | {how} |")
    return "\n".join(lines) + "\n" if len(lines) > 2 else ""


#: The markers around the generated table in docs/keyphrases.md (the full table) and BENCHMARKS.md
#: (its summary, :func:`summary_table`).
TABLE_START = "<!-- keyphrase-table: generated by benchmarks/bench_keyphrases.py, do not edit -->"
TABLE_END = "<!-- /keyphrase-table -->"


def embedded_table(markdown: str) -> str | None:
    """The generated table between :data:`TABLE_START` and :data:`TABLE_END` in a page, or None."""
    start, end = markdown.find(TABLE_START), markdown.find(TABLE_END)
    if start < 0 or end < start:
        return None
    return markdown[start + len(TABLE_START):end].strip("\n") + "\n"


def with_table(markdown: str, table: str) -> str:
    """``markdown`` with the text between the markers replaced by ``table``."""
    start, end = markdown.find(TABLE_START), markdown.find(TABLE_END)
    if start < 0 or end < start:
        raise InputError("the page has no keyphrase-table markers")
    return markdown[:start + len(TABLE_START)] + "\n" + table.strip("\n") + "\n" + markdown[end:]
