"""The keywords of new texts, in one place (docs/method.md steps 1-5 and §13): a text is a batch of one.

Every door runs its texts through :func:`text_keywords`: ``extract_keywords`` given one text or
a list and ``keywords --text-file`` (:func:`~.request.answer`), ``keywords --texts``, streams and
the cluster's export (:func:`~.batch.text_records`), the app's text boxes, and the estimator's
``transform`` (``KeywordModel.rank_texts``). One builder, :func:`~.request.text_answer`, makes
the answer of a text (:class:`~.request.KeywordAnswer`) and its batch record
(:meth:`~.request.KeywordAnswer.record`) from what it returns. The stages, each done once for
a whole block of texts:

1. **tagging**: every text cut into the pieces :func:`dkw_core.longtext.pieces` cuts it into,
   all pieces of the block in one spaCy ``nlp.pipe`` of new texts' tagger (``DKW_TAGGER``: by
   default spaCy's tokenizer and the fast coarse tagger; ``spacy``: ``tok2vec`` and ``tagger``), in
   ``n_process`` worker processes when the block is large enough to pay for them
   (:data:`POOL_FROM` texts, or a text above :data:`POOL_CHARS`);
2. **units**: each distinct phrase of the block split into vector units once (Algorithm 1);
3. **neighbours**: one exact K-nearest search over the block's distinct units that are not
   in the :class:`NeighbourCache` yet (news repeats its phrases; the cache is bounded);
4. **posterior**: one sparse tf-idf transform and one posterior product for the block (under a
   protocol that weights with it, or when the corpus fit is read);
5. **ranking**, per text (:class:`NewText`: its phrase counts, :class:`~.units.DocUnits`,
   posterior row and, when it has no keywords, why): its weighting (:func:`text_label`), its
   corpus fit (:func:`text_fit`, from the posterior row and the phrase vectors the keyphrases
   read anyway) and so its ``about`` (:func:`text_about`: by default 0 for a text out of the
   corpus), then per metric its latent words once and, below about 1, its keyphrases.

Each stage's output for a text depends on that text only (row-independent products, the same
pieces), so a text's keywords are the same alone and in any batch, scores, fit and about
included (tests/keywords/test_newtexts.py).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from .. import config
from ..errors import InputError
from ..longtext import CHUNK_CHARS, check_size, pieces
from ..types import (
    DEFAULT_ABOUT,
    NEW_TEXT_PROTOCOL,
    POSTERIOR_PROTOCOLS,
    PROTOCOL_INFO,
    Progress,
    check_protocol,
    report,
)
from ..validation import check_top
from .ranking import Keyword
from .units import CACHE_UNITS, DocUnits, NeighbourCache, neighbour_cache

__all__ = ["NewText", "NeighbourCache", "new_texts", "text_keywords", "TextKeywords", "text_fit", "text_about",
           "about_asked", "POOL_FROM", "CACHE_UNITS", "neighbour_cache"]

POOL_FROM = 400
"""Texts in a batch from which tagging runs in ``DKW_N_PROCESS`` worker processes (below it a
pool's start-up and the pieces' round trips cost more than they save)."""
PIPE_BATCH = 64
"""Pieces per ``nlp.pipe`` batch, at most (short texts: a piece each)."""
PIPE_BATCH_CHARS = 48_000
"""Characters per ``nlp.pipe`` batch, about: spaCy's memory grows with a batch's characters, and
64 pieces of a long text (5,000 characters each) took a 1 MB text's tagging to 1.2 GB, 8 to
0.2 GB; 64 short texts (R8's, some 700 characters) stay one batch."""


def pipe_batch(parts: Sequence[str]) -> int:
    """Pieces per ``nlp.pipe`` batch for ``parts``: :data:`PIPE_BATCH_CHARS` over their mean
    length, between 1 and :data:`PIPE_BATCH`."""
    mean = sum(map(len, parts)) / max(1, len(parts))
    return max(1, min(PIPE_BATCH, int(PIPE_BATCH_CHARS // max(1.0, mean))))
POOL_CHARS = 8 * CHUNK_CHARS
"""A text longer than this is tagged in ``DKW_N_PROCESS`` worker processes, even alone."""


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


def _unusable(text: str, n_phrases: int, vectors_name: str) -> str:
    if not text.strip():
        return "the document is empty"
    if not n_phrases:
        return "no candidate noun phrases (the tagger found no nouns)"
    return f"none of its {n_phrases} candidate phrases has a word known to {vectors_name}"


def tag_counts(texts: Sequence[str], *, n_process: int | None = None, tagger=None,
               progress: Progress | None = None, tagged: list | None = None) -> list[Counter]:
    """The candidate phrases of every text with their counts: each text cut into the pieces
    of :func:`dkw_core.longtext.pieces`, all pieces in one stream, in ``n_process`` worker
    processes from :data:`POOL_FROM` texts or for a text longer than :data:`POOL_CHARS`;
    ``progress`` reports the characters tagged. ``tagged``: a list that receives each text's
    tokens and coarse tags (what its keyphrase candidates are made of, :mod:`.candidates`)."""
    from ..phrases import TaggedDoc, get_tagger

    tagger = tagger or get_tagger()
    owner: list[int] = []
    parts: list[str] = []
    for i, text in enumerate(texts):
        for piece in pieces(text, CHUNK_CHARS):
            owner.append(i)
            parts.append(piece)
    counts: list[Counter] = [Counter() for _ in texts]
    words_of: list[list[str]] = [[] for _ in texts]
    tags_of: list[list[str]] = [[] for _ in texts]
    if tagged is not None:
        tagged[:] = list(zip(words_of, tags_of))
    if not parts:
        return counts
    pooled = len(texts) >= POOL_FROM or max(map(len, texts)) > POOL_CHARS
    procs = (n_process or config.n_process()) if pooled else 1
    total, done = max(1, sum(map(len, parts))), 0
    for r, (i, (words, tags)) in enumerate(zip(owner, tagger.tag_pieces(parts, n_process=procs,
                                                                         batch_size=pipe_batch(parts)))):
        counts[i].update(TaggedDoc(" ".join(words), "".join(tags)).phrases())
        if tagged is not None:
            words_of[i].extend(words)
            tags_of[i].extend(tags)
        done += len(parts[r])
        report(progress, min(1.0, done / total), f"tagged {done / 1e6:.1f} of {total / 1e6:.1f} MB")
    return counts


def new_texts(model, items: Sequence[tuple[str, str]], *, protocol: str = NEW_TEXT_PROTOCOL,
              n_process: int | None = None, posterior: bool | None = None, phrase_vectors: bool = False,
              progress: Progress | None = None) -> list[NewText]:
    """The batched stages for ``(name, text)`` pairs (see the module): one :class:`NewText` each,
    in order. A text above ``DKW_MAX_TEXT_MB`` is refused before any work (one line naming it).
    ``posterior``: compute the category posterior (default: when ``protocol`` weights with it).
    ``phrase_vectors``: compose the block's distinct units once, so each text's corpus fit
    (:func:`text_artefacts`) reads its phrase vectors from them (Algorithm 1 is row by row: the
    same vectors as composed one text at a time)."""
    for name, text in items:
        check_size(len(text.encode("utf-8", "surrogatepass")), name)
    texts = [t for _, t in items]
    tagged: list = []
    counts = tag_counts(texts, n_process=n_process, progress=progress, tagged=tagged)
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
    where = {u: i for i, u in enumerate(dict.fromkeys(wanted))} if phrase_vectors else {}
    composed = vectors.compose(list(where)) if where else None
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
        extra: dict = {"tagged": tagged[r]}
        if composed is not None and kept:
            extra["phrase_vectors"] = composed[[where[u] for u in units]]
        out.append(NewText(name, text, c, doc_units, None if post is None else post[r],
                           None if doc_units is not None else _unusable(text, len(c), vectors.name),
                           extra=extra))
    return out


def text_label(model, text: NewText, protocol: str, label: str | None = None):
    """How a new text's words are weighted: a category index (``label`` given), its posterior
    weights under a posterior protocol, or ``None`` (label-free: maximum over categories): the
    one rule of a new text's weighting."""
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


def text_artefacts(model, text: NewText):
    """The text's :class:`~.keyphrases.TextArtefacts` (its phrase vectors), made once and kept
    in ``text.extra``: what its corpus fit reads; from the phrase vectors its batch composed
    (``new_texts(phrase_vectors=True)``) when it holds them."""
    art = text.extra.get("artefacts")
    if art is None:
        vecs = text.extra.pop("phrase_vectors", None)
        if vecs is None or text.units is None:
            art = model.text_artefacts(text.units)
        else:
            from .keyphrases import TextArtefacts

            art = TextArtefacts(text.units, vecs, model.vectors.cropped_matrix)
        text.extra["artefacts"] = art
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


def about_asked(value: float) -> float | None:
    """What an ``about`` control standing at ``value`` asks for: ``None`` (the default rule of
    :func:`text_about`: a text out of the corpus gets 0) at :data:`~dkw_core.types.DEFAULT_ABOUT`,
    else ``value`` (kept whatever the fit says)."""
    return None if value == DEFAULT_ABOUT else value


@dataclass
class TextKeywords:
    """One new text's keywords per metric from :func:`text_keywords`, and how they were obtained."""

    name: str
    text: str
    keywords: dict[str, list[Keyword]]      # per metric ([] for a text without keywords)
    about: float                            # the about the text was ranked at
    category_words: dict[str, list[Keyword]] = field(default_factory=dict)  # per metric, below about 1
    fit: object | None = None               # its CorpusFit (when asked for, or needed by the default about)
    posterior: np.ndarray | None = None     # P(c | text), when computed
    by_category: dict[str, dict[str, list[Keyword]]] = field(default_factory=dict)  # an unsure text, alternatives
    problem: str | None = None              # why the text has no keywords


def text_keywords(model, items: Iterable[tuple[str, str]], *, metrics: Sequence[str], k: int | None = None,
                  top: int, protocol: str = NEW_TEXT_PROTOCOL, about: float | None = None, fit: bool = False,
                  alternatives: bool = False, provenance: bool = True, n_process: int | None = None,
                  block: int = 1000, total: int | None = None, progress: Progress | None = None,
                  tagging: Progress | None = None) -> Iterator[TextKeywords]:
    """THE keywords of new texts ``(name, text)``: every door (``extract_keywords`` given one text
    or a list, ``keywords --text-file`` and ``--texts``, the app's text boxes, the estimator's
    ``transform``, streams and the cluster) ranks its texts here, ``block`` at a time through the
    batched stages (:func:`new_texts`), in input order; one text is a batch of one.

    Per text: the weighting (:func:`text_label`), its corpus fit when ``fit`` is asked for or the
    default about needs it (``about=None``: :func:`text_about`), then per metric its latent
    words, computed once (the paper's list at about 1; below it the candidates of its
    keyphrases and, cut at ``top``, its category's words beside them) and, below about 1, its
    keyphrases (:func:`~.relevance.text_keyphrases`: whole noun phrases of the text ranked by
    frequency, first position, specificity and length, D blended in at ``about``). ``alternatives``: an
    unsure text under a posterior protocol also gets the latent words of its two likeliest
    categories. ``provenance=False`` leaves the phrases behind the latent words out (a batch
    export). ``progress`` reports the texts done (of ``total``), ``tagging`` the tagging of a
    block's pieces (one long text)."""
    from .keyphrases import LATENT_CANDIDATES, check_about
    from .posterior import weighting_of
    from .relevance import text_keyphrases

    top = check_top(top)
    kk = model._check_k(k)  # before any tagging
    asked = None if about is None else check_about(about)
    want_fit = fit or asked is None or asked < 1.0
    posterior = want_fit or check_protocol(protocol) in POSTERIOR_PROTOCOLS  # the fit reads P
    scores: dict[tuple, np.ndarray] = {}  # word scores per (metric, one-category weighting)

    def word_scores(metric: str, lab) -> np.ndarray | None:
        if isinstance(lab, np.ndarray):
            if np.count_nonzero(lab) > 1:  # a posterior mix: its own row, computed by the model
                return None
            key: tuple = (metric, lab.tobytes())
        else:
            key = (metric, lab)
        if key not in scores:
            scores[key] = model.word_scores(metric, kk, lab)
        return scores[key]

    def rank(new: NewText) -> TextKeywords:
        if new.units is None:
            return TextKeywords(new.name, new.text, {m: [] for m in metrics}, text_about(None, asked),
                                posterior=new.posterior, problem=new.problem)
        lab = text_label(model, new, protocol)
        found = TextKeywords(new.name, new.text, {}, 1.0, posterior=new.posterior,
                             fit=text_fit(model, new) if want_fit else None)
        found.about = a = text_about(found.fit, asked)
        for m in metrics:
            if a >= 1.0:
                found.keywords[m] = model._keywords_from_units(new.units, metric=m, k=kk, top=top, label=lab,
                                                               provenance=provenance)
                continue
            latent = model._keywords_from_units(new.units, metric=m, k=kk, top=max(top, LATENT_CANDIDATES),
                                                label=lab, provenance=provenance)
            found.category_words[m] = latent[:top]
            tokens, tags = new.extra["tagged"]
            scores_m = word_scores(m, lab) if a > 0 else None
            if a > 0 and scores_m is None:
                scores_m = model.word_scores(m, kk, lab)
            found.keywords[m] = text_keyphrases(new.text, tokens, "".join(tags), top=top, about=a,
                                                word_scores=scores_m, word_index=model.word_index, latent=latent)
        if alternatives and new.posterior is not None and PROTOCOL_INFO[protocol].posterior:
            w = weighting_of(new.posterior, model.categories)
            if w.unsure and w.runner_up is not None:
                for cat in (w.category, w.runner_up):
                    lab = text_label(model, new, protocol, cat)
                    found.by_category[cat] = {m: model._keywords_from_units(new.units, metric=m, k=kk, top=top,
                                                                            label=lab, provenance=provenance)
                                              for m in metrics}
        return found

    done = 0
    items = iter(items)
    while batch := list(islice(items, block)):
        for new in new_texts(model, batch, protocol=protocol, n_process=n_process, posterior=posterior,
                             phrase_vectors=want_fit and hasattr(model, "text_artefacts"), progress=tagging):
            yield rank(new)
        done += len(batch)
        report(progress, done / total if total else 0.0, f"{done:,} texts")
    report(progress, 1.0, f"{done:,} texts")
