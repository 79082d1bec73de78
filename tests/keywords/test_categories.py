"""A category's own vocabulary (dkw_core/keywords/categories.py): its top words equal a direct
computation from the training split's metric scores, with provenance across its documents."""
import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel
from dkw_core.keywords.categories import compare_categories


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


def direct(model, category, metric, k, top):
    """The same ranking written out from metric_scores and the training counts."""
    c = model.categories.index(category)
    counts = model.term_counts("train", k)
    labels = model.labels("train")
    present = np.asarray((counts > 0).astype(np.int64).sum(axis=0)).ravel()          # A + C
    in_c = np.asarray((counts[labels == c] > 0).astype(np.int64).sum(axis=0)).ravel()  # A
    n, n_c = len(labels), int((labels == c).sum())
    scores = model.metric_scores(metric, k)[c].astype(np.float64)
    if metric.startswith("tf-"):
        scores = scores * np.asarray(counts[labels == c].sum(axis=0)).ravel()
    cand = [w for w in range(len(model.vocabulary)) if in_c[w] > 0 and in_c[w] / n_c > present[w] / n]
    cand.sort(key=lambda w: (-scores[w], w))
    return [(model.vocabulary[w], scores[w], int(in_c[w])) for w in cand[:top]]


@pytest.mark.parametrize("metric", ["rf", "ig", "chi2", "tf-rf"])
@pytest.mark.parametrize("category", ["sport", "space"])
def test_category_keywords_equal_a_direct_computation_from_metric_scores(model, category, metric):
    got = model.category_keywords(category, metric=metric, k=3, top=5)
    want = direct(model, category, metric, 3, 5)
    assert [w.word for w in got] == [w for w, _, _ in want]
    assert np.allclose([w.score for w in got], [s for _, s, _ in want])
    assert [w.documents for w in got] == [a for _, _, a in want]
    assert all(0 < w.share <= 1 and w.elsewhere < w.share for w in got)


def test_category_words_belong_to_the_category_topic(model):
    from conftest import SPACE, SPORT

    assert {w.word for w in model.category_keywords("sport", metric="rf", k=2, top=4)} <= set(SPORT)
    assert {w.word for w in model.category_keywords("space", metric="ig", k=2, top=4)} <= set(SPACE)


def test_provenance_counts_the_category_documents_reaching_the_word_through_each_phrase(model):
    k = 3
    c = model.categories.index("sport")
    rows = model.rows("train")[model.labels("train") == c]
    for w in model.category_keywords("sport", metric="rf", k=k, top=3):
        col = model.vocabulary.index(w.word)
        assert w.phrases, w
        for phrase, docs in w.phrases:
            p = model.phrases.index(phrase)
            assert col in model.nbr_idx[model.phrase_uid[p], :k]  # the phrase reaches the word
            assert docs == int((model.doc_phrase[rows][:, p].toarray() > 0).sum())
        assert max(d for _, d in w.phrases) <= w.documents <= len(rows)


def test_statistics_come_from_the_training_split_only(topic_corpus, topic_vectors):
    """Changing a test document's text changes no category word."""
    from dkw_core.corpora import Corpus, Document

    docs = [d if d.split == "train" else Document(d.id, "rocket rocket orbit planet moon", d.label, d.split)
            for d in topic_corpus.documents]
    other = KeywordModel.prepare(Corpus("topics", docs), topic_vectors, k_max=4, cache=False)
    base = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)
    for cat in ("sport", "space"):
        assert ([w.to_dict() for w in other.category_keywords(cat, metric="ig", k=3, top=6)]
                == [w.to_dict() for w in base.category_keywords(cat, metric="ig", k=3, top=6)])


def test_unknown_category_and_bad_top_are_one_line_errors(model):
    with pytest.raises(InputError, match="unknown category 'chess'"):
        model.category_keywords("chess", metric="rf")
    with pytest.raises(InputError, match="N must be"):
        model.category_keywords("sport", metric="rf", top=0)


def test_compare_categories_splits_shared_and_distinct_words(model):
    a = model.category_keywords("sport", metric="rf", k=3, top=5)
    b = model.category_keywords("space", metric="rf", k=3, top=5)
    cmp = compare_categories(a, a[:2] + b[:2])
    assert cmp["shared"] == [w.word for w in a[:2]]
    assert cmp["only_first"] == [w.word for w in a[2:]]
    assert cmp["only_second"] == [w.word for w in b[:2] if w.word not in {x.word for x in a}]


def test_compare_categories_takes_plain_words_as_the_categories_page_has_them():
    cmp = compare_categories(["goal", "match", "team"], ["orbit", "team"])
    assert cmp == {"shared": ["team"], "only_first": ["goal", "match"], "only_second": ["orbit"]}
