"""The study's "judges would read it as one" rule (dkw_core/keywords/imports.py: same_keyword):
case, Unicode compatibility forms, invisible (default-ignorable) characters and look-alike
letters of other scripts (UTS #39's confusable skeleton) all fold to one keyword."""
from __future__ import annotations

import json

import pytest

from dkw_core.errors import InputError
from dkw_core.keywords.imports import read_imported, same_keyword

#: Pairs a judge reads as one word: a zero-width space, a soft hyphen, a word joiner, a
#: variation selector; a Cyrillic А, a Greek Α, fullwidth letters; case.
SAME = [("NASA", "NASA\u200b"), ("NASA", "NA\u00adSA"), ("NASA", "NA\u2060SA"), ("NASA", "NASA\ufe0f"),
        ("NASA", "N\u0410SA"), ("NASA", "N\u0391SA"), ("NASA", "ＮＡＳＡ"), ("NASA", "nasa"), ("café", "cafe\u0301"),
        ("paypal", "p\u0430yp\u0430l"),
        ("com", "corn")]  # UTS #39 reads "rn" as "m" (docs/study.md)
#: Words that differ to the eye stay apart.
APART = [("NASA", "NASDAQ"), ("orbit", "orbits"), ("café", "cafe"), ("moon", "noon"), ("rocket", "racket")]


@pytest.mark.parametrize("a, b", SAME)
def test_words_a_judge_reads_as_one_fold_to_one_keyword(a, b):
    assert same_keyword(a) == same_keyword(b)


@pytest.mark.parametrize("a, b", APART)
def test_words_that_differ_to_the_eye_stay_apart(a, b):
    assert same_keyword(a) != same_keyword(b)


@pytest.mark.parametrize("twin, how", [("NASA\u200b", "look-alike or invisible characters"),
                                       ("N\u0410SA", "look-alike or invisible characters"),
                                       ("nasa", "but for case")])
def test_an_imported_list_with_an_invisible_or_confusable_duplicate_is_refused(twin, how):
    line = json.dumps({"doc_id": "d1", "method": "mine", "keywords": ["NASA", "orbit", twin]})
    with pytest.raises(InputError, match="mine.jsonl line 1: duplicate keyword") as info:
        read_imported(line.encode(), filename="mine.jsonl", doc_ids={"d1"})
    assert how in str(info.value), info.value
    ranked = "doc_id,method,rank,keyword\nd1,mine,1,NASA\nd1,mine,2," + twin + "\n"
    with pytest.raises(InputError, match="mine.csv line 3: duplicate keyword"):
        read_imported(ranked.encode(), filename="mine.csv", doc_ids={"d1"})
