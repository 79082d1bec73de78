"""Batched exact K-nearest search."""
import numpy as np

from dkw_core.neighbours import _exact, nearest


def test_matches_brute_force_on_random_data():
    rng = np.random.default_rng(1)
    m = rng.standard_normal((3000, 16)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.standard_normal((700, 16)).astype(np.float32)
    idx, sims = nearest(q, m, 40, batch_size=256)
    qn = q / np.linalg.norm(q, axis=1, keepdims=True)
    full = qn @ m.T
    expect = np.argsort(-full, axis=1, kind="stable")[:, :40]
    np.testing.assert_array_equal(idx, expect)
    np.testing.assert_allclose(sims, np.take_along_axis(full, expect, axis=1), rtol=1e-5)


def test_sorted_by_similarity_ties_by_index():
    m = np.eye(3, dtype=np.float32)
    idx, sims = nearest(np.array([[1, 1, 0]], dtype=np.float32), m, 3)
    assert idx.tolist() == [[0, 1, 2]]
    assert sims[0, 0] == sims[0, 1] > sims[0, 2]


def test_k_larger_than_vocabulary_is_capped():
    m = np.eye(2, dtype=np.float32)
    idx, _ = nearest(np.ones((1, 2), dtype=np.float32), m, 10)
    assert idx.shape == (1, 2)


def test_exact_fallback_agrees_with_fast_path():
    rng = np.random.default_rng(3)
    s = rng.standard_normal((50, 2000)).astype(np.float32)
    s[:5] = 0.5  # constant rows: the threshold keeps every column
    from dkw_core.neighbours import _top_k

    a, av = _top_k(s, 30)
    b, bv = _exact(s, 30)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(av, bv)
