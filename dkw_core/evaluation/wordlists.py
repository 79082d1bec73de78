"""A method's word lists and how a reader would take them (docs/method.md §10; the
measures are :mod:`dkw_core.quality`).

A *method* is a prepared model and a metric: a :class:`~dkw_core.keywords.KeywordModel` ranks
latent words (the paper's method, K nearest words per phrase), a
:class:`~dkw_core.keywords.BaselineModel` a document's own words (``fw`` there is Fightin' Words,
``ctfidf`` c-TF-IDF: the field's standard peers). Its lists are

* ``"categories"``: each category's vocabulary (:func:`category_lists`, the ``categories``
  command and the Categories page: training-split statistics, over-represented words only), or
* ``"documents"``: each test document's keywords under the protocol (:func:`document_lists`).

:func:`method_quality` scores them with :func:`dkw_core.quality.list_quality` and adds the F1
the same method's document keywords give (:func:`method_f1`, the evaluation's own code: keyword-
vector sums + classifier for a latent method, :func:`.baselines.bow_baseline`'s binary keyword
sets for own words, since own words have no vectors here).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import InputError
from ..quality import DEFAULT_TOPN, ListF1, ListQuality, list_quality, word_tokens
from ..types import DEFAULT_METRIC, NEW_TEXT_PROTOCOL, check_protocol
from .classifiers import CLASSIFIER_LABELS, DEFAULT_CLASSIFIER
from .document_measures import DocumentQuality, document_quality

__all__ = ["LIST_KINDS", "MethodQuality", "ReferenceTokens", "reference_tokens", "category_lists", "document_lists",
           "method_f1", "method_quality", "OWN_WORDS", "PEER_NAMES", "FIGHTIN_WORDS", "QUALITY_COLUMNS",
           "QualityResults", "quality_method_id", "quality_method_label", "quality_path", "load_quality",
           "QualitySummary", "quality_summary", "KEYWORDS_ALONE", "model_keyword_lists", "quality_results",
           "keywords_quality", "method_document_quality", "DOCUMENT_COLUMNS", "TOP1_SUFFIX", "document_columns",
           "EXTRACTOR", "IMPORTED", "KEYPHRASES", "EXTRACTOR_NAMES", "TOPIC_AXIS", "CATEGORY_AXIS", "KINDS",
           "CATEGORY_LIST_KINDS", "method_kind_of", "pareto_front", "front_sentence", "keyphrases_id",
           "default_document_method"]

#: What a method's lists can be.
LIST_KINDS: tuple[str, ...] = ("categories", "documents")


@dataclass(frozen=True)
class ReferenceTokens:
    """The tokens every measure reads: the test split's (NPMI, the topic measures) and the
    training split's with their labels (exclusivity), :func:`dkw_core.quality.word_tokens` of
    each document, in the corpus's order, with the documents' ids and gold categories."""

    test: list[list[str]]
    train: list[list[str]]
    train_labels: list[str]
    test_ids: list[str] = field(default_factory=list)
    test_labels: list[str] = field(default_factory=list)
    train_ids: list[str] = field(default_factory=list)


def reference_tokens(corpus) -> ReferenceTokens:
    """:class:`ReferenceTokens` of a corpus (its tagging is cached, so this reads the cache)."""
    from ..phrases import tag_corpus

    tagged = tag_corpus(corpus)
    train = [d for d in corpus.documents if d.split == "train"]
    test = [d for d in corpus.documents if d.split == "test"]
    return ReferenceTokens(test=[word_tokens(tagged[d.id]) for d in test],
                           train=[word_tokens(tagged[d.id]) for d in train], train_labels=[d.label for d in train],
                           test_ids=[d.id for d in test], test_labels=[d.label for d in test],
                           train_ids=[d.id for d in train])


def _own_words(model) -> bool:
    from ..keywords.baseline import BaselineModel

    return isinstance(model, BaselineModel)


def _k(model, k: int | None) -> int | None:
    return None if _own_words(model) else k


def category_lists(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN) -> dict[str, list[str]]:
    """Every category's ``top`` words under ``metric`` (K ignored for own words), as the
    ``categories`` command gives them."""
    from ..keywords.categories import category_keywords

    return {c: [w.word for w in category_keywords(model, c, metric=metric, k=_k(model, k), top=top, phrases=0)]
            for c in model.categories}


def document_lists(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN,
                   protocol: str = NEW_TEXT_PROTOCOL) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Every test document's ``top`` keywords under ``protocol`` and its gold category (read
    only to measure exclusivity, after the ranking)."""
    check_protocol(protocol)
    rows = model.rank("test", metric=metric, k=_k(model, k), top=top, protocol=protocol)
    ids = model.doc_ids("test")
    words = dict(zip(ids, model.words(rows)))
    gold = {d: model.categories[int(c)] for d, c in zip(ids, model.labels("test"))}
    keep = [d for d in ids if words[d]]  # a document none of whose words is known has no list
    return {d: words[d] for d in keep}, {d: gold[d] for d in keep}


