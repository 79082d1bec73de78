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
