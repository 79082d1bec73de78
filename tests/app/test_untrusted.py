"""dkw_app/untrusted.py: the one way untrusted text reaches markdown or Plotly — every payload
of the hostile corpus renders as the text it is, creating no link, image, HTML, math or icon."""
from __future__ import annotations

import pytest

from dkw_app.untrusted import md, plotly
from tests.support import hostile
from tests.support.markdown import live_markup, shown

PAYLOADS = [*hostile.CATEGORIES, *hostile.IDS, hostile.PAYLOAD, *hostile.KEYWORDS, hostile.METHOD,
            "http://evil.example/a", "HTTPS://EVIL.EXAMPLE", "WWW.evil.example", "wwww.evil.example",
            "[x](http://evil.example)", "<http://evil.example>", "![i](https:evil.example/i.png)", "$$\\LaTeX$$",
            "$x$", "**bold**", "_u_", "~~s~~", "`c`", "# h", "> q", "- item", "1. item", "---", ":red[red]",
            ":orange-badge[b]", ":material/home:", ":smile:", "&lt;b&gt;", "&copy;", "a\\*b", "\\", "[x]: http://e.x",
            "<img src=x onerror=alert(1)>", "x | y\n--|--\n1 | 2", "line\n\n    code"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_untrusted_text_in_markdown_creates_nothing_and_reads_as_typed(payload):
    out = md(payload)
    assert live_markup(out) == []
    assert shown(out) == payload


def test_the_checker_sees_what_raw_payloads_would_create():
    """The assertion above means something: the same payloads unescaped are live markup."""
    assert sum(bool(live_markup(p)) for p in PAYLOADS) > 0.8 * len(PAYLOADS)
    assert live_markup("http://evil.example/a") == ["autolink 'http://evil.example'"]


def test_a_right_to_left_override_ends_with_the_untrusted_text():
    out = md("\u202eevil")
    assert out.startswith("\u2068") and out.endswith("\u2069")  # first-strong isolate … pop directional isolate
    assert md("plain") == "plain"


def test_an_at_sign_or_colon_before_a_space_gets_no_invisible_joiner():
    """A message naming the allowed characters ``- _ . : @ (this …)`` copies as it reads: only an
    ``@`` or ``:`` with text right after it can start a link or an icon, and only those get U+2060."""
    from dkw_app.untrusted import JOINER

    for text in ("a participant id may hold only letters, digits and - _ . : @ (this one holds markup)",
                 "ends with @", "resuming: 200"):
        assert JOINER not in md(text) and shown(md(text)) == text
    assert JOINER in md("me@evil.example") and JOINER in md(":material/home:")


@pytest.mark.parametrize("payload", hostile.CATEGORIES + ['<a href="javascript:x">y</a><br>&amp;'])
def test_plotly_text_is_html_escaped(payload):
    out = plotly(payload)
    assert "<" not in out and ">" not in out
    assert out.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") == payload


def test_a_chart_label_is_cut_before_escaping_and_the_hover_keeps_the_whole_text():
    from dkw_app.untrusted import LABEL_WIDTH, plotly_hover, plotly_label

    assert plotly_label("graphics") == "graphics"
    cut = plotly_label("&" * 100)
    assert cut == "&amp;" * (LABEL_WIDTH - 1) + "…"  # no entity split in two
    assert plotly_hover("<i>" + "y" * 130, line=60).split("<br>") == ["&lt;i&gt;" + "y" * 57, "y" * 60, "y" * 13]
    assert plotly_hover("") == ""


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_vega_label_is_cut_and_never_escaped(payload):
    """Vega draws text as text and its tooltip escapes HTML: an escape here would show as "&lt;"."""
    from dkw_app.untrusted import LABEL_WIDTH, vega, vega_label

    assert vega(payload) == payload
    assert vega_label(payload) == (payload if len(payload) <= LABEL_WIDTH else payload[:LABEL_WIDTH - 1] + "…")
    assert len(vega_label("&" * 100)) == LABEL_WIDTH


#: Bidi controls a value may carry unbalanced: an unclosed override, a stray PDI before one (it
#: would close the isolate around the value), an unclosed isolate (it would take the isolate's
#: own PDI), embeddings, more overrides than Chromium nests.
UNBALANCED = ["\u202eevil", "\u2069\u202eevil", "\u2067abc \u202e", "\u202b\u2066x\u202c", "a\u2069\u2069\u202e",
              "\u202e" * 200, "\u2068\u2068", "\u061c\u200f\u202d" + hostile.CATEGORIES[2]]


@pytest.mark.parametrize("value", UNBALANCED)
def test_no_bidi_control_of_a_value_reaches_the_words_around_it(value):
    """An unclosed U+202E in a category read "category … · split test · 745 characters" as
    "sretcarahc 547 · tset tilps": every value inline in a page's line is isolated by
    ``isolate`` (``md`` too), whatever controls it carries, and keeps every character."""
    from dkw_app.untrusted import isolate
    from tests.support.bidi import base_text

    line = f"category {isolate(value)} · split test · 745 characters"
    assert base_text(line) == "category  · split test · 745 characters"
    assert value in isolate(value)
    assert base_text(f"**{md(value)}** · split test") == "**** · split test"
    assert shown(md(value)) == value.translate(dict.fromkeys((0x2068, 0x2069)))


@pytest.mark.parametrize("value", ["plain", "comp.graphics", "café naïve", "עברית", "اللغة 42", "a, b"])
def test_a_value_without_bidi_controls_is_isolated_only_when_it_reads_right_to_left(value):
    """Right-to-left letters take neutral neighbours with them ("Keywords: שלום, עולם" read its
    list backwards), so they are isolated too; other text is left as it is."""
    from dkw_app.untrusted import isolate

    rtl = any(0x0590 <= ord(c) <= 0x08FF for c in value)
    assert isolate(value) == (f"\u2068{value}\u2069" if rtl else value)


def test_a_vega_title_comes_in_lines_at_most_three_the_last_cut():
    from dkw_app.untrusted import TITLE_LINES, vega_title

    assert vega_title("short title", 20) == ["short title"]
    assert vega_title("a-b-c-d-e-f words go here", 12) == ["a-b-c-d-e-f", "words go", "here"]
    lines = vega_title("w" * 10_000 + ": top 10 words", 28)
    assert len(lines) == TITLE_LINES and lines[-1].endswith("…") and all(len(x) <= 28 for x in lines)
    assert vega_title("<b>x</b> $$y$$", 28) == ["<b>x</b> $$y$$"]  # never escaped: Vega draws text as text
