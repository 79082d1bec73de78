"""The label-free posterior weighting (dkw_core/keywords/posterior.py): calibrated posteriors
fitted on training texts only, out-of-fold for training documents, never reading the labels of
the documents being weighted."""
import numpy as np
import pytest

from conftest import SPACE, SPORT
from dkw_core.corpora import Corpus, Document
from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel, top_n
from dkw_core.keywords.posterior import CategoryPosterior, corpus_posteriors, out_of_fold

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
    seen = []
    real_fit, real_predict = CategoryPosterior.fit, CategoryPosterior.predict

    def fit(self, fit_texts, labels):
        self.fitted_on = set(fit_texts)
        return real_fit(self, fit_texts, labels)

    def predict(self, pred_texts):
        seen.append((self.fitted_on, list(pred_texts)))
        return real_predict(self, pred_texts)

    monkeypatch.setattr(posterior.CategoryPosterior, "fit", fit)
    monkeypatch.setattr(posterior.CategoryPosterior, "predict", predict)
    oof = out_of_fold(texts, y, 2)
    assert oof.shape == (10, 2) and np.allclose(oof.sum(axis=1), 1)
    assert sorted(t for _, pred in seen for t in pred) == sorted(texts)  # every document once
    assert all(not (fitted & set(pred)) for fitted, pred in seen)


def test_corpus_posteriors_read_no_test_label():
    texts = SPORT_TEXTS + SPACE_TEXTS + ["The coach praised the team.", "The rocket left orbit."]
    y = np.array([0] * 5 + [1] * 5 + [0, 1])
    train = np.arange(10)
    a, _ = corpus_posteriors(texts, y, train, 2)
    y2 = y.copy()
    y2[10:] = y2[10:][::-1]  # swap the test labels
    b, _ = corpus_posteriors(texts, y2, train, 2)
    assert np.allclose(a, b)
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


def test_posterior_protocol_ignores_the_labels_it_weights(corpus, topic_vectors):
    model = KeywordModel.prepare(corpus, topic_vectors, k_max=3, cache=False)
    idx = model.rank("test", metric="rf", k=2, top=3, protocol="label-free-posterior")
    words = dict(zip(model.doc_ids("test"), model.words(idx)))
    assert set(words["p/test/sport/0"]) <= set(SPORT) and set(words["p/test/space/0"]) <= set(SPACE), words
    shuffled = Corpus("p", [Document(d.id, d.text, {"sport": "space", "space": "sport"}[d.label] if d.split == "test"
                                     else d.label, d.split) for d in corpus.documents])
    other = KeywordModel.prepare(shuffled, topic_vectors, k_max=3, cache=False)
    other_idx = other.rank("test", metric="rf", k=2, top=3, protocol="label-free-posterior")
    assert dict(zip(other.doc_ids("test"), other.words(other_idx))) == words
    kws = model.keywords("p/test/space/0", metric="rf", k=2, top=3, protocol="label-free-posterior")
    assert {kw.word for kw in kws} <= set(SPACE)
    new = model.keywords_for_text("The rocket and the moon.", metric="rf", k=2, top=2, protocol="label-free-posterior")
    assert {kw.word for kw in new} <= set(SPACE)
    with pytest.raises(InputError, match="gold category"):
        model.rank_texts(["The rocket."], metric="rf", k=2, top=2, protocol="label-aware")
