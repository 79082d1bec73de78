"""Markdown as the page shows it, for AppTests (which see an element's markdown source):

* :func:`shown`: what a string made by :func:`dkw_app.untrusted.md` reads as — the backslash
  escapes and leading-space entities resolved and the invisible characters ``md`` adds (word
  joiners, bidi isolates) dropped;
* :func:`live_markup`: what a markdown string would create in Streamlit's renderer — links,
  images, HTML, emphasis, headings, code (CommonMark, by markdown-it-py), GFM autolinks (the
  patterns remark-gfm applies to the text *after* escapes are resolved, so an escape cannot
  stop them), ``$`` math, ``:material/…:`` icons and ``:name[…]`` directives.
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_ADDED = re.compile("[\u2060\u2068\u2069]")
_INDENT = re.compile(r"^&#(32|9);", re.MULTILINE)
#: mdast-util-gfm-autolink-literal's patterns (URLs, www., e-mail addresses).
_AUTOLINKS = (re.compile(r"(https?://|www(?=\.))([-.\w]+)", re.IGNORECASE), re.compile(r"[-.\w+]+@[-\w]+(\.[-\w]+)+"))
_ICON = re.compile(r":[\w/+-]+:")  # :material/home:, emoji short codes
_DIRECTIVE = re.compile(r":[\w-]+\[")  # :red[…], :orange-badge[…]
_MARKUP_TOKENS = {"link_open", "image", "html_inline", "html_block", "em_open", "strong_open", "code_inline",
                  "heading_open", "fence", "code_block", "s_open", "bullet_list_open", "ordered_list_open",
                  "blockquote_open", "hr", "table_open"}
_PARSER = MarkdownIt("commonmark").enable("strikethrough").enable("table")


def shown(markdown: str) -> str:
    text = _INDENT.sub(lambda m: chr(int(m.group(1))), markdown)
    return _ADDED.sub("", _ESCAPE.sub(r"\1", text))


def _unescaped(markdown: str, char: str) -> bool:
    """Whether ``char`` occurs in ``markdown`` without a backslash escaping it."""
    return any((i - len(markdown[:i].rstrip("\\"))) % 2 == 0 for i, c in enumerate(markdown) if c == char)


def live_markup(markdown: str) -> list[str]:
    """Everything ``markdown`` would turn into markup instead of showing as text (empty: inert)."""
    found = []
    for block in _PARSER.parse(markdown):
        if block.type in _MARKUP_TOKENS:
            found.append(block.type)
        for token in block.children or []:
            if token.type in _MARKUP_TOKENS:
                found.append(token.type)
            if token.type == "text":
                found += [f"autolink {m.group(0)!r}" for p in _AUTOLINKS for m in p.finditer(token.content)]
                found += [f"icon {m.group(0)!r}" for m in _ICON.finditer(token.content)]
                found += [f"directive {m.group(0)!r}" for m in _DIRECTIVE.finditer(token.content)]
    if _unescaped(markdown, "$"):
        found.append("math $")
    return found
