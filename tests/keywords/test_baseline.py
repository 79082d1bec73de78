"""The field's standard over a document's own words (docs/method.md §10): Fightin' Words (``fw``) and
c-TF-IDF (``ctfidf``) as keyword methods of :class:`BaselineModel`, each held against a direct
computation in plain loops on the tiny topic corpus (conftest)."""
from __future__ import annotations

import math
from collections import Counter

import pytest

from dkw_core.keywords import BaselineModel, keywords_by_method, parse_method
from dkw_core.keywords.categories import category_keywords
from dkw_core.phrases import content_words, tag_corpus


@pytest.fixture(scope="module")
def base(topic_corpus):
    return BaselineModel.prepare(topic_corpus, cache=False)


@pytest.fixture(scope="module")
def words(topic_corpus):
    tagged = tag_corpus(topic_corpus, cache=False)
    return {d.id: content_words(tagged[d.id]) for d in topic_corpus.documents}


def occurrences(corpus, words) -> dict[str, Counter]:
    """tf(w, c): every word's occurrences in each category's training documents."""
    out: dict[str, Counter] = {c: Counter() for c in corpus.categories}
    for d in corpus.documents:
        if d.split == "train":
            out[d.label].update(words[d.id])
    return out


def direct_fw(tf: dict[str, Counter]) -> dict[str, dict[str, float]]:
    """Monroe, Colaresi & Quinn 2008: category against the rest pooled, prior = 0.01 x the total
    count spread by the overall word frequencies, z-scored."""
    vocab = sorted({w for c in tf.values() for w in c})
    freq = {w: sum(tf[c][w] for c in tf) for w in vocab}
    total = sum(freq.values())
    alpha0 = 0.01 * total
    out = {}
    for cat in tf:
        n_i = sum(tf[cat].values())
        n_j = total - n_i
        out[cat] = {}
        for w in vocab:
            a = alpha0 * freq[w] / total
            y_i, y_j = tf[cat][w], freq[w] - tf[cat][w]
            delta = math.log((y_i + a) / (n_i + alpha0 - y_i - a)) - math.log((y_j + a) / (n_j + alpha0 - y_j - a))
            out[cat][w] = delta / math.sqrt(1 / (y_i + a) + 1 / (y_j + a))
    return out


def direct_ctfidf(tf: dict[str, Counter]) -> dict[str, dict[str, float]]:
    """BERTopic's c-TF-IDF: tf(w, c) / |c| * ln(1 + average class size / f(w))."""
    vocab = sorted({w for c in tf.values() for w in c})
    freq = {w: sum(tf[c][w] for c in tf) for w in vocab}
    avg = sum(sum(c.values()) for c in tf.values()) / len(tf)
    return {cat: {w: tf[cat][w] / sum(tf[cat].values()) * math.log(1 + avg / freq[w]) for w in vocab} for cat in tf}


DIRECT = {"fw": direct_fw, "ctfidf": direct_ctfidf}


def ranked(scores: dict[str, float], candidates, top: int) -> list[str]:
    """Highest score first, ties to the alphabetically first word (the vocabulary order)."""
    return sorted(candidates, key=lambda w: (-scores[w], w))[:top]


@pytest.mark.parametrize("metric", ["fw", "ctfidf"])
def test_a_documents_own_words_ranked_by_the_peers_score_of_its_category(base, words, topic_corpus, metric):
    scores = DIRECT[metric](occurrences(topic_corpus, words))
    assert parse_method(metric) == {"kind": "baseline", "k": None, "metric": metric, "neighbours": None}
    for doc in topic_corpus.documents:
        own = {w for w in words[doc.id] if w in base.vocabulary}
        # label-aware: the gold category's score; label-free: the best score over the categories
        aware = ranked(scores[doc.label], own, 3)
        best = {w: max(scores[c][w] for c in scores) for w in own}
        free = ranked(best, own, 3)
        got = base.keywords(doc.id, metric=metric, top=3, protocol="label-aware")
        assert [kw.word for kw in got] == aware, doc.id
        assert [kw.score for kw in got] == pytest.approx([scores[doc.label][w] for w in aware], rel=1e-9)
        assert [kw.word for kw in base.keywords(doc.id, metric=metric, top=3, protocol="label-free")] == free
    spec = keywords_by_method(metric, dataset=topic_corpus, doc_ids=["topics/test/space/0"], top=3)
    assert spec["topics/test/space/0"] == ranked(scores["space"], {w for w in words["topics/test/space/0"]
                                                                   if w in base.vocabulary}, 3)


@pytest.mark.parametrize("metric", ["fw", "ctfidf"])
def test_a_categorys_vocabulary_is_its_top_words_under_the_peers_score(base, words, topic_corpus, metric):
    tf = occurrences(topic_corpus, words)
    scores = DIRECT[metric](tf)
    train = [d for d in topic_corpus.documents if d.split == "train"]
    for cat in topic_corpus.categories:
        mine = [d for d in train if d.label == cat]
        # the categories' rule: words in a larger share of the category's documents than of all of them
        over = {w for w in tf[cat] if sum(w in words[d.id] for d in mine) / len(mine)
                > sum(w in words[d.id] for d in train) / len(train)}
        got = category_keywords(base, cat, metric=metric, top=5, phrases=0)
        assert [w.word for w in got] == ranked(scores[cat], over, 5), cat
        assert [w.score for w in got] == pytest.approx([scores[cat][w.word] for w in got], rel=1e-9)