def method_f1(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN, protocol: str = NEW_TEXT_PROTOCOL,
              classifier: str = DEFAULT_CLASSIFIER) -> ListF1:
    """The F1 the method's document keywords give on the test split, by the evaluation's code:
    :func:`.protocols.evaluate_model` (keyword-vector sums) for latent words,
    :func:`.baselines.bow_baseline` (binary keyword sets) for own words."""
    check_protocol(protocol)
    clf = CLASSIFIER_LABELS.get(classifier, classifier)
    if _own_words(model):
        from .baselines import bow_baseline

        scores, _, _ = bow_baseline(model, metric=metric, top=top, protocol=protocol, classifier=classifier)
        means = (f"the test documents' own-word keywords (N={top}, {protocol}) as binary keyword sets, "
                 f"classifier {clf}")
    else:
        from .protocols import evaluate_model

        if k is None:
            raise InputError("latent words need a K")
        scores, _, _ = evaluate_model(model, metric=metric, k=k, top=top, protocol=protocol, classifier=classifier)
        means = (f"the test documents' keywords (K={k}, N={top}, {protocol}) as keyword-vector sums, "
                 f"classifier {clf}")
    return ListF1(micro_f1=float(scores.micro_f1), macro_f1=float(scores.macro_f1), top=int(top), protocol=protocol,
                  means=means)


@dataclass(frozen=True)
class MethodQuality:
    """A method's lists and their quality."""

    lists: dict[str, list[str]]
    quality: ListQuality


def method_quality(model, *, metric: str, k: int | None, lists: str = "categories", top: int = DEFAULT_TOPN,
                   protocol: str = NEW_TEXT_PROTOCOL, classifier: str = DEFAULT_CLASSIFIER,
                   tokens: ReferenceTokens | None = None, f1: bool = True) -> MethodQuality:
    """The method's ``lists`` (``"categories"`` or ``"documents"``) scored by
    :func:`dkw_core.quality.list_quality`, with the F1 of its document keywords at N = ``top``
    under ``protocol`` (``f1=False`` leaves it out). ``tokens`` saves re-reading the tagging
    when several methods of one corpus are measured."""
    if lists not in LIST_KINDS:
        raise InputError(f"unknown kind of word lists {lists!r}; one of {', '.join(LIST_KINDS)}")
    tokens = tokens or reference_tokens(model.corpus)
    categories = None
    if lists == "categories":
        words = category_lists(model, metric=metric, k=k, top=top)
    else:
        words, categories = document_lists(model, metric=metric, k=k, top=top, protocol=protocol)
    words = {name: ws for name, ws in words.items() if ws}
    score = method_f1(model, metric=metric, k=k, top=top, protocol=protocol, classifier=classifier) if f1 else None
    quality = list_quality(words, tokens.test, tokens.train, tokens.train_labels, categories=categories, topn=top,
                           f1=score)
    return MethodQuality(lists=words, quality=quality)


