"""A category's list under any method (dkw_core/keywords/category_methods.py): the metrics rank
as the Categories page always did, the peers equal Fightin' Words and c-TF-IDF written out on the
category's own words, each word with its counts in the category and elsewhere; the list's
quality is gensim's NPMI of dkw_core.quality, cached on disk."""
from collections import Counter

import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.keywords import BaselineModel, KeywordModel
from dkw_core.keywords.category_methods import (
    PEERS,
    category_terms,
    list_quality_of,
    method_names,
    quality_texts,
)
from dkw_core.phrases import tag_corpus
from dkw_core.quality import list_quality, word_tokens


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


@pytest.fixture(scope="module")
def own(topic_corpus):
    return BaselineModel.prepare(topic_corpus, cache=False)


def own_counts(corpus):
    """(categories, vocabulary, C x V occurrences) of the training split's own words, counted here."""
    tagged = tag_corpus(corpus, cache=False)
    cats = sorted({d.label for d in corpus.documents})
    counts = {c: Counter() for c in cats}
    for d in corpus.documents:
        if d.split == "train":
            counts[d.label].update(word_tokens(tagged[d.id]))
    vocab = sorted(set().union(*counts.values()))
    return cats, vocab, np.array([[counts[c][w] for w in vocab] for c in cats], dtype=float)


def fightin_words_direct(y, c):
    """Monroe et al. 2008 §3.5 for category c against the rest, prior = corpus word shares x 0.01 n."""
    n = y.sum()
    a0 = 0.01 * n
    alpha = a0 * y.sum(axis=0) / n
    yi, yj = y[c], y.sum(axis=0) - y[c]
    ni, nj = yi.sum(), yj.sum()
    delta = np.log((yi + alpha) / (ni + a0 - yi - alpha)) - np.log((yj + alpha) / (nj + a0 - yj - alpha))
    return delta / np.sqrt(1 / (yi + alpha) + 1 / (yj + alpha))


def ctfidf_direct(y, c):
    """BERTopic §3.3: tf(w, c) / |c| x ln(1 + mean class size / f(w))."""
    return y[c] / y[c].sum() * np.log(1 + y.sum(axis=1).mean() / y.sum(axis=0))


@pytest.mark.parametrize("metric", ["rf", "ig", "tf-rf"])
@pytest.mark.parametrize("category", ["sport", "space"])
def test_a_metric_ranks_as_the_category_keywords_with_its_document_counts(model, category, metric):
    terms = category_terms(model, category, metric, k=3, top=5)
    want = model.category_keywords(category, metric=metric, k=3, top=5, phrases=0)
    assert terms.words == [w.word for w in want] and terms.words
    assert np.allclose([p.score for p in terms.top], [w.score for w in want])
    c = model.categories.index(category)
    counts, labels = model.term_counts("train", 3), model.labels("train")
    a = np.asarray((counts[labels == c] > 0).sum(axis=0)).ravel()   # documents of c reaching the word
    cc = np.asarray((counts[labels != c] > 0).sum(axis=0)).ravel()  # documents elsewhere reaching it
    for p in terms.points:
        w = model.vocabulary.index(p.word)
        assert (p.in_category, p.elsewhere) == (a[w], cc[w])
    assert terms.unit == "documents"
    assert (terms.in_total, terms.elsewhere_total) == ((labels == c).sum(), (labels != c).sum())


@pytest.mark.parametrize("method,direct", [("fightin-words", fightin_words_direct), ("c-tf-idf", ctfidf_direct)])
@pytest.mark.parametrize("category", ["sport", "space"])
def test_a_peer_equals_its_formula_written_out_on_the_category_own_words(topic_corpus, own, method, direct,
                                                                         category):
    cats, vocab, y = own_counts(topic_corpus)
    c = cats.index(category)
    scores = direct(y, c)
    order = sorted((w for w in range(len(vocab)) if y[c, w] > 0), key=lambda w: (-scores[w], w))[:6]
    terms = category_terms(own, category, method, top=6)
    assert terms.words == [vocab[w] for w in order]
    assert np.allclose([p.score for p in terms.top], scores[order])
    assert [(p.in_category, p.elsewhere) for p in terms.top] == [(y[c, w], y[:, w].sum() - y[c, w]) for w in order]
    assert terms.unit == "occurrences"
    assert (terms.in_total, terms.elsewhere_total) == (y[c].sum(), y.sum() - y[c].sum())


@pytest.mark.parametrize("limit", [0, 4, 100])
def test_the_background_spreads_over_the_plane_most_frequent_words_per_cell(topic_corpus, own, limit):
    """Background words: the category's other words, at most three per half-octave cell of the
    (in category, elsewhere) plane, the most frequent of each, then the most frequent overall."""
    import math
    from collections import defaultdict

    cats, vocab, y = own_counts(topic_corpus)
    c = cats.index("sport")
    terms = category_terms(own, "sport", "fightin-words", top=2, background=limit)
    inside, elsewhere = y[c], y.sum(axis=0) - y[c]
    cells = defaultdict(list)
    for w in range(len(vocab)):
        if inside[w] > 0 and vocab[w] not in terms.words:
            cells[(math.floor(2 * math.log2(1 + inside[w])), math.floor(2 * math.log2(1 + elsewhere[w])))].append(w)
    kept = [w for ws in cells.values() for w in sorted(ws, key=lambda w: (-(inside[w] + elsewhere[w]), w))[:3]]
    kept = sorted(kept, key=lambda w: (-(inside[w] + elsewhere[w]), w))[:limit]
    rest = [p for p in terms.points if not p.rank]
    assert [p.word for p in rest] == [vocab[w] for w in kept]
    assert len(kept) == min(limit, len(kept)) and (limit == 0 or len(kept) < sum(map(len, cells.values())))
    assert [p.rank for p in terms.top] == [1, 2]


def test_methods_are_the_registry_then_the_peers_and_an_unknown_one_is_one_line(model):
    from dkw_core.metrics import METRICS

    assert method_names() == [*METRICS, *PEERS]
    with pytest.raises(InputError, match="unknown method 'nope'"):
        category_terms(model, "sport", "nope")
    with pytest.raises(InputError, match="unknown category 'chess'"):
        category_terms(model, "chess", "rf")


def test_list_quality_is_dkw_core_quality_and_cached_on_disk(topic_corpus, own, tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    texts = quality_texts(own)
    tagged = tag_corpus(topic_corpus, cache=False)
    test = [word_tokens(tagged[d.id]) for d in topic_corpus.documents if d.split == "test"]
    train = [d for d in topic_corpus.documents if d.split == "train"]
    assert texts.reference == test
    words = ["team", "coach", "league", "ball"]
    want = list_quality({"sport": words}, test, [word_tokens(tagged[d.id]) for d in train], [d.label for d in train])
    calls = []

    def load():
        calls.append(1)
        return texts

    got = list_quality_of(topic_corpus.key, "sport", words, load)
    assert (got.npmi, got.exclusivity, got.absent_share) == (want.npmi, want.exclusivity, want.absent_share)
    assert got.absent_share == 0.25  # "ball" is not in the test split: counted, left out of NPMI
    again = list_quality_of(topic_corpus.key, "sport", words, load)
    assert again == got and calls == [1]  # the second answer came from the disk cache
    list_quality_of(topic_corpus.key, "sport", words[:3], load)
    assert calls == [1, 1]  # another list is measured anew
