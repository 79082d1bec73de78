"""Algorithm 2's cross-validation counts statistics from each fold's training part only."""
from dataclasses import replace

import numpy as np
import pytest

from dkw_core.corpora import Corpus
from dkw_core.evaluation.search import ModelPredictor, Setup, folds
from dkw_core.keywords import KeywordModel, top_n

SPORT = ["team", "game", "player", "goal", "coach", "season", "league", "ball"]
SPACE = ["planet", "orbit", "rocket", "moon", "star", "launch", "mission", "earth"]


@pytest.fixture(scope="module")
def corpus():
    from dkw_core.corpora import Document

    rng = np.random.default_rng(3)
    docs = []
    for label, words in (("sport", SPORT), ("space", SPACE)):
        for i in range(6):
            own = rng.choice(words, size=3, replace=False)
            other = rng.choice(SPACE if label == "sport" else SPORT)
            text = f"The {own[0]} and the {own[1]} near the {own[2]} with a {other}."
            docs.append(Document(id=f"t/train/{label}/{i}", text=text, label=label, split="train"))
    return Corpus("foldtopics", docs)


def _relabelled(corpus, doc_id, label):
    docs = [replace(d, label=label) if d.id == doc_id else d for d in corpus.documents]
    return Corpus(corpus.name, docs, categories=corpus.categories, key=corpus.key + "-relabelled", sort=False)


@pytest.mark.parametrize("metric", ["rf", "ig", "tf-chi2", "lo-own"])
def test_changing_a_validation_label_leaves_its_label_free_vector_and_prediction(corpus, topic_vectors, metric):
    a = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    labels = a.labels("train")
    tr, va = folds(labels, 2, seed=0)[0]
    victim = int(va[0])
    other = a.categories[1 - labels[victim]]
    b = KeywordModel.prepare(_relabelled(corpus, a.doc_ids("train")[victim], other), topic_vectors, k_max=3,
                             cache=False)
    assert b.labels("train")[victim] != labels[victim]
    setup = Setup(3, metric, 4)
    pa = ModelPredictor(a, protocol="label-free", max_top=4)
    pb = ModelPredictor(b, protocol="label-free", max_top=4)
    (_, va_a), (_, va_b) = pa.fold_vectors(setup, tr, va), pb.fold_vectors(setup, tr, va)
    j = list(va).index(victim)
    assert np.array_equal(va_a[j], va_b[j])
    assert np.array_equal(pa(setup, tr, va), pb(setup, tr, va))

    # the check can fail: with statistics of the whole training split (validation fold included)
    # the relabelled document's rare words move to its new category and its keywords change
    def leaky(model):
        scores = model.metric_scores(metric, 3)
        return top_n(model.term_counts("train", 3)[va], scores, labels=None, use_tf=metric.startswith("tf-"), top=4)

    assert not np.array_equal(leaky(a), leaky(b))


def test_fold_statistics_count_only_the_fold_training_part(corpus, topic_vectors):
    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    labels = model.labels("train")
    tr, va = folds(labels, 3, seed=1)[0]
    p = ModelPredictor(model, protocol="label-aware", max_top=4)
    p(Setup(3, "rf", 2), tr, va)
    p(Setup(3, "rf", 4), tr, va)  # same fold, same (metric, K): no second count
    assert p.fold_count == 1
    cached = next(iter(p._folds.values()))
    stats = cached["stats"][3]
    assert int(stats.n_docs.sum()) == len(tr)
    whole = model.category_stats(3)
    assert int(whole.n_docs.sum()) == len(labels) and not np.array_equal(stats.doc_freq, whole.doc_freq)


def test_fold_own_word_counts_come_from_the_fold_training_part(corpus, topic_vectors):
    """lo-own's own-word statistics are fold-local too: those of the training part's documents."""
    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    labels = model.labels("train")
    tr, va = folds(labels, 3, seed=1)[0]
    p = ModelPredictor(model, protocol="label-aware", max_top=4)
    p(Setup(3, "lo-own", 2), tr, va)
    stats = next(iter(p._folds.values()))["stats"][3]
    own = model.own_counts_rows("train", tr).toarray() > 0
    expected = np.array([own[labels[tr] == c].sum(axis=0) for c in range(len(model.categories))])
    np.testing.assert_array_equal(stats.own_freq, expected)
    assert not np.array_equal(stats.own_freq, model.category_stats(3).own_freq)


