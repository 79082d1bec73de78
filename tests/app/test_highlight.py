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


def test_the_document_is_escaped_and_only_marks_are_markup():
    for text in PAYLOADS:
        out, n = highlight_html(text, ["graphics", "script", "a link"])
        body = re.sub(r'^<pre class="dkw-document" style="[^"<>]*">|</pre>$', "", out)
        tags = re.findall(r"<[^>]*>", body)
        assert all(re.fullmatch(r'<mark style="[^"<>]*">|</mark>', t) for t in tags), tags
        assert html.unescape(re.sub(r"<[^>]*>", "", body)) == text  # every character shown as written
        assert "<script" not in out and "<img" not in out and "<style" not in out
        assert n == body.count("<mark ")


def test_no_phrase_gives_the_plain_escaped_text():
    out, n = highlight_html("<b>x</b>", [])
    assert n == 0 and "&lt;b&gt;x&lt;/b&gt;" in out
