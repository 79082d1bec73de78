"""The label-free posterior weighting (dkw_core/keywords/posterior.py): calibrated posteriors
fitted on training texts only, out-of-fold for training documents, never reading the labels of
the documents being weighted."""
import numpy as np
import pytest
from conftest import SPACE, SPORT, one_text_keywords

from dkw_core.corpora import Corpus, Document
from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel, top_n
from dkw_core.keywords.posterior import (
    CategoryPosterior,
    MatrixPosterior,
    corpus_posteriors,
    count_features,
    fold_posteriors,
    out_of_fold_counts,
)

SPORT_TEXTS = ["The team won the game after the coach changed the player.",
               "A new season of the league starts with a goal.",
               "The player kicked the ball; the team celebrated.",
               "The coach and the player watched the league game.",
               "A goal in the last game of the season for the team."]
SPACE_TEXTS = ["The rocket reached orbit around the planet.",
               "A launch of the mission to the moon.",
               "The star and the earth seen from orbit.",
               "The mission put a rocket near the planet and the moon.",
               "A launch took the rocket to orbit around the earth."]


@pytest.fixture(scope="module")
def corpus():
    docs = [Document(f"p/train/sport/{i}", t, "sport", "train") for i, t in enumerate(SPORT_TEXTS)]
    docs += [Document(f"p/train/space/{i}", t, "space", "train") for i, t in enumerate(SPACE_TEXTS)]
    docs += [Document("p/test/sport/0", "The coach praised the team and the player.", "sport", "test"),
             Document("p/test/space/0", "The rocket left orbit for the moon.", "space", "test")]
    return Corpus("p", docs)


def test_posteriors_are_distributions_that_favour_the_right_topic():
    texts = SPORT_TEXTS + SPACE_TEXTS
    y = np.array([0] * 5 + [1] * 5)
    post = CategoryPosterior(2).fit(texts, y).predict(["The coach and the team.", "The rocket and the moon."])
    assert np.allclose(post.sum(axis=1), 1)
    assert post[0, 0] > post[0, 1] and post[1, 1] > post[1, 0]


def test_out_of_fold_posteriors_never_see_their_own_document(monkeypatch):
    from dkw_core.keywords import posterior

    texts = SPORT_TEXTS + SPACE_TEXTS
    y = np.array([0] * 5 + [1] * 5)
    counts = count_features(texts)
    rows = [tuple(r) for r in counts.toarray()]
    assert len(set(rows)) == len(texts)  # each document recognisable by its row
    seen = []
    real_fit, real_predict = MatrixPosterior.fit, MatrixPosterior.predict

    def fit(self, fit_counts, labels):
        self.fitted_on = {tuple(r) for r in fit_counts.toarray()}
        return real_fit(self, fit_counts, labels)

    def predict(self, pred_counts):
        seen.append((self.fitted_on, [tuple(r) for r in pred_counts.toarray()]))
        return real_predict(self, pred_counts)

    monkeypatch.setattr(posterior.MatrixPosterior, "fit", fit)
    monkeypatch.setattr(posterior.MatrixPosterior, "predict", predict)
    oof = out_of_fold_counts(counts, y, 2)
    assert oof.shape == (10, 2) and np.allclose(oof.sum(axis=1), 1)
    assert sorted(r for _, pred in seen for r in pred) == sorted(rows)  # every document once
    assert all(not (fitted & set(pred)) for fitted, pred in seen)


def test_corpus_posteriors_read_no_test_label():
    texts = SPORT_TEXTS + SPACE_TEXTS + ["The coach praised the team.", "The rocket left orbit."]
    y = np.array([0] * 5 + [1] * 5 + [0, 1])
    train = np.arange(10)
    a, _ = corpus_posteriors(texts, y, train, 2)
    y2 = y.copy()
    y2[10:] = y2[10:][::-1]  # swap the test labels
    b, _ = corpus_posteriors(texts, y2, train, 2)
    assert np.allclose(a, b, atol=1e-4)  # LinearSVC's coordinate descent shuffles: equal up to its tolerance
    assert a[10, 0] > 0.5 and a[11, 1] > 0.5


