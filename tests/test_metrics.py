"""Tests for dkw_core.metrics: hand-computed ABCD tables, zero counts, registry contract."""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse
from scipy.stats import chi2_contingency, entropy
from sklearn.metrics import mutual_info_score

from dkw_core.errors import DkwError, InputError
from dkw_core.metrics import (
    METRICS,
    PAPER_METRICS,
    SEARCH_EXCLUDED,
    CategoryStats,
    Metric,
    abcd,
    category_scores,
    get_metric,
)

BASES = ("rf", "tds", "ig", "gr", "chi2", "idf", "tf-dcf", "thd", "lo", "fw", "ctfidf", "lo-own")
ABCD_BASES = ("rf", "tds", "ig", "gr", "chi2", "idf")


# Tiny corpus, 2 categories, 3 words; rows = documents, columns = tf(w, d).
#   cat 0: d1 = [2, 1, 0], d2 = [1, 0, 0]
#   cat 1: d3 = [0, 1, 3], d4 = [0, 0, 1], d5 = [1, 0, 0]
TINY_COUNTS = np.array([[2, 1, 0], [1, 0, 0], [0, 1, 3], [0, 0, 1], [1, 0, 0]])
TINY_LABELS = np.array([0, 0, 1, 1, 1])
# The words each document itself contains (its own words; the counts above are substituted ones).
TINY_OWN = np.array([[1, 0, 0], [2, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]])


def tiny_stats() -> CategoryStats:
    return CategoryStats.from_matrices(scipy.sparse.csr_matrix(TINY_COUNTS), TINY_LABELS, 2,
                                       own=scipy.sparse.csr_matrix(TINY_OWN))


def table(a, b, c, d):
    """ABCD as four 0-d arrays."""
    return tuple(np.array(float(x)) for x in (a, b, c, d))


# --------------------------------------------------------------------------- CategoryStats


def test_from_matrices_counts_documents_and_occurrences_by_hand():
    stats = tiny_stats()
    # doc_freq: cat0 w0 in d1,d2 = 2; w1 in d1 = 1; w2 none = 0.
    #           cat1 w0 in d5 = 1;    w1 in d3 = 1; w2 in d3,d4 = 2.
    np.testing.assert_array_equal(stats.doc_freq, [[2, 1, 0], [1, 1, 2]])
    np.testing.assert_array_equal(stats.n_docs, [2, 3])
    # term_freq: cat0 w0 = 2+1 = 3, w1 = 1, w2 = 0; cat1 w0 = 1, w1 = 1, w2 = 3+1 = 4.
    np.testing.assert_array_equal(stats.term_freq, [[3, 1, 0], [1, 1, 4]])


def test_from_matrices_counts_own_word_documents_by_hand():
    # own_freq: cat0 w0 in d1,d2 = 2 (d2's count of 2 is one document); cat1 w1 in d4,d5 = 2, w2 in d3,d4 = 2.
    np.testing.assert_array_equal(tiny_stats().own_freq, [[2, 0, 0], [0, 2, 2]])
    without = CategoryStats.from_matrices(scipy.sparse.csr_matrix(TINY_COUNTS), TINY_LABELS, 2)
    assert without.own_freq is None


@pytest.mark.parametrize("own, message", [
    (np.ones((5, 2)), "own counts shape"),
    (-np.ones((5, 3)), "finite and non-negative"),
])
def test_from_matrices_refuses_bad_own_counts(own, message):
    with pytest.raises(InputError, match=message):
        CategoryStats.from_matrices(scipy.sparse.csr_matrix(TINY_COUNTS), TINY_LABELS, 2, own=own)


def test_own_freq_above_the_category_size_is_refused():
    with pytest.raises(InputError, match="own_freq exceeds"):
        CategoryStats(doc_freq=[[1, 0]], n_docs=[1], term_freq=[[1, 0]], own_freq=[[2, 0]])


def test_from_matrices_keeps_a_category_without_documents():
    stats = CategoryStats.from_matrices(scipy.sparse.csr_matrix(TINY_COUNTS), TINY_LABELS, 3)
    np.testing.assert_array_equal(stats.n_docs, [2, 3, 0])
    np.testing.assert_array_equal(stats.doc_freq[2], [0, 0, 0])


