"""The keyphrase method (docs/method.md §13) on hand-computed artefacts, the out-of-corpus rule,
and the method through the model, the registry and the request path on a tiny corpus."""
import numpy as np
import pytest
from conftest import SPACE, SPORT, one_text

from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel, describe_methods, method_kind, parse_method
from dkw_core.keywords.fit import category_centroids, corpus_fit
from dkw_core.keywords.keyphrases import TextArtefacts, check_about, is_own_phrase, mmr, rank_keyphrases
from dkw_core.keywords.ranking import Keyword, Provenance
from dkw_core.keywords.registry import keyphrases_spec
from dkw_core.keywords.units import DocUnits

VOCAB = ["alpha", "beta", "gamma"]
WORDS = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])


def _artefacts(vectors, counts, scores_idx=None):
    """Three phrases 'a x', 'b y', 'c z' with 2-d vectors; each phrase's one nearest word is
    ``scores_idx[i]`` (similarity 1)."""
    n = len(vectors)
    idx = np.array(scores_idx if scores_idx is not None else [0] * n, dtype=np.int64).reshape(n, 1)
    units = DocUnits([f"p{i}" for i in range(n)], np.array(counts, dtype=np.float32), idx,
                     np.ones((n, 1), dtype=np.float32))
    pv = np.array(vectors, dtype=np.float64)
    pv /= np.linalg.norm(pv, axis=1, keepdims=True)
    return TextArtefacts(units, pv, WORDS)


LATENT = [Keyword("gamma", 3.0, 2, (Provenance("p0", 0.9, 3),)), Keyword("beta", 1.0, 1, (Provenance("p1", 0.8, 1),))]


def test_about_zero_ranks_by_cosine_to_the_documents_vector():
    # centroid ∝ 3·(1,0) + (0.8,0.6) + (0,1) = (3.8, 1.6): cosines p1 0.970, p0 0.922, p2 0.388
    art = _artefacts([[1, 0], [0.8, 0.6], [0, 1]], [3, 1, 1])
    got = rank_keyphrases(art, np.zeros(3), LATENT, VOCAB, top=3, about=0.0, diversity=0.0)
    assert [kw.word for kw in got] == ["p1", "p0", "p2"]
    assert [round(kw.score, 3) for kw in got] == [0.970, 0.922, 0.388]
    assert all(is_own_phrase(kw) for kw in got)


def test_about_one_is_the_papers_list_exactly():
    art = _artefacts([[1, 0], [0.8, 0.6], [0, 1]], [3, 1, 1])
    assert rank_keyphrases(art, np.array([5.0, 0.0, 0.0]), LATENT, VOCAB, top=2, about=1.0) == LATENT


def test_about_near_one_ranks_by_the_discrimination_of_the_neighbourhood():
    # p2's nearest word (gamma) scores 4, p0's (alpha) 0, p1's (beta) 2: D ranks p2, p1, p0 although
    # p2 is the farthest from the text
    art = _artefacts([[1, 0], [0.8, 0.6], [0, 1]], [3, 1, 1], scores_idx=[0, 1, 2])
    got = rank_keyphrases(art, np.array([0.0, 2.0, 4.0]), LATENT, VOCAB, top=3, about=0.99, diversity=0.0)
    assert [kw.word for kw in got] == ["p2", "p1", "p0"]


def test_mmr_removes_a_near_duplicate():
    scores = np.array([1.0, 0.99, 0.5])
    vecs = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert mmr(scores, vecs, 2, 0.0) == [0, 1]      # no diversity: the duplicate comes second
    assert mmr(scores, vecs, 2, 0.5) == [0, 2]      # KeyBERT's MMR: the distinct phrase instead


def test_phrases_differing_in_case_are_one_keyphrase_and_latent_words_fill_a_short_list():
    units = DocUnits(["Steel", "steel", "plant"], np.array([1, 2, 1], dtype=np.float32),
                     np.zeros((3, 1), dtype=np.int64), np.ones((3, 1), dtype=np.float32))
    pv = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    got = rank_keyphrases(TextArtefacts(units, pv, WORDS), np.zeros(3), LATENT, VOCAB, top=4, about=0.0)
    assert [kw.word for kw in got] == ["steel", "plant", "gamma", "beta"]
    assert got[0].tf == 3 and not is_own_phrase(got[2])


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", float("nan")])
def test_about_outside_zero_to_one_is_one_line(bad):
    with pytest.raises(InputError, match="about"):
        check_about(bad)


