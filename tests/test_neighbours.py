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


def test_a_row_exact_search_gives_a_row_the_same_bits_alone_and_in_any_batch():
    rng = np.random.default_rng(5)
    m = rng.standard_normal((4000, 50)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.standard_normal((300, 50)).astype(np.float32)
    bias = rng.uniform(0, 0.3, 4000).astype(np.float32)
    for extra in ({}, {"bias": bias, "scale": 2.0}):
        idx, sims = nearest(q, m, 30, row_exact=True, **extra)
        plain, _ = nearest(q, m, 30, **extra)
        assert (np.sort(idx, axis=1) != np.sort(plain, axis=1)).any(axis=1).mean() < 0.05  # the same words, near-ties aside
        for rows in (slice(7, 8), slice(3, 70), np.array([250, 5, 77])):
            one_idx, one_sims = nearest(q[rows], m, 30, row_exact=True, **extra)
            np.testing.assert_array_equal(one_idx, idx[rows])
            np.testing.assert_array_equal(one_sims, sims[rows])  # bit for bit
    # the plain float32 search does not have that property (why row_exact exists)
    alone = np.vstack([nearest(q[i:i + 1], m, 30)[1] for i in range(40)])
    assert (alone != nearest(q[:40], m, 30)[1]).any()


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


# -- hubness-aware retrieval --------------------------------------------------------------------
import pytest  # noqa: E402

from dkw_core.errors import InputError  # noqa: E402
from dkw_core.neighbours import NeighbourSearch, abtt_basis, abtt_transform, csls_radius, neighbours_spec, parse_neighbours  # noqa: E402


def planted_hub(seed: int = 0):
    """A vocabulary with a planted hub: "hub" and five generic mates form a dense region that
    is moderately close (cos ~0.5) to every topic; four topics have six close words each and
    one specific, isolated word (cos ~0.45 to the topic's queries). Twenty queries, five per topic."""
    rng = np.random.default_rng(seed)
    dim = 24
    words, vecs = [], []
    base = np.zeros(dim)
    base[:4] = 0.5
    words.append("hub")
    vecs.append(base + 0.05 * np.eye(dim)[8])
    for i in range(5):
        words.append(f"generic{i}")
        vecs.append(base + 0.2 * np.eye(dim)[9 + i])
    for t in range(4):
        for i in range(6):
            v = np.zeros(dim)
            v[t], v[14 + i % 4] = 2.0, 0.6 + 0.1 * i
            words.append(f"t{t}w{i}")
            vecs.append(v + rng.normal(0, 0.02, dim))
        v = np.zeros(dim)
        v[t], v[18 + t] = 0.45, 0.85
        words.append(f"t{t}rare")
        vecs.append(v)
    m = np.array(vecs, dtype=np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    queries = []
    for t in range(4):
        for j in range(5):
            q = np.zeros(dim)
            q[t], q[14 + j % 4] = 1.0, 0.2
            queries.append(q + rng.normal(0, 0.02, dim))
    return words, m, np.array(queries, dtype=np.float32)


def test_planted_hub_is_a_neighbour_of_every_query_under_cosine():
    words, m, q = planted_hub()
    idx, _ = NeighbourSearch(m, "cosine").nearest(q, 7)
    assert (idx == words.index("hub")).any(axis=1).all()
    # the plain-cosine search is the paper's nearest()
    np.testing.assert_array_equal(idx, nearest(q, m, 7)[0])


@pytest.mark.parametrize("spec", ["csls-k3", "csls-k10", "abtt-d0", "abtt-d1"])
def test_planted_hub_is_demoted_by_every_hubness_aware_variant(spec):
    words, m, q = planted_hub()
    idx, _ = NeighbourSearch(m, spec).nearest(q, 7)
    assert not (idx == words.index("hub")).any()
    # the topic's close words stay; under CSLS its specific word takes the freed slot
    for r, row in enumerate(idx):
        topic = r // 5
        got = {words[i] for i in row}
        assert {f"t{topic}w{i}" for i in range(6)} <= got
        if spec.startswith("csls"):
            assert f"t{topic}rare" in got


def test_csls_scores_match_a_direct_computation():
    rng = np.random.default_rng(5)
    m = rng.standard_normal((400, 12)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.standard_normal((90, 12)).astype(np.float32)
    k_csls, k = 10, 25
    # direct: r_w = mean cosine of w to its 10 nearest other words; score = 2 cos(q, w) - r_w
    words_cos = (m.astype(np.float64) @ m.T.astype(np.float64))
    np.fill_diagonal(words_cos, -np.inf)
    r = np.sort(words_cos, axis=1)[:, ::-1][:, :k_csls].mean(axis=1)
    qn = q.astype(np.float64) / np.linalg.norm(q, axis=1, keepdims=True)
    direct = 2 * qn @ m.T.astype(np.float64) - r[None, :]
    search = NeighbourSearch(m, f"csls-k{k_csls}")
    np.testing.assert_allclose(search.bias, r, atol=1e-5)
    np.testing.assert_allclose(search.scores(q), direct, atol=1e-5)
    idx, scores = search.nearest(q, k, batch_size=32)
    expect = np.argsort(-direct, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(idx, expect)
    np.testing.assert_allclose(scores, np.take_along_axis(direct, expect, axis=1), atol=1e-5)
    np.testing.assert_allclose(csls_radius(m, k_csls, batch_size=64), r, atol=1e-5)


def test_abtt_removes_the_mean_and_top_components_then_renormalises():
    rng = np.random.default_rng(2)
    m = (rng.standard_normal((300, 10)) + 3.0 * np.arange(10) / 10).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    mu, basis = abtt_basis(m, 2)
    np.testing.assert_allclose(mu, m.mean(axis=0), atol=1e-6)
    _, _, vt = np.linalg.svd(m - m.mean(axis=0), full_matrices=False)
    np.testing.assert_allclose(np.abs(basis @ vt[:2].T), np.eye(2), atol=1e-4)
    search = NeighbourSearch(m, "abtt-d2")
    assert np.abs(search.matrix @ basis.T).max() < 1e-5          # no top component left
    np.testing.assert_allclose(np.linalg.norm(search.matrix, axis=1), 1.0, atol=1e-5)
    q = rng.standard_normal((20, 10)).astype(np.float32)
    direct = abtt_transform(q / np.linalg.norm(q, axis=1, keepdims=True), mu, basis) @ search.matrix.T
    idx, scores = search.nearest(q, 15)
    np.testing.assert_array_equal(idx, np.argsort(-direct, axis=1, kind="stable")[:, :15])
    np.testing.assert_allclose(scores, np.sort(direct, axis=1)[:, ::-1][:, :15], atol=1e-5)


def test_abtt_keeps_zero_queries_zero():
    m = np.eye(4, dtype=np.float32)
    assert not NeighbourSearch(m, "abtt-d1").queries(np.zeros((1, 4), dtype=np.float32)).any()


@pytest.mark.parametrize("spec, canonical", [(None, "cosine"), ("cosine", "cosine"), ("csls", "csls-k10"),
                                             ("CSLS-k5", "csls-k5"), ("abtt", "abtt-d3"), ("abtt-d1", "abtt-d1")])
def test_specs_are_canonical(spec, canonical):
    assert neighbours_spec(spec) == canonical
    assert parse_neighbours(canonical).spec == canonical


@pytest.mark.parametrize("bad", ["cos", "csls-k0", "csls-10", "abtt-x", "knn", ""])
def test_unknown_specs_are_one_line_errors(bad):
    if bad == "":
        assert neighbours_spec(bad) == "cosine"  # empty means the default
        return
    with pytest.raises(InputError, match="unknown neighbours|at least 1"):
        parse_neighbours(bad)


def test_row_exact_candidates_are_every_entry_within_the_margin_of_the_rows_kth():
    """The one-pass candidate selection of a row_exact search (a bound from every 8th column)
    keeps exactly the entries at or above the row's k-th largest less RESCORE_MARGIN: rows with
    near-ties at the cut, and constant rows (the bound holds fewer than k: done exactly)."""
    from dkw_core.neighbours import RESCORE_MARGIN, _candidates

    rng = np.random.default_rng(11)
    s = rng.standard_normal((60, 3000)).astype(np.float32)
    s[:4] = 0.25  # constant rows: every column is a candidate
    s[10, ::7] = s[10].max()  # a tie of 429 columns at the top
    s[20, :200] = np.sort(s[20])[-90] + np.float32(RESCORE_MARGIN / 2)  # near-ties just above the cut
    for k in (1, 30, 90):
        kth = -np.sort(-s, axis=1)[:, k - 1]
        want = np.nonzero(s >= (kth - np.float32(RESCORE_MARGIN))[:, None])
        r, c = _candidates(s, k)
        order = np.lexsort((c, r))
        np.testing.assert_array_equal(r[order], want[0])
        np.testing.assert_array_equal(c[order], want[1])


def test_a_row_exact_search_runs_in_smaller_products_with_the_same_result():
    from dkw_core.neighbours import ROW_EXACT_BATCH

    rng = np.random.default_rng(2)
    m = rng.standard_normal((3000, 20)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.standard_normal((600, 20)).astype(np.float32)
    seen: list[float] = []
    idx, sims = nearest(q, m, 25, row_exact=True, progress=lambda f, _m: seen.append(f))
    assert len(seen) == -(-600 // ROW_EXACT_BATCH) == 3  # 256 queries per product, not 1,024
    big_idx, big_sims = nearest(q, m, 25, row_exact=True, batch_size=1024)
    np.testing.assert_array_equal(idx, big_idx)
    np.testing.assert_array_equal(sims, big_sims)


def test_the_packed_sort_orders_as_lexsort_with_ties_negative_zero_and_negative_scores():
    """A row_exact search orders its candidates by one np.sort of packed keys, unpacked again (not
    a three-key lexsort): the same order and the same values, ties by column, -0.0 tied with 0.0."""
    from dkw_core.neighbours import _sorted_by_row_value_column

    rng = np.random.default_rng(5)
    n, v = 300, 5000
    r, c = np.divmod(rng.choice(n * v, 20_000, replace=False), v)
    vals = rng.standard_normal(len(r)).astype(np.float32)
    vals[::7] = vals[3]  # ties within and across rows
    vals[1::11] = np.float32(-0.0)
    vals[2::11] = np.float32(0.0)
    order = np.lexsort((c, -vals, r))
    got_r, got_vals, got_c = _sorted_by_row_value_column(r, vals, c)
    np.testing.assert_array_equal(got_r, r[order])
    np.testing.assert_array_equal(got_c, c[order])
    np.testing.assert_array_equal(got_vals, vals[order])  # -0.0 == 0.0


def test_a_row_exact_search_with_its_float64_vocabulary_kept_gives_the_same_bits():
    """NeighbourSearch keeps its vocabulary in float64 for the rescoring and transposed for the
    float32 product: the same neighbours and scores, bit for bit, as the plain call (plain
    cosine and CSLS)."""
    from dkw_core.neighbours import NeighbourSearch

    rng = np.random.default_rng(6)
    m = rng.standard_normal((2500, 24)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.standard_normal((300, 24)).astype(np.float32)
    for spec in ("cosine", "csls-k5"):
        search = NeighbourSearch(m, spec)
        kept = search.nearest(q, 40, row_exact=True)
        extra = {} if search.bias is None else {"bias": search.bias, "scale": 2.0}
        plain = nearest(search.queries(q), search.matrix, 40, row_exact=True, **extra)
        np.testing.assert_array_equal(kept[0], plain[0])
        assert kept[1].tobytes() == plain[1].tobytes()
        assert search.__dict__["_matrix_t"].flags.c_contiguous
