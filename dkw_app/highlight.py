"""A document with the phrases behind a keyword highlighted — built as escaped HTML.

The document is untrusted: every character of it goes through :func:`html.escape` and the
only markup in the result is the ``<mark>`` elements and the wrapper this module writes, so no
tag, script, entity or markdown of the document can take effect. Pure functions (no
Streamlit), tested in ``tests/app/test_highlight.py``.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterable

MAX_PHRASES = 300  # a keyword reached through more phrases highlights its 300 most similar

STYLE = ("max-height:480px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:0;padding:0.75rem;"
         "font-family:'Source Code Pro',monospace;font-size:0.85rem;line-height:1.45;"
         "background:rgba(128,128,128,0.08);border-radius:0.5rem")
MARK = "background:#ffe066;color:#000;padding:0 1px;border-radius:2px"


def _body(phrase: str) -> str:
    """A phrase (tagger tokens joined by one space) as it may appear in the text: its tokens in
    order, separated by any whitespace or none ("3D graphics", "3D-graphics" tokens)."""
    return r"\s*".join(re.escape(t) for t in phrase.split(" ") if t)


def _tokens_length(phrase: str) -> int:
    return sum(len(t) for t in phrase.split(" "))


def _matcher(phrases: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern finding, at every place of the text where any of the phrases starts (never
    inside a longer word), the longest one that occurs there.

    The phrases form one alternation, longest first: two phrases found at one place are both
    that place's characters with only whitespace left out, so the one with more token
    characters ends later. Inside a lookahead, the pattern consumes nothing, so occurrences
    that overlap (of one phrase or of two) are all found. One scan of the text, whatever the
    number of phrases (it was a scan per phrase: 300 phrases in a 5 MB document took 22 s)."""
    chosen = sorted({p for p in list(phrases)[:MAX_PHRASES] if _body(p)}, key=lambda p: (-_tokens_length(p), p))
    if not chosen:
        return None
    return re.compile(rf"(?<!\w)(?=({'|'.join(_body(p) for p in chosen)})(?!\w))")


def phrase_spans(text: str, phrases: Iterable[str]) -> list[tuple[int, int]]:
    """Non-overlapping ``(start, end)`` character spans of ``text`` covering every occurrence
    of any of ``phrases`` (overlapping or touching occurrences merged into one span), sorted."""
    matcher = _matcher(phrases)
    if matcher is None:
        return []
    merged: list[tuple[int, int]] = []
    for m in matcher.finditer(text):
        a, b = m.start(1), m.end(1)
        if b <= a:
            continue
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def highlight_html(text: str, phrases: Iterable[str]) -> tuple[str, int]:
    """``(html, number of highlighted spans)``: the whole ``text`` escaped, each occurrence of a
    phrase wrapped in ``<mark>``."""
    spans = phrase_spans(text, phrases)
    out, pos = [], 0
    for a, b in spans:
        out.append(html.escape(text[pos:a]))
        out.append(f'<mark style="{MARK}">{html.escape(text[a:b])}</mark>')
        pos = b
    out.append(html.escape(text[pos:]))
    # an HTML parser drops a line break right after <pre>: this one, never the document's first
    return f'<pre class="dkw-document" style="{STYLE}">\n{"".join(out)}</pre>', len(spans)