def test_top_n_with_weights_interpolates_between_categories():
    import scipy.sparse as sp

    counts = sp.csr_matrix(np.array([[1, 1, 1]], dtype=np.float32))
    scores = np.array([[3.0, 0.0, 1.0], [0.0, 3.0, 1.0]])
    assert top_n(counts, scores, labels=None, use_tf=False, top=1, weights=np.array([[1.0, 0.0]]))[0, 0] == 0
    assert top_n(counts, scores, labels=None, use_tf=False, top=1, weights=np.array([[0.1, 0.9]]))[0, 0] == 1
    # a certain posterior is the label-aware ranking of that category
    aware = top_n(counts, scores, labels=np.array([1]), use_tf=False, top=3)
    assert (top_n(counts, scores, labels=None, use_tf=False, top=3, weights=np.array([[0.0, 1.0]])) == aware).all()


@pytest.mark.parametrize("protocol", ["label-free-posterior", "label-free-top1"])
def test_posterior_protocol_ignores_the_labels_it_weights(corpus, topic_vectors, protocol):
    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    idx = model.rank("test", metric="rf", k=2, top=3, protocol=protocol)
    words = dict(zip(model.doc_ids("test"), model.words(idx)))
    assert set(words["p/test/sport/0"]) <= set(SPORT) and set(words["p/test/space/0"]) <= set(SPACE), words
    shuffled = Corpus("p", [Document(d.id, d.text, {"sport": "space", "space": "sport"}[d.label] if d.split == "test"
                                     else d.label, d.split) for d in corpus.documents])
    other = KeywordModel.prepare(shuffled, topic_vectors, k_max=3, cache=False)
    other_idx = other.rank("test", metric="rf", k=2, top=3, protocol=protocol)
    assert dict(zip(other.doc_ids("test"), other.words(other_idx))) == words
    kws = model.keywords("p/test/space/0", metric="rf", k=2, top=3, protocol=protocol)
    assert {kw.word for kw in kws} <= set(SPACE)
    new = one_text_keywords(model, "The rocket and the moon.", k=2, top=2, protocol=protocol)
    assert {kw.word for kw in new} <= set(SPACE)
    with pytest.raises(InputError, match="gold category"):
        model.rank_texts(["The rocket."], metric="rf", k=2, top=2, protocol="label-aware")


def test_matrix_posterior_equals_the_text_posterior_on_the_same_rows():
    texts = SPORT_TEXTS + SPACE_TEXTS
    y = np.array([0] * 5 + [1] * 5)
    new = ["The coach and the team.", "The rocket and the moon.", "An unseen zebra word."]
    counts = count_features(texts + new)
    fit = np.arange(1, 10)  # a document left out: its words must not enter the fitted vocabulary or idf
    a = CategoryPosterior(2).fit([texts[i] for i in fit], y[fit]).predict([texts[0]] + new)
    b = MatrixPosterior(2).fit(counts[fit], y[fit]).predict(counts[[0, 10, 11, 12]])
    assert np.allclose(a, b, atol=1e-4)  # LinearSVC's coordinate descent shuffles: equal up to its tolerance
    assert np.allclose(MatrixPosterior(3).fit(counts[:2], np.array([0, 0])).predict(counts[:1]), [[1, 0, 0]])


def _tagged_texts(n_per_topic=8):
    """Topic texts, each with its own token ``rowN`` so a spy can tell which rows a fit saw."""
    rng = np.random.default_rng(5)
    texts, y = [], []
    for c, words in enumerate((SPORT, SPACE)):
        for _ in range(n_per_topic):
            texts.append(" ".join(rng.choice(words, size=4)) + f" row{len(texts)}")
            y.append(c)
    return texts, np.array(y)


