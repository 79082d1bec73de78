"""New texts at speed: one vectorised path beneath every per-text ranking (docs/method.md steps 1-5).

``extract_keywords`` given a list, ``keywords --texts`` (:mod:`.batch`) and the estimator's
``transform`` (``KeywordModel.rank_texts``) all run a batch of new texts through the same
stages, each done once for the whole batch:

1. **tagging**: every text cut into the pieces :func:`dkw_core.longtext.pieces` cuts it into
   (the pieces one text at a time is tagged in), all pieces of the batch in one spaCy
   ``nlp.pipe`` (only ``tok2vec`` and ``tagger``), in ``n_process`` worker processes when the
   batch is large enough to pay for them (:data:`POOL_FROM` texts);
2. **units**: each distinct phrase of the batch split into vector units once (Algorithm 1);
3. **neighbours**: one exact K-nearest search over the batch's distinct units that are not
   in the :class:`NeighbourCache` yet (news repeats its phrases; the cache is bounded);
4. **posterior**: one sparse tf-idf transform and one posterior product for the batch (only
   under a protocol that weights with it).

What comes out is one :class:`NewText` per text: its phrase counts, its
:class:`~.units.DocUnits` (phrases with a vector, their counts and nearest words), its
category posterior and, when it has no keywords, why. The final per-text ranking is a plain
function of a :class:`NewText` (:data:`Ranking`), at every ``about`` (docs/method.md §13):

* :func:`keyphrases`, the default (``about`` below 1, and ``None``: the default about): the
  text's own keyphrases, ranked by :meth:`~.model.KeywordModel._keyphrases_from_units` as one
  text at a time is, under the same weighting (:func:`text_label`) and with the same latent
  candidates; its corpus fit (:func:`text_fit`) comes from the batch's posterior row and the
  phrase vectors the keyphrases read anyway (no re-tagging, no classifier call per text), and
  with ``about=None`` a text out of the corpus gets about 0, as :func:`~.request.answer` gives it;
* :func:`discriminative`, the paper's words (``about = 1``; the same
  :func:`~.units.keywords_from_units` a text one at a time is ranked with).

Any other method ranks the same artefacts. Each stage's output for a text depends on that text
only (row-independent products, the same pieces), so the keywords equal those of
:meth:`~.model.KeywordModel.keywords_for_text` and ``extract_keywords(text)`` text by text,
scores, fit and about included (tests/keywords/test_newtexts.py).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import config
from ..errors import InputError
from ..longtext import CHUNK_CHARS, check_size, pieces
from ..types import DEFAULT_ABOUT, NEW_TEXT_PROTOCOL, POSTERIOR_PROTOCOLS, check_protocol
from .ranking import Keyword
from .units import CACHE_UNITS, DocUnits, NeighbourCache, keywords_from_units, neighbour_cache

__all__ = ["NewText", "NeighbourCache", "new_texts", "discriminative", "keyphrases", "Ranking", "rank_new_texts",
           "ranked_new_texts", "text_fit", "text_about", "POOL_FROM", "CACHE_UNITS", "neighbour_cache"]

POOL_FROM = 400
"""Texts in a batch from which tagging runs in ``DKW_N_PROCESS`` worker processes (below it a
pool's start-up and the pieces' round trips cost more than they save)."""
PIPE_BATCH = 64
"""Pieces per ``nlp.pipe`` batch."""


@dataclass
class NewText:
    """One new text after the batched stages: what any per-text ranking reads."""

    name: str
    text: str
    phrases: Counter                        # every candidate phrase and its count (own words included)
    units: DocUnits | None                  # the phrases with a vector and their nearest words; None: no keywords
    posterior: np.ndarray | None = None     # P(c | text), under a posterior protocol (or when asked for)
    problem: str | None = None              # why the text has no keywords
    extra: dict = field(default_factory=dict)  # what a ranking leaves for its caller (keyphrases: fit, about, …)


Ranking = Callable[[object, NewText], list[Keyword]]
"""A per-text ranking: ``(model, new_text) -> keywords``."""


def _unusable(text: str, n_phrases: int, vectors_name: str) -> str:
    if not text.strip():
        return "the document is empty"
    if not n_phrases:
        return "no candidate noun phrases (the tagger found no nouns)"
    return f"none of its {n_phrases} candidate phrases has a word known to {vectors_name}"


def tag_counts(texts: Sequence[str], *, n_process: int | None = None, tagger=None) -> list[Counter]:
    """The candidate phrases of every text with their counts: each text cut into the pieces
    one text at a time is tagged in (:func:`dkw_core.longtext.pieces`), all pieces in one stream."""
    from ..phrases import TaggedDoc, get_tagger

    tagger = tagger or get_tagger()
    owner: list[int] = []
    parts: list[str] = []
    for i, text in enumerate(texts):
        for piece in pieces(text, CHUNK_CHARS):
            owner.append(i)
            parts.append(piece)
    counts: list[Counter] = [Counter() for _ in texts]
    if not parts:
        return counts
    procs = (n_process or config.n_process()) if len(texts) >= POOL_FROM else 1
    for i, (words, tags) in zip(owner, tagger.tag_pieces(parts, n_process=procs, batch_size=PIPE_BATCH)):
        counts[i].update(TaggedDoc(" ".join(words), "".join(tags)).phrases())
    return counts


def new_texts(model, items: Sequence[tuple[str, str]], *, protocol: str = NEW_TEXT_PROTOCOL,
              n_process: int | None = None, posterior: bool | None = None) -> list[NewText]:
    """The batched stages for ``(name, text)`` pairs (see the module): one :class:`NewText` each,
    in order. A text above ``DKW_MAX_TEXT_MB`` is refused before any work (one line naming it).
    ``posterior``: compute the category posterior (default: when ``protocol`` weights with it)."""
    for name, text in items:
        check_size(len(text.encode("utf-8", "surrogatepass")), name)
    texts = [t for _, t in items]
    counts = tag_counts(texts, n_process=n_process)
    cache = neighbour_cache(model)
    vectors = model.vectors
    per_text: list[tuple[list[str], list[tuple[int, ...]]]] = []
    wanted: list[tuple[int, ...]] = []
    for c in counts:
        kept, units = [], []
        for phrase in c:
            u = cache.units(phrase)
            if u:
                kept.append(phrase)
                units.append(u)
        per_text.append((kept, units))
        wanted.extend(units)
    rows = cache.lookup(wanted) if wanted else {}
    if posterior is None:
        posterior = check_protocol(protocol) in POSTERIOR_PROTOCOLS
    post = model.text_posteriors(texts) if posterior and texts else None
    out = []
    for r, ((name, text), c, (kept, units)) in enumerate(zip(items, counts, per_text)):
        doc_units = None
        if kept:
            idx = np.stack([rows[u][0] for u in units]).astype(np.int64)
            sims = np.stack([rows[u][1] for u in units])
            doc_units = DocUnits(kept, np.array([c[p] for p in kept], dtype=np.float32), idx, sims)
        out.append(NewText(name, text, c, doc_units, None if post is None else post[r],
                           None if doc_units is not None else _unusable(text, len(c), vectors.name)))
    return out


def text_label(model, text: NewText, protocol: str, label: str | None = None):
    """How a new text's words are weighted: a category index (``label`` given), its posterior
    weights under a posterior protocol, or ``None`` (label-free: maximum over categories) —
    as :meth:`~.model.KeywordModel.keywords_for_text` weights it."""
    if label is not None:
        if label not in model.categories:
            raise InputError(f"unknown category {label!r} for corpus {model.corpus.name}")
        return model.categories.index(label)
    if check_protocol(protocol) in POSTERIOR_PROTOCOLS:
        from .posterior import as_weights

        if text.posterior is None:
            raise InputError("this batch was prepared without the category posterior")
        return as_weights(protocol, text.posterior[None, :])[0]
    return None


def discriminative(*, metric: str, k: int | None = None, top: int, protocol: str = NEW_TEXT_PROTOCOL,
                   label: str | None = None, provenance: bool = True) -> Ranking:
    """The paper's ranking of a new text's nearest words by a metric (steps 4-5), weighted as
    :func:`text_label` says; ``provenance=False`` skips the phrases behind each keyword."""
    def rank(model, text: NewText) -> list[Keyword]:
        if text.units is None:
            return []
        kk = model._check_k(k)
        lab = text_label(model, text, protocol, label)
        return keywords_from_units(text.units, k=kk, top=top, vocabulary=model.vocabulary,
                                   score=lambda cols, tf: model._score_row(cols, tf, metric=metric, k=kk, label=lab),
                                   provenance=provenance)

    return rank


def text_artefacts(model, text: NewText):
    """The text's :class:`~.keyphrases.TextArtefacts` (its phrase vectors), made once and kept
    in ``text.extra``: its keyphrases and its corpus fit read the same."""
    art = text.extra.get("artefacts")
    if art is None:
        art = text.extra["artefacts"] = model.text_artefacts(text.units)
    return art


def text_fit(model, text: NewText):
    """How well a new text fits the corpus (:class:`~.fit.CorpusFit`), as
    :meth:`~.model.KeywordModel.text_fit` gives it one text at a time, from what the batch
    holds: its posterior row (P) and its phrase vectors (the centroid's similarity to the
    nearest category); kept in ``text.extra``. ``None`` for a text without keywords or a model
    without a fit. A batch prepared without the posterior (``new_texts(posterior=False)``)
    pays one classifier call for the text."""
    if "fit" not in text.extra:
        fit = None
        if text.units is not None and hasattr(model, "corpus_fit"):
            post = text.posterior if text.posterior is not None else model.text_posteriors([text.text])[0]
            fit = model.corpus_fit(text.units, post, artefacts=text_artefacts(model, text))
        text.extra["fit"] = fit
    return text.extra["fit"]


def text_about(fit, about: float | None) -> float:
    """The ``about`` one text is ranked at, as :func:`~.request.answer` resolves it: the given
    one; else :data:`~dkw_core.types.DEFAULT_ABOUT`, or 0 (the text's own words) when its
    ``fit`` says it is out of the corpus (docs/method.md §13)."""
    if about is not None:
        from .keyphrases import check_about

        return check_about(about)
    return 0.0 if fit is not None and fit.out_of_corpus else DEFAULT_ABOUT


def keyphrases(*, metric: str, k: int | None = None, top: int, protocol: str = NEW_TEXT_PROTOCOL,
               about: float | None = None, label: str | None = None, provenance: bool = True) -> Ranking:
    """The text's own keyphrases between about the text (0) and about its category (1)
    (docs/method.md §13), ranked as one text at a time is at that ``about``: weighted as
    :func:`text_label` says, the same latent candidates, then
    :meth:`~.model.KeywordModel._keyphrases_from_units`. ``about=None`` is the default about,
    and 0 for a text out of the corpus (:func:`text_fit`, :func:`text_about`).

    Each ranked text keeps in ``text.extra``: ``"fit"`` (its :class:`~.fit.CorpusFit`),
    ``"about"`` (the about it was ranked at) and ``"category_words"`` (per metric, its
    category's words: the paper's list, what ``about = 1`` gives). ``provenance=False`` leaves
    the phrases out of those latent words (a batch export's words)."""
    from .keyphrases import LATENT_CANDIDATES, check_about

    asked = None if about is None else check_about(about)
    scores: dict[object, np.ndarray] = {}  # word scores per one-category weighting (top1: one per category)
    owner: list = [None]

    def word_scores(model, kk: int, lab) -> np.ndarray | None:
        if owner[0] is not model:
            owner[0] = model
            scores.clear()
        if isinstance(lab, np.ndarray):
            if np.count_nonzero(lab) > 1:  # a posterior mix: its own row, computed by the model
                return None
            key: object = lab.tobytes()
        else:
            key = lab
        if key not in scores:
            scores[key] = model.word_scores(metric, kk, lab)
        return scores[key]

    def rank(model, text: NewText) -> list[Keyword]:
        if text.units is None:
            return []
        kk = model._check_k(k)
        lab = text_label(model, text, protocol, label)
        latent = model._keywords_from_units(text.units, metric=metric, k=kk, top=max(top, LATENT_CANDIDATES),
                                            label=lab, provenance=provenance)
        a = text.extra["about"] = text_about(text_fit(model, text), asked)
        text.extra.setdefault("category_words", {})[metric] = latent[:top]
        if a >= 1.0:
            return latent[:top]
        return model._keyphrases_from_units(text.units, metric=metric, k=kk, top=top, label=lab, about=a,
                                            latent=latent, artefacts=text_artefacts(model, text),
                                            word_scores=word_scores(model, kk, lab))

    return rank


def ranked_new_texts(model, texts: Iterable[str], ranking: Ranking, *, protocol: str = NEW_TEXT_PROTOCOL,
                     n_process: int | None = None, block: int = 1000,
                     posterior: bool | None = None) -> Iterator[tuple[NewText, list[Keyword]]]:
    """Each new text after the batched stages with its keywords under ``ranking``, in order,
    ``block`` texts at a time (named ``text <i>``); ``posterior`` as :func:`new_texts` takes it."""
    texts = list(texts)
    for a in range(0, len(texts), block):
        batch = new_texts(model, [(f"text {i}", t) for i, t in enumerate(texts[a:a + block], start=a)],
                          protocol=protocol, n_process=n_process, posterior=posterior)
        for t in batch:
            yield t, ranking(model, t)


def rank_new_texts(model, texts: Iterable[str], ranking: Ranking, *, protocol: str = NEW_TEXT_PROTOCOL,
                   n_process: int | None = None, block: int = 1000,
                   posterior: bool | None = None) -> list[list[Keyword]]:
    """Keywords of many new texts, ``block`` at a time through the batched stages; a text
    without keywords gets an empty list."""
    return [kws for _, kws in ranked_new_texts(model, texts, ranking, protocol=protocol, n_process=n_process,
                                               block=block, posterior=posterior)]