def test_abcd_table_from_stats_by_hand():
    a, b, c, d = tiny_stats().abcd_table()
    # N = 5; cat0 has 2 docs, cat1 has 3.
    np.testing.assert_array_equal(a, [[2, 1, 0], [1, 1, 2]])
    np.testing.assert_array_equal(b, [[0, 1, 2], [2, 2, 1]])  # n_docs - A
    np.testing.assert_array_equal(c, [[1, 1, 2], [2, 1, 0]])  # A of the other category
    np.testing.assert_array_equal(d, [[2, 2, 1], [0, 1, 2]])  # N - n_docs - C


@pytest.mark.parametrize(
    "labels, n_categories",
    [
        (np.array([0, 0, 1, 1]), 2),  # one label short
        (np.array([0, 0, 1, 1, 2]), 2),  # label out of range
        (np.array([0, 0, -1, 1, 1]), 2),  # negative label
        (np.array([0.0, 0.0, 1.0, 1.0, 1.0]), 2),  # float labels
        (TINY_LABELS, 0),  # no category
    ],
)
def test_from_matrices_rejects_bad_labels(labels, n_categories):
    with pytest.raises(InputError):
        CategoryStats.from_matrices(scipy.sparse.csr_matrix(TINY_COUNTS), labels, n_categories)


def test_from_matrices_rejects_negative_counts():
    with pytest.raises(InputError):
        CategoryStats.from_matrices(scipy.sparse.csr_matrix(-TINY_COUNTS), TINY_LABELS, 2)


def test_stats_rejects_doc_freq_above_category_size():
    with pytest.raises(InputError):
        CategoryStats(doc_freq=np.array([[3.0]]), n_docs=np.array([2.0]), term_freq=np.array([[3.0]]))


def test_stats_rejects_mismatched_shapes():
    with pytest.raises(InputError):
        CategoryStats(doc_freq=np.zeros((2, 3)), n_docs=np.array([1.0, 1.0]), term_freq=np.zeros((2, 4)))


# --------------------------------------------------------------------------- rf


def test_rf_hand_values():
    # A=3, C=0 -> log2(2 + 3/max(0,1)) = log2 5
    assert abcd("rf", *table(3, 1, 0, 4)) == pytest.approx(math.log2(5))
    # A=2, C=4 -> log2(2 + 2/4) = log2 2.5
    assert abcd("rf", *table(2, 0, 4, 1)) == pytest.approx(math.log2(2.5))
    # A=0 -> log2(2) = 1
    assert abcd("rf", *table(0, 5, 3, 2)) == pytest.approx(1.0)


def test_rf_from_category_stats_by_hand():
    # cat0: A=[2,1,0], C=[1,1,2] -> log2(2+2)=2, log2(2+1)=log2 3, log2 2 = 1
    # cat1: A=[1,1,2], C=[2,1,0] -> log2(2+1/2)=log2 2.5, log2 3, log2(2+2/1)=2
    expected = [[2.0, math.log2(3), 1.0], [math.log2(2.5), math.log2(3), 2.0]]
    np.testing.assert_allclose(category_scores("rf", tiny_stats()), expected)


# --------------------------------------------------------------------------- tds


def test_tds_hand_value():
    # A=2, B=0, C=1, D=2, N=5 -> (2/2) / (3/5) = 5/3
    assert abcd("tds", *table(2, 0, 1, 2)) == pytest.approx(5 / 3)
    # A=1, B=3, C=1, D=3, N=8 -> (1/4) / (2/8) = 1
    assert abcd("tds", *table(1, 3, 1, 3)) == pytest.approx(1.0)


def test_tds_empty_category_is_zero():
    # A+B = 0 -> 0 (documented)
    assert abcd("tds", *table(0, 0, 2, 3)) == 0.0


def test_tds_word_in_no_document_is_zero():
    # A+C = 0 -> 0 (documented)
    assert abcd("tds", *table(0, 2, 0, 3)) == 0.0


# --------------------------------------------------------------------------- ig / gr