def test_fold_posteriors_never_read_a_validation_label_nor_fit_a_document_on_itself(monkeypatch):
    from dkw_core.keywords import posterior

    texts, y = _tagged_texts()
    counts = count_features(texts)
    vocab = {w: j for j, w in enumerate(__import__("sklearn.feature_extraction.text", fromlist=["x"])
                                         .CountVectorizer().fit(texts).get_feature_names_out())}
    row_cols = np.array([vocab[f"row{i}"] for i in range(len(texts))])

    def rows_of(m):
        return set(np.flatnonzero(np.asarray(m[:, row_cols].sum(axis=0)).ravel() > 0).tolist())

    calls = []
    real_fit, real_predict = MatrixPosterior.fit, MatrixPosterior.predict

    def fit(self, m, labels):
        self.fitted_on = rows_of(m)
        return real_fit(self, m, labels)

    def predict(self, m):
        calls.append((self.fitted_on, rows_of(m)))
        return real_predict(self, m)

    monkeypatch.setattr(posterior.MatrixPosterior, "fit", fit)
    monkeypatch.setattr(posterior.MatrixPosterior, "predict", predict)
    # a subsample fold: 3 + 3 training, 2 + 2 validation documents; the other 6 are outside the round
    train, val = np.array([0, 1, 2, 8, 9, 10]), np.array([3, 4, 11, 12])
    post_tr, post_va = fold_posteriors(counts, y, train, val, 2, folds=3)
    assert post_tr.shape == (6, 2) and post_va.shape == (4, 2)
    assert np.allclose(post_tr.sum(axis=1), 1) and np.allclose(post_va.sum(axis=1), 1)
    outside = set(range(len(texts))) - set(val.tolist())
    assert all(not (fitted & set(val.tolist())) for fitted, _ in calls)  # no validation document in any fit
    assert all(not (fitted & pred) for fitted, pred in calls)  # nobody predicted by a fit on itself
    assert sorted(p for _, pred in calls for p in pred) == sorted(train.tolist() + val.tolist())
    assert any(fitted == outside for fitted, _ in calls)  # validation part: every other training-split document
    assert all(fitted >= outside - set(train.tolist()) for fitted, _ in calls)  # documents outside the round count
    assert post_va[:2, 0].mean() > 0.5 and post_va[2:, 1].mean() > 0.5

    # the validation labels are never read: any relabelling gives the same posteriors ...
    monkeypatch.setattr(posterior.MatrixPosterior, "fit", real_fit)
    monkeypatch.setattr(posterior.MatrixPosterior, "predict", real_predict)
    base = fold_posteriors(counts, y, train, val, 2, folds=3)
    flipped = y.copy()
    flipped[val] = 1 - flipped[val]
    again = fold_posteriors(counts, flipped, train, val, 2, folds=3)
    assert all(np.array_equal(a, b) for a, b in zip(base, again))
    # ... while the same relabelling of documents outside the validation part changes them (the check can fail)
    moved = y.copy()
    moved[[5, 6, 13, 14]] = 1 - moved[[5, 6, 13, 14]]
    assert not np.allclose(base[1], fold_posteriors(counts, moved, train, val, 2, folds=3)[1])
    with pytest.raises(InputError, match="overlap"):
        fold_posteriors(counts, y, train, np.array([0, 3]), 2)


def test_a_category_with_one_training_document_keeps_the_posterior_learned():
    """R52 has categories with a single training document; the posterior must still be fitted
    (it once fell back to the class prior for the whole corpus: 42 % accuracy on R52)."""
    rng = np.random.default_rng(2)
    topics = (SPORT, SPACE, ["bank", "rate", "market", "stock", "price", "trade", "share", "profit"])
    texts = [" ".join(rng.choice(words, size=4)) for words in topics for _ in range(12)]
    y = np.repeat(np.arange(3), 12)
    texts, y = texts + ["Weather: rain, snow and wind."], np.append(y, 3)
    queries = ["The coach and the team in the league game.", "The rocket and the moon in orbit.",
               "The stock price and the bank rate."]
    counts = count_features(texts + queries)
    n = len(texts)
    for post in (CategoryPosterior(4).fit(texts, y).predict(queries),
                 MatrixPosterior(4).fit(counts[:n], y).predict(counts[n:])):
        assert np.allclose(post.sum(axis=1), 1)
        assert list(post.argmax(axis=1)) == [0, 1, 2], post
    oof = out_of_fold_counts(counts[:n], y, 4)
    assert np.allclose(oof.sum(axis=1), 1) and (oof[:n - 1].argmax(axis=1) == y[:n - 1]).mean() > 0.8
    # every category a singleton but one: nothing to learn, the class prior
    assert np.allclose(CategoryPosterior(3).fit(texts[:2] + texts[12:13] + texts[-1:], np.array([0, 0, 1, 2]))
                       .predict(["x"]), [[0.5, 0.25, 0.25]])


