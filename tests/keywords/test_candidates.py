"""Candidate keyphrases a reader recognises (dkw_core.keywords.candidates, docs/keyphrases.md)."""
from __future__ import annotations

import pytest

from dkw_core.keywords.candidates import candidates, chunks, is_news_post, is_noise, news_body, token_offsets


def _cands(text: str, tokens: list[str], tags: str):
    return candidates(text, tokens, tags)


def test_hyphenated_words_stay_whole():
    text = "The separate-account industry uses Web-based systems."
    tokens = ["The", "separate", "-", "account", "industry", "uses", "Web", "-", "based", "systems", "."]
    tags = "OJONNONOONO"  # what the tagger gives: the hyphen is O, "based" a verb
    found = _cands(text, tokens, tags)
    assert [c.text for c in found] == ["separate-account industry", "Web-based systems"]
    assert all(text[s:e] == c.text for c in found for s, e in c.offsets)
    assert "account" not in {c.key for c in found}  # no fragment of the compound


def test_spaced_hyphen_is_not_a_compound():
    text = "big cats - small dogs"
    assert [c.key for c in _cands(text, ["big", "cats", "-", "small", "dogs"], "JNOJN")] == ["big cats", "small dogs"]


def test_no_leading_determiner_and_trailing_adjectives_dropped():
    text = "The old lighthouse keeper saw a storm that was heavy"
    tokens = text.split()
    tags = "OJNNOONOOJ"
    assert [c.text for c in _cands(text, tokens, tags)] == ["old lighthouse keeper", "storm"]


def test_the_texts_own_casing_most_frequent_form():
    text = "Nippon Steel grew. nippon steel fell. Nippon Steel rose."
    tokens = ["Nippon", "Steel", "grew", ".", "nippon", "steel", "fell", ".", "Nippon", "Steel", "rose", "."]
    found = _cands(text, tokens, "NNOONNOONNOO")
    assert len(found) == 1
    assert (found[0].text, found[0].key, found[0].count) == ("Nippon Steel", "nippon steel", 3)
    assert found[0].positions == (0, 4, 8)


def test_whole_phrases_do_not_overlap():
    text = "Phish Phavors New York With 3-Day Phestival In Phinger Lakes"
    tokens = ["Phish", "Phavors", "New", "York", "With", "3", "-", "Day", "Phestival", "In", "Phinger", "Lakes"]
    tags = "NNNNIOONNINN"
    found = _cands(text, tokens, tags)
    assert [c.text for c in found] == ["Phish Phavors New York", "3-Day Phestival", "Phinger Lakes"]
    spans = sorted(o for c in found for o in c.offsets)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # no two occurrences share a character


def test_an_adjective_after_a_noun_starts_a_new_phrase():
    text = "data mining big results"
    assert [c.key for c in _cands(text, text.split(), "NNJN")] == ["data mining", "big results"]


def test_extraction_noise_is_never_a_candidate():
    text = "x p0 = 42 a b the Belfast window"
    tokens = ["x", "p0", "=", "42", "a", "b", "the", "Belfast", "window"]
    tags = "NNONNNONN"
    assert [c.text for c in _cands(text, tokens, tags)] == ["Belfast window"]
    assert is_noise(["x"]) and is_noise(["p0"]) and is_noise(["42"]) and is_noise(["a", "b"])
    assert is_noise(["x", "p0"]) and not is_noise(["UK"]) and not is_noise(["UDDI"]) and not is_noise(["x", "ray"])
    assert is_noise(["long"] * 7) and not is_noise(["long"] * 6)  # a title, not a keyphrase


def test_punctuation_glued_to_a_token_is_not_shown():
    text = "We study the tax. Then x."
    tokens = ["We", "study", "the", "tax.", "Then", "x."]
    assert [c.text for c in _cands(text, tokens, "OOONON")] == ["tax"]


def test_token_offsets_follow_the_text():
    text = "New  York's\tlights"
    assert token_offsets(text, ["New", "York", "'s", "lights"]) == [0, 5, 9, 12]
    assert token_offsets("a b", ["a", "zzz", "b"]) == [0, 1, 2]  # an unknown token does not derail the rest


def test_chunks_need_equal_lengths():
    with pytest.raises(ValueError):
        chunks("a b", ["a", "b"], "N")


