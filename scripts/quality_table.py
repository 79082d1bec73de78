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
from collections.abc import Sequence
from pathlib import Path

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)

from dkw_core.errors import InputError  # noqa: E402
from dkw_core.evaluation.wordlists import PEER_NAMES as PEERS  # noqa: E402  (the one name of each peer)
from dkw_core.evaluation.wordlists import quality_method_id as method_id  # noqa: E402  (what the app reads back)
from dkw_core.evaluation.wordlists import quality_method_label  # noqa: E402

ORDER = ["20ng", "r52", "r8", "webkb"]
#: Methods whose category lists the per-corpus pages print in full.
SHOWN = ["ig", "rf", "lo", "fw", "own:fw", "own:ctfidf"]
DEFAULT_JSON = ROOT / "docs" / "results" / "quality" / "quality.json"
BEGIN, END = "<!-- quality-table:begin -->", "<!-- quality-table:end -->"
#: The rule every exclusivity of a corpus measured by this version follows (a corpus without it in the
#: JSON was measured before, when absent words were left out: its pages and summary cells say so).
EXCLUSIVITY_RULE = "a word or keyword in no training document counts 0"
OLD_RULE = ("† exclusivity as measured before this release (words in no training document left out, which flatters "
            "latent lists) and no document measures yet: not re-measured in this release's run (20ng: its prepared "
            "corpus was not at hand; WebKB: its TextRank extraction did not finish); "
            "`scripts/quality_table.py --corpora {name} --documents-only` re-measures it")


def _old_rule(data: dict, name: str) -> bool:
    return data["corpora"][name].get("exclusivity_rule") != EXCLUSIVITY_RULE


def _mark(data: dict, name: str, label: str) -> str:
    return f"{label} †" if _old_rule(data, name) else label


def _footnotes(data: dict) -> list[str]:
    notes = [OLD_RULE.format(name=n).replace("† ", f"† {n}: ", 1) for n in data["corpora"] if _old_rule(data, n)]
    return ["", *notes] if notes else []


#: How the document measures were taken (stored in the JSON, stated on every page; docs/method.md §12).
DOCUMENTS_ABOUT = ("each test document's top 10 keywords; topic: the document's expected reciprocal rank and "
                   "top-1 chance among the test documents of its own category (random tie-breaking), ranked by the "
                   "cosine of its keywords' mean vector to each document's mean content-word vector (vectors) or by "
                   "how many of its keywords occur in each (literal); keywords in their document; mean Jaccard of "
                   "two lists of a category; category: keywords-alone micro/macro-F1 (both splits' keywords under "
                   "plain label-free, the normalised sum of the keyword vectors, LinearSVC trained on the training "
                   "documents'), exclusivity of the keywords for the document's category (a keyword in no training "
                   "document counts 0); each [value, 95 % CI low, high], percentile bootstrap over test documents, "
                   "1,000 resamples, seed 0")


def method_label(row: dict) -> str:
    if row["words"] in ("own words", "extractor", "imported", "keyphrases"):
        return quality_method_label(row["words"], row["metric"])
    return row["metric"]


# --------------------------------------------------------------------------- measuring


