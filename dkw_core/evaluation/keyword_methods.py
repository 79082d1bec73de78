"""The paper's evaluation for any keyword method (docs/method.md §3.6, docs/extractors.md).

A method's keywords — a registered extractor's (YAKE!, TextRank, your own), keywords imported
from a file, or dkw's own — become document vectors the paper's way: the normalised sum of the
vectors of its top-N keywords, a multiword keyword's vector by Algorithm 1
(:meth:`dkw_core.vectors.Vectors.phrase_vector`), a keyword without a known word left out.
The same classifier as dkw's is trained on the training split and scores the test split at
every N; every run keeps its per-document test predictions, so it is compared with dkw's
metrics and the tf-idf + LinearSVC baseline document by document (McNemar exact, paired
bootstrap CI, Holm: :mod:`.paired`).

What each method reads is recorded with its runs (``options["reads"]``): an extractor says
whether it reads the document's category; imported keywords are "unknown".
"""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from ..keywords.extractors import CACHED_TOP, extract_cached, extractor_for
from ..keywords.ranking import keyword_vectors
from ..keywords.registry import READS, reads_labels
from ..types import Progress
from .classifiers import DEFAULT_CLASSIFIER, Scores, fit_predict, score_predictions
from .protocols import RunConfig, RunResult, check_classifier
from .search import DEFAULT_N_GRID

if TYPE_CHECKING:
    from .experiments import Experiment
    from .results import ResultsStore

#: The run kind of a keyword method other than dkw's (an extractor or imported keywords).
KIND = "extractor"