# --------------------------------------------------------------------------- document keywords

#: The protocol of "keywords alone": every word weighted by its best category, no classifier's
#: category inside any list (docs/method.md §3).
KEYWORDS_ALONE = "label-free"


def model_keyword_lists(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN,
                        protocol: str = KEYWORDS_ALONE, splits: tuple[str, ...] = ("train", "test")
                        ) -> dict[str, list[str]]:
    """``{doc id: top keywords}`` of every document of ``splits`` under ``protocol`` (a prepared
    :class:`~dkw_core.keywords.KeywordModel` or :class:`~dkw_core.keywords.BaselineModel`; K
    ignored for own words)."""
    check_protocol(protocol)
    out: dict[str, list[str]] = {}
    for split in splits:
        rows = model.rank(split, metric=metric, k=_k(model, k), top=top, protocol=protocol)
        out.update(zip(model.doc_ids(split), model.words(rows)))
    return out


def keywords_quality(lists, tokens: ReferenceTokens, vectors, *, top: int = DEFAULT_TOPN, f1: bool = True,
                     classifier: str = DEFAULT_CLASSIFIER, document_vectors=None) -> DocumentQuality:
    """:func:`dkw_core.evaluation.document_measures.document_quality` of any method's ``lists`` (``{doc id:
    keywords}``; the test documents', and with ``f1`` the training documents' too, whose keywords
    train the classifier) on the corpus ``tokens`` describe. A test document without a list
    counts as an empty list (no keyword: it ties with every document, its exclusivity is NaN)."""
    test = {d: list(lists.get(d) or []) for d in tokens.test_ids}
    train = None
    if f1:
        missing = [d for d in tokens.train_ids if d not in lists]
        if missing:
            raise InputError(f"no keywords for {len(missing)} of the {len(tokens.train_ids)} training documents, "
                             f"e.g. {missing[0]!r}: the keywords-alone F1 trains on them")
        train = {d: list(lists[d]) for d in tokens.train_ids}
    return document_quality(test, ids=tokens.test_ids, categories=tokens.test_labels, tokens=tokens.test,
                            train_tokens=tokens.train, train_labels=tokens.train_labels, vectors=vectors, top=top,
                            train_lists=train, train_ids=tokens.train_ids, classifier=classifier,
                            document_vectors=document_vectors)


def method_document_quality(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN,
                            protocol: str = KEYWORDS_ALONE, vectors=None, tokens: ReferenceTokens | None = None,
                            f1: bool = True, classifier: str = DEFAULT_CLASSIFIER) -> DocumentQuality:
    """The document measures of a prepared model's ``metric`` (:func:`model_keyword_lists` under
    ``protocol`` for both splits, then :func:`keywords_quality`). ``vectors`` defaults to the
    model's own (a :class:`~dkw_core.keywords.BaselineModel` has none: pass them)."""
    vectors = vectors if vectors is not None else getattr(model, "vectors", None)
    if vectors is None:
        raise InputError("the topic measure needs word vectors: pass vectors= for a model over own words")
    tokens = tokens or reference_tokens(model.corpus)
    splits = ("train", "test") if f1 else ("test",)
    lists = model_keyword_lists(model, metric=metric, k=k, top=top, protocol=protocol, splits=splits)
    return keywords_quality(lists, tokens, vectors, top=top, f1=f1, classifier=classifier)


# --------------------------------------------------------------------------- the shipped table