POST = """From: ldo@waikato.ac.nz (Lawrence D'Oliveiro)
Subject: Re: Rendering radiosity scenes
Organization: University of Waikato
Lines: 12

In article <1993@cs.edu> someone writes:
> Is radiosity faster than ray tracing?
> I doubt it.

Radiosity precomputes diffuse light transport, ray tracing does not.
Both need a good scene graph.

--
Lawrence D'Oliveiro, Computer Services Dept
"""


def test_news_post_header_quotes_and_signature_give_no_keyphrases():
    body = news_body(POST)
    assert "Radiosity precomputes diffuse light transport" in body
    for gone in ("Waikato", "Organization", "I doubt it", "writes:", "Computer Services Dept", "Subject"):
        assert gone not in body
    assert is_news_post(POST)


def test_a_text_that_is_no_news_post_is_kept_whole():
    essay = "Corals bleach when the water warms.\n\nReefs recover slowly.\n\n-- a footnote"
    assert not is_news_post(essay) and news_body(essay) == essay
    # a first paragraph with a colon is no header either
    note = "Summary: corals bleach.\nThey recover slowly.\n\nMore text."
    assert news_body(note) == note


def test_tagged_by_the_library_tagger():
    from dkw_core.phrases import get_tagger

    text = "The separate-account industry grew. Web-based systems help the separate-account industry."
    tagged = get_tagger().tag(text)
    found = {c.key: c for c in candidates(text, tagged.tokens, tagged.tags)}
    assert found["separate-account industry"].count == 2
    assert "account industry" not in found and "account" not in found and "web" not in found


def test_a_paragraph_break_ends_a_phrase():
    text = "Coral bleaching field report\r\nDivers surveyed reefs.\n\nCorals recover\nslowly in cool water"
    tokens = ["Coral", "bleaching", "field", "report", "Divers", "surveyed", "reefs", ".", "Corals", "recover",
              "slowly", "in", "cool", "water"]
    tags = "NNNNNONONOOIJN"
    found = [c.text for c in _cands(text, tokens, tags)]
    assert found == ["Coral bleaching field report", "Divers", "reefs", "Corals", "cool water"]
    wrapped = "radiosity\nsolver"  # a wrapped line (one LF) does not cut
    assert [c.text for c in _cands(wrapped, ["radiosity", "solver"], "NN")] == ["radiosity solver"]


def test_a_headline_in_capitals_and_the_next_line_are_not_one_phrase():
    # a Reuters story: its title line in capitals, then the story; a wrapped line still joins
    text = "NIPPON STEEL DENIES CHINA SEEKING JAPANESE PLANTS\nNippon Steel Corp denied local newspaper\nreports."
    tokens = ["NIPPON", "STEEL", "DENIES", "CHINA", "SEEKING", "JAPANESE", "PLANTS", "Nippon", "Steel", "Corp",
              "denied", "local", "newspaper", "reports", "."]
    tags = "NNONOJNNNNOJNNO"
    keys = [c.key for c in _cands(text, tokens, tags)]
    assert "japanese plants" in keys and "nippon steel corp" in keys
    assert "japanese plants nippon steel corp" not in keys
    assert "local newspaper reports" in keys  # a wrapped line is not a headline


def test_equally_frequent_forms_prefer_the_one_not_in_capitals():
    text = "NIPPON STEEL SAYS\nThe output of Nippon Steel fell."
    tokens = ["NIPPON", "STEEL", "SAYS", "The", "output", "of", "Nippon", "Steel", "fell", "."]
    found = {c.key: c.text for c in _cands(text, tokens, "NNOONONNOO")}
    assert found["nippon steel"] == "Nippon Steel"


def test_a_section_label_is_no_candidate_but_the_same_word_in_a_sentence_is():
    text = "Results: the drug worked. Methods: a trial. The results held."
    tokens = ["Results", ":", "the", "drug", "worked", ".", "Methods", ":", "a", "trial", ".", "The", "results",
              "held", "."]
    keys = [c.key for c in _cands(text, tokens, "NOONOONOONOONOO")]
    assert "methods" not in keys  # only ever a label
    assert "results" in keys  # also used as a word
    assert "drug" in keys and "trial" in keys


def test_body_spans_are_the_lines_news_body_keeps_found_in_the_post_itself():
    from dkw_core.keywords.candidates import body_spans

    spans = body_spans(POST)
    assert spans is not None
    kept = "\n".join(POST[a:b] for a, b in spans)
    assert kept.strip() == news_body(POST).strip()
    assert body_spans("An essay.\n\nWith two paragraphs.") is None


