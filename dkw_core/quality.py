"""How readable a method's word lists are: coherence, exclusivity and the share of unknown words.

A *list* is any method's category vocabulary or one document's keywords; every measure reads
its first ``topn`` (10) words.

* **Coherence**: NPMI, gensim's own ``CoherenceModel(coherence="c_npmi")`` (Bouma 2009 NPMI over
  word pairs, estimated in gensim's boolean sliding window, :func:`npmi_window` words, over the
  reference texts), never a formula of ours. The reference corpus is the test split's word
  tokens (:func:`word_tokens`); a word absent from it has no probability, so it is left out of
  the list before gensim is called and counted (``absent``). A list with fewer than two known
  words has no pair: its NPMI is ``None`` and it is left out of the mean (``npmi_skipped``).
* **Exclusivity**: for each word, the share of the training documents containing it that
  belong to the list's category, averaged over the list (a word in no training document
  counts 0).
* **Absent share**: the share of all the lists' words absent from the reference texts.
* **F1**: the classification F1 the same words give (:class:`ListF1`), computed by the evaluation
  (:func:`dkw_core.evaluation.wordlists.method_f1`): micro/macro F1 of the method's document
  keywords at N = 10 under the deployable protocol label-free-top1. For category vocabularies it
  is the F1 of the same method's document keywords (a vocabulary classifies nothing by itself).

Document keywords have measures of their own, in the evaluation because they read keyword
vectors and its classifiers (:func:`dkw_core.evaluation.document_measures.document_quality`,
docs/method.md §12): **topic** (does a document's list pick out that document among the documents
of its own category: by vectors and literally; the share of its keywords that occur in it; the
Jaccard similarity of two lists of one category) and **category** (the micro/macro-F1 of the
keywords alone; their exclusivity for the document's category), each kept per document for
bootstrap CIs.

Reference tokens (:func:`word_tokens`): the test split's *content words* (spaCy's tokens,
lower-cased, alphabetic, longer than one character, not spaCy stop words), because (1) they are
the tokens the own-words methods rank and exclusivity counts on the training split, so "absent"
means the same thing in every measure; (2) stop words would fill gensim's 10-word window with
words no list holds; (3) the lists are chosen on the training split, so the held-out test split
keeps coherence from rewarding a list for the very counts it was picked on.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import InputError
from .phrases import content_words

#: Words per list every measure reads (gensim's ``topn``).
DEFAULT_TOPN = 10
#: The one gensim coherence measure dkw reports.
COHERENCE = "c_npmi"
#: What the reference texts are (stated in :meth:`ListQuality.describe`; see the module's docstring).
REFERENCE = "the test split's content words (lower-cased alphabetic tokens, no stop words)"


def npmi_window() -> int:
    """gensim's default sliding-window size for ``c_npmi`` (read from gensim, 10 in gensim 4)."""
    from gensim.models.coherencemodel import SLIDING_WINDOW_SIZES

    return int(SLIDING_WINDOW_SIZES[COHERENCE])


def word_tokens(tagged) -> list[str]:
    """The reference tokens of one tagged document: the baseline's word tokens
    (:func:`dkw_core.phrases.content_words`: spaCy's tokens, lower-cased, alphabetic, longer than
    one character, not spaCy stop words)."""
    return content_words(tagged)


@dataclass(frozen=True)
class Coherence:
    """NPMI of every list (``None`` where fewer than two words are known) and their mean."""

    npmi: float
    per_list: dict[str, float | None]
    absent: dict[str, int]
    words: dict[str, int]

    @property
    def skipped(self) -> list[str]:
        return [name for name, value in self.per_list.items() if value is None]


@dataclass(frozen=True)
class ListF1:
    """The classification F1 the words of a method give (fractions in [0, 1])."""

    micro_f1: float
    macro_f1: float
    top: int
    protocol: str
    means: str  # what was classified, e.g. "the test documents' own keywords, N=10, label-free-top1"

    def to_dict(self) -> dict:
        return {"micro_f1": self.micro_f1, "macro_f1": self.macro_f1, "top": self.top, "protocol": self.protocol,
                "means": self.means}


@dataclass(frozen=True)
class ListQuality:
    """The quality of a set of word lists (see the module's description)."""

    npmi: float
    npmi_per_list: dict[str, float | None]
    npmi_skipped: list[str]
    absent_share: float
    absent: dict[str, int]
    exclusivity: float
    exclusivity_per_list: dict[str, float | None]
    topn: int
    window: int
    reference: str
    f1: ListF1 | None = None

    def describe(self) -> str:
        """One line that states the measure, its reference corpus and window, and what the F1 is."""
        line = (f"NPMI (gensim c_npmi, top {self.topn} words) over {self.reference}, boolean sliding "
                f"window of {self.window} words; {self.absent_share:.1%} of the words absent from it "
                f"(left out of the coherence); exclusivity over the training documents")
        if self.f1 is not None:
            line += f"; micro-F1 {100 * self.f1.micro_f1:.2f} of {self.f1.means}"
        return line

    def to_dict(self) -> dict:
        """The figures as JSON-ready values (NaN as ``None``)."""
        def num(x):
            return None if x is None or (isinstance(x, float) and math.isnan(x)) else x

        return {"npmi": num(self.npmi), "absent_share": self.absent_share, "exclusivity": num(self.exclusivity),
                "npmi_skipped": list(self.npmi_skipped), "topn": self.topn, "window": self.window,
                "reference": self.reference, "f1": self.f1.to_dict() if self.f1 is not None else None}