#: ``words`` of a method over the documents' own words (a peer); any other value: latent words.
OWN_WORDS = "own words"
#: ``words`` of a registered extractor's keywords (YAKE!, TextRank), of keywords imported from a file and
#: of dkw's keyphrases of the text itself (``KeywordModel.keywords(..., about=)``; metric ``<metric>@about=<a>``).
EXTRACTOR, IMPORTED, KEYPHRASES = "extractor", "imported", "keyphrases"
#: The peers' names (own-words metrics of :class:`~dkw_core.keywords.BaselineModel`).
PEER_NAMES: dict[str, str] = {"fw": "Fightin' Words", "ctfidf": "c-TF-IDF"}
#: How the built-in extractors read.
EXTRACTOR_NAMES: dict[str, str] = {"yake": "YAKE!", "textrank": "TextRank"}
#: The field's standard the other methods are held against (docs/method.md §10): Fightin' Words over own words.
FIGHTIN_WORDS = "own:fw"
#: The plain column names of :func:`load_quality`'s table, by the JSON field each comes from.
QUALITY_COLUMNS: dict[str, str] = {
    "npmi": "NPMI", "absent_share": "absent from test split (%)", "exclusivity": "exclusivity",
    "micro_f1": "micro-F1 (%)", "macro_f1": "macro-F1 (%)"}


def quality_method_id(words: str, metric: str) -> str:
    """A measured method's id: the metric over latent words, ``own:<metric>`` over own words, the
    spec of an extractor (``yake``), ``import:<name>`` for imported keywords."""
    if words == OWN_WORDS:
        return f"own:{metric}"
    if words == IMPORTED:
        return f"import:{metric}"
    return str(metric)


def quality_method_label(words: str, metric: str) -> str:
    """How a measured method reads: "Fightin' Words (own words)", else the metric's name ("tf-idf
    (keyword metric)", so that it is never taken for the tf-idf + LinearSVC classifier)."""
    if words == OWN_WORDS:
        return f"{PEER_NAMES.get(metric, metric)} (own words)"
    if words == EXTRACTOR:
        return f"{EXTRACTOR_NAMES.get(metric, metric)} (extractor)"
    if words == IMPORTED:
        return f"{metric} (imported)"
    if words == KEYPHRASES:
        base, _, about = str(metric).partition("@about=")
        return f"dkw keyphrases ({base}, about {about})"
    from .names import method_name

    return method_name(str(metric))  # "tf-idf (keyword metric)": never the tf-idf classifier


@dataclass(frozen=True)
class QualityResults:
    """The shipped quality table (``docs/results/quality/quality.json``, written by
    ``scripts/quality_table.py``): one row per (corpus, method) and how it was measured."""

    table: pd.DataFrame
    k: int
    top: int
    protocol: str
    reference: str
    window: int
    f1: str
    k_choice: str
    dkw_version: str
    date: str
    command: str

    @property
    def corpora(self) -> list[str]:
        return [str(c) for c in dict.fromkeys(self.table["corpus"])]

    def of(self, corpus: str) -> pd.DataFrame:
        """The rows of one corpus (empty when it was not measured)."""
        return self.table[self.table["corpus"] == corpus].reset_index(drop=True)


#: The document measures' columns of :func:`load_quality`'s table, by the JSON key of each
#: (``documents.figures``; MRR, shares and exclusivity as fractions, F1 in percent).
DOCUMENT_COLUMNS: dict[str, str] = {
    "topic_mrr": "topic MRR", "topic_top1": "topic top-1", "literal_mrr": "literal topic MRR",
    "literal_top1": "literal topic top-1", "occurrence": "keywords in their document",
    "jaccard": "Jaccard within category", "exclusivity": "document exclusivity",
    "micro_f1": "keywords-alone micro-F1 (%)", "macro_f1": "keywords-alone macro-F1 (%)"}
#: The suffix of the columns measured on the deployable lists (label-free-top1: a classifier's category enters).
TOP1_SUFFIX = " [label-free-top1 lists]"


def document_columns(suffix: str = "") -> list[str]:
    """Every document measure's column and its CI's (``<column> low``, ``<column> high``)."""
    return [f"{name}{suffix}{part}" for name in DOCUMENT_COLUMNS.values() for part in ("", " low", " high")]