def measure_corpus(name: str, metrics: list[str], peers: list[str], *, k: int, top: int, protocol: str,
                   extractors: Sequence[str] = (), imports: dict | None = None, import_source: str = "",
                   reuse: dict | None = None, extractor_train: str = "extract", abouts: Sequence[float] = (),
                   about_f1: bool = False, log=print) -> dict:
    from dkw_core.corpora import load_corpus
    from dkw_core.evaluation.document_measures import content_vectors
    from dkw_core.evaluation.wordlists import (
        KEYWORDS_ALONE,
        keywords_quality,
        method_quality,
        model_keyword_lists,
        reference_tokens,
    )
    from dkw_core.keywords import BaselineModel, KeywordModel
    from dkw_core.keywords.extractors import _extractor_version, cached_keywords, extract_cached, extractor_for
    from dkw_core.quality import exclusivity
    from dkw_core.types import DEFAULT_METRIC

    t0 = time.perf_counter()
    corpus = load_corpus(name)
    rows = []
    latent = KeywordModel.prepare(corpus, k_max=max(k, 90))
    tokens = reference_tokens(corpus)
    vectors = latent.vectors
    doc_vectors = content_vectors(vectors, tokens.test)  # the same for every method: computed once
    log(f"{name}: prepared in {time.perf_counter() - t0:.0f} s")

    def documents(model, metric, kk):
        """The document measures of a model's metric: keywords alone (both splits under plain
        label-free) and the deployable lists (label-free-top1: the classifier's category enters)."""
        alone = model_keyword_lists(model, metric=metric, k=kk, top=top, protocol=KEYWORDS_ALONE)
        top1 = model_keyword_lists(model, metric=metric, k=kk, top=top, protocol=protocol, splits=("test",))
        return {"documents": _documents(keywords_quality(alone, tokens, vectors, top=top, document_vectors=doc_vectors),
                                        KEYWORDS_ALONE),
                "documents_top1": _documents(keywords_quality(top1, tokens, vectors, top=top, f1=False,
                                                              document_vectors=doc_vectors), protocol)}

    def category(model, words, metric, kk):
        """The category lists' figures: measured, or (``reuse``) the stored ones with their
        exclusivity recounted from the stored lists (a word in no training document counts 0)."""
        stored = (reuse or {}).get(method_id(words, metric))
        if stored and stored.get("lists"):
            mean, _ = exclusivity(stored["lists"], tokens.train, tokens.train_labels, topn=top)
            return {**stored, "exclusivity": _r(mean)}
        return _row(words, metric, method_quality(model, metric=metric, k=kk, top=top, protocol=protocol,
                                                  tokens=tokens), 0)

    for metric in metrics:
        t1 = time.perf_counter()
        rows.append({**category(latent, "latent", metric, k), **documents(latent, metric, k)})
        rows[-1]["seconds"] = round(time.perf_counter() - t1, 1)
        log(f"{name} {metric}: {_brief(rows[-1])}")
    if peers:
        base = BaselineModel.prepare(corpus)
        base.use_posteriors_of(latent)  # the same corpus's posteriors: never fitted twice
        for metric in peers:
            t1 = time.perf_counter()
            rows.append({**category(base, "own words", metric, None), **documents(base, metric, None)})
            rows[-1]["seconds"] = round(time.perf_counter() - t1, 1)
            log(f"{name} own {metric}: {_brief(rows[-1])}")
    for about in abouts:  # the text's own keyphrases (KeywordModel.keywords(..., about=)), when dkw has them
        t1 = time.perf_counter()
        metric = DEFAULT_METRIC
        name_ = f"{metric}@about={about:g}"

        def lists_of(docs, proto, about=about, metric=metric):
            def words(d) -> list[str]:
                try:
                    return [kw.word for kw in latent.keywords(d.id, metric=metric, k=k, top=top, protocol=proto,
                                                             about=about)]
                except InputError:  # no usable phrase (an empty page): no keywords, as in the ranked matrix
                    return []
            return {d.id: words(d) for d in docs}
        test_docs = corpus.split("test")
        alone = lists_of(test_docs, KEYWORDS_ALONE)
        if about_f1:
            alone.update(lists_of(corpus.split("train"), KEYWORDS_ALONE))
        deployable = lists_of(test_docs, protocol)
        row = _other_row("keyphrases", name_, f"dkw {metric}, K {k}, about {about:g}",
                         _documents(keywords_quality(alone, tokens, vectors, top=top, f1=about_f1,
                                                     document_vectors=doc_vectors), KEYWORDS_ALONE), t1,
                         note="" if about_f1 else "keywords-alone F1 not measured (--about-f1)")
        row["documents_top1"] = _documents(keywords_quality(deployable, tokens, vectors, top=top, f1=False,
                                                            document_vectors=doc_vectors), protocol)
        row["seconds"] = round(time.perf_counter() - t1, 1)
        rows.append(row)
        log(f"{name} {name_}: {_brief(row)}")
    for mid, stored in (reuse or {}).items():  # every other stored category list: its exclusivity recounted
        if mid not in {r["method"] for r in rows} and stored.get("lists"):
            mean, _ = exclusivity(stored["lists"], tokens.train, tokens.train_labels, topn=top)
            rows.append({**stored, "exclusivity": _r(mean)})
    for spec in extractors:
        t1 = time.perf_counter()
        test_docs, train_docs = corpus.split("test"), corpus.split("train")
        found = extract_cached(spec, [d.text for d in test_docs])
        train = (extract_cached(spec, [d.text for d in train_docs]) if extractor_train == "extract"
                 else cached_keywords(spec, [d.text for d in train_docs]))
        lists = dict(zip((d.id for d in test_docs), found))
        if train is not None:
            lists.update(zip((d.id for d in train_docs), train))
        q = keywords_quality(lists, tokens, vectors, top=top, f1=train is not None, document_vectors=doc_vectors)
        docs = _documents(q, "none: reads no label")
        note = ""
        if train is None:  # the training documents' keywords are not extracted yet: the reference results' F1
            docs["figures"].update(_reference_f1(name, spec, top))
            note = (f"keywords-alone F1 from docs/results/extractors/{name}.json (the same classification of the "
                    f"same extractor's keywords, N = {top}; its training keywords were not extracted for this run)")
        version = _extractor_version(extractor_for(spec))
        rows.append(_other_row("extractor", spec, version, docs, t1, note=note))
        log(f"{name} {spec}: {_brief(rows[-1])}")
    for method_name, lists in (imports or {}).items():
        test_ids = set(tokens.test_ids)
        if not test_ids.intersection(lists):
            continue  # another corpus's keywords
        t1 = time.perf_counter()
        covered = all(d in lists for d in tokens.train_ids)
        q = keywords_quality(lists, tokens, vectors, top=top, f1=covered, document_vectors=doc_vectors)
        lacking = sum(1 for d in tokens.test_ids if not lists.get(d))
        rows.append(_other_row("imported", method_name, import_source,
                               _documents(q, "unknown (imported)"), t1,
                               note=(f"{lacking} test documents without keywords; " if lacking else "")
                               + ("" if covered else "no training keywords: no F1")))
        log(f"{name} imported {method_name}: {_brief(rows[-1])}")
    return {"dataset": name, "categories": list(corpus.categories), "test_documents": len(tokens.test),
            "train_documents": len(tokens.train), "seconds": round(time.perf_counter() - t0, 1),
            "exclusivity_rule": EXCLUSIVITY_RULE, "methods": rows}


def _reference_f1(name: str, spec: str, top: int) -> dict:
    """``{"micro_f1": [v, lo, hi], "macro_f1": [...]}`` of the extractor's run at N = ``top`` in the
    shipped extractor reference results, from its per-document predictions (bootstrap as everywhere)."""
    import numpy as np

    from dkw_core.evaluation.document_measures import _macro_f1, macro_f1_ci, percentile_ci
    from dkw_core.evaluation.reference import runs_frame

    path = ROOT / "docs" / "results" / "extractors" / f"{name}.json"
    if not path.exists():
        return {}
    frame = runs_frame(json.loads(path.read_text(encoding="utf-8")))
    run = frame[(frame["metric"] == spec) & (frame["top"] == top)]
    if run.empty or not isinstance(run.iloc[0]["predictions"], dict):
        return {}
    p = run.iloc[0]["predictions"]
    labels = {c: i for i, c in enumerate(sorted(set(p["gold"]) | set(p["pred"])))}
    gold = np.asarray([labels[c] for c in p["gold"]])
    pred = np.asarray([labels[c] for c in p["pred"]])
    correct = (gold == pred).astype(float)
    lo, hi = percentile_ci(correct)
    mlo, mhi = macro_f1_ci(gold, pred, len(labels))
    return {"micro_f1": [_r(correct.mean()), _r(lo), _r(hi)],
            "macro_f1": [_r(_macro_f1(gold, pred, len(labels))), _r(mlo), _r(mhi)]}


