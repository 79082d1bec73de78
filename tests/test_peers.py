"""Tests for dkw_core.peers: Fightin' Words and c-TF-IDF against direct loop computations."""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse

from dkw_core.errors import InputError
from dkw_core.peers import DEFAULT_PRIOR_FRACTION, ctfidf, fightin_words

# 3 categories x 5 words; word 0 is category 0's own word, word 4 is common to all.
COUNTS = [
    [9, 1, 0, 2, 5],
    [0, 6, 1, 1, 5],
    [1, 0, 7, 3, 4],
]


def direct_fightin_words(counts, alpha0):
    """Monroe et al. 2008 Eqs. 16-22, category against the pooled rest, with plain loops."""
    n_cat, n_words = len(counts), len(counts[0])
    word_total = [sum(counts[c][w] for c in range(n_cat)) for w in range(n_words)]
    n = sum(word_total)
    alpha = [alpha0 * word_total[w] / n for w in range(n_words)]
    out = []
    for i in range(n_cat):
        n_i = sum(counts[i])
        n_j = n - n_i
        row = []
        for w in range(n_words):
            y_i = counts[i][w]
            y_j = word_total[w] - y_i
            delta = (math.log((y_i + alpha[w]) / (n_i + alpha0 - y_i - alpha[w]))
                     - math.log((y_j + alpha[w]) / (n_j + alpha0 - y_j - alpha[w])))
            var = 1 / (y_i + alpha[w]) + 1 / (y_j + alpha[w])
            row.append(delta / math.sqrt(var))
        out.append(row)
    return out


def direct_ctfidf(counts):
    """BERTopic's c-TF-IDF tf(w,c)/|c| * ln(1 + A/f(w)) with plain loops."""
    n_cat, n_words = len(counts), len(counts[0])
    avg = sum(sum(row) for row in counts) / n_cat
    out = []
    for c in range(n_cat):
        size = sum(counts[c])
        row = []
        for w in range(n_words):
            f_w = sum(counts[k][w] for k in range(n_cat))
            row.append(counts[c][w] / size * math.log(1 + avg / f_w))
        out.append(row)
    return out


def test_fightin_words_equals_direct_computation_default_prior():
    n = sum(map(sum, COUNTS))
    expected = direct_fightin_words(COUNTS, DEFAULT_PRIOR_FRACTION * n)
    np.testing.assert_allclose(fightin_words(np.array(COUNTS)), expected, rtol=1e-12)


def test_fightin_words_equals_direct_computation_given_alpha0_and_sparse_input():
    expected = direct_fightin_words(COUNTS, 10.0)
    got = fightin_words(scipy.sparse.csr_matrix(COUNTS), alpha0=10.0)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_fightin_words_given_prior_is_normalised_to_frequencies():
    totals = np.array(COUNTS).sum(axis=0)
    np.testing.assert_allclose(fightin_words(COUNTS, prior=3 * totals, alpha0=5.0),
                               fightin_words(COUNTS, alpha0=5.0), rtol=1e-12)


def test_fightin_words_sign_and_ranking():
    z = fightin_words(COUNTS)
    # Each category's own word ranks first, and a word it lacks scores negative.
    assert list(z.argmax(axis=1)) == [0, 1, 2]
    assert z[0, 0] > 0 and z[1, 0] < 0 and z[0, 2] < 0
    # Two identical categories: every score 0 (nothing distinguishes them).
    np.testing.assert_allclose(fightin_words([[3, 1, 2], [3, 1, 2]]), 0.0, atol=1e-12)


def test_fightin_words_zero_rules_and_bad_inputs():
    z = fightin_words([[2, 0, 1], [0, 0, 3]])  # word 1 has no count anywhere
    assert np.all(np.isfinite(z)) and np.all(z[:, 1] == 0)
    np.testing.assert_array_equal(fightin_words([[0, 0], [0, 0]]), 0.0)
    assert np.all(np.isfinite(fightin_words([[4], [2]])))  # one-word vocabulary: undefined → 0
    with pytest.raises(InputError):
        fightin_words([[1, -1]])
    with pytest.raises(InputError):
        fightin_words([[1, 2]], prior=[0, 1])
    with pytest.raises(InputError):
        fightin_words([[1, 2]], alpha0=0)
    with pytest.raises(InputError):
        fightin_words([1, 2])


def test_ctfidf_equals_direct_computation():
    np.testing.assert_allclose(ctfidf(np.array(COUNTS)), direct_ctfidf(COUNTS), rtol=1e-12)
    np.testing.assert_allclose(ctfidf(scipy.sparse.csr_matrix(COUNTS)), direct_ctfidf(COUNTS), rtol=1e-12)


def test_ctfidf_sign_ranking_and_zero_rules():
    w = ctfidf(COUNTS)
    assert np.all(w >= 0)
    assert list(w.argmax(axis=1)) == [0, 1, 2]
    # An empty class and an unused word score 0, never NaN.
    w = ctfidf([[0, 0, 0], [1, 0, 2]])
    np.testing.assert_array_equal(w[0], 0.0)
    assert w[1, 1] == 0 and np.all(np.isfinite(w))
