"""The one way the app shows untrusted text (docs/bad-inputs.md, "The render rule").

Untrusted: anything a visitor or a file can set — corpus names and document ids, category
names, document text, keywords and method names imported from a file, uploaded file names,
judge and study names, anything from a URL query, and the text of errors that quote them
(a ``DkwError`` naming a file or a row, a database error). In explorer mode anyone can upload
a corpus, so all of it may be hostile.

Every page shows such text in one of four ways:

* as a **text element** (``st.text``, ``st.code``, a dataframe cell, a selectbox option):
  never markdown, never HTML — the preferred way; a value set inline among the
  page's own words of a line (``f"category {isolate(doc.label)} · split …"``) through
  :func:`isolate`, so that no bidi control or right-to-left letter of it reorders them;
* inside **markdown** (headers, captions, expander labels, alerts, table cells) only through
  :func:`md`, which makes the text inert: every markdown special character escaped (so no
  emphasis, link, image, HTML tag, entity, ``$…$`` math, ``:red[…]`` directive) and then the
  patterns that markdown turns into links or icons *after* escapes are resolved broken with
  an invisible U+2060 WORD JOINER: ``http://``, ``www.``, ``user@host`` (GFM autolinks) and
  ``:name:`` (Streamlit's ``:material/…:`` icons and emoji shortcodes); a line's leading
  space is written as an entity (no indented code block); isolated as :func:`isolate`
  isolates. A sentence of the page with values in it is the page's markdown with each value
  through :func:`md` (never ``md`` of the whole sentence: an override in a value would reverse
  the rest of it);
* inside **Plotly** titles, axis and tick labels, legends and hover texts (a subset of HTML,
  ``<a href>`` included) only through :func:`plotly`, which HTML-escapes it. A word a chart
  draws as a label (a tick, a point's name) goes through :func:`plotly_label`, cut to
  :data:`LABEL_WIDTH` characters so that one long word cannot squeeze the plot, and its whole
  text into the hover through :func:`plotly_hover`, wrapped into lines;
* inside **Vega-Lite** charts (the pages' first charts, ``st.vega_lite_chart``: a browser new to
  the app compiles them far sooner than Plotly's) only as *data values* or plain titles through
  :func:`vega`: Vega draws every title, label and mark text as text, and the tooltips of
  Streamlit's vega-embed escape HTML themselves (vega-tooltip's ``sanitize``), so nothing is
  escaped here (an escape would show); a word drawn as a label goes through :func:`vega_label`,
  cut as :func:`plotly_label` cuts, its whole text in the tooltip; a title that may be wider
  than its chart through :func:`vega_title`, in lines. Never a field name or an
  expression: a spec's fields and expressions are the code's own constants.

Pure functions (no Streamlit import at module level); tested in ``tests/app/test_untrusted.py``.
"""
from __future__ import annotations

import html
import re
import unicodedata
from typing import Any