def _check_lists(lists: Mapping[str, Sequence[str]], topn: int) -> dict[str, list[str]]:
    if topn < 1:
        raise InputError(f"topn must be at least 1, not {topn}")
    if not lists:
        raise InputError("no word lists to measure")
    empty = [name for name, words in lists.items() if not words]
    if empty:
        raise InputError(f"empty word list: {empty[0]!r}")
    return {name: list(words)[:topn] for name, words in lists.items()}


def coherence(lists: Mapping[str, Sequence[str]], reference_texts: Sequence[Sequence[str]], *,
              topn: int = DEFAULT_TOPN) -> Coherence:
    """NPMI of each list's first ``topn`` words over ``reference_texts`` (token lists), by
    gensim's ``CoherenceModel(..., coherence="c_npmi")``; absent words dropped first and counted."""
    from gensim.corpora import Dictionary
    from gensim.models.coherencemodel import CoherenceModel

    heads = _check_lists(lists, topn)
    texts = [list(t) for t in reference_texts]
    if not any(texts):
        raise InputError("no reference texts to measure coherence on")
    dictionary = Dictionary(texts)
    known = {name: [w for w in words if w in dictionary.token2id] for name, words in heads.items()}
    absent = {name: len(heads[name]) - len(known[name]) for name in heads}
    scored = sorted((name for name in heads if len(known[name]) >= 2), key=lambda n: -len(known[n]))
    per_list: dict[str, float | None] = dict.fromkeys(heads)
    mean = math.nan
    if scored:
        # gensim checks topn against the first topic only: the longest goes first, none is cut.
        model = CoherenceModel(topics=[known[n] for n in scored], texts=texts, dictionary=dictionary,
                               coherence=COHERENCE, topn=len(known[scored[0]]))
        values = model.get_coherence_per_topic()
        per_list.update(zip(scored, (float(v) for v in values)))
        mean = float(model.aggregate_measures(values))
    return Coherence(npmi=mean, per_list=per_list, absent=absent, words={n: len(w) for n, w in heads.items()})


def exclusivity(lists: Mapping[str, Sequence[str]], train_tokens: Sequence[Iterable[str]],
                train_labels: Sequence[str], *, categories: Mapping[str, str] | None = None,
                topn: int = DEFAULT_TOPN) -> tuple[float, dict[str, float | None]]:
    """Mean exclusivity of the lists and each list's: for each of its first ``topn`` words, the
    share of the training documents containing it whose label is the list's category (the list's
    name, or ``categories[name]`` for document keywords), averaged over its words; a word no
    training document contains counts 0 (leaving it out would flatter latent lists, whose words
    are often absent from the corpus)."""
    heads = _check_lists(lists, topn)
    if not train_tokens:
        raise InputError("no training documents to measure exclusivity on")
    if len(train_tokens) != len(train_labels):
        raise InputError(f"{len(train_tokens)} training documents but {len(train_labels)} labels")
    wanted = {w for words in heads.values() for w in words}
    containing: Counter[str] = Counter()
    by_label: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for tokens, label in zip(train_tokens, train_labels):
        present = wanted.intersection(tokens)
        containing.update(present)
        by_label[label].update(present)
    per_list: dict[str, float | None] = {}
    for name, words in heads.items():
        category = categories[name] if categories is not None else name
        shares = [by_label[category][w] / containing[w] if containing[w] else 0.0 for w in words]
        per_list[name] = sum(shares) / len(shares)
    values = [v for v in per_list.values() if v is not None]
    return (sum(values) / len(values) if values else math.nan), per_list


def list_quality(lists: Mapping[str, Sequence[str]], reference_texts: Sequence[Sequence[str]],
                 train_tokens: Sequence[Iterable[str]], train_labels: Sequence[str], *,
                 categories: Mapping[str, str] | None = None, topn: int = DEFAULT_TOPN,
                 reference: str = REFERENCE, f1: ListF1 | None = None) -> ListQuality:
    """Every measure of the lists at once; ``reference`` names the reference texts in
    :meth:`ListQuality.describe`; ``f1`` is the classification F1 the same method's words give
    (:func:`dkw_core.evaluation.wordlists.method_f1`, which :func:`dkw_core.evaluation.wordlists.
    method_quality` passes here)."""
    coh = coherence(lists, reference_texts, topn=topn)
    excl, excl_per_list = exclusivity(lists, train_tokens, train_labels, categories=categories, topn=topn)
    return ListQuality(npmi=coh.npmi, npmi_per_list=coh.per_list, npmi_skipped=coh.skipped,
                       absent_share=sum(coh.absent.values()) / sum(coh.words.values()), absent=coh.absent,
                       exclusivity=excl, exclusivity_per_list=excl_per_list, topn=topn,
                       window=npmi_window(), reference=reference, f1=f1)
