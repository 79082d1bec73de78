"""The relevance of candidate keyphrases (dkw_core.keywords.relevance, docs/keyphrases.md)."""
from __future__ import annotations

import numpy as np
import pytest

from dkw_core.keywords.candidates import Candidate
from dkw_core.keywords.relevance import blend, discrimination, relevance, specificity, top_candidates


def _c(key: str, positions: tuple[int, ...], n_words: int = 100) -> Candidate:
    return Candidate(key, key, positions, tuple((p, p + 1) for p in positions), n_words)


def test_frequency_counts():
    once, often = _c("coral bleaching", (50,)), _c("reef survey", (50, 60, 70))
    assert specificity("coral") > 0.3 and specificity("reef") > 0.3
    r = relevance([once, often], position=0.0, length=0.0)
    assert r[1] / r[0] > 1.5  # three occurrences beat one of similar specificity


def test_specific_words_beat_generic_ones():
    generic, specific = _c("average", (10, 40)), _c("bleaching", (10, 40))
    assert specificity("the") == 0.0 and specificity("average") < specificity("bleaching")
    assert [c.key for c, _s in top_candidates([generic, specific], 2)] == ["bleaching", "average"]


def test_an_unknown_word_is_most_specific_and_stays_eligible():
    assert specificity("phestival") == 1.0
    assert relevance([_c("phestival", (3,))])[0] > 0


def test_first_position_counts():
    late, early = _c("transect", (90,)), _c("transect survey", (0,))
    r = relevance([late, early], length=0.0)
    assert r[1] > r[0]
    assert relevance([late], position=0.0)[0] == relevance([_c("transect", (0,))], position=0.0)[0]


def test_phrases_of_several_words_get_the_length_bonus():
    one, two = _c("bleaching", (5,)), _c("bleaching bleaching", (5,))
    r = relevance([one, two])
    assert np.isclose(r[1] / r[0], 1.5)


def test_blend_keeps_about():
    rel = np.array([2.0, 1.0])
    d = np.array([0.0, 1.0])
    assert np.allclose(blend(rel, d, 0.0), [1.0, 0.5])  # about 0: the text alone, scaled to its best
    assert np.allclose(blend(rel, d, 1.0), d)           # about 1: D alone
    assert np.allclose(blend(rel, None, 0.7), [1.0, 0.5])
    cands = [_c("coral", (0,)), _c("bleaching", (1,))]
    assert [c.key for c, _s in top_candidates(cands, 2, discrimination=np.array([0.0, 1.0]), about=0.9)][0] == "bleaching"


def test_discrimination_reads_the_vocabulary_words_only():
    cands = [_c("coral reef", (0,)), _c("phestival", (1,)), _c("coral phestival", (2,))]
    scores = np.array([4.0, 2.0])
    d = discrimination(cands, scores, {"coral": 0, "reef": 1})
    assert np.allclose(d, [0.75, 0.0, 1.0])  # mean of known words over the text's best; none known: 0
    assert np.allclose(discrimination(cands, np.zeros(2), {"coral": 0}), 0.0)


def test_top_candidates_of_nothing():
    assert top_candidates([], 10) == [] and top_candidates([_c("reef", (0,))], 0) == []


def test_one_stem_is_listed_once():
    cands = [_c("system", (0, 5)), _c("systems", (1,)), _c("web-based systems", (2,)), _c("Web based system", (3,))]
    listed = [c.key for c, _s in top_candidates(cands, 10)]
    assert sorted(listed) == ["system", "web-based systems"]  # "systems" and "web based system" share a stem with them


def test_text_keyphrases_keep_casing_and_fill_with_latent_words():
    from dkw_core.keywords.keyphrases import is_own_phrase
    from dkw_core.keywords.ranking import Keyword
    from dkw_core.keywords.relevance import text_keyphrases

    text = "QuickTime plays the movie. QuickTime drops frames."
    tokens = ["QuickTime", "plays", "the", "movie", ".", "QuickTime", "drops", "frames", "."]
    latent = [Keyword("movies", 0.9, 1), Keyword("video", 0.8, 1), Keyword("=", 0.7, 1)]
    got = text_keyphrases(text, tokens, "NOONONONO", top=5, about=0.0, word_scores=None, word_index={}, latent=latent)
    words = [kw.word for kw in got]
    assert words[0] == "QuickTime" and set(words[1:3]) == {"movie", "frames"}
    assert words[3:] == ["video"]  # the latent fill: "movies" has the stem of "movie", "=" is no keyphrase
    assert got[0].tf == 2 and all(is_own_phrase(kw) for kw in got[:3]) and not is_own_phrase(got[3])
    d = text_keyphrases(text, tokens, "NOONONONO", top=3, about=1.0, word_scores=np.array([0.0, 5.0]),
                        word_index={"quicktime": 0, "frames": 1})
    assert d[0].word == "frames"  # about 1 of own phrases: D alone


@pytest.mark.parametrize("tagger", ["fast", "spacy"])  # new texts' default, and the reference
def test_a_new_texts_keyphrases_are_whole_phrases_of_its_body(tagger, monkeypatch):
    from dkw_core import extract_keywords

    monkeypatch.setenv("DKW_TAGGER", tagger)

    post = ("From: someone@waikato.ac.nz (Lawrence D'Oliveiro)\nSubject: Re: QuickTime playback\n"
            "Organization: University of Waikato\n\n"
            "In article <1@cs.edu> another writes:\n> Does the separate-account industry use QuickTime?\n\n"
            "QuickTime movies play at the original speed on a Centris. The QuickTime playback rate drops\n"
            "when the Compact Video compressor is used. Web-based movies are slower.\n\n"
            "--\nLawrence D'Oliveiro, Computer Services Dept\n")
    words = [kw.word for kw in extract_keywords(post, corpus="20ng", top=10, about=0)]
    # the post is tagged once, whole (its units need it); the body's phrases come from that tagging
    assert {"Compact Video compressor", "Web-based movies", "original speed"} <= set(words)
    # both taggers read "drops" as a verb there (the fast one since its conjunction features)
    assert "QuickTime playback rate" in words and "QuickTime playback rate drops" not in words
    for gone in ("waikato", "oliveiro", "computer services dept", "separate-account industry", "organization"):
        assert not any(gone in w.lower() for w in words), words


def test_the_mean_of_a_phrases_word_scores_is_numpys_bit_for_bit():
    """relevance and discrimination average a phrase's few words in Python (numpy's per-call cost
    was most of the ranking's): the same float as np.mean, below and above its pairwise block."""
    from dkw_core.keywords.relevance import _mean

    rng = np.random.default_rng(4)
    for _ in range(20_000):
        values = (rng.random(int(rng.integers(1, 12))) * 10.0 ** rng.integers(-3, 4)).tolist()
        assert _mean(values) == float(np.mean(values))