def _document_columns(item, where: str, *, suffix: str = "") -> dict[str, float]:
    """One method's document figures (``{"figures": {key: [value, low, high]}}``) as columns; NaN where absent."""
    out = dict.fromkeys(document_columns(suffix), math.nan)
    figures = item.get("figures") if isinstance(item, dict) else None
    if not isinstance(figures, dict):
        return out
    for key, name in DOCUMENT_COLUMNS.items():
        triple = figures.get(key)
        if triple is None:
            continue
        if not isinstance(triple, list) or len(triple) != 3:
            raise InputError(f"{where}: document figure {key} is not [value, low, high]")
        scale = 100.0 if key.endswith("_f1") else 1.0
        for part, value in zip(("", " low", " high"), triple):
            out[f"{name}{suffix}{part}"] = scale * _number(value, key, where)
    return out


def quality_path(folder: str | Path | None = None) -> Path:
    """``quality/quality.json`` in the reference folder (``DKW_REFERENCE_DIR`` or ``docs/results``)."""
    from ..config import reference_dir

    return (Path(folder) if folder else reference_dir()) / "quality" / "quality.json"


def _number(value, name: str, where: str) -> float:
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: {name} is not a number ({value!r})")
    return float(value)


def load_quality(path: str | Path | None = None) -> QualityResults:
    """The shipped quality table as :class:`QualityResults`: columns ``corpus``, ``id``
    (:func:`quality_method_id`), ``method`` (:func:`quality_method_label`), ``words`` ("latent,
    K 90" or "own words"), then :data:`QUALITY_COLUMNS` (NPMI, absent share and F1 in percent,
    exclusivity as a share); a NPMI nobody could measure is NaN. A missing or malformed file is
    one :class:`~dkw_core.errors.InputError`."""
    from .reference import read_document

    path = Path(path) if path else quality_path()
    return quality_results(read_document(path, what="quality table", key="corpora", kind=dict), path.name)


def quality_results(data: dict, source: str = "quality table") -> QualityResults:
    """:class:`QualityResults` of the quality table's JSON already read (``source`` names it in errors)."""
    path = Path(source)
    k = data.get("k")
    rows = []
    for corpus, item in data["corpora"].items():
        methods = item.get("methods") if isinstance(item, dict) else None
        if not isinstance(methods, list):
            raise InputError(f"{path.name}: corpus {corpus!r} has no list of methods")
        for m in methods:
            if not isinstance(m, dict) or not isinstance(m.get("metric"), str) or not isinstance(m.get("words"), str):
                raise InputError(f"{path.name}: a method of corpus {corpus!r} has no metric or words")
            where = f"{path.name}, {corpus} {m['metric']}"
            figures = {field: _number(m.get(field), field, where) for field in QUALITY_COLUMNS}
            figures["absent_share"] *= 100
            words = (f"{m['words']}, K {k}" if m["words"] not in (OWN_WORDS, EXTRACTOR, IMPORTED) else m["words"])
            rows.append({"corpus": str(corpus), "id": quality_method_id(m["words"], m["metric"]),
                         "method": quality_method_label(m["words"], m["metric"]), "words": words,
                         **{QUALITY_COLUMNS[f]: v for f, v in figures.items()},
                         **_document_columns(m.get("documents"), where),
                         **_document_columns(m.get("documents_top1"), where, suffix=TOP1_SUFFIX)})
    columns = ["corpus", "id", "method", "words", *QUALITY_COLUMNS.values(), *document_columns(),
               *document_columns(TOP1_SUFFIX)]
    table = pd.DataFrame(rows, columns=columns)
    return QualityResults(table=table, k=int(k) if isinstance(k, int) else 0, top=int(data.get("top") or 0),
                          protocol=str(data.get("protocol", "?")), reference=str(data.get("reference", "?")),
                          window=int(data.get("window") or 0), f1=str(data.get("f1", "?")),
                          k_choice=str(data.get("k_choice", "")), dkw_version=str(data.get("dkw_version", "?")),
                          date=str(data.get("date", "?")), command=str(data.get("command", "")))