def test_top1_weights_with_the_most_probable_category_as_the_paper_weights_with_the_gold_one(corpus, topic_vectors):
    from dkw_core.keywords.posterior import as_weights

    P = np.array([[0.2, 0.7, 0.1], [0.5, 0.2, 0.3]])
    assert np.array_equal(as_weights("label-free-top1", P), [[0, 1, 0], [1, 0, 0]])
    assert as_weights("label-free-posterior", P) is not None and np.array_equal(as_weights("label-free-posterior", P), P)
    with pytest.raises(InputError):
        as_weights("label-free", P)
    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    top1 = model.rank("test", metric="rf", k=2, top=3, protocol="label-free-top1")
    predicted = model.posteriors("test").argmax(axis=1)
    assert np.array_equal(top1, model.rank("test", metric="rf", k=2, top=3, protocol="label-aware", labels=predicted))


def test_top1_rank_arguments_give_the_keywords_of_one_hot_weights():
    import scipy.sparse as sp

    from dkw_core.keywords.posterior import as_weights, rank_arguments

    rng = np.random.default_rng(1)
    counts = sp.csr_matrix(rng.integers(0, 3, size=(6, 9)).astype(np.float32))
    scores = rng.random((3, 9))
    P = rng.dirichlet(np.ones(3), size=6)
    labels, weights = rank_arguments("label-free-top1", P)
    assert weights is None and np.array_equal(labels, P.argmax(axis=1))
    for use_tf in (False, True):
        assert np.array_equal(top_n(counts, scores, labels=labels, use_tf=use_tf, top=4),
                              top_n(counts, scores, labels=None, use_tf=use_tf, top=4,
                                    weights=as_weights("label-free-top1", P)))
    assert rank_arguments("label-free-posterior", P)[0] is None


def test_weighting_names_the_top_category_and_flags_an_unsure_posterior():
    from dkw_core.keywords.posterior import UNSURE_BELOW, UNSURE_MARGIN, weighting_of

    cats = ["a", "b", "c"]
    sure = weighting_of([0.05, 0.9, 0.05], cats)
    assert (sure.category, sure.runner_up, sure.unsure) == ("b", "a", False)
    assert sure.describe() == "weighted as b, P = 0.90"
    low = weighting_of([0.45, 0.2, 0.35], cats)  # below the threshold
    assert low.probability < UNSURE_BELOW and low.unsure and "unsure: c, P = 0.35" in low.describe()
    close = weighting_of([0.55, 0.4, 0.05], cats)  # above it, but the top two within the margin
    assert close.probability >= UNSURE_BELOW and 0.55 - 0.4 < UNSURE_MARGIN and close.unsure
    assert weighting_of([0.7, 0.3, 0.0], cats).unsure is False  # 0.7 - 0.3 = 0.4 > margin
    assert close.to_dict() == {"weighted_as": "a", "p": 0.55, "runner_up": "b", "runner_up_p": 0.4, "unsure": True}
    with pytest.raises(InputError):
        weighting_of([1.0], cats)


def test_a_new_text_does_not_wait_for_the_corpus_posteriors_and_gets_the_same_classifier(corpus, topic_vectors,
                                                                                         monkeypatch):
    from dkw_core.keywords import posterior as P

    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    calls = []
    monkeypatch.setattr(P, "out_of_fold_counts", lambda *a, **kw: calls.append(1) or np.zeros((10, 2)))
    alone = model.posterior_model().predict(["The rocket and the moon.", "The coach."])
    assert calls == []  # no out-of-fold fit for one new text
    monkeypatch.undo()
    fresh = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    fresh.posteriors("all")
    assert np.allclose(alone, fresh.posterior_model().predict(["The rocket and the moon.", "The coach."]))
