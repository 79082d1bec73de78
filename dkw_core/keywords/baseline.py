"""The bag-of-words keyword baseline: the same metrics over each document's own words, no vectors.

It is the human study's method A (``tf-rf`` after Lan et al. 2006) and the bag-of-words
keyword baseline of the evaluation. Words are the document's alphabetic, lower-cased tokens
that are not stop words; the vocabulary is that of the training split (test words unseen in
training have no statistics).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import scipy.sparse as sp

from ..errors import InputError
from ..phrases import TaggedDoc, content_words, get_tagger, tag_corpus
from ..types import DEFAULT_PROTOCOL, DEFAULT_TOP, Progress
from ..validation import check_top
from .base import TermModel
from .ranking import Keyword, Provenance, order_scores


class BaselineModel(TermModel):
    """Discriminative keywords among a document's own words (no word vectors)."""

    def __init__(self, corpus, counts: sp.csr_matrix, vocabulary: list[str], tagged: dict[str, TaggedDoc]):
        self._init_docs(corpus)
        self._counts = counts
        self.vocabulary = vocabulary
        self._tagged = tagged
        self._vocab_index = {w: i for i, w in enumerate(vocabulary)}

    @classmethod
    def prepare(cls, corpus, *, n_process: int | None = None, progress: Progress | None = None,
                cache: bool = True) -> BaselineModel:
        from sklearn.feature_extraction.text import CountVectorizer

        tagged = tag_corpus(corpus, n_process=n_process, progress=progress, cache=cache)
        words = {d.id: content_words(tagged[d.id]) for d in corpus.documents}
        vec = CountVectorizer(analyzer=lambda ws: ws, dtype=np.float32)
        vec.fit([words[d.id] for d in corpus.documents if d.split == "train"])
        counts = vec.transform([words[d.id] for d in corpus.documents]).tocsr()
        counts.sort_indices()
        return cls(corpus, counts, list(vec.get_feature_names_out()), tagged)

    counts_own_words = True  # its terms are the documents' own words

    def _all_counts(self, k: int | None) -> sp.csr_matrix:
        return self._counts

    def _all_own(self) -> sp.csr_matrix:
        return self._counts

    def keywords(self, doc, *, metric: str = "tf-rf", k: int | None = None, top: int = DEFAULT_TOP,
                 protocol: str = DEFAULT_PROTOCOL) -> list[Keyword]:
        top = check_top(top)
        doc = self._document(doc)
        label = self._weighting(doc, protocol)
        tagged = self._tagged.get(doc.id) if self.has_doc(doc.id) else None
        if tagged is None:
            if not doc.text.strip():
                raise InputError(f"{doc.id}: the document is empty")
            tagged = get_tagger().tag(doc.text)
        tf = Counter(w for w in content_words(tagged) if w in self._vocab_index)
        if not tf:
            raise InputError(f"{doc.id}: none of its words occurs in the training split of {self.corpus.name}")
        cols = np.array([self._vocab_index[w] for w in tf])
        tfv = np.array(list(tf.values()), dtype=np.float64)
        s = self._score_row(cols, tfv, metric=metric, k=None, label=label)
        return [Keyword(self.vocabulary[cols[j]], float(s[j]), int(tfv[j]),
                        (Provenance(self.vocabulary[cols[j]], 1.0, int(tfv[j])),)) for j in order_scores(cols, s, top)]