def test_out_of_corpus_needs_both_low_similarity_and_low_p():
    centroids = category_centroids(np.array([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), WORDS)
    assert np.allclose(centroids, [[1, 0], [0, 1]])
    far = np.array([0.6, 0.8])  # cosine 0.8 to the second category: similarity 0.8
    assert corpus_fit(far, centroids, np.array([0.5, 0.5]), ["a", "b"], min_similarity=0.9, min_p=0.6).out_of_corpus
    assert not corpus_fit(far, centroids, np.array([0.7, 0.3]), ["a", "b"], min_similarity=0.9, min_p=0.6).out_of_corpus
    fit = corpus_fit(far, centroids, np.array([0.5, 0.5]), ["a", "b"], min_similarity=0.7, min_p=0.6)
    assert not fit.out_of_corpus and fit.nearest == "b" and round(fit.distance, 3) == 0.2


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


def test_keyphrases_are_the_documents_own_phrases_and_about_one_the_papers_words(model):
    for doc in model.corpus.test:
        own = {p.lower() for p in model._doc_units(doc).phrases}
        kp = model.keywords(doc, metric="lo-own", k=3, top=3, about=0.5)
        assert kp and all(kw.word in own for kw in kp if is_own_phrase(kw)), kp
        paper = model.keywords(doc, metric="lo-own", k=3, top=3)
        assert model.keywords(doc, metric="lo-own", k=3, top=3, about=1.0) == paper
        assert {kw.word for kw in paper} <= set(SPORT if doc.label == "sport" else SPACE)


def test_the_registry_names_the_keyphrase_method(model):
    assert parse_method("keyphrases-a0.4-knn3-lo-own")["about"] == 0.4
    with pytest.raises(InputError, match="about"):
        parse_method("keyphrases-a2-knn3-lo-own")
    assert method_kind("keyphrases-a0.3-knn3-lo-own") == "dkw"
    assert keyphrases_spec() in {r["spec"] for r in describe_methods()}


def test_a_new_text_gets_its_fit_and_keyphrases(model):
    text = "The rocket and the moon mission reached orbit."
    found = one_text(model, text, metric="lo-own", k=3, top=3, about=0.0)
    fit = found.fit
    assert 0.0 <= fit.p <= 1.0 and fit.nearest in model.categories
    kp = found.keywords["lo-own"]
    assert {kw.word for kw in kp} <= {"rocket", "moon mission", "orbit", "the rocket", "moon"} | set(SPACE), kp


def test_an_out_of_corpus_text_gets_keywords_about_itself_unless_about_is_asked_for(model, monkeypatch):
    from dkw_core.keywords.fit import CorpusFit

    outside = CorpusFit(p=0.3, similarity=0.5, nearest=model.categories[0], out_of_corpus=True)
    monkeypatch.setattr(type(model), "corpus_fit", lambda self, units, posterior, artefacts=None: outside)
    text = "The rocket and the moon mission reached orbit."
    default = one_text(model, text, metric="lo-own", k=3, top=3, about=None)
    own = one_text(model, text, metric="lo-own", k=3, top=3, about=0.0)
    assert default.about == 0.0 and [kw.word for kw in default.keywords["lo-own"]] == \
        [kw.word for kw in own.keywords["lo-own"]]
    assert "does not fit" in default.describe() and "weighted as" in default.describe()
    assert default.to_dict()["out_of_corpus"] is True
    asked = one_text(model, text, metric="lo-own", k=3, top=3, about=1.0)
    assert asked.about == 1.0 and [kw.word for kw in asked.keywords["lo-own"]] != \
        [kw.word for kw in own.keywords["lo-own"]]


def _naive_mmr(scores, vecs, top, diversity):
    """KeyBERT's ``_mmr`` as written there: the candidates left re-scored against every chosen one."""
    chosen, left = [int(np.argmax(scores))], [i for i in range(len(scores)) if i != int(np.argmax(scores))]
    sim = vecs @ vecs.T
    while left and len(chosen) < top:
        value = [(1 - diversity) * scores[i] - diversity * max(sim[i, j] for j in chosen) for i in left]
        best = left[int(np.argmax(value))]
        chosen.append(best)
        left.remove(best)
    return chosen


def test_mmr_keeps_the_choices_of_the_plain_algorithm():
    rng = np.random.default_rng(0)
    for n, top, diversity in [(1, 5, 0.5), (7, 3, 0.0), (30, 10, 0.5), (30, 40, 0.9), (12, 12, 1.0)]:
        vecs = rng.normal(size=(n, 4))
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        scores = np.round(rng.random(n), 1)  # ties on purpose: the lower index wins in both
        assert mmr(scores, vecs, top, diversity) == _naive_mmr(scores, vecs, top, diversity), (n, top, diversity)


def test_mmr_chooses_among_the_best_candidates_by_score_only():
    rng = np.random.default_rng(1)
    vecs = rng.normal(size=(50, 4))
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    scores = np.round(rng.random(50), 1)  # ties at the cut: the lower index is kept
    pool = np.sort(np.argsort(-scores, kind="stable")[:12])
    expected = [int(pool[i]) for i in _naive_mmr(scores[pool], vecs[pool], 5, 0.5)]
    assert mmr(scores, vecs, 5, 0.5, candidates=12) == expected
    assert mmr(scores, vecs, 5, 0.5, candidates=50) == _naive_mmr(scores, vecs, 5, 0.5)


def _long_text_units(vectors, n_words):
    """A long text's units: every phrase of one to three of the fixture's words (4,368 distinct
    phrases from 16 words), found by the real nearest-word search."""
    from collections import Counter
    from itertools import product

    from dkw_core.keywords.units import counted_units

    words = (SPORT + SPACE)[:n_words]
    phrases = [" ".join(c) for r in (1, 2, 3) for c in product(words, repeat=r)]
    counts = Counter({p: 1 + i % 3 for i, p in enumerate(phrases)})
    return counted_units(vectors, "long", " ".join(phrases), counts, 4)


def test_a_long_texts_keyphrases_come_back_in_memory_linear_in_its_phrases(topic_vectors, monkeypatch):
    # MMR once built the phrases x phrases cosine matrix, 115 GiB for a 5 MB text's 124,337
    # phrases. Here 4,368 phrases: that matrix alone would be 153 MB; the whole ranking must stay
    # within a few KB per phrase, and MMR must not multiply the candidates by all the candidates.
    import tracemalloc

    from dkw_core.keywords import keyphrases

    units = _long_text_units(topic_vectors, 16)
    n = len(units.phrases)
    assert n == 16 + 16**2 + 16**3
    art = TextArtefacts(units, keyphrases.phrase_vectors(topic_vectors, units.phrases), topic_vectors.cropped_matrix)
    vocab = list(topic_vectors.cropped_words)
    scores = np.linspace(0.0, 1.0, len(vocab))
    latent = [Keyword(vocab[0], 1.0, 1, ())]
    monkeypatch.setattr(keyphrases, "MMR_CANDIDATES", n)  # every phrase takes part in MMR here
    tracemalloc.start()
    try:
        got = keyphrases.rank_keyphrases(art, scores, latent, vocab, top=10, about=0.4,
                                         diversity=keyphrases.DEFAULT_DIVERSITY)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(got) == 10 and all(is_own_phrase(kw) for kw in got)
    assert len({kw.word for kw in got}) == 10
    assert peak < 2_000 * n, f"peak {peak / 1e6:.1f} MB for {n} phrases (n x n float64: {8 * n * n / 1e6:.0f} MB)"


CJK_RUN = "中文字符串" * 164 + "文"  # 821 characters, one unsegmented token


@pytest.mark.parametrize("phrase,ok", [("=", False), ("。", False), ("= =", False), ("--", False), ("", False),
                                       ("plotting packages =", False), ("= c:\\dos mode", False),
                                       (CJK_RUN, False), ("a b c d e f", False), ("x" * 61, False),
                                       ("steel", True), ("f-16", True), ("3d", True), ("中文", True),
                                       ("center for excellence in space", True)])
def test_a_keyphrase_holds_a_letter_or_digit_and_is_bounded(phrase, ok):
    from dkw_core.keywords.keyphrases import is_keyphrase

    assert is_keyphrase(phrase) is ok


def test_symbols_and_an_unsegmented_cjk_run_are_never_listed_as_keyphrases():
    # docs/method.md §13: "=", "。" and an 821-character Chinese string came out as keyphrases
    phrases = ["=", "。", CJK_RUN, "steel", "plant"]
    units = DocUnits(phrases, np.array([9, 9, 9, 1, 1], dtype=np.float32), np.zeros((5, 1), dtype=np.int64),
                     np.ones((5, 1), dtype=np.float32))
    pv = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.8, 0.6], [0.0, 1.0]])
    latent = [Keyword("gamma", 3.0, 2, ()), Keyword("=", 1.0, 1, ()), Keyword("beta", 0.5, 1, ())]
    for about in (0.0, 0.4):
        got = rank_keyphrases(TextArtefacts(units, pv, WORDS), np.zeros(3), latent, VOCAB, top=5, about=about)
        assert [kw.word for kw in got] == ["steel", "plant", "gamma", "beta"], about