def test_ig_perfect_association_is_ln2():
    # A=2, B=0, C=0, D=2, N=4: cells A and D each (2/4) ln(2*4/(2*2)) = 0.5 ln 2; B, C are 0.
    assert abcd("ig", *table(2, 0, 0, 2)) == pytest.approx(math.log(2))


def test_ig_hand_value():
    # A=3, B=1, C=1, D=3, N=8, every row and column sum 4:
    # A, D: (3/8) ln(3*8/16) = (3/8) ln 1.5 each;  B, C: (1/8) ln(8/16) = (1/8) ln 0.5 each
    expected = 0.75 * math.log(1.5) + 0.25 * math.log(0.5)
    assert abcd("ig", *table(3, 1, 1, 3)) == pytest.approx(expected)


def test_ig_is_zero_when_word_independent_of_category():
    # A=1, B=1, C=2, D=2: P(w|c) = P(w|not c) = 1/2 -> every X*N/(row*col) = 1 -> 0
    assert abcd("ig", *table(1, 1, 2, 2)) == pytest.approx(0.0, abs=1e-12)


def test_ig_is_mutual_information_of_presence_and_membership():
    # Expand A=4, B=2, C=1, D=5 into per-document (present, in_c) pairs and use sklearn.
    present = [1] * 4 + [0] * 2 + [1] * 1 + [0] * 5
    in_c = [1] * 4 + [1] * 2 + [0] * 1 + [0] * 5
    assert abcd("ig", *table(4, 2, 1, 5)) == pytest.approx(mutual_info_score(present, in_c))


def test_ig_symmetric_under_swapping_word_and_category_roles():
    # MI(w; c) = MI(c; w): transposing the 2x2 table (B <-> C) leaves ig unchanged,
    # and so does complementing the category (A<->C, B<->D).
    base = abcd("ig", *table(4, 2, 1, 5))
    assert abcd("ig", *table(4, 1, 2, 5)) == pytest.approx(base)
    assert abcd("ig", *table(1, 5, 4, 2)) == pytest.approx(base)


def test_gr_is_ig_over_category_entropy():
    a, b, c, d = 4, 2, 1, 5
    h_c = entropy([a + b, c + d])  # natural log, normalises counts
    assert abcd("gr", *table(a, b, c, d)) == pytest.approx(abcd("ig", *table(a, b, c, d)) / h_c)


def test_gr_perfect_association_balanced_is_one():
    # ig = ln 2 and H(c) = ln 2 -> 1
    assert abcd("gr", *table(2, 0, 0, 2)) == pytest.approx(1.0)


def test_gr_zero_category_entropy_is_zero():
    # every document in c: H(c) = 0 -> 0 (documented)
    assert abcd("gr", *table(3, 2, 0, 0)) == 0.0


# --------------------------------------------------------------------------- chi2


def test_chi2_hand_value():
    # A=3,B=1,C=1,D=3: 8*(9-1)^2 / (4*4*4*4) = 512/256 = 2
    assert abcd("chi2", *table(3, 1, 1, 3)) == pytest.approx(2.0)


@pytest.mark.parametrize("cells", [(3, 1, 1, 3), (10, 2, 7, 40), (1, 9, 5, 2), (6, 6, 6, 6)])
def test_chi2_equals_scipy_contingency_without_correction(cells):
    a, b, c, d = cells
    expected = chi2_contingency(np.array([[a, b], [c, d]]), correction=False).statistic
    assert abcd("chi2", *table(a, b, c, d)) == pytest.approx(expected)


def test_chi2_zero_denominator_is_zero():
    # word in no document: A+C = 0 -> 0 (documented)
    assert abcd("chi2", *table(0, 3, 0, 4)) == 0.0


# --------------------------------------------------------------------------- idf


def test_idf_hand_value():
    # N = 8, A+C = 2 -> ln 4
    assert abcd("idf", *table(1, 3, 1, 3)) == pytest.approx(math.log(4))


def test_idf_word_in_no_document_is_ln_n():
    # A+C = 0 -> ln(N/1) = ln 7 (documented)
    assert abcd("idf", *table(0, 3, 0, 4)) == pytest.approx(math.log(7))


