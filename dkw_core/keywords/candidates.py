"""Candidate keyphrases a reader recognises (docs/keyphrases.md, docs/method.md §13).

Step 1's automaton spans (:func:`dkw_core.phrases.extract_phrases`) overlap by design: they feed
the phrase vectors and the latent words, and a text's bag of them holds fragments ("phish phavors
new", "account" of "separate-account"). What a reader is shown is made here instead, from the same
tokens and coarse tags (J adjective, N noun, I preposition, O anything else):

* **whole noun phrases**: maximal runs of adjectives and nouns ending in a noun (trailing
  adjectives dropped), not overlapping; a determiner, a verb or punctuation ends a phrase, so no
  phrase starts with "the"; a clause's verb that the tagger read as a plural noun is no part of
  its subject's phrase ("if the heat lasts." gives "heat", "This paper studies" "paper":
  :func:`_ends_in_verb`);
* **hyphenated words whole**: tokens joined by a hyphen with no space on either side
  ("separate-account", "Web-based", "3-Day") are one word, a noun when their last part is a noun,
  else an adjective;
* **the text's own casing**: each phrase is shown in its most frequent surface form (ties: the
  first not in capitals, else the first seen); phrases are the same when their lower-cased words are;
* **a headline is its own line**: a line in capitals and the next line that is not are never one
  phrase; a single word only ever followed by a colon ("Results:") is a label, not a candidate;
* **no extraction noise**: a phrase with a word without a letter, a phrase of words of at most
  two characters ("x", "p0", "x p0"; a two-capital acronym such as "UK" is a word) and a phrase
  longer than :data:`MAX_WORDS` words is not a candidate; nor is a phrase of a garbled passage
  (:func:`garbled`: a PDF's text in a font without its character map, "olhqwv lq" for
  "clients in");
* each phrase knows where it occurs (token positions and character offsets in the text), so
  frequency, first position and spread can be read (:mod:`.relevance`), and a page can mark it.

News posts (20 Newsgroups): :func:`news_body` gives the part of a post keyphrases come from,
without its header, quoted replies and signature, as scikit-learn's
``fetch_20newsgroups(remove=('headers', 'footers', 'quotes'))`` strips them (its own functions);
the post itself is shown whole.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

MAX_WORDS = 6
"""Words of the longest candidate: a longer run of nouns and adjectives is a title or a list, not
one keyphrase (it is not a candidate; chosen on the development part, docs/keyphrases.md)."""
HYPHENS = frozenset({"-", "‐", "‑"})


@dataclass(frozen=True)
class Candidate:
    """One candidate keyphrase of a text."""

    key: str                        # lower-cased words, one space apart: what identifies it
    text: str                       # its most frequent surface form in the text
    positions: tuple[int, ...]      # index (in words, hyphenated words counting once) of each occurrence
    offsets: tuple[tuple[int, int], ...]  # (start, end) character offsets of each occurrence
    n_words: int                    # words in the text (hyphenated words once): scales the positions

    @property
    def count(self) -> int:
        return len(self.positions)

    @property
    def words(self) -> list[str]:
        return self.key.split(" ")


def token_offsets(text: str, tokens: Sequence[str]) -> list[int]:
    """Each token's character offset in ``text``, found left to right (the tagger writes a space
    inside a token as ``_``; a token not found where expected gets the offset reached so far)."""
    out: list[int] = []
    pos = 0
    for tok in tokens:
        at = text.find(tok, pos)
        if at < 0 and "_" in tok:
            at = text.find(tok.replace("_", " "), pos)
        if at < 0 or at - pos > 200:
            out.append(pos)
            continue
        out.append(at)
        pos = at + len(tok)
    return out


ADVERBS_IN_S = frozenset({"indoors", "outdoors", "always", "sometimes", "afterwards", "towards", "nowadays",
                          "perhaps", "besides", "backwards", "upwards", "downwards", "onwards", "outwards",
                          "inwards", "sideways", "homewards", "whereas", "thus", "unless", "anyways"})
"""Adverbs and conjunctions ending in -s that a tagger may read as a plural noun ("keep livestock
indoors" is no phrase "livestock indoors"): never a noun of a candidate."""


def _words(text: str, tokens: Sequence[str], tags: str) -> list[tuple[str, str, int, int]]:
    """(word, coarse tag, start, end) with hyphenated compounds joined into one word; a word of
    :data:`ADVERBS_IN_S` is never a noun."""
    starts = token_offsets(text, tokens)
    out: list[tuple[str, str, int, int]] = []
    i, n = 0, len(tokens)
    while i < n:
        word, start, end = tokens[i], starts[i], starts[i] + len(tokens[i])
        parts = [tags[i]]
        while (i + 2 < n and tokens[i + 1] in HYPHENS and starts[i + 1] == end
               and starts[i + 2] == starts[i + 1] + len(tokens[i + 1])
               and any(c.isalnum() for c in tokens[i + 2]) and any(c.isalnum() for c in word)):
            word = text[start:starts[i + 2] + len(tokens[i + 2])]
            end = starts[i + 2] + len(tokens[i + 2])
            parts.append(tags[i + 2])
            i += 2
        tag = parts[0] if len(parts) == 1 else ("N" if parts[-1] == "N" else "J")
        if tag == "N" and word.lower() in ADVERBS_IN_S:
            tag = "O"
        out.append((word, tag, start, end))
        i += 1
    return out


def _scrap(word: str) -> bool:
    """A word too short to name anything alone: at most two characters, except an acronym of two
    capitals (``UK``, ``AI``)."""
    return len(word) <= 2 and not (len(word) == 2 and word.isalpha() and word.isupper())


def is_noise(words: Sequence[str]) -> bool:
    """Whether a phrase is extraction noise, never a keyphrase: a word without a letter or with
    an ``@`` (an e-mail address, a user name), only
    words of at most two characters (``x``, ``p0``, ``x p0``; an acronym like ``UK`` is a word),
    or more than :data:`MAX_WORDS` words."""
    if not words or len(words) > MAX_WORDS:
        return True
    if any("@" in w or not (w.isalpha() or any(c.isalpha() for c in w)) for w in words):
        return True  # a word without a letter, or an e-mail address
    return all(_scrap(w) for w in words)


GARBLED_ZIPF = 1.5
"""Zipf frequency below which a lower-case word is unknown to general English (``wordfreq``: "the"
is 7.7, "polaron" 1.6, a shifted "wkh" 1.2, "olhqwv" 0)."""
GARBLED_CHARS = 120
"""Characters on either side of a phrase that :func:`garbled` reads."""
_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=200_000)
def zipf(word: str) -> float:
    """A word's general-English frequency on the Zipf scale (``wordfreq.zipf_frequency``; 0 for a
    word it does not know)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")


def _unknown(word: str) -> bool:
    return word.isalpha() and word.islower() and zipf(word) < GARBLED_ZIPF


def garbled(text: str, start: int, end: int, words: Sequence[str]) -> bool:
    """Whether a phrase of ``words`` at ``text[start:end]`` is garbled text, never a keyphrase: one
    of its words is lower-case and unknown to general English (:data:`GARBLED_ZIPF`), and so are
    at least half of the lower-case words (of two letters or more) within :data:`GARBLED_CHARS`
    characters around it. A rare word among ordinary ones ("polaron", "simonkolleite") is not
    garbled; a passage whose every word is shifted ("wkh dqg olhqwv lq") is."""
    if not any(_unknown(w) for w in words):
        return False
    around = [w for w in _LETTERS.findall(text, max(0, start - GARBLED_CHARS), end + GARBLED_CHARS)
              if len(w) > 1 and w.islower()]
    return len(around) >= 4 and 2 * sum(map(_unknown, around)) >= len(around)


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer

    return PorterStemmer()


@lru_cache(maxsize=200_000)
def _stem(token: str) -> str:
    return _stemmer().stem(token)


_NON_WORD = re.compile(r"[\W_]+")


def stemmed(phrase: str) -> tuple[str, ...]:
    """A phrase's stemmed tokens: lower-cased, punctuation and hyphens as spaces, each token
    Porter-stemmed (NLTK's ``PorterStemmer``; ``"Web-based Systems."`` → ``("web", "base", "system")``).
    Two candidates with the same stemmed tokens ("system", "systems") are one keyphrase in a list."""
    return tuple(_stem(t) for t in _NON_WORD.sub(" ", phrase.lower()).split())


_BREAK = re.compile(r"\r\n|\n[ \t]*\n")
"""A paragraph break (a blank line) or a CRLF line end: a title's last word and the next line's
first are not one phrase (a wrapped line's single LF does not cut)."""
_EDGE = re.compile(r"^[^\w]+|[^\w]+$")


def _capitals(text: str, at: int) -> bool:
    """Whether the line of ``text`` holding offset ``at`` is written in capitals (a headline:
    letters, every one upper-case)."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    letters = [c for c in text[start:end if end >= 0 else len(text)] if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _cut(text: str, end: int, start: int) -> bool:
    """Whether a phrase ends between a word ending at ``end`` and the next starting at ``start``: a
    paragraph break (:data:`_BREAK`), or a line end between a headline in capitals and a line that
    is not (a Reuters story's title and its first line are not one phrase; a wrapped line is)."""
    if _BREAK.search(text, end, start):
        return True
    return "\n" in text[end:start] and _capitals(text, end - 1) != _capitals(text, start)


CLAUSE_OPENERS = frozenset({"if", "when", "whenever", "while", "until", "till", "because", "which", "that",
                            "where", "wherever", "whether", "once", "unless", "though", "although", "as",
                            "since", "after", "before"})
"""Words that open a clause: after one and a determiner, "the heat lasts" is a subject and its verb.
Not "and", "but" or "or": after them "X Ys" is a plural noun almost always ("and memory dumps.",
"and the input probabilities"; on the development part 1 verb in 27 such phrases after "and" and a
determiner or after ", and" at a sentence's end, docs/keyphrases.md)."""
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "its", "their", "his", "her", "our", "your",
                          "my", "each", "every", "another", "either", "neither", "no", "any"})
_SINGULAR_DETERMINERS = frozenset({"a", "an", "this", "each", "every", "another", "either", "neither"})
_POSSESSIVE = frozenset({"'s", "\u2019s", "'", "\u2019"})
_CLAUSE_END = frozenset(".,;:!?")
_ADJUNCTS = frozenset({"for", "after", "by", "in", "over", "during", "at", "with", "from", "to", "on", "into",
                       "again", "before", "within", "through", "across", "under", "around", "up", "down",
                       "out", "back", "off", "away", "when", "if", "because", "until", "as", "while",
                       "unless", "once", "whenever", "and", "but", "or"})
"""Words that may follow a clause's verb and begin an adjunct ("the trend accelerates if", "the sun
sets on"), or join a second verb ("a single member joins or leaves")."""
_NOT_VERBS = frozenset({"series", "species", "thanks", "news", "means"})
_QUANTITIES = frozenset({"couple", "dozen", "few", "handful", "hundred", "thousand", "million", "pair",
                         "lot", "number"})


def _plural(word: str) -> bool:
    """Whether a word looks plural: it ends in -s, but not in -ss, -us or -is ("glucose",
    "brightness", "virus", "analysis" are singular)."""
    w = word.lower()
    return w.endswith("s") and not w.endswith(("ss", "us", "is"))


def _ends_in_verb(words: Sequence[tuple[str, str, int, int]], run: Sequence[int], text: str) -> bool:
    """Whether the phrase of ``words[j] for j in run`` is a clause's singular subject and its verb
    read as a plural noun ("if the heat lasts.", "on which the tenancy ends,", "This paper studies
    and"): its last word is a lower-case word in -s (:func:`_plural`; not "series", "physics"),
    every word before it looks singular, the one before it is a noun, and the phrase follows

    * a singular determiner ("a", "this", "each", …) directly: "a X Ys" is no noun phrase (unless
      it counts: "a couple weeks", "a dozen eggs"), or
    * a clause opener (:data:`CLAUSE_OPENERS`, not "as" in "as well as" / "such as") and one
      determiner, or a possessive ("when the city's economy teems"), and the phrase is followed by
      the clause's end (``. , ; : ! ?``, a paragraph break, the text's end) or an adjunct's first
      word (:data:`_ADJUNCTS`)."""
    if len(run) < 2:
        return False
    surface = [_EDGE.sub("", words[j][0]) for j in run]
    last = surface[-1]
    if (not (last.isalpha() and last.islower() and len(last) > 3 and _plural(last))
            or last.endswith(("as", "os", "ics")) or last in _NOT_VERBS
            or words[run[-2]][1] != "N" or not all(surface) or any(map(_plural, surface[:-1]))
            or surface[0].lower() in _QUANTITIES):
        return False
    k = run[0] - 1
    det = words[k][0].lower() if k >= 0 else ""
    if det in _DETERMINERS:
        if det in _SINGULAR_DETERMINERS:
            return True
        k -= 1
    elif k >= 0 and words[k][0] in _POSSESSIVE:  # "the city's": walk back over its owner
        k -= 1
        while k >= 0 and words[k][1] in "JN" and words[k][0] not in _POSSESSIVE:
            k -= 1
        if k >= 0 and words[k][0].lower() in _DETERMINERS:
            k -= 1
    else:
        return False
    opener = words[k][0].lower() if k >= 0 else ""
    if opener not in CLAUSE_OPENERS or (opener == "as" and k > 0 and words[k - 1][0].lower() in {"well", "such"}):
        return False
    end = words[run[-1]]
    if end[0][-1:] in _CLAUSE_END or run[-1] + 1 >= len(words):
        return True
    after = words[run[-1] + 1]
    return after[0][:1] in _CLAUSE_END or after[0].lower() in _ADJUNCTS or _cut(text, end[3], after[2])


def chunks(text: str, tokens: Sequence[str], tags: str) -> list[tuple[list[str], int, int, int]]:
    """The text's noun phrases in order: (surface words, word position, start, end offsets).
    Maximal runs of J/N words, cut before an adjective that follows a noun and at a paragraph
    break (:data:`_BREAK`), with trailing adjectives dropped, and without a last word that is the
    verb of a clause (:func:`_ends_in_verb`: "if the heat lasts." gives "heat"); a run without a
    noun is none. A word's leading or trailing punctuation (``x.``) is not part of it."""
    if len(tokens) != len(tags):
        raise ValueError("tokens and tags differ in length")
    words = _words(text, tokens, tags)
    out: list[tuple[list[str], int, int, int]] = []
    run: list[int] = []

    def close() -> None:
        while run and words[run[-1]][1] != "N":
            run.pop()
        if _ends_in_verb(words, run, text):
            run.pop()  # the subject stays a phrase: "the heat lasts." gives "heat"
        if run:
            out.append(([_EDGE.sub("", words[j][0]) for j in run], run[0], words[run[0]][2], words[run[-1]][3]))
        run.clear()

    for j, (_w, tag, start, _e) in enumerate(words):
        if run and _cut(text, words[run[-1]][3], start):
            close()
        if tag == "N" or tag == "J":
            if tag == "J" and run and words[run[-1]][1] == "N":
                close()
            run.append(j)
        else:
            close()
    close()
    return [c for c in out if all(c[0])]


def candidates(text: str, tokens: Sequence[str], tags: str, *,
               within: Sequence[tuple[int, int]] | None = None) -> list[Candidate]:
    """The text's candidate keyphrases (see the module), in order of first occurrence. A single
    word that is only ever a label (followed by a colon: "Results:", "Methods:") is none.
    ``within``: sorted ``(start, end)`` character spans; only a phrase inside one of them is a
    candidate (a news post's body, :func:`body_spans`)."""
    n_words = max(1, len(tokens))
    seen: dict[str, list] = {}
    starts = [a for a, _ in within] if within is not None else []
    for surface, pos, start, end in chunks(text, tokens, tags):
        if is_noise(surface) or garbled(text, start, end, surface):
            continue
        if within is not None:
            i = bisect_right(starts, start) - 1
            if i < 0 or end > within[i][1]:
                continue
        key = " ".join(w.lower() for w in surface)
        entry = seen.setdefault(key, [Counter(), [], [], True])
        entry[0][" ".join(surface)] += 1
        entry[1].append(pos)
        entry[2].append((start, end))
        entry[3] = entry[3] and len(surface) == 1 and text[end:end + 1] == ":"
    return [Candidate(key, _form(forms), tuple(pos), tuple(offs), n_words)
            for key, (forms, pos, offs, label) in seen.items() if not label]


def _form(forms: Counter) -> str:
    """The most frequent surface form; between equally frequent ones the first that is not all
    capitals (a headline's "NIPPON STEEL" yields to the story's "Nippon Steel")."""
    return max(forms.items(), key=lambda kv: (kv[1], not kv[0].isupper()))[0]


# --------------------------------------------------------------------------- news posts

_HEADER_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: ")


def is_news_post(text: str) -> bool:
    """Whether ``text`` starts with a news (RFC 1036) header: every line before the first blank
    line is ``Field: value`` or a continuation, with a ``From:`` or a ``Subject:`` among them."""
    head, blank, _rest = text.lstrip("\n").partition("\n\n")
    if not blank:
        return False
    lines = head.split("\n")
    if not _HEADER_LINE.match(lines[0]):
        return False
    fields = set()
    for line in lines:
        if _HEADER_LINE.match(line):
            fields.add(line.split(":", 1)[0].lower())
        elif not line[:1].isspace():
            return False
    return bool(fields & {"from", "subject"})


def news_body(text: str) -> str:
    """The part of a news post keyphrases come from: without its header, quoted replies and
    signature (scikit-learn's ``strip_newsgroup_header``, ``strip_newsgroup_quoting`` and
    ``strip_newsgroup_footer``, what ``fetch_20newsgroups(remove=…)`` applies). A text that is not
    a news post (:func:`is_news_post`) is returned as it is."""
    if not is_news_post(text):
        return text
    from sklearn.datasets._twenty_newsgroups import strip_newsgroup_footer, strip_newsgroup_header, strip_newsgroup_quoting

    return strip_newsgroup_footer(strip_newsgroup_quoting(strip_newsgroup_header(text.lstrip("\n"))))


def body_spans(text: str) -> list[tuple[int, int]] | None:
    """The ``(start, end)`` character spans of ``text``'s lines that :func:`news_body` keeps, in
    order; ``None`` for a text that is not a news post. The body's lines are a subsequence of the
    post's (the header's lines, quoted lines and the signature's are left out), so they are found
    in one pass; keyphrases then come from the post's own tagging, never from a second one."""
    body = news_body(text)
    if body is text:
        return None
    wanted = [line.strip() for line in body.split("\n")]
    spans: list[tuple[int, int]] = []
    j, pos = 0, text.find("\n\n") + 2  # the header ends at the first blank line
    while j < len(wanted) and pos <= len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        if text[pos:end].strip() == wanted[j]:
            spans.append((pos, end))
            j += 1
        pos = end + 1
    return spans