@dataclass(frozen=True)
class QualitySummary:
    """The answer (which method gives the most coherent and the most exclusive words; the default
    against Fightin' Words) and how it was measured."""

    answer: str
    how: str


def signed(x: float) -> str:
    """A NPMI as the tables print it: sign always, a true minus sign."""
    return f"{x:+.3f}".replace("-", "\u2212")


def _best(rows: pd.DataFrame, column: str) -> pd.DataFrame:
    """The rows with the highest value of ``column`` (ties at the shown precision kept)."""
    values = rows[column].round(3)
    return rows[values == values.max()]


def _names(rows: pd.DataFrame) -> str:
    names = list(rows["method"])
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _gives(rows: pd.DataFrame) -> str:
    return "gives" if len(rows) == 1 else "give"


def _against(mine: float, peer: float) -> str:
    a, b = round(mine, 3), round(peer, 3)
    return "above" if a > b else "below" if a < b else "level with"


def quality_summary(results: QualityResults, corpus: str, *, default: str = DEFAULT_METRIC) -> QualitySummary:
    """One sentence for a reader: on ``corpus``, the method with the most coherent (highest NPMI)
    and the most exclusive category words, and the ``default`` metric against Fightin' Words,
    every figure from the table; ``how`` states K, the reference corpus, the window and the F1's
    protocol."""
    rows = results.of(corpus)
    if rows.empty:
        raise InputError(f"no quality measurement of corpus {corpus!r} "
                         f"(measured: {', '.join(results.corpora) or 'none'})")
    npmi, excl, absent, micro = (QUALITY_COLUMNS[f] for f in ("npmi", "exclusivity", "absent_share", "micro_f1"))
    coherent, exclusive = _best(rows.dropna(subset=[npmi]), npmi), _best(rows, excl)
    top_npmi = f"NPMI {signed(coherent[npmi].iloc[0])}"
    if coherent[absent].iloc[0] >= 5:  # a coherence over few words: say how few
        top_npmi += f", {coherent[absent].iloc[0]:.1f} % of its words absent from the test split"
    if set(coherent["id"]) == set(exclusive["id"]):
        answer = (f"On {corpus}, {_names(coherent)} {_gives(coherent)} both the most coherent category words ({top_npmi}) "
                  f"and the most exclusive (exclusivity {exclusive[excl].iloc[0]:.3f})")
    else:
        answer = (f"On {corpus}, {_names(coherent)} {_gives(coherent)} the most coherent category words ({top_npmi}) "
                  f"and {_names(exclusive)} the most exclusive (exclusivity {exclusive[excl].iloc[0]:.3f})")
    mine = rows[rows["id"] == default]
    peer = rows[rows["id"] == FIGHTIN_WORDS]
    if mine.empty:
        answer += f"; the default metric {default} was not measured here."
    else:
        d = mine.iloc[0]
        answer += (f"; the default, {d['method']} ({d['words']}), reaches NPMI {signed(d[npmi])} "
                   f"({d[absent]:.1f} % of its words absent from the test split), exclusivity {d[excl]:.3f} "
                   f"and micro-F1 {d[micro]:.2f} %")
        if peer.empty:
            answer += "; Fightin' Words was not measured here."
        else:
            p = peer.iloc[0]
            n_side, e_side = _against(d[npmi], p[npmi]), _against(d[excl], p[excl])
            verdict = (f"{n_side} it on both" if n_side == e_side
                       else f"{n_side} it in coherence, {e_side} it in exclusivity")
            answer += (f"; {p['method']}: NPMI {signed(p[npmi])}, exclusivity {p[excl]:.3f}, micro-F1 "
                       f"{p[micro]:.2f} %; the default is {verdict}.")
    how = (f"Each category's top {results.top} words on the training split, K = {results.k} ({results.k_choice}). "
           f"NPMI: gensim c_npmi over {results.reference}, boolean sliding window of {results.window} words, "
           "words absent from the test split left out and counted. Exclusivity: the share of the training "
           "documents containing a word that belong to its category, averaged over the list (a word in no training "
           "document counts 0). "
           f"F1: {results.f1}. Measured by dkw {results.dkw_version} on {results.date}: {results.command}.")
    return QualitySummary(answer=answer, how=how)