def test_idf_is_same_for_every_category():
    scores = category_scores("idf", tiny_stats())
    # N = 5; w0 in 3 docs, w1 in 2, w2 in 2 -> ln(5/3), ln(5/2), ln(5/2) in both rows
    expected_row = [math.log(5 / 3), math.log(5 / 2), math.log(5 / 2)]
    np.testing.assert_allclose(scores, [expected_row, expected_row])


# --------------------------------------------------------------------------- tf-dcf


def test_tf_dcf_hand_values():
    # term_freq cat0 = [3,1,0], cat1 = [1,1,4]
    # cat0: w0 3/(1+ln(1+1)) , w1 1/(1+ln 2), w2 0/(1+ln 5) = 0
    # cat1: w0 1/(1+ln(1+3)), w1 1/(1+ln 2), w2 4/(1+ln(1+0)) = 4
    expected = [
        [3 / (1 + math.log(2)), 1 / (1 + math.log(2)), 0.0],
        [1 / (1 + math.log(4)), 1 / (1 + math.log(2)), 4.0],
    ]
    np.testing.assert_allclose(category_scores("tf-dcf", tiny_stats()), expected)


def test_tf_dcf_product_runs_over_all_other_categories():
    # 3 categories, tf = [e-1, e-1, 0] -> each factor 1+ln(e) = 2 or 1+ln 1 = 1
    # cat0: (e-1)/(2*1); cat1: (e-1)/(2*1); cat2: 0/(2*2) = 0
    e1 = math.e - 1
    stats = CategoryStats(
        doc_freq=np.array([[1.0], [1.0], [0.0]]),
        n_docs=np.array([1.0, 1.0, 1.0]),
        term_freq=np.array([[e1], [e1], [0.0]]),
    )
    np.testing.assert_allclose(category_scores("tf-dcf", stats), [[e1 / 2], [e1 / 2], [0.0]])


# --------------------------------------------------------------------------- thd


def test_thd_hand_values_with_average_ties_and_zero_rank():
    # term_freq cat0 = [3,1,0]: V_c = {w0,w1}; ascending ranks w1=1, w0=2, w2 absent=0 -> /2 = [1, .5, 0]
    # term_freq cat1 = [1,1,4]: w0,w1 tie on ranks 1,2 -> 1.5 each, w2 = 3 -> /3 = [.5, .5, 1]
    # global [4,2,4]: w1 = 1, w0,w2 tie on 2,3 -> 2.5 -> /3 = [5/6, 1/3, 5/6]
    expected = [
        [1 - 5 / 6, 0.5 - 1 / 3, 0 - 5 / 6],
        [0.5 - 5 / 6, 0.5 - 1 / 3, 1 - 5 / 6],
    ]
    np.testing.assert_allclose(category_scores("thd", tiny_stats()), expected)


def test_thd_most_frequent_word_gets_highest_rank():
    # ascending ranks: cat0 [1,5,2] -> ranks 1,3,2 over |V_c| = 3 -> [1/3, 3/3, 2/3];
    # cat1 [0,0,7] -> w2 rank 1 over |V_c| = 1, absent words 0 -> [0, 0, 1];
    # global [1,5,9] -> [1/3, 2/3, 3/3]
    stats = CategoryStats(
        doc_freq=np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 1.0]]),
        n_docs=np.array([1.0, 1.0]),
        term_freq=np.array([[1.0, 5.0, 2.0], [0.0, 0.0, 7.0]]),
    )
    expected = [[1 / 3 - 1 / 3, 1 - 2 / 3, 2 / 3 - 1], [0 - 1 / 3, 0 - 2 / 3, 1 - 1]]
    np.testing.assert_allclose(category_scores("thd", stats), expected)


# --------------------------------------------------------------------------- zeros everywhere


@pytest.mark.parametrize("name", BASES)
def test_every_metric_finite_with_empty_category_and_unused_word(name):
    # 3rd category has no documents, 4th word occurs in no document.
    counts = np.array([[2, 1, 0, 0], [1, 0, 0, 0], [0, 1, 3, 0], [0, 0, 1, 0]])
    stats = CategoryStats.from_matrices(scipy.sparse.csr_matrix(counts), np.array([0, 0, 1, 1]), 3,
                                        own=scipy.sparse.csr_matrix(counts[:, ::-1]))
    scores = category_scores(name, stats)
    assert scores.shape == (3, 4)
    assert scores.dtype == np.float64
    assert np.all(np.isfinite(scores))


