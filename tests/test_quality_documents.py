"""The measures of a method's document keywords (topic and category), each against a count by hand,
and a method that gives every document its category's list, which must score as chance on topic."""
from __future__ import annotations

import math

import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.document_measures import (
    DocumentQuality,
    document_quality,
    expected_reciprocal_rank,
    keyword_exclusivity,
    keyword_terms,
    literal_ranks,
    percentile_ci,
    topic_ranks,
    within_category_jaccard,
)

WORDS = {  # a toy vector model: two topics, sport along x, space along y
    "ball": (1.0, 0.0, 0.0), "goal": (0.9, 0.1, 0.0), "team": (0.8, 0.0, 0.2),
    "rocket": (0.0, 1.0, 0.0), "orbit": (0.1, 0.9, 0.0), "moon": (0.0, 0.8, 0.2),
    "red": (0.0, 0.0, 1.0), "blue": (0.2, 0.2, 0.9),
}


class ToyVectors:
    """The two calls the measures make of :class:`dkw_core.vectors.Vectors`: Algorithm 1's units
    (every known token, in order) and their normalised running sum."""

    dim = 3
    keys = list(WORDS)

    def units(self, tokens):
        return tuple(self.keys.index(t.lower()) for t in tokens if t.lower() in WORDS)

    def compose(self, unit_lists):
        out = np.zeros((len(unit_lists), 3))
        for r, units in enumerate(unit_lists):
            for u in units:
                acc = out[r] + np.asarray(WORDS[self.keys[u]])
                out[r] = acc / np.linalg.norm(acc)
        return out


def H(n):
    return sum(1 / i for i in range(1, n + 1))


def test_the_expected_reciprocal_rank_under_random_tie_breaking_by_hand():
    rr, top1 = expected_reciprocal_rank(np.array([0, 1, 0, 2]), np.array([1, 1, 3, 2]))
    assert rr == pytest.approx([1, 1 / 2, (1 + 1 / 2 + 1 / 3) / 3, (1 / 3 + 1 / 4) / 2])
    assert top1 == pytest.approx([1, 0, 1 / 3, 0])
    with pytest.raises(InputError, match="itself"):
        expected_reciprocal_rank(np.array([0]), np.array([0]))


def test_topic_ranks_by_the_cosine_within_the_category_by_hand():
    # three sport documents and one space document (a category of one decides nothing: NaN)
    docs = np.array([[1, 0, 0], [0.6, 0.8, 0], [0, 0, 1], [0, 1, 0]], dtype=float)
    query = np.array([[0.6, 0.8, 0],  # doc 0's keywords point at doc 1: doc 0 ranks 2nd (0.6 < 1.0)
                      [0.6, 0.8, 0],  # doc 1: cos 1.0 with itself, first
                      [0, 0, 0],      # doc 2: no known keyword, ties with all three
                      [1, 0, 0]], dtype=float)
    rr, top1 = topic_ranks(query, docs, ["sport", "sport", "sport", "space"])
    assert rr[:3] == pytest.approx([1 / 2, 1, H(3) / 3]) and math.isnan(rr[3])
    assert top1[:3] == pytest.approx([0, 1, 1 / 3]) and math.isnan(top1[3])


def test_literal_ranks_count_the_keywords_in_each_text_and_ties_do_not_flatter():
    counts = np.array([[2, 2, 0],   # doc 0 tied with doc 1 at the top: E[1/R] = (1 + 1/2) / 2
                       [3, 1, 0],   # doc 1: doc 0 holds more of its keywords: rank 2
                       [0, 0, 0]])  # doc 2: its keywords occur nowhere, a three-way tie
    rr, top1 = literal_ranks(counts, ["a", "a", "a"])
    assert rr == pytest.approx([3 / 4, 1 / 2, H(3) / 3])
    assert top1 == pytest.approx([1 / 2, 0, 1 / 3])


def test_within_category_jaccard_by_hand():
    got = within_category_jaccard([["x", "y"], ["y", "z"], ["x", "y"], ["q"]], ["a", "a", "a", "b"])
    # J(0,1) = 1/3, J(0,2) = 1, J(1,2) = 1/3
    assert got[:3] == pytest.approx([(1 / 3 + 1) / 2, 1 / 3, (1 + 1 / 3) / 2]) and math.isnan(got[3])


def test_keyword_exclusivity_counts_a_phrase_where_all_its_words_occur_and_absent_as_zero():
    train = [["nippon", "steel", "plant"], ["steel", "price"], ["nippon", "bank"], ["steel", "nippon"]]
    labels = ["acq", "earn", "acq", "earn"]
    got = keyword_exclusivity(["Nippon Steel", "steel", "volcano", "the"], train, labels)
    assert got["Nippon Steel"] == {"acq": 1 / 2, "earn": 1 / 2}
    assert got["steel"] == pytest.approx({"acq": 1 / 3, "earn": 2 / 3})
    assert got["volcano"] == {} and got["the"] == {}  # in no training document / no content word
    assert keyword_terms("Nippon Steel's 1987 plant") == ("nippon", "steel", "plant")