#: The invisible character that breaks an autolink or icon pattern without changing how the
#: text reads.
JOINER = "\u2060"
#: Every character markdown (CommonMark, GFM, Streamlit's directives and math) gives a meaning.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=^])")
#: After escaping: what still becomes a link or an icon once the escapes are resolved.
#: (A colon or an ``@`` only where text follows it: ``resuming: 200`` and ``- _ . : @ (this``
#: read and copy unchanged; an e-mail autolink needs its domain right after the ``@``.)
_AUTOLINK = re.compile(r"(:(?=\S)|@(?=\S)|www(?=\\\.))", re.IGNORECASE)
_INDENT = re.compile(r"^([ \t])", re.MULTILINE)
_FSI, _PDI = "\u2068", "\u2069"
_OPENS_ISOLATE = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
#: The bidi classes that can reorder the text around a value: right-to-left letters (they take
#: neutral neighbours such as ", " with them) and every explicit control.
_REORDERING = frozenset({"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def isolate(value: Any) -> str:
    """``value`` as a unit of a line of the page (plain text or markdown): when it holds a bidi
    control or a right-to-left letter, wrapped in U+2068 FIRST STRONG ISOLATE … U+2069 POP
    DIRECTIONAL ISOLATE, so that nothing in it reorders the page's own words around it (an
    unclosed U+202E ends at the isolate's end; the Unicode Bidirectional Algorithm, UAX #9).
    Balanced first: a PDI of the value that closes nothing would close the isolate early, so one
    more FSI opens before the value for each; an isolate the value leaves open would take the
    closing PDI, so one more PDI closes it. Every character of the value is kept; other text is
    returned unchanged."""
    text = str(value)
    if not any(unicodedata.bidirectional(c) in _REORDERING for c in text):
        return text
    depth = stray = 0
    for char in text:
        if char in _OPENS_ISOLATE:
            depth += 1
        elif char == _PDI:
            if depth:
                depth -= 1
            else:
                stray += 1
    return _FSI * (stray + 1) + text + _PDI * (depth + 1)  # the final PDI also ends any embedding inside


def md(value: Any) -> str:
    """``value`` as a markdown string that renders exactly as the text reads and creates
    nothing: no link, image, HTML, math, icon or emphasis."""
    text = str(value)
    escaped = _MD_SPECIAL.sub(r"\\\1", text)
    escaped = _AUTOLINK.sub(lambda m: m.group(1) + JOINER, escaped)
    escaped = _INDENT.sub(lambda m: f"&#{ord(m.group(1))};", escaped)  # no line is an indented code block
    return isolate(escaped)  # an override inside ends at the isolate's end


def plotly(value: Any) -> str:
    """``value`` for a Plotly title, label, legend entry or hover text: HTML-escaped, so no tag
    (``<a href>``, ``<br>``, ``<b>``) or entity of it takes effect."""
    return html.escape(str(value), quote=False)


#: The most characters of a word a chart draws as a label (tick, point name); the rest is in
#: the hover. Wide enough for every word of the shipped corpora's lists.
LABEL_WIDTH = 30
#: Characters per line of a long word in a hover (Plotly never wraps a hover by itself).
HOVER_LINE = 60
ELLIPSIS = "\u2026"


def _cut(value: Any, width: int) -> str:
    text = str(value)
    return text[:width - 1] + ELLIPSIS if len(text) > width else text


def plotly_label(value: Any, width: int = LABEL_WIDTH) -> str:
    """``value`` as a chart label: at most ``width`` characters (a longer one cut, ending in
    "…"), HTML-escaped like :func:`plotly`. Cut before escaping, so no entity is split."""
    return plotly(_cut(value, width))


def vega(value: Any) -> str:
    """``value`` for a Vega-Lite title or data value: the plain text (Vega draws it as text; the
    tooltip escapes it)."""
    return str(value)


def vega_label(value: Any, width: int = LABEL_WIDTH) -> str:
    """``value`` as a Vega-Lite label (an axis label, a point's name): at most ``width``
    characters, a longer one cut and ending in "…"; the whole text belongs in the tooltip."""
    return _cut(value, width)


#: The most lines of a Vega-Lite title; a longer one ends in "…".
TITLE_LINES = 3


def vega_title(value: Any, width: int, lines: int = TITLE_LINES) -> list[str]:
    """``value`` as a Vega-Lite title in lines of at most ``width`` characters, broken between
    words (never at a hyphen: "ms-windows" stays whole; a word longer than a line is cut into
    lines), at most ``lines`` of them, the last ending in "…" when the text goes on. Vega cuts a
    title wider than its chart with "…" instead of wrapping it (the second category's title of
    two side by side lost its method)."""
    import textwrap

    text = vega(value)
    return textwrap.wrap(text, width, max_lines=lines, placeholder=" " + ELLIPSIS, break_on_hyphens=False,
                         replace_whitespace=False, drop_whitespace=True) or [text]


def plotly_hover(value: Any, line: int = HOVER_LINE) -> str:
    """The whole of ``value`` for a hover: HTML-escaped like :func:`plotly`, in lines of ``line``
    characters joined by ``<br>`` (the only markup in it, added after escaping)."""
    text = str(value)
    return "<br>".join(plotly(text[i:i + line]) for i in range(0, max(len(text), 1), line))
