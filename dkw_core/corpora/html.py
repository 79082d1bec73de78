"""Crawled web pages as plain text (WebKB, 7 Sectors, uploaded HTML): html2text, never rendered."""
from __future__ import annotations

import html
import re

CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_HEADER_LINE = re.compile(rb"^(?:HTTP/\d|[A-Za-z][A-Za-z0-9-]*:)")
_HEADER_END = re.compile(rb"\r?\n[ \t]*\r?\n")


def _strip_mime_header(data: bytes) -> bytes:
    """Drop a leading HTTP/MIME header (``MIME-Version: 1.0`` … blank line) if the page has one."""
    start = data.lstrip()[:200]
    if _HEADER_LINE.match(start) and not start.startswith(b"<"):
        m = _HEADER_END.search(data)
        if m:
            return data[m.end():]
        return b""
    return data


def _html_converter():
    import html2text

    conv = html2text.HTML2Text()
    conv.ignore_links = True
    conv.ignore_images = True
    conv.ignore_emphasis = True
    conv.body_width = 0
    conv.unicode_snob = True
    return conv


def html_page_to_text(data: bytes) -> str:
    """A crawled page (optional MIME header + HTML) as plain text: header stripped, UTF-8 decoded
    (latin-1 if it is not UTF-8), then html2text with links and images ignored."""
    body = _strip_mime_header(data)
    try:
        markup = body.decode("utf-8")
    except UnicodeDecodeError:
        markup = body.decode("latin-1")
    markup = markup.replace("\x00", "")
    if not markup.strip():
        return ""
    try:
        text = _html_converter().handle(markup)
    except Exception:  # html2text chokes on some broken 1990s markup: fall back to tag stripping
        text = html.unescape(re.sub(r"<[^>]*>", " ", markup))
    text = CONTROL_RE.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()