def _documents(q, lists: str) -> dict:
    """The document measures of one method as JSON: each figure ``[value, CI low, CI high]``."""
    return {"lists": lists, "documents": len(q.ids),
            "figures": {key: [_r(f["value"]), _r(f["low"]), _r(f["high"])] for key, f in q.summary().items()}}


def _other_row(words: str, name: str, source: str, docs: dict, t1: float, note: str = "") -> dict:
    """A method with document keywords only (an extractor, an imported file): no category lists."""
    row = {"method": method_id(words, name), "metric": name, "words": words, "source": source, "npmi": None,
           "absent_share": None, "exclusivity": None, "npmi_skipped": [], "micro_f1": None, "macro_f1": None,
           "f1_means": "", "documents": docs, "seconds": round(time.perf_counter() - t1, 1), "lists": {}}
    if note:
        row["note"] = note
    return row


def _row(words: str, metric: str, got, seconds: float) -> dict:
    q = got.quality.to_dict()
    f1 = q.pop("f1")
    return {"method": method_id(words, metric), "metric": metric, "words": words, "npmi": _r(q["npmi"]),
            "absent_share": _r(q["absent_share"]), "exclusivity": _r(q["exclusivity"]),
            "npmi_skipped": q["npmi_skipped"], "micro_f1": _r(100 * f1["micro_f1"], 2),
            "macro_f1": _r(100 * f1["macro_f1"], 2), "f1_means": f1["means"], "seconds": round(seconds, 1),
            "lists": got.lists}


def _r(x, digits: int = 4):
    return None if x is None or (isinstance(x, float) and x != x) else round(float(x), digits)


def _brief(row: dict) -> str:
    figures = row["documents"]["figures"]
    return (f"NPMI {row['npmi']}, absent {row['absent_share']}, exclusivity {row['exclusivity']}, "
            f"micro-F1 {row['micro_f1']}; documents: topic MRR {figures['topic_mrr'][0]}, keywords-alone micro-F1 "
            f"{(figures.get('micro_f1') or [None])[0]}, exclusivity {figures['exclusivity'][0]} ({row['seconds']} s)")


_STRINGS = re.compile(r'\[\s*("[^"\n]*"(?:,\s*"[^"\n]*")*)\s*\]')
_NUMBERS = re.compile(r'\[\s*((?:-?[0-9.e+-]+|null)(?:,\s*(?:-?[0-9.e+-]+|null))*)\s*\]')


def dump(data: dict) -> str:
    """The JSON with one line per word list and per figure triple (``indent=1`` elsewhere), so a diff shows
    changed lists."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    text = _STRINGS.sub(lambda m: "[" + re.sub(r'",\s+"', '", "', m.group(1)) + "]", text)
    return _NUMBERS.sub(lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text) + "\n"


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

    kinds = ["keyphrases", "own words", "extractor", "imported"]

    def key(r):
        kind = kinds.index(r["words"]) + 1 if r["words"] in kinds else 0
        return (kind, registry.index(r["metric"]) if r["metric"] in registry else len(registry), r["metric"])

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
             f"{len(c['categories'])} categories; measured in {c['seconds']:.0f} s."
             + (f" {OLD_RULE.format(name=name)}." if _old_rule(data, name) else ""), "",
             "| method | words | NPMI | absent from test split | exclusivity | micro-F1 | macro-F1 |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in c["methods"]:
        if r["words"] in ("extractor", "imported", "keyphrases"):
            continue  # document keywords only: no category lists
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
    lines += documents_section(data, name)
    return "\n".join(lines) + "\n"


def _ci(triple, fmt: str = ".3f", scale: float = 1.0) -> str:
    if not triple or triple[0] is None:
        return "–"
    value, lo, hi = (None if x is None else scale * x for x in triple)
    if lo is None:
        return _num(value, fmt)
    return f"{_num(value, fmt)} [{_num(lo, fmt)}, {_num(hi, fmt)}]"


def _words(r: dict, k: int) -> str:
    return r["words"] if r["words"] in ("own words", "extractor", "imported") else f"{r['words']}, K {k}"


def documents_section(data: dict, name: str) -> list[str]:
    """The document keywords' table of one corpus: topic against category, keywords alone for every
    method, then the deployable lists (label-free-top1) of the methods that have them."""
    c = data["corpora"][name]
    rows = [r for r in c["methods"] if r.get("documents")]
    if not rows:
        return []
    lines = ["", "## Document keywords: about the document, or about its category?", "",
             f"{data.get('documents', DOCUMENTS_ABOUT)} (docs/method.md §12). Every method's lists here carry "
             "keywords alone: dkw's metrics and the own-words methods under plain label-free (each word weighted "
             "by its best category, no classifier), the extractors read no label.", "",
             f"{front_line(data, name)}", "", f"![Topic against category on {name}]({name}-topic-category.svg)", "",
             "| method | words | topic MRR (vectors) | topic top-1 | topic MRR (literal) | literal top-1 | "
             "keywords in their document | Jaccard within category | keywords-alone micro-F1 (%) | macro-F1 (%) | "
             "exclusivity |", "| --- |" + " --- |" * 10]
    for r in rows:
        f = r["documents"]["figures"]
        lines.append(f"| {method_label(r)} | {_words(r, data['k'])} | {_ci(f.get('topic_mrr'))} | "
                     f"{_ci(f.get('topic_top1'))} | {_ci(f.get('literal_mrr'))} | {_ci(f.get('literal_top1'))} | "
                     f"{_ci(f.get('occurrence'))} | {_ci(f.get('jaccard'))} | {_ci(f.get('micro_f1'), '.2f', 100)} | "
                     f"{_ci(f.get('macro_f1'), '.2f', 100)} | {_ci(f.get('exclusivity'))} |")
        if r.get("note"):
            lines[-1] += f" {r['note']}"
    top1 = [r for r in rows if r.get("documents_top1")]
    if top1:
        lines += ["", f"### The deployable lists ({data['protocol']}: the tf-idf classifier's category enters)", "",
                  f"The same test documents' lists under {data['protocol']}, as `extract_keywords` and the pages give "
                  "them to a new text: each document weighted with the category a tf-idf + LinearSVC classifier "
                  "predicts. Its F1 is the category-list table's (above); the extractors have no such lists.", "",
                  "| method | topic MRR (vectors) | topic top-1 | topic MRR (literal) | keywords in their document | "
                  "Jaccard within category | exclusivity |", "| --- |" + " --- |" * 6]
        for r in top1:
            f = r["documents_top1"]["figures"]
            lines.append(f"| {method_label(r)} | {_ci(f.get('topic_mrr'))} | {_ci(f.get('topic_top1'))} | "
                         f"{_ci(f.get('literal_mrr'))} | {_ci(f.get('occurrence'))} | {_ci(f.get('jaccard'))} | "
                         f"{_ci(f.get('exclusivity'))} |")
    return lines


def _table(data: dict):
    """:func:`dkw_core.evaluation.wordlists.quality_results` of ``data``: the app's reader of the file."""
    from dkw_core.evaluation.wordlists import quality_results

    return quality_results(data)


