"""dkw_app/highlight.py: a keyword's phrases highlighted in an escaped document."""
import html
import re

from dkw_app.highlight import highlight_html, phrase_spans
from tests.app.fakes import UNTRUSTED

PAYLOADS = [UNTRUSTED, "<img src=x onerror=alert(1)> graphics card", "&lt;b&gt; entity graphics",
            "# Title\n\n*emphasis* `code` graphics <style>body{display:none}</style>"]


def test_phrases_are_found_across_whitespace_and_never_inside_words():
    text = "Computer  graphics\nand graphics cards; not photographics or graphicsx."
    spans = phrase_spans(text, ["Computer graphics", "graphics"])
    assert [text[a:b] for a, b in spans] == ["Computer  graphics", "graphics"]


def test_overlapping_phrases_merge_into_one_mark():
    text = "the fast graphics card"
    assert [text[a:b] for a, b in phrase_spans(text, ["fast graphics", "graphics card"])] == ["fast graphics card"]


def _pre_content(out: str) -> str:
    """The markup inside the ``<pre>`` as an HTML parser reads it: a line break right after the
    start tag is dropped (HTML, "in body" insertion mode: a ``pre`` start tag)."""
    body = re.sub(r'^<pre class="dkw-document" style="[^"<>]*">|</pre>$', "", out)
    return body.removeprefix("\n")


def test_the_document_is_escaped_and_only_marks_are_markup():
    for text in PAYLOADS:
        out, n = highlight_html(text, ["graphics", "script", "a link"])
        body = _pre_content(out)
        tags = re.findall(r"<[^>]*>", body)
        assert all(re.fullmatch(r'<mark style="[^"<>]*">|</mark>', t) for t in tags), tags
        assert html.unescape(re.sub(r"<[^>]*>", "", body)) == text  # every character shown as written
        assert "<script" not in out and "<img" not in out and "<style" not in out
        assert n == body.count("<mark ")


def test_no_phrase_gives_the_plain_escaped_text():
    out, n = highlight_html("<b>x</b>", [])
    assert n == 0 and "&lt;b&gt;x&lt;/b&gt;" in out


def _each_phrase_on_its_own(text: str, phrases: list[str]) -> list[tuple[int, int]]:
    """What the page marked before: each phrase searched for on its own, the spans merged."""
    spans = []
    for phrase in phrases:
        body = r"\s*".join(re.escape(t) for t in phrase.split(" ") if t)
        spans += [(m.start(), m.end()) for m in re.finditer(rf"(?<![\w]){body}(?![\w])", text)]
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _text_and_phrases(words: int, seed: int = 0) -> tuple[str, list[str]]:
    import random

    rng = random.Random(seed)
    vocabulary = ["rocket", "orbit", "planet", "moon", "team", "game", "3D", "graphics", "card", "video",
                  "the", "of", "a", "to", "in", "and", "fast", "frames", "space", "station", "-", "(", ")", "C++"]
    text = "".join(rng.choice(vocabulary) + rng.choice([" ", " ", "  ", "\n", ", ", ". ", ""]) for _ in range(words))
    phrases = sorted({" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 3))) for _ in range(400)})
    return text, phrases[:300]


def test_one_pass_marks_what_a_search_per_phrase_marked():
    """Marking in one pass (one alternation, longest first) gives the spans the page gave when it
    searched for each phrase on its own: words, punctuation tokens, whitespace of any kind or none
    between tokens, phrases that overlap or sit inside one another."""
    for seed in range(5):
        text, phrases = _text_and_phrases(3000, seed)
        expected = _each_phrase_on_its_own(text, phrases)
        assert len(expected) > 100
        assert phrase_spans(text, phrases) == expected
    assert phrase_spans("the fast graphics card", ["graphics card", "fast graphics", "graphics"]) == [(4, 22)]


def test_every_occurrence_is_marked_also_where_one_overlaps_another_of_the_same_phrase():
    text = "time of time of time"
    assert [text[a:b] for a, b in phrase_spans(text, ["time of time"])] == [text]


def test_a_long_document_is_read_once_whatever_the_number_of_phrases(monkeypatch):
    """300 phrases in a 5 MB document took 22 s while holding the interpreter lock (a search per
    phrase); the text is now scanned once, and every occurrence in a 2 MB document is marked."""
    import dkw_app.highlight as highlight

    scans = []
    real_compile = re.compile

    class Counting:
        def __init__(self, pattern):
            self.pattern = pattern

        def finditer(self, text, *args):
            scans.append(len(text))
            return self.pattern.finditer(text, *args)

    def finditer(pattern, text, *args):
        scans.append(len(text))
        return re.finditer(pattern, text, *args)

    counting = type("re", (), {"compile": staticmethod(lambda *a: Counting(real_compile(*a))),
                               "finditer": staticmethod(finditer), "escape": staticmethod(re.escape),
                               "Pattern": re.Pattern})
    monkeypatch.setattr(highlight, "re", counting)
    paragraph = "The rocket reached orbit around the planet; the crew saw the moon.\n\n"
    text = paragraph * (2_000_000 // len(paragraph))
    phrases = ["rocket", "orbit", "the planet", "the moon"] + [f"absent phrase {i}" for i in range(296)]
    out, found = highlight_html(text, phrases)
    assert scans == [len(text)]  # one pass
    assert found == 4 * text.count(paragraph) == out.count("<mark ")
    assert out.count(">the moon</mark>") == text.count(paragraph)


def test_the_document_keeps_its_leading_and_trailing_line_breaks():
    for text in ["\nfirst line after a blank one\n", "\n\ngraphics card\n\n", "no break"]:
        for phrases in ([], ["graphics"]):
            out, _n = highlight_html(text, phrases)
            assert html.unescape(re.sub(r"<[^>]*>", "", _pre_content(out))) == text
