import numpy as np
import pytest

from dkw_core.corpora import Corpus, Document
from dkw_core.errors import InputError
from dkw_core.evaluation.baselines import bow_baseline, keyword_sets, tfidf_baseline

from .fakes import FakeModel

TOPICS = {
    "space": "orbit rocket launch nasa shuttle moon planet astronaut",
    "hockey": "puck goalie skate rink playoff season team score",
    "crypto": "encryption key cipher secure algorithm chip privacy government",
}


def _corpus(n_train=8, n_test=4, seed=0):
    rng = np.random.default_rng(seed)
    docs = []
    for label, words in TOPICS.items():
        words = words.split()
        for split, n in (("train", n_train), ("test", n_test)):
            for i in range(n):
                text = " ".join(rng.choice(words, size=12)) + " the a of and"
                docs.append(Document(id=f"t/{split}/{label}/{i}", text=text, label=label, split=split))
    return Corpus("toy", docs)


def test_tfidf_baseline_separates_topics():
    scores, seconds = tfidf_baseline(_corpus())
    assert scores.micro_f1 == pytest.approx(1.0) and scores.macro_f1 == pytest.approx(1.0)
    assert set(seconds) == {"features", "classify"}


def test_tfidf_baseline_scores_against_true_labels():
    corpus = _corpus()
    flipped = Corpus("toy", [d if d.split == "train"
                             else type(d)(d.id, d.text, "space" if d.label != "space" else "hockey", d.split)
                             for d in corpus.documents])
    scores, _ = tfidf_baseline(flipped)
    assert scores.micro_f1 == pytest.approx(0.0)


def test_tfidf_empty_vocabulary_is_input_error():
    docs = [Document(id=f"e/{s}/{c}/0", text="a", label=c, split=s) for s in ("train", "test") for c in ("x", "y")]
    with pytest.raises(InputError):
        tfidf_baseline(Corpus("empty", docs))


def test_keyword_sets_binary_ignores_padding():
    m = keyword_sets(np.array([[2, 0, -1], [-1, -1, -1]]), 4)
    assert m.toarray().tolist() == [[1, 0, 1, 0], [0, 0, 0, 0]]


def test_bow_baseline_on_fake_model():
    scores, _ = bow_baseline(FakeModel(seed=1), metric="rf", k=10, top=4, protocol="label-free")
    assert 0.5 < scores.micro_f1 <= 1.0
