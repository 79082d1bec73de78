"""The quality measure of word lists, checked against gensim's own call and a count by hand."""
from __future__ import annotations

import math

import pytest
from gensim.corpora import Dictionary
from gensim.models.coherencemodel import CoherenceModel

from dkw_core.errors import InputError
from dkw_core.quality import coherence, exclusivity, list_quality, npmi_window

SPORT = "ball goal team match score player coach league season stadium".split()
SPACE = "orbit rocket launch planet star moon comet galaxy probe telescope".split()
TEXTS = [
    "ball goal team match score player coach league".split(),
    "team player coach season stadium league goal".split(),
    "match score ball stadium season player".split(),
    "orbit rocket launch planet star moon".split(),
    "comet galaxy probe telescope orbit star".split(),
    "planet moon launch probe rocket galaxy telescope comet".split(),
    "team launch rocket season ball star".split(),
]


def test_npmi_is_gensims_own_coherence_on_the_same_inputs():
    lists = {"sport": SPORT, "space": SPACE}
    got = coherence(lists, TEXTS)
    gensim = CoherenceModel(topics=[SPORT, SPACE], texts=TEXTS, dictionary=Dictionary(TEXTS),
                            coherence="c_npmi", topn=10)
    assert got.npmi == pytest.approx(gensim.get_coherence(), abs=1e-12)
    assert [got.per_list["sport"], got.per_list["space"]] == pytest.approx(gensim.get_coherence_per_topic())
    assert got.absent == {"sport": 0, "space": 0}


def test_absent_words_are_left_out_of_the_coherence_and_counted():
    lists = {"sport": ["zzz", *SPORT[:9], "extra"], "space": SPACE, "lost": ["nowhere", "ball"]}
    got = coherence(lists, TEXTS)
    # the first 10 words only ("extra" is the 11th); "zzz" is absent from the texts
    assert got.absent == {"sport": 1, "space": 0, "lost": 1}
    assert got.per_list["lost"] is None and got.skipped == ["lost"]
    direct = CoherenceModel(topics=[SPACE, SPORT[:9]], texts=TEXTS, dictionary=Dictionary(TEXTS),
                            coherence="c_npmi", topn=10).get_coherence_per_topic()
    assert [got.per_list["space"], got.per_list["sport"]] == pytest.approx(direct)
    quality = list_quality(lists, TEXTS, TEXTS, ["sport"] * 3 + ["space"] * 3 + ["sport"])
    assert quality.absent_share == pytest.approx(2 / 22)
    assert quality.window == npmi_window() == 10
    assert "window of 10 words" in quality.describe() and "test split" in quality.describe()


def test_exclusivity_is_the_share_of_training_documents_of_the_category_by_hand():
    docs = [["ball", "team"], ["ball"], ["ball", "rocket"], ["rocket"], ["team"]]
    labels = ["sport", "sport", "space", "space", "space"]
    mean, per_list = exclusivity({"sport": ["ball", "team", "unseen"], "space": ["rocket"]}, docs, labels)
    # ball: 2 of its 3 documents are sport; team: 1 of 2; "unseen" in no training document counts 0
    assert per_list["sport"] == pytest.approx((2 / 3 + 1 / 2 + 0) / 3)
    assert per_list["space"] == 1.0
    assert mean == pytest.approx(((2 / 3 + 1 / 2) / 3 + 1.0) / 2)
    _, absent_only = exclusivity({"sport": ["unseen", "nowhere"]}, docs, labels)
    assert absent_only["sport"] == 0.0  # never left out: a list of absent words is not exclusive
    _, doc = exclusivity({"doc-7": ["ball"]}, docs, labels, categories={"doc-7": "space"})
    assert doc["doc-7"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("call, message", [
    (lambda: coherence({}, TEXTS), "no word lists"),
    (lambda: coherence({"sport": []}, TEXTS), "empty word list"),
    (lambda: coherence({"sport": SPORT}, []), "no reference texts"),
    (lambda: coherence({"sport": SPORT}, [[], []]), "no reference texts"),
    (lambda: exclusivity({"sport": SPORT}, [], []), "no training documents"),
    (lambda: exclusivity({"sport": SPORT}, [["ball"]], []), "labels"),
])
def test_bad_input_is_one_input_error_line(call, message):
    with pytest.raises(InputError, match=message) as err:
        call()
    assert "\n" not in str(err.value)


def test_no_list_with_two_known_words_gives_nan_not_a_crash():
    got = coherence({"a": ["ball", "nowhere"], "b": ["zzz"]}, TEXTS)
    assert math.isnan(got.npmi) and got.skipped == ["a", "b"]


def test_reference_tokens_are_the_baselines_lower_cased_words():
    from dkw_core.phrases import TaggedDoc
    from dkw_core.quality import word_tokens

    assert word_tokens(TaggedDoc("The Ball , goal 42 x Team", "X N X N X X N")) == ["ball", "goal", "team"]


def test_the_f1_the_same_words_give_is_carried_stated_and_serialised():
    from dkw_core.quality import REFERENCE, ListF1

    f1 = ListF1(micro_f1=0.8512, macro_f1=0.8, top=10, protocol="label-free-top1",
                means="the test documents' keywords (K=90, N=10, label-free-top1) as keyword-vector sums")
    quality = list_quality({"sport": SPORT, "space": SPACE}, TEXTS, TEXTS, ["sport"] * 3 + ["space"] * 3 + ["sport"],
                           f1=f1)
    assert quality.f1 is f1 and quality.reference == REFERENCE
    assert quality.describe().endswith("; micro-F1 85.12 of the test documents' keywords (K=90, N=10, "
                                       "label-free-top1) as keyword-vector sums")
    assert "content words" in quality.describe() and "no stop words" in quality.describe()
    data = quality.to_dict()
    assert data["f1"] == {"micro_f1": 0.8512, "macro_f1": 0.8, "top": 10, "protocol": "label-free-top1",
                          "means": f1.means}
    assert data["npmi"] == pytest.approx(quality.npmi) and data["window"] == 10
    assert list_quality({"a": ["ball", "zzz"]}, TEXTS, TEXTS, ["a"] * 7).to_dict()["npmi"] is None  # NaN as null
