"""The scikit-learn transformer on a tiny hand-written corpus (real tagger and GloVe vectors)."""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC

from dkw_core.errors import InputError
from dkw_core.evaluation.estimator import DiscriminativeKeywordVectorizer

SPACE = ["The rocket launch from the space station carried astronauts into orbit around the moon.",
         "NASA engineers tested the shuttle engine before the next mission to the planet Mars.",
         "The telescope observed a distant galaxy and the orbit of a small comet near the sun.",
         "Astronauts on the lunar module collected rock samples from the surface of the moon.",
         "A satellite in low orbit sends images of the planet to the ground station.",
         "The space agency announced a new probe to study the atmosphere of Venus."]
SPORT = ["The hockey team won the game after the goalie stopped every shot in the final period.",
         "Our football coach praised the players for their defence in the championship match.",
         "The baseball pitcher threw a fast ball and the batter hit a home run in the last inning.",
         "Fans cheered as the basketball team scored in the final seconds of the playoff game.",
         "The tennis player won the tournament after a long match against the champion.",
         "The soccer striker scored two goals and the team won the league title."]


def _data():
    X = SPACE + SPORT
    y = ["space"] * len(SPACE) + ["sport"] * len(SPORT)
    return X, np.array(y)


def test_fit_transform_shapes_and_label_free_transform():
    X, y = _data()
    vec = DiscriminativeKeywordVectorizer(metric="rf", k=10, top=5)
    Xt = vec.fit_transform(X, y)
    assert Xt.shape == (len(X), vec.model_.vectors.dim)
    assert np.allclose(np.linalg.norm(Xt, axis=1), 1.0, atol=1e-5)
    new = ["The astronaut looked at the moon from the orbit of the station.",
           "The goalie and the team celebrated the win of the game."]
    Z = vec.transform(new)
    # transform reads no label: the same text gives the same vector whatever else is in the batch
    assert np.allclose(vec.transform(new[:1]), Z[:1])
    kws = vec.keywords(new)
    assert len(kws) == 2 and all(0 < len(k) <= 5 for k in kws)


def test_pipeline_gridsearch_and_clone():
    X, y = _data()
    pipe = Pipeline([("dkw", DiscriminativeKeywordVectorizer(k=10, top=5)), ("svm", LinearSVC())])
    grid = GridSearchCV(pipe, {"dkw__metric": ["rf", "tf-idf"], "dkw__top": [3, 10]}, cv=2)
    grid.fit(X, y)
    assert set(grid.best_params_) == {"dkw__metric", "dkw__top"}
    pred = grid.predict(["Astronauts flew the rocket to the moon and back into orbit.",
                         "The team scored a goal and won the hockey game in overtime."])
    assert list(pred) == ["space", "sport"]
    c = clone(pipe.set_params(dkw__metric="ig"))
    assert c.get_params()["dkw__metric"] == "ig" and not hasattr(c.named_steps["dkw"], "model_")


def test_bad_input_is_clear():
    X, y = _data()
    with pytest.raises(InputError):
        DiscriminativeKeywordVectorizer(metric="nope").fit(X, y)
    with pytest.raises(InputError):
        DiscriminativeKeywordVectorizer().fit("one text", ["a"])
    with pytest.raises(InputError, match="two categories"):
        DiscriminativeKeywordVectorizer().fit(X, ["a"] * len(X))


def test_neighbours_spec_is_a_parameter():
    X, y = _data()
    vec = DiscriminativeKeywordVectorizer(metric="rf", k=10, top=5, neighbours="csls")
    assert vec.get_params()["neighbours"] == "csls"
    Xt = vec.fit_transform(X, y)
    assert vec.model_.neighbours == "csls-k10" and Xt.shape[0] == len(X)
    plain = DiscriminativeKeywordVectorizer(metric="rf", k=10, top=5).fit(X, y)
    assert plain.model_ is not vec.model_ and plain.model_.neighbours == "cosine"
    with pytest.raises(InputError, match="unknown neighbours"):
        DiscriminativeKeywordVectorizer(neighbours="knn").fit(X, y)


@pytest.mark.parametrize("protocol", ["label-free-posterior", "label-free-top1"])
def test_posterior_protocols_in_the_estimator(protocol):
    X, y = _data()
    vec = DiscriminativeKeywordVectorizer(metric="rf", k=10, top=5, protocol=protocol)
    Xt = vec.fit_transform(X, y)
    assert Xt.shape == (len(X), vec.model_.vectors.dim)
    new = ["The astronaut looked at the moon from the orbit of the station.",
           "The goalie and the team celebrated the win of the game."]
    Z = vec.transform(new)
    assert np.allclose(vec.transform(new[::-1]), Z[::-1])  # each text on its own: no label, no neighbour read
    pred = LinearSVC().fit(Xt, y).predict(Z)
    assert list(pred) == ["space", "sport"]