@pytest.mark.parametrize("name", BASES)
def test_every_metric_finite_on_all_zero_stats(name):
    stats = CategoryStats(doc_freq=np.zeros((2, 3)), n_docs=np.zeros(2), term_freq=np.zeros((2, 3)),
                          own_freq=np.zeros((2, 3)))
    scores = category_scores(name, stats)
    assert np.all(np.isfinite(scores))


@pytest.mark.parametrize("name", ABCD_BASES)
def test_every_abcd_metric_finite_on_all_zero_table(name):
    assert np.isfinite(abcd(name, *table(0, 0, 0, 0)))


def test_word_in_every_document_of_the_only_category():
    # A = N = 5 (B = C = D = 0):
    # rf  log2(2 + 5/1) = log2 7;  tds (5/5)/(5/5) = 1;  ig 0 (only cell A, 5*5/(5*5) = 1, ln 1 = 0)
    # gr  H(c) = 0 -> 0;  chi2 denominator has C+D = 0 -> 0;  idf ln(5/5) = 0
    t = table(5, 0, 0, 0)
    assert abcd("rf", *t) == pytest.approx(math.log2(7))
    assert abcd("tds", *t) == pytest.approx(1.0)
    assert abcd("ig", *t) == pytest.approx(0.0, abs=1e-12)
    assert abcd("gr", *t) == 0.0
    assert abcd("chi2", *t) == 0.0
    assert abcd("idf", *t) == pytest.approx(0.0, abs=1e-12)


# --------------------------------------------------------------------------- abcd()


def test_abcd_broadcasts_arrays():
    a = np.array([[0], [1], [3]])  # (3, 1)
    c = np.array([[0, 1, 2, 4]])  # (1, 4)
    b, d = 2, 5
    result = abcd("rf", a, b, c, d)
    assert result.shape == (3, 4)
    # element (2, 3): A=3, C=4 -> log2(2 + 3/4)
    assert result[2, 3] == pytest.approx(math.log2(2.75))
    for i in range(3):
        for j in range(4):
            assert result[i, j] == pytest.approx(float(abcd("rf", *table(a[i, 0], b, c[0, j], d))))


def test_abcd_accepts_tf_variant_name_and_uses_its_base():
    assert abcd("tf-rf", *table(3, 1, 0, 4)) == pytest.approx(math.log2(5))


def test_abcd_rejects_non_abcd_metric():
    with pytest.raises(InputError, match="ABCD"):
        abcd("thd", *table(1, 1, 1, 1))


def test_abcd_rejects_negative_counts():
    with pytest.raises(InputError):
        abcd("rf", *table(-1, 1, 1, 1))


def test_category_scores_matches_abcd_on_stats_table():
    stats = tiny_stats()
    for name in ABCD_BASES:
        np.testing.assert_allclose(category_scores(name, stats), abcd(name, *stats.abcd_table()))


# --------------------------------------------------------------------------- registry


def test_registry_has_twenty_four_metrics_bases_first():
    names = list(METRICS)
    assert len(names) == 24
    assert names[:12] == list(BASES)
    assert names[12:] == [f"tf-{b}" for b in BASES]


def test_paper_metrics_are_registered():
    assert len(PAPER_METRICS) == 13
    assert set(PAPER_METRICS) <= set(METRICS)
    assert not {"lo", "tf-lo"} & set(PAPER_METRICS)  # dkw's addition, not in the paper's tables
    assert not {"fw", "tf-fw", "ctfidf", "tf-ctfidf"} & set(PAPER_METRICS)  # the peers, not the paper's
    assert not {"lo", "tf-lo", "lo-own", "tf-lo-own"} & set(PAPER_METRICS)  # dkw's additions, not the paper's
    assert set(SEARCH_EXCLUDED) == {"chi2", "tf-chi2"}


