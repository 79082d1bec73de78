"""The one way dkw writes untrusted text to a terminal (docs/bad-inputs.md, "Terminal output").

Untrusted: everything a file, a corpus or a study database can set — corpus names, document
ids, category labels, words and phrases, imported method names, study and judge names, and the
text of errors that quote them. A terminal runs some characters instead of showing them: ESC
starts a sequence that can clear the screen, retitle the window or plant a hyperlink
(``ESC ] 8 ;; URL BEL``), BEL rings, a C1 character (U+0080–U+009F) is ESC's one-byte form,
a right-to-left override reorders the rest of the line, and a tab, a line break or a NUL forges
or splits a row of tab-separated output. A file name that is not UTF-8 reaches Python with its
stray bytes as lone surrogates (``os.fsdecode``'s ``surrogateescape``): written raw, byte 0x9b is
the C1 form of ``ESC [``, and a UTF-8 stream cannot encode them at all (``UnicodeEncodeError``).

:func:`escape` writes every such character as a visible escape (``\\x1b``, ``\\t``, ``\\n``,
``\\u202e``; a surrogate-escaped byte as the byte, ``\\x9b``); every human-readable output of
the command line (its tables, tab-separated lists, CSV and error lines) shows untrusted text
only through it. JSON and JSONL output is never escaped: it stays exact (JSON writes the C0
characters as ``\\u001b`` itself).

:func:`control_char` names the first such character; a name dkw stores (a study's, a judge's,
a method's) is refused when it holds one (:func:`dkw_core.validation.check_name`), so a stored
name prints unchanged.

The app's counterpart for pages is ``dkw_app.untrusted``.
"""
from __future__ import annotations

import re
from typing import Any

__all__ = ["CONTROL", "escape", "control_char"]

#: Bidirectional formatting characters: the Arabic letter mark, left-to-right and right-to-left
#: marks, embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: What a terminal may run instead of showing: C0 controls (NUL … US, tab and line breaks
#: included), DEL, C1 controls, the Unicode line and paragraph separators, bidi controls, and
#: lone surrogates (the undecodable bytes of a file name, ``os.fsdecode``).
CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}\ud800-\udfff]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_NAMES = {"\x00": "NUL", "\t": "a tab", "\n": "a line break", "\r": "a line break", "\x1b": "ESC",
          "\x07": "BEL", "\x7f": "DEL"}


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode: shown as that byte
        return f"\\x{code - 0xDC00:02x}"
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escape(value: Any) -> str:
    """``str(value)`` with every character of :data:`CONTROL` written as a visible escape
    (``\\x1b``, ``\\t``, ``\\u202e``); all other text, any script and emoji, unchanged."""
    return CONTROL.sub(_visible, str(value))


def control_char(text: str) -> str | None:
    """The first character of :data:`CONTROL` in ``text``, described (``NUL``, ``a tab``,
    ``a line break``, ``ESC``, ``U+202E``), or None when there is none."""
    found = CONTROL.search(text)
    if found is None:
        return None
    char = found.group()
    return _NAMES.get(char, f"U+{ord(char):04X}")