# --------------------------------------------------------------------------- topic against category

#: The two axes of the trade-off chart: topic (vector MRR) and category (keywords-alone micro-F1).
TOPIC_AXIS, CATEGORY_AXIS = DOCUMENT_COLUMNS["topic_mrr"], DOCUMENT_COLUMNS["micro_f1"]
#: The kinds of method the chart tells apart, by the table's ``words`` column.
KINDS = ("latent", KEYPHRASES, OWN_WORDS, EXTRACTOR, IMPORTED)
#: The kinds of method that have category lists (the others have document keywords only).
CATEGORY_LIST_KINDS = ("latent", OWN_WORDS)


def method_kind_of(words: str) -> str:
    """``latent``, ``keyphrases``, ``own words``, ``extractor`` or ``imported`` from a table row's ``words``."""
    kind = str(words).split(",")[0]
    return kind if kind in (KEYPHRASES, OWN_WORDS, EXTRACTOR, IMPORTED) else "latent"


def keyphrases_id(metric: str, about: float) -> str:
    """The table id of dkw's keyphrases of the text at ``about`` (``lo-own@about=0.4``)."""
    return f"{metric}@about={about:g}"


def default_document_method(ids) -> str:
    """The id of the default's document keywords among ``ids``: the keyphrases at
    :data:`~dkw_core.types.DEFAULT_ABOUT` when that is below 1 and measured, else the default metric."""
    from ..types import DEFAULT_ABOUT as about  # noqa: N811  (below 1: the text's own keyphrases)
    from ..types import DEFAULT_METRIC

    wanted = keyphrases_id(DEFAULT_METRIC, about)
    return wanted if about < 1 and wanted in set(ids) else DEFAULT_METRIC


def pareto_front(rows: pd.DataFrame, x: str = TOPIC_AXIS, y: str = CATEGORY_AXIS) -> pd.DataFrame:
    """The rows no other row beats on both ``x`` and ``y`` (at least as high on both, higher on
    one), highest ``x`` first; rows without both figures are left out."""
    kept = rows.dropna(subset=[x, y])
    xs, ys = kept[x].to_numpy(), kept[y].to_numpy()
    front = [i for i in range(len(kept))
             if not any((xs[j] >= xs[i]) and (ys[j] >= ys[i]) and (xs[j] > xs[i] or ys[j] > ys[i])
                        for j in range(len(kept)))]
    return kept.iloc[front].sort_values(x, ascending=False, kind="stable")


def front_sentence(rows: pd.DataFrame, corpus: str) -> str:
    """One sentence naming the methods on the front of topic against category on ``corpus`` (the
    rows of one corpus of :func:`load_quality`'s table), each with its two figures."""
    front = pareto_front(rows)
    if front.empty:
        return f"On {corpus}, no method has both a topic MRR and a keywords-alone F1."
    parts = [f"{r['method']} (topic MRR {r[TOPIC_AXIS]:.3f}, micro-F1 {r[CATEGORY_AXIS]:.2f} %)"
             for _, r in front.iterrows()]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    subject, verb, them = (("the one method", "is", "it") if len(parts) == 1 else ("the methods", "are", "one of them"))
    return (f"On {corpus}, {subject} no other beats on both topic (does a document's list pick it out of its "
            f"category: vector MRR) and category (keywords-alone micro-F1) {verb} {listed}; every other method "
            f"has {them} at least as high on both.")
