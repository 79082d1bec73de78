"""k-occurrence hubness figures of a neighbour table."""
import numpy as np
import pytest
from scipy.stats import skew

from dkw_core.errors import InputError
from dkw_core.hubness import hubness_of, k_occurrence


def test_k_occurrence_counts_each_word_per_query_within_k():
    nbr = np.array([[0, 1, 2], [0, 2, 3], [0, 1, 4]])
    assert k_occurrence(nbr, 2, 6).tolist() == [3, 2, 1, 0, 0, 0]
    assert k_occurrence(nbr, 3, 6).tolist() == [3, 2, 2, 1, 1, 0]
    with pytest.raises(InputError, match="k must be between 1 and 3"):
        k_occurrence(nbr, 4, 6)


def test_a_hub_word_shows_in_skewness_top_share_and_the_hub_list():
    vocabulary = [f"w{i}" for i in range(200)]
    rng = np.random.default_rng(0)
    rows = []
    for _ in range(500):  # word 7 is a neighbour of every query, the rest at random
        others = rng.choice(np.arange(8, 200), size=4, replace=False)
        rows.append([7, *others])
    nbr = np.array(rows)
    report = hubness_of(nbr, vocabulary, 5, top=3)
    counts = k_occurrence(nbr, 5, 200)
    assert report.skewness == pytest.approx(skew(counts.astype(float)))
    assert report.skewness > 5
    # top 1 % = 2 words: the hub (500 slots) and the most frequent other word, of 2,500 slots
    assert report.top1_share == pytest.approx((500 + np.sort(counts)[-2]) / 2500)
    assert report.hubs[0].word == "w7" and report.hubs[0].k_occurrence == 500 and report.hubs[0].query_share == 1.0
    assert len(report.hubs) == 3
    assert report.never_share == pytest.approx(np.mean(counts == 0))
    assert report.queries == 500 and report.vocabulary == 200 and report.max_k_occurrence == 500


def test_uniform_neighbours_have_no_hub():
    vocabulary = [f"w{i}" for i in range(100)]
    nbr = np.array([[(r + j) % 100 for j in range(5)] for r in range(100)])
    report = hubness_of(nbr, vocabulary, 5)
    assert report.skewness == pytest.approx(0.0, abs=1e-9)
    assert report.top1_share == pytest.approx(5 / 500)
    assert report.never_share == 0.0