def test_tf_flags_and_bases():
    for name, metric in METRICS.items():
        assert isinstance(metric, Metric)
        assert metric.name == name
        if name in BASES:
            assert metric.tf is False and metric.base == name
        else:
            assert metric.tf is True and name == f"tf-{metric.base}"
    assert METRICS["tf-dcf"].tf is False  # a base metric despite its name
    assert METRICS["tf-tf-dcf"].base == "tf-dcf"


def test_label_free_only_for_idf():
    assert {n for n, m in METRICS.items() if m.label_free} == {"idf", "tf-idf"}


def test_every_metric_documented():
    for metric in METRICS.values():
        assert metric.description and metric.reference


def test_tf_variant_scores_equal_base_scores():
    stats = tiny_stats()
    for base in BASES:
        np.testing.assert_array_equal(category_scores(f"tf-{base}", stats), category_scores(base, stats))


def test_unknown_metric_lists_valid_names():
    with pytest.raises(InputError) as info:
        get_metric("bm25")
    assert "bm25" in str(info.value) and "tf-rf" in str(info.value)
    assert isinstance(info.value, DkwError)


def test_category_scores_unknown_metric_raises_input_error():
    with pytest.raises(InputError):
        category_scores("nope", tiny_stats())


# --------------------------------------------------------------------------- lo (Fightin' Words on A vs C)


def direct_lo(stats: CategoryStats, counts: np.ndarray | None = None) -> np.ndarray:
    """Monroe et al. 2008's z-score of A against C written out cell by cell, prior from A + C
    (``counts``: another (categories x words) document count in A's place, e.g. own_freq)."""
    a = stats.doc_freq if counts is None else np.asarray(counts, dtype=np.float64)
    c = a.sum(axis=0, keepdims=True) - a
    n_cat, n_words = a.shape
    df = [float(a[:, w].sum()) for w in range(n_words)]  # A + C: documents containing w
    total = sum(df)
    alpha0 = 0.01 * total
    out = np.zeros((n_cat, n_words))
    for i in range(n_cat):
        n_i = float(a[i].sum())
        n_rest = float(c[i].sum())
        for w in range(n_words):
            alpha = alpha0 * df[w] / total
            y_i, y_j = float(a[i, w]), float(c[i, w])
            delta = (math.log((y_i + alpha) / (n_i + alpha0 - y_i - alpha))
                     - math.log((y_j + alpha) / (n_rest + alpha0 - y_j - alpha)))
            out[i, w] = delta / math.sqrt(1 / (y_i + alpha) + 1 / (y_j + alpha))
    return out


def test_lo_equals_direct_fightin_words_on_document_counts():
    stats = tiny_stats()
    got = category_scores("lo", stats)
    np.testing.assert_allclose(got, direct_lo(stats), rtol=1e-12)
    # Word 0 is in both of category 0's documents and in 1 of 3 of category 1's: over-represented in 0.
    assert got[0, 0] > 0 > got[1, 0]
    assert not get_metric("lo").label_free and get_metric("tf-lo").base == "lo"


# --------------------------------------------------------------------------- fw, ctfidf (the peers, on occurrences)


def direct_fw(stats: CategoryStats) -> np.ndarray:
    """Monroe et al. 2008's z-score of tf(w, c) against the other categories' occurrences, cell by
    cell, prior from the overall occurrences."""
    tf = stats.term_freq
    n_cat, n_words = tf.shape
    freq = [sum(float(tf[c, w]) for c in range(n_cat)) for w in range(n_words)]
    total = sum(freq)
    alpha0 = 0.01 * total
    out = np.zeros((n_cat, n_words))
    for i in range(n_cat):
        n_i = sum(float(tf[i, w]) for w in range(n_words))
        n_rest = total - n_i
        for w in range(n_words):
            alpha = alpha0 * freq[w] / total
            y_i = float(tf[i, w])
            y_j = freq[w] - y_i
            delta = (math.log((y_i + alpha) / (n_i + alpha0 - y_i - alpha))
                     - math.log((y_j + alpha) / (n_rest + alpha0 - y_j - alpha)))
            out[i, w] = delta / math.sqrt(1 / (y_i + alpha) + 1 / (y_j + alpha))
    return out