def test_counts_of_some_rows_equal_the_rows_of_the_split_matrix(corpus, topic_vectors):
    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    pos = np.array([5, 0, 7])
    part = model.term_counts_rows("train", pos, 2)
    assert (part != model.term_counts("train", 2)[pos]).nnz == 0


@pytest.mark.parametrize("protocol", ["label-free-posterior", "label-free-top1"])
def test_posterior_weighting_in_a_fold_ignores_the_validation_labels(corpus, topic_vectors, protocol):
    """Posterior protocols: no validation label enters the fold's posteriors, so the
    label of a validation document changes neither its vector nor its prediction."""
    a = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    labels = a.labels("train")
    tr, va = folds(labels, 2, seed=0)[0]
    victim = int(va[0])
    b = KeywordModel.prepare(_relabelled(corpus, a.doc_ids("train")[victim], a.categories[1 - labels[victim]]),
                             topic_vectors, k_max=3, cache=False)
    setup = Setup(3, "rf", 4)
    pa = ModelPredictor(a, protocol=protocol, max_top=4)
    pb = ModelPredictor(b, protocol=protocol, max_top=4)
    (_, va_a), (_, va_b) = pa.fold_vectors(setup, tr, va), pb.fold_vectors(setup, tr, va)
    assert np.array_equal(va_a, va_b)
    assert np.array_equal(pa(setup, tr, va), pb(setup, tr, va))
    post_tr, post_va = next(iter(pa._folds.values()))["posteriors"]
    assert post_tr.shape == (len(tr), 2) and post_va.shape == (len(va), 2)


@pytest.mark.parametrize("protocol", ["label-free-posterior", "label-free-top1"])
def test_fold_posteriors_use_every_training_document_outside_the_validation_part(corpus, topic_vectors, monkeypatch,
                                                                                 protocol):
    """label-free-posterior in a round on a subsample: the posterior classifiers are fitted on
    every training-split document outside the fold's validation part (not only on the round's
    training part), and no validation label is read: relabelling every validation document
    leaves the fold's posteriors, vectors and predictions unchanged."""
    from dkw_core.evaluation.search import subsample
    from dkw_core.keywords import posterior

    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    labels = model.labels("train")
    positions = subsample(labels, 3, order=np.arange(len(labels)))  # 3 of 6 documents per category
    tr_i, va_i = folds(labels[positions], 3, seed=0)[0]
    tr, va = positions[tr_i], positions[va_i]
    fitted_sizes = []
    real_fit = posterior.MatrixPosterior.fit

    def fit(self, counts, y):
        fitted_sizes.append(counts.shape[0])
        return real_fit(self, counts, y)

    monkeypatch.setattr(posterior.MatrixPosterior, "fit", fit)
    setup = Setup(3, "rf", 4)
    pa = ModelPredictor(model, protocol=protocol, max_top=4)
    relabelled = labels.copy()
    relabelled[va] = 1 - relabelled[va]
    pb = ModelPredictor(model, protocol=protocol, max_top=4, labels=relabelled)
    (tr_a, va_a), (tr_b, va_b) = pa.fold_vectors(setup, tr, va), pb.fold_vectors(setup, tr, va)
    assert np.array_equal(va_a, va_b) and np.array_equal(tr_a, tr_b)
    assert np.array_equal(pa(setup, tr, va), pb(setup, tr, va))
    post_a = next(iter(pa._folds.values()))["posteriors"]
    post_b = next(iter(pb._folds.values()))["posteriors"]
    assert all(np.array_equal(a, b) for a, b in zip(post_a, post_b))
    # the validation part's classifier saw all 10 other documents, more than the round's 4 training ones
    assert max(fitted_sizes) == len(labels) - len(va) > len(tr)