def front_line(data: dict, name: str) -> str:
    from dkw_core.evaluation.wordlists import front_sentence

    return front_sentence(_table(data).of(name), name)


def _setting(data: dict) -> str:
    return (f"top {data['top']} words per category on the training split, K = {data['k']} ({data['k_choice']}); "
            f"NPMI: gensim `c_npmi` over {data['reference']}, boolean sliding window of {data['window']} words "
            f"(absent words left out and counted); exclusivity: share of the training documents containing the "
            f"word that belong to the category (0 for a word in no training document); F1: {data['f1']}. "
            f"dkw {data['dkw_version']}, {data['date']}, "
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
             "| method | " + " | ".join(_mark(data, n, n) for n in names) + " |", "| --- |" + " --- |" * len(names)]
    for method, row in rows.items():
        if method.startswith("tf-") or method == "gr":
            continue  # the summary keeps the plain metrics (gr ranks as ig); every row is on the corpus pages
        if all(row[n]["words"] in ("extractor", "imported", "keyphrases") for n in names if n in row):
            continue  # no category lists
        cells = [(f"{_num(row[n]['npmi'], '+.3f')} / {_num(row[n]['exclusivity'], '.3f')} / "
                  f"{_num(row[n]['micro_f1'], '.2f')}") if n in row else "–" for n in names]
        lines.append(f"| {row['label']} | " + " | ".join(cells) + " |")
    lines += _footnotes(data)
    lines += documents_summary(data, names, rows)
    return "\n".join(lines) + "\n"