def test_within_keeps_only_the_phrases_inside_the_spans():
    text = "old lighthouse keeper\nnew storm warning"
    tokens = text.split()
    tags = "JNNJNN"
    assert [c.key for c in candidates(text, tokens, tags, within=[(22, len(text))])] == ["new storm warning"]


def test_an_email_address_is_never_a_candidate():
    # a 5 MB text of news posts listed 'keith@cco.caltech.edu' and 'kmr4@po.CWRU.edu' as keyphrases
    assert is_noise(["keith@cco.caltech.edu"]) and is_noise(["Bob", "bobbe@vice"])
    assert not is_noise(["Keith", "Allan"])


def _shifted(text: str, by: int = 3) -> str:
    """``text`` as a PDF without its font's character map extracts it: every letter moved on."""
    return "".join(chr((ord(c) - 97 + by) % 26 + 97) if "a" <= c <= "z" else c for c in text)


def test_a_garbled_passage_gives_no_candidates_but_a_rare_word_among_ordinary_ones_does():
    from dkw_core.keywords.candidates import garbled
    from dkw_core.phrases import get_tagger

    plain = "the clients in the network send the sensor readings to the server and the base station"
    text = f"Sensor networks in Belfast. {_shifted(plain)}."
    tagged = get_tagger().tag(text)
    keys = {c.key for c in candidates(text, tagged.tokens, tagged.tags)}
    assert not keys & set(_shifted(plain).split())  # "olhqwv", "vhqvru", ...: none is a candidate
    assert {"sensor networks", "belfast"} <= keys
    at = text.index("olhqwv")
    assert garbled(text, at, at + 6, ["olhqwv"])
    ordinary = "Zinc corrosion in sea water gives simonkolleite, a layered hydroxide chloride, on the surface."
    at = ordinary.index("simonkolleite")
    assert not garbled(ordinary, at, at + 13, ["simonkolleite"])  # unknown, but among ordinary words
    assert not garbled("Sensor networks", 0, 15, ["Sensor", "networks"])  # known words: not even looked around


@pytest.mark.parametrize("text, tags, phrase, subject", [
    # the tags the taggers give: "lasts" and "ends" read as plural nouns (the fast tagger)
    ("Many starve if the heat lasts.", "JNIONNO", "heat lasts", "heat"),
    ("The notice must state the date on which the tenancy ends, the grounds for termination.",
     "ONOOONIOONNOONINO", "tenancy ends", "tenancy"),
    ("This paper studies and develops general expressions.", "ONNOOJNO", "paper studies", "paper"),
    ("It waits until the game ends. An algorithm follows.", "OOIONNOONOO", "game ends", "game"),
])
def test_a_clause_verb_read_as_a_plural_noun_is_cut_from_its_subject(text, tags, phrase, subject):
    tokens = text.replace(".", " .").replace(",", " ,").split()
    assert len(tokens) == len(tags)
    keys = [c.key for c in _cands(text, tokens, tags)]
    assert subject in keys and phrase not in keys


@pytest.mark.parametrize("text, tags, phrase", [
    ("The satellite carries two cameras.", "ONOONO", "cameras"),  # a plural object at the clause's end
    ("It costs money, and storage requirements.", "OONOONNO", "storage requirements"),  # "and": a list
    ("It covers HTML, as well as the network products.", "OONOOOIONNO", "network products"),
    ("We measured the input probabilities.", "OOONNO", "input probabilities"),  # no clause opener
    ("When the price figures fall, they act.", "OONNOOOOO", "price figures"),  # not followed by the clause's end
    ("Errors grow until the data analysis.", "NOIONNO", "data analysis"),  # -is is singular
    ("If a couple weeks pass.", "IONNOO", "couple weeks"),  # "a couple", "a dozen": a count
])
def test_a_plural_noun_stays_whole(text, tags, phrase):
    tokens = text.replace(".", " .").replace(",", " ,").split()
    assert len(tokens) == len(tags)
    assert phrase in [c.key for c in _cands(text, tokens, tags)]


@pytest.mark.parametrize("text, tags, phrase, kept", [
    ("Farmers were told to keep livestock indoors.", "NOOOONNO", "livestock indoors", "livestock"),
    ("Afterwards the crater collapsed.", "NONOO", "afterwards", "crater"),
])
def test_an_adverb_in_s_read_as_a_noun_is_no_part_of_a_phrase(text, tags, phrase, kept):
    tokens = text.replace(".", " .").split()
    assert len(tokens) == len(tags)
    keys = [c.key for c in _cands(text, tokens, tags)]
    assert kept in keys and phrase not in keys
