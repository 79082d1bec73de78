import functools

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
    scores, seconds, _ = tfidf_baseline(_corpus())
    assert scores.micro_f1 == pytest.approx(1.0) and scores.macro_f1 == pytest.approx(1.0)
    assert set(seconds) == {"features", "classify"}


def test_tfidf_baseline_scores_against_true_labels():
    corpus = _corpus()
    flipped = Corpus("toy", [d if d.split == "train"
                             else type(d)(d.id, d.text, "space" if d.label != "space" else "hockey", d.split)
                             for d in corpus.documents])
    scores, _, _ = tfidf_baseline(flipped)
    assert scores.micro_f1 == pytest.approx(0.0)


def test_tfidf_empty_vocabulary_is_input_error():
    docs = [Document(id=f"e/{s}/{c}/0", text="a", label=c, split=s) for s in ("train", "test") for c in ("x", "y")]
    with pytest.raises(InputError):
        tfidf_baseline(Corpus("empty", docs))


def test_keyword_sets_binary_ignores_padding():
    m = keyword_sets(np.array([[2, 0, -1], [-1, -1, -1]]), 4)
    assert m.toarray().tolist() == [[1, 0, 1, 0], [0, 0, 0, 0]]


def test_bow_baseline_on_fake_model():
    scores, _, _ = bow_baseline(FakeModel(seed=1), metric="rf", k=10, top=4, protocol="label-free")
    assert 0.5 < scores.micro_f1 <= 1.0


def _toy_experiment():
    from dkw_core.evaluation.experiments import Experiment

    corpus = _corpus()
    return Experiment(corpus=corpus, vectors="none", model=None, dataset="toy", sample=None, k_max=10)


def test_the_tfidf_classifier_run_stores_its_test_predictions(tmp_path):
    from dkw_core.evaluation.experiments import run_tfidf
    from dkw_core.evaluation.paired import decode_labels, split_fingerprint

    exp = _toy_experiment()
    result = run_tfidf(exp, store=f"sqlite:///{tmp_path / 'runs.sqlite'}")
    record = result.details["predictions"]
    test = exp.corpus.split("test")
    gold = [exp.corpus.categories.index(d.label) for d in test]
    assert record["split"] == split_fingerprint([d.id for d in test], gold)  # pairs with the metric runs
    pred = decode_labels(record["pred"])
    assert len(pred) == len(test) and float(np.mean(pred == np.array(gold))) == pytest.approx(result.scores.micro_f1)


def test_a_baseline_stored_without_predictions_is_run_again_to_get_them(tmp_path):
    from dkw_core.evaluation.experiments import run_tfidf
    from dkw_core.evaluation.protocols import RunResult
    from dkw_core.evaluation.results import ResultsStore

    exp = _toy_experiment()
    store = ResultsStore(f"sqlite:///{tmp_path / 'runs.sqlite'}")
    first = run_tfidf(exp, store=store)
    store.delete(first.config)
    store.save(RunResult(config=first.config, scores=first.scores, seconds={}, details={}))  # as dkw 0.3.0 stored it
    again = run_tfidf(exp, store=store)
    assert not again.cached and again.details["predictions"] == first.details["predictions"]
    assert run_tfidf(exp, store=store).cached  # stored with its predictions now: a cache hit


def test_the_keyword_baseline_run_stores_its_test_predictions(tmp_path, monkeypatch):
    from dkw_core.evaluation import experiments
    from dkw_core.evaluation.paired import decode_labels

    exp = _toy_experiment()
    fake = FakeModel(seed=1)
    fake.rank = functools.partial(FakeModel.rank, fake, k=10)  # own words: no K, like BaselineModel
    monkeypatch.setattr(experiments._BASELINE_MODELS, "get", lambda key, build: fake)
    result = experiments.run_bow(exp, metric="rf", top=4, protocol="label-free",
                                 store=f"sqlite:///{tmp_path / 'runs.sqlite'}")
    pred = decode_labels(result.details["predictions"]["pred"])
    gold = fake.labels("test")
    assert len(pred) == len(gold) and float(np.mean(pred == gold)) == pytest.approx(result.scores.micro_f1)