def documents_summary(data: dict, names: list[str], rows: dict[str, dict]) -> list[str]:
    """BENCHMARKS.md's table of the document keywords: topic MRR / keywords-alone micro-F1 /
    exclusivity per corpus, every method but the tf- variants and gr, and who is on the front."""
    shown = {m: row for m, row in rows.items() if not (m.startswith("tf-") or m == "gr")
             and any(n in row and row[n].get("documents") for n in names)}
    if not shown:
        return []
    lines = ["", "**Document keywords: about the document, or about its category?** (docs/method.md §12; every list "
             "keywords alone: dkw's metrics and the own-words methods under plain label-free, the extractors read no "
             "label.) Each cell: topic MRR (vectors) / keywords-alone micro-F1 (%) / exclusivity of the document's "
             "keywords; 95 % CIs, the literal topic measures, the occurrence and Jaccard shares and the deployable "
             "(label-free-top1) lists on the per-corpus pages.", "",
             "| method | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for row in shown.values():
        cells = []
        for n in names:
            f = row[n]["documents"]["figures"] if n in row and row[n].get("documents") else None
            cells.append("–" if f is None else
                         f"{_num(f['topic_mrr'][0], '.3f')} / {_num(_pct100(f.get('micro_f1')), '.2f')} / "
                         f"{_num(f['exclusivity'][0], '.3f')}")
        lines.append(f"| {row['label']} | " + " | ".join(cells) + " |")
    lines += [""] + [f"- {front_line(data, n)}" for n in names
                     if any(r.get("documents") for r in data["corpora"][n]["methods"])]
    return lines


def _pct100(triple):
    return None if not triple or triple[0] is None else 100 * triple[0]


def write_between_markers(path: Path, text: str, begin: str = BEGIN, end: str = END) -> bool:
    body = path.read_text(encoding="utf-8")
    if begin not in body or end not in body:
        print(f"{path}: no {begin} ... {end} markers", file=sys.stderr)
        return False
    head, rest = body.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{begin}\n{text}{end}{tail}", encoding="utf-8")
    return True


# --------------------------------------------------------------------------- docs/method.md's blocks
#
# docs/method.md §9 (the default) and §11 (lo-own) state figures of the same table; both blocks are
# generated here from quality.json, so the two sections can never give two numbers for one thing.

#: The marker pairs of the generated blocks of docs/method.md.
METHOD_BLOCKS = {"defaults": ("<!-- quality-defaults:begin -->", "<!-- quality-defaults:end -->"),
                 "lo-own": ("<!-- quality-lo-own:begin -->", "<!-- quality-lo-own:end -->"),
                 "keyphrases": ("<!-- quality-keyphrases:begin -->", "<!-- quality-keyphrases:end -->")}
CORPUS_NAMES = {"20ng": "20ng", "r8": "R8", "r52": "R52", "webkb": "WebKB"}
FW, DEFAULT = "own:fw", "lo-own"


def _by_id(data: dict, name: str) -> dict[str, dict]:
    return {r["method"]: r for r in data["corpora"][name]["methods"]}


def _alone(r: dict) -> str:
    f = (r.get("documents") or {}).get("figures") or {}
    return _num(_pct100(f.get("micro_f1")), ".2f")


def _topic(r: dict) -> str:
    f = (r.get("documents") or {}).get("figures") or {}
    return _num((f.get("topic_mrr") or [None])[0], ".3f")


def against_fightin_words(data: dict, method: str = DEFAULT) -> str:
    """One sentence: where ``method``'s category words reach Fightin' Words' (own words) NPMI and
    exclusivity, corpus by corpus, every figure from the table (compared at the shown precision)."""
    parts = []
    for name in data["corpora"]:
        by = _by_id(data, name)
        if method not in by or FW not in by:
            continue
        d, p = by[method], by[FW]
        n_ok = round(d["npmi"], 3) >= round(p["npmi"], 3)
        e_ok = round(d["exclusivity"], 3) >= round(p["exclusivity"], 3)
        figs = (f"NPMI {_num(d['npmi'], '+.3f')} against {_num(p['npmi'], '+.3f')}, exclusivity "
                f"{_num(d['exclusivity'], '.3f')} against {_num(p['exclusivity'], '.3f')}")
        verdict = ("reaches both" if n_ok and e_ok else "reaches its exclusivity, not its NPMI" if e_ok
                   else "reaches its NPMI, not its exclusivity" if n_ok else "reaches neither")
        parts.append(f"on {_mark(data, name, CORPUS_NAMES.get(name, name))} it {verdict} ({figs})")
    if not parts:
        return ""
    return (f"Against Fightin' Words over own words (the field's standard), {method}'s category words: "
            + "; ".join(parts) + ".")


def defaults_block(data: dict) -> str:
    """docs/method.md §9's evidence table: ig, the default, the best latent F1 and Fightin' Words."""
    lines = ["Generated by `scripts/quality_table.py` from `docs/results/quality/quality.json` (do not edit). "
             "Each cell: NPMI / exclusivity of the category words / micro-F1 under label-free-top1 / micro-F1 of "
             "the keywords alone (plain label-free, §12):", "",
             "| corpus | ig (the former default) | **lo-own** (the default) | best latent F1 (label-free-top1) | "
             "Fightin' Words (own words) |", "| --- | --- | --- | --- | --- |"]
    for name in data["corpora"]:
        by = _by_id(data, name)
        latent = [r for r in by.values() if r["words"] == "latent" and r.get("micro_f1") is not None]
        best = max(latent, key=lambda r: r["micro_f1"]) if latent else None

        def cell(m, by=by):
            r = by.get(m)
            return "–" if r is None else (f"{_num(r['npmi'], '+.3f')} / {_num(r['exclusivity'], '.3f')} / "
                                          f"{_num(r['micro_f1'], '.2f')} / {_alone(r)}")
        best_cell = "–" if best is None else f"{best['metric']} {_num(best['micro_f1'], '.2f')}"
        lines.append(f"| {_mark(data, name, CORPUS_NAMES.get(name, name))} | {cell('ig')} | {cell(DEFAULT)} | "
                     f"{best_cell} | {cell(FW)} |")
    lines += _footnotes(data) + ["", against_fightin_words(data)]
    return "\n".join(lines) + "\n"


def lo_own_block(data: dict) -> str:
    """docs/method.md §11's table: ig, rf, lo, lo-own and Fightin' Words, every figure of the table."""
    lines = ["Generated by `scripts/quality_table.py` from `docs/results/quality/quality.json` (do not edit; the "
             "same rows as §9 and BENCHMARKS.md).", "",
             "| corpus | method | NPMI | absent | exclusivity | F1 label-free-top1 | F1 keywords alone | topic MRR |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    labels = {"ig": "ig (the former default)", "rf": "rf", "lo": "lo", DEFAULT: "**lo-own**",
              FW: "Fightin' Words (own words)"}
    for name in data["corpora"]:
        by = _by_id(data, name)
        for m, label in labels.items():
            if m not in by:
                continue
            r = by[m]
            lines.append(f"| {_mark(data, name, CORPUS_NAMES.get(name, name))} | {label} | {_num(r['npmi'], '+.3f')} | "
                         f"{_num(None if r['absent_share'] is None else 100 * r['absent_share'], '.1f')} % | "
                         f"{_num(r['exclusivity'], '.3f')} | {_num(r['micro_f1'], '.2f')} | {_alone(r)} | "
                         f"{_topic(r)} |")
    lines += _footnotes(data) + ["", f"- **{against_fightin_words(data)}**"]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- docs/extractors.md's fair comparison

FAIR_BLOCK = ("<!-- fair-comparison:begin -->", "<!-- fair-comparison:end -->")
#: The methods of the fair comparison, in order, with the information their keywords use.
FAIR = {DEFAULT: "training statistics (the default metric), keywords alone: no classifier",
        "ig": "training statistics (the best paper metric by F1), keywords alone: no classifier",
        FW: "training statistics over the document's own words, keywords alone: no classifier",
        "yake": "the text alone", "textrank": "the text alone"}
FAIR_MEASURES = {"micro_f1": "keywords-alone micro-F1", "topic_mrr": "topic MRR", "exclusivity": "exclusivity"}


def _figure(r: dict, key: str, which: str = "documents"):
    f = ((r.get(which) or {}).get("figures") or {}).get(key)
    return f if f and f[0] is not None else None


def fair_comparison(data: dict) -> str:
    """Every method on equal information: the keywords alone for all (dkw's metrics and the own-words
    methods under plain label-free; the extractors read the text alone), with a row that names the
    classifier where its category enters (the deployable label-free-top1 lists), and a sentence per
    corpus saying where YAKE! or TextRank win."""
    lines = ["Generated by `scripts/quality_table.py` from `docs/results/quality/quality.json` (do not edit; "
             "docs/method.md §12 defines the measures). 95 % CIs: percentile bootstrap over test documents.", "",
             "| corpus | method | what its keywords use | keywords-alone micro-F1 (%) | topic MRR | exclusivity |",
             "| --- | --- | --- | --- | --- | --- |"]
    wins = []
    for name in data["corpora"]:
        by = _by_id(data, name)
        keyphrases = {m: f"training statistics and the text's own phrases (about {m.split('=')[-1]}), keywords "
                         "alone: no classifier" for m, r in by.items() if r["words"] == "keyphrases"}
        for m, info in {**FAIR, **keyphrases}.items():
            r = by.get(m)
            if r is None or not r.get("documents"):
                continue
            lines.append(f"| {name} | {method_label(r)} | {info} | {_ci(_figure(r, 'micro_f1'), '.2f', 100)} | "
                         f"{_ci(_figure(r, 'topic_mrr'))} | {_ci(_figure(r, 'exclusivity'))} |")
        for m in keyphrases:  # the deployable keyphrases: the classifier's category enters their ranking
            k = by[m]
            if k.get("documents_top1"):
                lines.append(f"| {name} | {method_label(k)}, label-free-top1 | training statistics, the text's own "
                             f"phrases **and the category a tf-idf + LinearSVC classifier predicts** | – | "
                             f"{_ci(_figure(k, 'topic_mrr', 'documents_top1'))} | "
                             f"{_ci(_figure(k, 'exclusivity', 'documents_top1'))} |")
        d = by.get(DEFAULT)
        if d is not None and d.get("documents_top1"):
            lines.append(f"| {name} | {method_label(d)}, label-free-top1 | training statistics **and the category "
                         f"a tf-idf + LinearSVC classifier predicts** (the deployable lists) | "
                         f"{_num(d['micro_f1'], '.2f')} (classifier's category inside every vector) | "
                         f"{_ci(_figure(d, 'topic_mrr', 'documents_top1'))} | "
                         f"{_ci(_figure(d, 'exclusivity', 'documents_top1'))} |")
        for base in [DEFAULT, *keyphrases]:
            wins += _wins(by, base, name)
    lines += ["", ("**Where YAKE! or TextRank win** (keywords alone, against dkw's lists): " + "; ".join(wins) + ".")
              if wins else "**YAKE! and TextRank win nowhere** against dkw's lists on these measures."]
    return "\n".join(lines) + "\n"


def _wins(by: dict, base: str, name: str) -> list[str]:
    """Where YAKE! or TextRank are above ``base`` (keywords alone) on a fair measure, with its figures."""
    d = by.get(base)
    wins: list[str] = []
    if d is None or not d.get("documents"):
        return wins
    for m in ("yake", "textrank"):
        r = by.get(m)
        if r is None:
            continue
        won = []
        for key, label in FAIR_MEASURES.items():
            mine, theirs = _figure(d, key), _figure(r, key)
            if mine is None or theirs is None or round(theirs[0], 4) <= round(mine[0], 4):
                continue
            scale, fmt = (100, ".2f") if key == "micro_f1" else (1, ".3f")
            apart = (" (CIs apart)" if theirs[1] is not None and mine[2] is not None and theirs[1] > mine[2]
                     else " (CIs overlap)")
            won.append(f"{label} {_num(scale * theirs[0], fmt)} against {_num(scale * mine[0], fmt)}{apart}")
        if won:
            wins.append(f"on {name}, {method_label(r)} beats {method_label(d)} on " + "; ".join(won))
    return wins


#: docs/method.md §13's targets for the default's document keywords: (measure, rival, factor, label).
TARGETS = (("topic_mrr", "yake", 1.0, "topic MRR ≥ YAKE!'s"),
           ("micro_f1", "yake", 1.0, "keywords-alone micro-F1 ≥ YAKE!'s"),
           ("exclusivity", DEFAULT, 0.9, "exclusivity ≥ 0.9 × lo-own's"))


def default_targets(data: dict) -> dict[str, dict[str, bool | None]]:
    """Per corpus, whether the default's document keywords (the keyphrases at DEFAULT_ABOUT) meet each
    of :data:`TARGETS` (``None``: not measured), compared at the precision shown."""
    from dkw_core.evaluation.wordlists import default_document_method

    out: dict[str, dict[str, bool | None]] = {}
    for name in data["corpora"]:
        by = _by_id(data, name)
        default = by.get(default_document_method(by))
        met: dict[str, bool | None] = {}
        for key, rival, factor, label in TARGETS:
            mine = None if default is None else _figure(default, key)
            theirs = _figure(by[rival], key) if rival in by else None
            met[label] = (None if mine is None or theirs is None else
                          round(mine[0], 4) >= round(factor * theirs[0], 4))
        out[name] = met
    return out


def keyphrases_block(data: dict) -> str:
    """docs/method.md §13's evidence on the test splits: the former default, the default, YAKE!,
    TextRank and Fightin' Words on the paper's two questions, and which targets the default meets."""
    from dkw_core.evaluation.wordlists import default_document_method

    lines = ["Generated by `scripts/quality_table.py` from `docs/results/quality/quality.json` (do not edit; §12 "
             "defines the measures: every test document, lists under plain label-free, 95 % CIs over documents):", "",
             "| corpus | method | topic MRR (vector) | keywords-alone micro-F1 (%) | exclusivity |",
             "| --- | --- | --- | --- | --- |"]
    for name in data["corpora"]:
        by = _by_id(data, name)
        default = default_document_method(by)
        rows = {DEFAULT: f"{DEFAULT} latent words (the former default, about 1)"}
        if default != DEFAULT:  # the keyphrases at DEFAULT_ABOUT were measured on this corpus
            rows[default] = f"**{method_label(by[default])}** (the default)"
        rows.update({"yake": "YAKE!", "textrank": "TextRank", FW: "Fightin' Words (own words)"})
        for m, label in rows.items():
            r = by.get(m)
            if r is None or not r.get("documents"):
                continue
            lines.append(f"| {CORPUS_NAMES.get(name, name)} | {label} | {_ci(_figure(r, 'topic_mrr'))} | "
                         f"{_ci(_figure(r, 'micro_f1'), '.2f', 100)} | {_ci(_figure(r, 'exclusivity'))} |")
    lines.append("")
    verdicts = []
    for name, met in default_targets(data).items():
        reached = [t for t, ok in met.items() if ok]
        missed = [t for t, ok in met.items() if ok is False]
        if not reached and not missed:
            continue
        verdicts.append(f"{CORPUS_NAMES.get(name, name)}: " + ("all three met" if not missed else
                        (", ".join(reached) + " met; " if reached else "") + ", ".join(missed) + " missed"))
    missing = [n for n, met in default_targets(data).items() if any(ok is False for ok in met.values())]
    lines.append(("**The default meets all three targets on every corpus measured.** " if not missing else
                  f"**The default misses a target on {len(missing)} of {len(verdicts)} corpora measured**: it is "
                  "the best trade-off found, not a design that meets all three. ")
                 + "By corpus — " + "; ".join(verdicts) + ".")
    return "\n".join(lines) + "\n"


def write_method_blocks(path: Path, data: dict) -> bool:
    ok = write_between_markers(path, defaults_block(data), *METHOD_BLOCKS["defaults"])
    ok = write_between_markers(path, keyphrases_block(data), *METHOD_BLOCKS["keyphrases"]) and ok
    return write_between_markers(path, lo_own_block(data), *METHOD_BLOCKS["lo-own"]) and ok


#: How each kind of method is drawn in the chart (colour, marker), and the default's star.
STYLE = {"latent": ("#7f9cbf", "o"), "own words": ("#e07b00", "D"), "extractor": ("#2a9d4b", "s"),
         "keyphrases": ("#1f4e9c", "P"),
         "imported": ("#8a4fbf", "^"), "default": ("#c0143c", "*")}


def topic_category_svg(data: dict, name: str, path: Path) -> None:
    """The chart of one corpus (topic MRR against keywords-alone micro-F1, each method a point with
    its 95 % CIs as error bars) as an SVG for the docs site; the methods on the front, the default,
    the peers and the extractors are named on it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dkw_core.evaluation.wordlists import (
        CATEGORY_AXIS,
        TOPIC_AXIS,
        default_document_method,
        method_kind_of,
        pareto_front,
    )

    rows = _table(data).of(name).dropna(subset=[TOPIC_AXIS, CATEGORY_AXIS])
    default = default_document_method(rows["id"])
    front = set(pareto_front(rows)["id"])
    plt.rcParams.update({"svg.hashsalt": "dkw", "svg.fonttype": "none", "font.size": 9})
    fig, ax = plt.subplots(figsize=(8, 5.2))
    seen = set()
    x0, x1 = float(rows[TOPIC_AXIS].min()), float(rows[TOPIC_AXIS].max())
    right = iter(range(len(rows)))  # labels of the rightmost methods read leftwards, taking turns above and below
    for _, r in rows.sort_values(TOPIC_AXIS, ascending=False).iterrows():
        kind = "default" if r["id"] == default else method_kind_of(r["words"])
        colour, marker = STYLE[kind]
        x, y = r[TOPIC_AXIS], r[CATEGORY_AXIS]
        xerr = [[x - r[f"{TOPIC_AXIS} low"]], [r[f"{TOPIC_AXIS} high"] - x]]
        yerr = [[y - r[f"{CATEGORY_AXIS} low"]], [r[f"{CATEGORY_AXIS} high"] - y]]
        label = {"default": f"the default ({r['method']})", "latent": "dkw metrics (latent words)"}.get(kind, kind)
        ax.errorbar(x, y, xerr=xerr, yerr=yerr, fmt=marker, color=colour, ecolor=colour, elinewidth=0.8,
                    markersize=11 if kind == "default" else 6, alpha=0.9, label=None if kind in seen else label)
        seen.add(kind)
        named = r["id"] in front or kind not in ("latent", "own words") or r["id"] in ("ig", "lo-own", "own:fw")
        if named and kind != "default":  # the default is named in the legend
            if x > x0 + 0.7 * max(x1 - x0, 0.05):
                offset, align = ((-6, 6), "right") if next(right) % 2 == 0 else ((-6, -12), "right")
            else:
                offset, align = (5, 4), "left"
            ax.annotate(r["method"], (x, y), textcoords="offset points", xytext=offset, ha=align, fontsize=8,
                        fontweight="bold" if r["id"] in front else "normal")
    ax.set_xlabel("topic: MRR of the document among its category's documents, by its keywords' vector")
    ax.set_ylabel("category: keywords-alone micro-F1 (%)")
    ax.set_title(f"{name}: about the document (right) or about its category (up)? 95 % CIs over documents",
                 fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def render(data: dict, pages: Path) -> list[Path]:
    written = []
    for name in data["corpora"]:
        path = pages / f"{name}.md"
        path.write_text(corpus_page(data, name), encoding="utf-8")
        written.append(path)
        if any(r.get("documents") for r in data["corpora"][name]["methods"]):
            chart = pages / f"{name}-topic-category.svg"
            topic_category_svg(data, name, chart)
            written.append(chart)
    return written


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", nargs="+", default=ORDER, metavar="NAME", help="corpora to measure (default: all four)")
    ap.add_argument("--metrics", default="all",
                    help="comma-separated registry metrics over latent words, 'all' (every metric of "
                         "dkw_core.metrics.METRICS when run; the default) or 'none'")
    ap.add_argument("--peers", default="fw,ctfidf,tf-idf,tf-rf",
                    help="comma-separated metrics over the documents' own words (default fw,ctfidf,tf-idf,tf-rf: "
                         "Fightin' Words, c-TF-IDF, tf-idf and tf-rf) or 'none'")
    ap.add_argument("--extractors", default="yake,textrank",
                    help="comma-separated registered extractors whose document keywords are measured (default "
                         "yake,textrank; extraction cached per document) or 'none'")
    ap.add_argument("--extractor-train", choices=("extract", "cached"), default="extract",
                    help="the extractors' training keywords (for their keywords-alone F1): extract what is missing "
                         "(default), or use them only when all are cached, else take the F1 of "
                         "docs/results/extractors/<corpus>.json")
    ap.add_argument("--about", type=float, action="append", default=[], metavar="A",
                    help="also measure the default metric's keyphrases of the text itself at this about (0 = about "
                         "the text, 1 = about its category; KeywordModel.keywords(..., about=A)); repeatable")
    ap.add_argument("--about-f1", action="store_true",
                    help="with --about: also rank the training documents, for the keyphrases' keywords-alone F1")
    ap.add_argument("--documents-only", action="store_true",
                    help="keep the stored category-list figures (NPMI, F1) of a method measured before and measure "
                         "only its document keywords (and its category lists' exclusivity, from the stored lists)")
    ap.add_argument("--import", dest="imports", action="append", default=[], type=Path, metavar="FILE",
                    help="keywords computed elsewhere (CSV or JSONL, the study's format), measured on the corpus "
                         "whose test documents they cover; repeatable")
    ap.add_argument("--k", type=int, default=90, help="K for every latent metric (default 90, fixed)")
    ap.add_argument("--top", type=int, default=10, help="words per list and N of the F1 (default 10)")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON,
                    help="the results file (default docs/results/quality/quality.json)")
    ap.add_argument("--render", action="store_true", help="only render the Markdown from the JSON (no measuring)")
    ap.add_argument("--pages", type=Path, default=None,
                    help="folder of the per-corpus pages <corpus>.md (default: the JSON's folder)")
    ap.add_argument("--method-doc", type=Path, metavar="MD",
                    help="also replace the generated blocks of docs/method.md §9 and §11 in this file")
    ap.add_argument("--extractors-doc", type=Path, metavar="MD",
                    help="also replace the fair comparison block of docs/extractors.md in this file")
    ap.add_argument("--write", type=Path, metavar="MD",
                    help=f"also replace the summary between {BEGIN} and {END} in this file (BENCHMARKS.md)")
    args = ap.parse_args(argv)
    pages = args.pages or args.json.parent

    if not args.render:
        from dkw_core import __version__
        from dkw_core.errors import DkwError, InputError
        from dkw_core.keywords.extractors import is_extractor, registered_extractors
        from dkw_core.keywords.imports import read_imported
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
            extractors = [] if args.extractors == "none" else [e.strip() for e in args.extractors.split(",")]
            for spec in extractors:
                if not is_extractor(spec):
                    raise InputError(f"{spec!r} is no registered keyword extractor; registered: "
                                     + ", ".join(r.example for r in registered_extractors()))
            imported: dict = {}
            for path in args.imports:
                for method, lists in read_imported(path).items():
                    if method in imported:
                        raise InputError(f"{path.name}: method {method!r} is imported twice")
                    imported[method] = lists
            source = ", ".join(p.name for p in args.imports)
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
                       f"LinearSVC one-vs-rest)",
                 "documents": DOCUMENTS_ABOUT}
        for name in args.corpora:  # written after each corpus: a long run leaves every finished corpus behind
            old = json.loads(args.json.read_text(encoding="utf-8")) if args.json.exists() else None
            kept = {r["method"]: r for r in ((old or {}).get("corpora", {}).get(name, {}).get("methods", []))}
            try:
                fresh = {name: measure_corpus(name, metrics, peers, k=args.k, top=args.top,
                                              protocol=NEW_TEXT_PROTOCOL, extractors=extractors, imports=imported,
                                              import_source=source, reuse=kept if args.documents_only else None,
                                              extractor_train=args.extractor_train, abouts=args.about,
                                              about_f1=args.about_f1)}
            except DkwError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
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
    if args.method_doc is not None:
        if not write_method_blocks(args.method_doc, data):
            return 2
        print(f"wrote the generated blocks into {args.method_doc}")
    if args.extractors_doc is not None:
        if not write_between_markers(args.extractors_doc, fair_comparison(data), *FAIR_BLOCK):
            return 2
        print(f"wrote the fair comparison into {args.extractors_doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