TEST_IDS = ["s1", "s2", "s3", "p1", "p2"]
TEST_CATS = ["sport", "sport", "sport", "space", "space"]
TEST_TOKENS = [["ball", "red"], ["team", "goal"], ["team", "blue"], ["rocket", "orbit"], ["moon", "red"]]
TRAIN_IDS = ["t1", "t2", "t3", "t4"]
TRAIN_TOKENS = [["ball", "team"], ["goal", "ball"], ["rocket", "moon"], ["orbit", "rocket"]]
TRAIN_LABELS = ["sport", "sport", "space", "space"]


def measure(lists, **kw):
    return document_quality(lists, ids=TEST_IDS, categories=TEST_CATS, tokens=TEST_TOKENS, train_tokens=TRAIN_TOKENS,
                            train_labels=TRAIN_LABELS, vectors=ToyVectors(), **kw)


def test_a_method_giving_every_document_its_categorys_list_scores_chance_on_topic():
    same = {"s1": ["ball", "goal"], "s2": ["ball", "goal"], "s3": ["ball", "goal"],
            "p1": ["rocket", "moon"], "p2": ["rocket", "moon"]}
    got = measure(same)
    # per category of n documents: MRR H(n)/n and top-1 1/n, in both versions, whatever the ties
    expected_mrr = (3 * H(3) / 3 + 2 * H(2) / 2) / 5
    for rr, top1 in ((got.topic_rr, got.topic_top1), (got.literal_rr, got.literal_top1)):
        assert np.mean(rr) == pytest.approx(expected_mrr)
        assert np.mean(top1) == pytest.approx(2 / 5)
    assert got.jaccard == pytest.approx([1.0] * 5)


def test_a_documents_own_words_find_it_and_every_measure_by_hand():
    own = {"s1": ["red", "ball"], "s2": ["team", "goal"], "s3": ["team", "blue"], "p1": ["orbit"], "p2": ["moon", "red"]}
    got = measure(own, train_lists={"t1": ["ball"], "t2": ["goal"], "t3": ["rocket"], "t4": ["orbit"]},
                  train_ids=TRAIN_IDS)
    assert isinstance(got, DocumentQuality)
    assert got.topic_top1 == pytest.approx([1, 1, 1, 1, 1]) and got.topic_rr == pytest.approx([1] * 5)
    # literal: s1's "red" and "ball" occur in s1 only; s3's "team" and "blue" in s3 (2), "team" in s2 (1)
    assert got.literal_rr == pytest.approx([1] * 5)
    assert got.occurrence == pytest.approx([1, 1, 1, 1, 1])
    # exclusivity: red, blue in no training document -> 0; ball 2/2 sport; team 1/1; goal 1/1; orbit, moon space
    assert got.exclusivity == pytest.approx([1 / 2, 1, 1 / 2, 1, 1 / 2])
    assert got.jaccard == pytest.approx([0, 1 / 6, 1 / 6, 0, 0])  # s2 and s3 share team: 1/3
    s = got.summary(ci=False)
    assert s["micro_f1"]["value"] == 1.0 and s["macro_f1"]["value"] == 1.0
    assert s["exclusivity"]["value"] == pytest.approx((1 / 2 + 1 + 1 / 2 + 1 + 1 / 2) / 5)
    assert "topic MRR (vectors): 1.000" in got.describe() and "exclusivity" in got.describe()


def test_keywords_pointing_at_another_document_rank_it_below_and_the_classifier_reads_only_keywords():
    swapped = {"s1": ["team"], "s2": ["ball"], "s3": ["goal"], "p1": ["moon"], "p2": ["orbit"]}
    got = measure(swapped, train_lists={"t1": ["rocket"], "t2": ["orbit"], "t3": ["ball"], "t4": ["goal"]},
                  train_ids=TRAIN_IDS)
    assert got.occurrence == pytest.approx([0, 0, 0, 0, 0])
    assert got.literal_top1[0] == 0  # "team" occurs in s2 only
    # training keywords point the other way round: every test document is classified wrong
    assert got.summary(ci=False)["micro_f1"]["value"] == 0.0


def test_the_bootstrap_ci_brackets_the_mean_and_leaves_nan_out():
    lo, hi = percentile_ci(np.array([0.0, 1.0] * 50 + [np.nan]))
    assert lo < 0.5 < hi and hi - lo < 0.3
    assert math.isnan(percentile_ci(np.array([np.nan]))[0])


@pytest.mark.parametrize("kwargs, message", [
    ({"lists": {"s1": ["ball"]}}, "no keyword list for 4 of the 5"),
    ({"lists": {d: ["ball"] for d in TEST_IDS}, "top": 0}, "top must be at least 1"),
])
def test_bad_document_lists_are_one_input_error_line(kwargs, message):
    lists = kwargs.pop("lists")
    with pytest.raises(InputError, match=message) as err:
        measure(lists, **kwargs)
    assert "\n" not in str(err.value)
