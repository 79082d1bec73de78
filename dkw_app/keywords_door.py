"""The keywords the pages show (no Streamlit): of a new text, of a whole split, of a category,
and the methods offered beside dkw's metrics (a corpus document's: ``KeywordModel.keywords``,
called by the page).

The loaders AppTests replace with fakes (``tests/app/fakes.py``) are named here as ``dkw_core``
names them; the functions add what the app needs (the answer as the page's dict, a file's
bytes, the own-words columns).
"""
from __future__ import annotations

import io
from collections.abc import Sequence

from dkw_core.corpora import corpus_key
from dkw_core.keywords import KeywordModel
from dkw_core.keywords.category_methods import (  # noqa: F401  (faked loaders)
    PEERS,
    category_terms,
    is_peer,
    list_quality_of,
    method_names,
    quality_texts,
)
from dkw_core.keywords.request import KeywordRequest, keyword_list  # noqa: F401  (faked: Home's keywords at once)
from dkw_core.keywords.shipped import load_shipped  # noqa: F401  (faked loader)
from dkw_core.metrics import METRICS
from dkw_core.neighbours import DEFAULT_NEIGHBOURS
from dkw_core.types import DEFAULT_K, PROTOCOL_INFO
from dkw_core.vectors import describe_default, vectors_name

#: What each protocol means, from the one protocol table (``dkw_core.types.PROTOCOL_INFO``).
PROTOCOL_HELP = {name: f"{info.short}: {info.help}" for name, info in PROTOCOL_INFO.items()}
#: How the Documents page names an own-words baseline's column (``tf-rf (own words)``), apart
#: from dkw's metric of the same name.
OWN_WORDS = " (own words)"


def own_phrase_spellings(kws: Sequence) -> list[str]:
    """The spellings to mark in a text for its own keyphrases (the phrase as found, and the
    lower-cased keyphrase's usual capitalisations); latent words that joined are not marked."""
    from dkw_core.keywords.keyphrases import is_own_phrase

    out: list[str] = []
    for kw in kws:
        if is_own_phrase(kw):
            out += [kw.provenance[0].phrase, kw.word, kw.word.capitalize(), kw.word.title(), kw.word.upper()]
    return list(dict.fromkeys(out))


def keyword_methods() -> list[str]:
    """The methods of the registry the Documents page offers as columns beside dkw's metrics:
    the registered extractors (``yake``, ``textrank``, any added with ``register_extractor``),
    then every metric over the document's own words (``tf-rf (own words)``)."""
    from dkw_core.keywords.registry import extractor_specs

    return extractor_specs() + [m + OWN_WORDS for m in METRICS]


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
        return list(model_for(corpus, metric).keywords(doc, metric=metric, top=top, protocol=protocol))
    from dkw_core.keywords.extractors import keywords_of_text

    return keywords_of_text(spec, doc.text, top)


def method_label(method: str) -> str:
    """How the page names a category method: a metric by its name, a peer by its label
    ("Fightin' Words (own words)")."""
    return f"{PEERS[method].label} (own words)" if method in PEERS else method


# --------------------------------------------------------------------------- new texts

def shipped_answers(corpus: str, *, sample: int | None = None, k: int = DEFAULT_K,
                    neighbours: str = DEFAULT_NEIGHBOURS) -> bool:
    """Whether a new text of ``corpus`` is answered from shipped statistics (no preparation)."""
    return KeywordRequest(dataset=corpus, text="", k=k, sample=sample, neighbours=neighbours).shipped


def instant_refusal(request: KeywordRequest) -> str | None:
    """Why the new text of ``request`` cannot be answered at once (one line), or ``None`` when it
    can: its shipped statistics answer it (``request.shipped``, decided once: ``keyword_list``
    then reads the same decision), or the corpus is prepared for the vectors in use. The shipped
    statistics belong to the default vectors; with other vectors (``DKW_VECTORS``) the answer
    would first tag and prepare the whole corpus, minutes to hours, so the instant box refuses
    instead. Cheap: nothing is loaded."""
    corpus = request.corpus
    if request.shipped or KeywordModel.is_prepared(corpus_key(corpus), vectors_name(), k_max=DEFAULT_K,
                                                   neighbours=DEFAULT_NEIGHBOURS):
        return None
    return (f"The keywords at once come from the statistics of {corpus} shipped with dkw, which belong to the default "
            f"vectors ({describe_default()['name']}), not to the vectors in use ({vectors_name()}): prepare {corpus} "
            "under Corpora below (it takes a while), then the text box answers with these vectors.")


def new_text_keywords(model, text: str, *, corpus: str, metrics: Sequence[str], k: int, top: int,
                      protocol: str, about: float | None = None) -> dict:
    """Keywords of a new text under a label-free ``protocol`` (default of the page:
    ``NEW_TEXT_PROTOCOL``), per metric, through the one request path with an already resolved
    ``model`` (prepared or shipped). ``weighting`` says which category its words are weighted
    with and how sure the posterior is (posterior protocols only); when it is unsure,
    ``by_category`` holds the keywords under each of the two most probable categories."""
    from dkw_core.keywords.request import answer

    result = answer(KeywordRequest(dataset=corpus, text=text, metrics=tuple(metrics), k=k, top=top,
                                   protocol=protocol, alternatives=True, about=about), model=model)
    return {"weighting": result.weighting, "keywords": result.keywords, "by_category": result.by_category,
            "source": result.source, "fit": result.fit, "about": result.about,
            "category_words": result.category_words}


def split_keywords(model, split: str, *, metrics: Sequence[str], k: int, top: int, protocol: str,
                   fmt: str) -> bytes:
    """Keywords of every document of ``split`` as JSONL or CSV bytes (``dkw_core.keywords.batch``)."""
    from dkw_core.keywords.batch import split_records, write_records

    records = split_records(model, split, metrics=list(metrics), k=k, top=top, protocol=protocol)
    buf = io.StringIO(newline="")
    write_records(records, buf, fmt, list(metrics))
    return buf.getvalue().encode("utf-8")