@dataclass
class MethodKeywords:
    """One method's keywords for every document of a corpus (both splits), best first."""

    name: str                 # shown name: the extractor spec or the imported method's name
    kind: str                 # "extractor", "imported" or "dkw"
    reads_labels: bool | None  # None: unknown (imported)
    source: str               # the extractor's package version, or the imported file
    lists: dict[str, list[str]]

    @property
    def reads(self) -> str:
        return READS[self.reads_labels]

    @property
    def protocol(self) -> str:
        """The protocol recorded with its runs: ``label-free`` when it reads no label,
        ``label-aware`` when it does, ``none`` when unknown."""
        return {False: "label-free", True: "label-aware", None: "none"}[self.reads_labels]

    def fingerprint(self) -> str:
        """A hash of every keyword list: a changed file is never a cache hit."""
        blob = json.dumps(sorted(self.lists.items()), ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def split_ids(corpus, split: str) -> list[str]:
    return [d.id for d in corpus.split(split)]


def split_labels(corpus, split: str) -> np.ndarray:
    index = {c: i for i, c in enumerate(corpus.categories)}
    return np.asarray([index[d.label] for d in corpus.split(split)], dtype=np.int64)


def extractor_keywords(corpus, spec: str, *, progress: Progress | None = None) -> MethodKeywords:
    """The keywords of every training and test document by the registered extractor ``spec``
    (at most :data:`~dkw_core.keywords.extractors.CACHED_TOP` each; cached per document)."""
    ext = extractor_for(spec)
    if ext is None:
        raise InputError(f"{spec!r} is no registered keyword extractor")
    docs = corpus.split("train") + corpus.split("test")
    found = extract_cached(spec, [d.text for d in docs], top=CACHED_TOP, progress=progress)
    from ..keywords.extractors import _extractor_version

    return MethodKeywords(name=spec.strip(), kind="extractor", reads_labels=reads_labels("extractor", spec),
                          source=_extractor_version(ext), lists={d.id: ws for d, ws in zip(docs, found)})


def keyphrase_keywords(corpus, spec: str, *, protocol: str = "label-free") -> MethodKeywords:
    """dkw's keyphrases (``keyphrases-a0.4-knn90-lo-own``, docs/method.md §13) of every training
    and test document under ``protocol`` — plain ``label-free`` by default, the keywords-alone
    comparison: no classifier's category inside the lists."""
    from ..keywords.methods import keywords_by_method
    from ..keywords.registry import is_keyphrases

    if not is_keyphrases(spec):
        raise InputError(f"{spec!r} is not dkw's keyphrase method (keyphrases-a<about>-knn<K>-<metric>)")
    docs = corpus.split("train") + corpus.split("test")
    lists = keywords_by_method(spec, dataset=corpus, doc_ids=[d.id for d in docs], top=CACHED_TOP, protocol=protocol)
    return MethodKeywords(name=f"{spec.strip()}@{protocol}", kind="dkw", reads_labels=reads_labels("dkw", protocol=protocol),
                          source="dkw", lists=lists)


def imported_keywords(corpus, parsed: Mapping[str, Mapping[str, Sequence[str]]], *, source: str) -> list[MethodKeywords]:
    """Imported keywords (``{method: {doc id: keywords}}``, :func:`dkw_core.keywords.imports.read_imported`)
    checked to cover both splits: a document without keywords is named, as the study's import does."""
    out = []
    for name, lists in parsed.items():
        for split in ("train", "test"):
            ids = split_ids(corpus, split)
            missing = [d for d in ids if not lists.get(d)]
            if missing:
                raise InputError(f"{source}: method {name!r} has no keywords for {len(missing)} of the {len(ids)} "
                                 f"{split} document(s) of {corpus.name}, e.g. {missing[0]!r}; an imported method "
                                 "must cover both splits (the classifier is trained on the training split)")
        out.append(MethodKeywords(name=str(name), kind="imported", reads_labels=None, source=source,
                                  lists={d: [str(w) for w in ws] for d, ws in lists.items()}))
    return out


def evaluate_keywords(corpus, vectors, method: MethodKeywords, *, tops: Sequence[int] = DEFAULT_N_GRID,
                      classifier: str = DEFAULT_CLASSIFIER) -> dict[int, tuple[Scores, dict[str, float], np.ndarray]]:
    """Train ``classifier`` on the training split's keyword vectors of ``method`` and score the
    test split, at every N of ``tops``: ``{N: (scores, seconds, test predictions)}``."""
    check_classifier(classifier)
    tops = sorted({int(n) for n in tops})
    if not tops or tops[0] < 1:
        raise InputError("N must be a positive number of keywords")
    train, test = split_ids(corpus, "train"), split_ids(corpus, "test")
    y_train = split_labels(corpus, "train")
    y_test = split_labels(corpus, "test")
    out = {}
    for n in tops:
        t0 = time.perf_counter()
        X_train = keyword_vectors(vectors, [method.lists.get(d, []) for d in train], n)
        X_test = keyword_vectors(vectors, [method.lists.get(d, []) for d in test], n)
        t1 = time.perf_counter()
        y_pred = fit_predict(X_train, y_train, X_test, classifier=classifier)
        scores = score_predictions(y_test, y_pred, list(corpus.categories))
        out[n] = (scores, {"vectors": t1 - t0, "classify": time.perf_counter() - t1}, y_pred)
    return out


def method_run_config(exp: Experiment, method: MethodKeywords, *, top: int, classifier: str) -> RunConfig:
    """The stored configuration of one method's run at N = ``top``."""
    options = {"method_kind": method.kind, "reads": method.reads, "reads_labels": method.reads_labels,
               "source": method.source, "keywords": method.fingerprint(), "k_max": int(exp.k_max)}
    return RunConfig(dataset=exp.dataset, corpus_key=exp.corpus.key, vectors=exp.vectors_name, protocol=method.protocol,
                     metric=method.name, k=0, top=int(top), classifier=classifier, kind=KIND, sample=exp.sample,
                     options=options)


def run_keywords(exp: Experiment, method: MethodKeywords, *, tops: Sequence[int] = DEFAULT_N_GRID,
                 classifier: str = DEFAULT_CLASSIFIER, store: ResultsStore | str | None = None,
                 force: bool = False) -> list[RunResult]:
    """:func:`evaluate_keywords` stored run by run (kind ``extractor``), one per N; stored runs
    are cache hits, and the classifier runs only when one is missing."""
    from .experiments import _store, test_predictions
    from .paired import prediction_record

    st = _store(store)
    configs = {int(n): method_run_config(exp, method, top=n, classifier=classifier) for n in tops}
    todo = [n for n, c in configs.items() if force or st.get(c) is None]
    fresh = evaluate_keywords(exp.corpus, exp.vectors, method, tops=todo, classifier=classifier) if todo else {}
    out = []
    for n, config in configs.items():
        if n in fresh:
            scores, seconds, y_pred = fresh[n]
            record = (test_predictions(exp.model, y_pred) if exp.model is not None else
                      prediction_record(split_ids(exp.corpus, "test"), split_labels(exp.corpus, "test").tolist(),
                                        y_pred.tolist()))
            result = RunResult(config=config, scores=scores, seconds=seconds, details={"predictions": record})
            out.append(st.run(config, _returns(result), force=force))
        else:
            stored = st.get(config)
            assert stored is not None
            out.append(stored)
    return out


def _returns(result: RunResult):
    return lambda: result


def method_summary(result: RunResult) -> dict:
    """JSON of one method run (F1 in percent) with what the method reads."""
    summary = result.summary()
    summary["reads"] = result.config.options.get("reads")
    summary["source"] = result.config.options.get("source")
    return summary


def run_name(result: RunResult) -> str:
    """How a run is named in a comparison: ``dkw ig K90`` for dkw's metrics, the method's own
    name for an extractor or imported keywords."""
    c = result.config
    if c.kind == KIND:
        return c.metric
    if c.kind == "baseline-tfidf":
        from .protocols import KIND_LABELS

        return KIND_LABELS[c.kind]
    return f"dkw {c.metric} K{c.k}"


def tfidf_record(exp: Experiment, *, classifier: str = DEFAULT_CLASSIFIER) -> tuple[Scores, dict]:
    """The tf-idf + LinearSVC baseline's scores and its per-document test predictions."""
    from .baselines import tfidf_baseline
    from .paired import prediction_record

    scores, _seconds, y_pred = tfidf_baseline(exp.corpus, classifier=classifier)
    return scores, prediction_record(split_ids(exp.corpus, "test"), split_labels(exp.corpus, "test").tolist(),
                                     np.asarray(y_pred).tolist())


def comparison_table(exp: Experiment, results: Sequence[RunResult], *, top: int, classifier: str = DEFAULT_CLASSIFIER):
    """Every pair of the runs at N = ``top`` and the tf-idf + LinearSVC baseline, compared per
    test document (McNemar exact, paired bootstrap CI, Holm over the pairs). Runs on another
    test split (another corpus version) are left out."""
    from .paired import compare_all, decode_labels
    from .protocols import KIND_LABELS

    record = tfidf_record(exp, classifier=classifier)[1]
    preds = {KIND_LABELS["baseline-tfidf"]: decode_labels(record["pred"])}
    for r in results:
        p = r.details.get("predictions") if isinstance(r.details, dict) else None
        if r.config.top == top and isinstance(p, dict) and p.get("split") == record["split"]:
            preds.setdefault(run_name(r), decode_labels(p["pred"]))
    names = [n for n in preds if n != KIND_LABELS["baseline-tfidf"]] + [KIND_LABELS["baseline-tfidf"]]
    return compare_all(decode_labels(record["gold"]), {n: preds[n] for n in names})


def information_note(protocol: str, methods: Sequence[str]) -> str:
    """The sentence a comparison shows when its methods do not stand on equal information: a
    registered extractor (it reads the text alone) beside dkw's metrics under a protocol whose
    keywords read a category — the gold one (label-aware) or a tf-idf classifier's (the
    posterior protocols). Empty when all read the same (plain label-free, or no extractor)."""
    from ..keywords.extractors import is_extractor
    from ..types import PROTOCOL_INFO

    info = PROTOCOL_INFO.get(protocol)
    extractors = sorted({m for m in methods if is_extractor(str(m))})
    if info is None or not extractors or not (info.reads_labels or info.posterior):
        return ""
    what = ("each test document's gold category" if info.reads_labels
            else "the category a tf-idf + LinearSVC classifier predicts for each document")
    return (f"Not equal information: under {protocol} dkw's metrics weight every word with {what}; "
            f"{', '.join(extractors)} read the text alone. Compare them on the keywords alone under label-free, or "
            f"on the Words tab (topic against category, keywords-alone F1 for every method).")