def direct_ctfidf(stats: CategoryStats) -> np.ndarray:
    """BERTopic's c-TF-IDF, tf(w, c) / |c| * ln(1 + average class size / f(w)), cell by cell."""
    tf = stats.term_freq
    n_cat, n_words = tf.shape
    size = [sum(float(tf[c, w]) for w in range(n_words)) for c in range(n_cat)]
    avg = sum(size) / n_cat
    out = np.zeros((n_cat, n_words))
    for c in range(n_cat):
        for w in range(n_words):
            f = sum(float(tf[k, w]) for k in range(n_cat))
            out[c, w] = tf[c, w] / size[c] * math.log(1 + avg / f) if size[c] and f else 0.0
    return out


def test_fw_equals_direct_fightin_words_on_occurrences():
    stats = tiny_stats()
    got = category_scores("fw", stats)
    np.testing.assert_allclose(got, direct_fw(stats), rtol=1e-12)
    # occurrences, not documents: lo and fw differ on the tiny table (w2 occurs 4 times in 2 documents)
    assert not np.allclose(got, category_scores("lo", stats))
    assert got[1, 2] > 0 > got[0, 2]
    assert get_metric("tf-fw").base == "fw" and not get_metric("fw").label_free


def test_ctfidf_equals_direct_class_based_tfidf_on_occurrences():
    stats = tiny_stats()
    got = category_scores("ctfidf", stats)
    np.testing.assert_allclose(got, direct_ctfidf(stats), rtol=1e-12)
    assert got[0, 2] == 0.0 and got[1, 2] > got[1, 0]
    assert get_metric("tf-ctfidf").base == "ctfidf" and not get_metric("ctfidf").label_free


# --------------------------------------------------------------------------- lo-own (latent and own words)


def direct_lo_own(stats: CategoryStats) -> np.ndarray:
    """docs/method.md §11 written out: each view's z-scores over the square root of their mean
    square on the words it counts, summed, over √2."""
    out = np.zeros(stats.doc_freq.shape)
    for counts in (stats.doc_freq, stats.own_freq):
        z = direct_lo(stats, counts)
        seen = [w for w in range(z.shape[1]) if counts[:, w].sum() > 0]
        phi = sum(z[i, w] ** 2 for i in range(z.shape[0]) for w in seen) / (z.shape[0] * len(seen))
        out += z / math.sqrt(phi)
    return out / math.sqrt(2)


def test_lo_own_equals_direct_computation():
    stats = tiny_stats()
    got = category_scores("lo-own", stats)
    np.testing.assert_allclose(got, direct_lo_own(stats), rtol=1e-12)
    # Word 1 is reached by one document of each category but occurs only among category 1's own
    # words: lo-own scores it higher for category 1 than lo does.
    assert got[1, 1] > category_scores("lo", stats)[1, 1]
    assert not get_metric("lo-own").label_free and get_metric("tf-lo-own").base == "lo-own"


def test_lo_own_drops_a_word_only_reached_through_a_neighbour():
    """Two words equally reached by category 0's documents (latent evidence alike); only the
    first occurs in them. lo equals them, lo-own ranks the own word first (the cts → sedan case)."""
    counts = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 0, 1]])
    own = np.array([[1, 0, 0], [1, 0, 0], [0, 0, 1], [0, 0, 1]])
    stats = CategoryStats.from_matrices(scipy.sparse.csr_matrix(counts), np.array([0, 0, 1, 1]), 2,
                                        own=scipy.sparse.csr_matrix(own))
    lo, lo_own = category_scores("lo", stats), category_scores("lo-own", stats)
    assert lo[0, 0] == lo[0, 1]
    assert lo_own[0, 0] > lo_own[0, 1] > 0


def test_lo_own_needs_own_word_counts():
    stats = CategoryStats.from_matrices(scipy.sparse.csr_matrix(TINY_COUNTS), TINY_LABELS, 2)
    with pytest.raises(InputError, match="own-word document counts"):
        category_scores("lo-own", stats)


def test_lo_own_of_statistics_without_any_count_is_zero():
    stats = CategoryStats(doc_freq=np.zeros((2, 3)), n_docs=[1, 1], term_freq=np.zeros((2, 3)),
                          own_freq=np.zeros((2, 3)))
    np.testing.assert_array_equal(category_scores("lo-own", stats), np.zeros((2, 3)))
