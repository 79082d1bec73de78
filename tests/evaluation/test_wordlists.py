"""A method's word lists and their quality, F1 included: the same numbers as the evaluation's own
code and :func:`dkw_core.quality.list_quality` give on the tiny topic corpus (conftest)."""
from __future__ import annotations

import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.baselines import bow_baseline
from dkw_core.evaluation.protocols import evaluate_model
from dkw_core.evaluation.wordlists import (
    category_lists,
    document_lists,
    method_f1,
    method_quality,
    reference_tokens,
)
from dkw_core.keywords import BaselineModel, KeywordModel
from dkw_core.keywords.categories import category_keywords
from dkw_core.quality import REFERENCE, list_quality

PROTOCOL = "label-free"  # deployable; the tiny corpus is too small for the calibrated posterior of top-1


@pytest.fixture(scope="module")
def latent(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


@pytest.fixture(scope="module")
def own(topic_corpus):
    return BaselineModel.prepare(topic_corpus, cache=False)


def test_reference_tokens_are_the_splits_content_words(topic_corpus):
    tokens = reference_tokens(topic_corpus)
    assert len(tokens.test) == 2 and len(tokens.train) == len(tokens.train_labels) == 6
    assert ["coach", "praised", "team", "league"] in tokens.test
    assert sorted(tokens.train_labels) == ["space"] * 3 + ["sport"] * 3


@pytest.mark.parametrize("which, metric, k", [("latent", "rf", 3), ("own", "fw", None), ("own", "ctfidf", None)])
def test_method_quality_is_list_quality_of_the_methods_lists_with_its_evaluated_f1(request, topic_corpus, which,
                                                                                  metric, k):
    model = request.getfixturevalue(which)
    got = method_quality(model, metric=metric, k=k, top=3, protocol=PROTOCOL)
    want_lists = {c: [w.word for w in category_keywords(model, c, metric=metric, k=k, top=3, phrases=0)]
                  for c in model.categories}
    assert got.lists == {c: ws for c, ws in want_lists.items() if ws} == category_lists(model, metric=metric, k=k,
                                                                                        top=3)
    if which == "own":
        scores, _, _ = bow_baseline(model, metric=metric, top=3, protocol=PROTOCOL)
        assert "binary keyword sets" in got.quality.f1.means
    else:
        scores, _, _ = evaluate_model(model, metric=metric, k=k, top=3, protocol=PROTOCOL)
        assert "keyword-vector sums" in got.quality.f1.means and "K=3" in got.quality.f1.means
    f1 = got.quality.f1
    assert (f1.micro_f1, f1.macro_f1, f1.top, f1.protocol) == (scores.micro_f1, scores.macro_f1, 3, PROTOCOL)
    tokens = reference_tokens(topic_corpus)
    plain = list_quality(got.lists, tokens.test, tokens.train, tokens.train_labels, topn=3)
    assert (got.quality.npmi, got.quality.exclusivity, got.quality.absent_share) == pytest.approx(
        (plain.npmi, plain.exclusivity, plain.absent_share), nan_ok=True)
    assert got.quality.reference == REFERENCE
    assert f"micro-F1 {100 * scores.micro_f1:.2f} of the test documents'" in got.quality.describe()


def test_document_lists_are_the_test_documents_keywords_with_their_gold_category(latent):
    words, gold = document_lists(latent, metric="ig", k=3, top=2, protocol=PROTOCOL)
    for doc in latent.corpus.test:
        assert words[doc.id] == [kw.word for kw in latent.keywords(doc.id, metric="ig", k=3, top=2,
                                                                   protocol=PROTOCOL)]
        assert gold[doc.id] == doc.label
    got = method_quality(latent, metric="ig", k=3, lists="documents", top=2, protocol=PROTOCOL, f1=False)
    assert got.lists == words and got.quality.f1 is None
    assert got.quality.exclusivity_per_list.keys() == words.keys()


def test_the_f1_of_own_words_is_the_bag_of_words_baseline_not_a_vector_sum(own):
    f1 = method_f1(own, metric="fw", k=90, top=2, protocol=PROTOCOL)  # K is ignored for own words
    scores, _, _ = bow_baseline(own, metric="fw", top=2, protocol=PROTOCOL)
    assert f1.micro_f1 == scores.micro_f1 and "own-word keywords" in f1.means


def test_an_unknown_kind_of_list_is_one_input_error(latent):
    with pytest.raises(InputError, match="unknown kind of word lists 'words'"):
        method_quality(latent, metric="rf", k=3, lists="words")
