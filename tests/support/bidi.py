"""Which characters of a line a bidi control can reorder, for tests of ``dkw_app.untrusted``.

:func:`base_text` follows the explicit rules of the Unicode Bidirectional Algorithm (UAX #9,
X1–X8; depth overflow aside): an embedding or override (U+202A, U+202B, U+202D, U+202E) lasts
until its PDF (U+202C), an isolate (U+2066–U+2068) until its PDI (U+2069), which also ends the
embeddings opened inside it; a PDF or PDI without an opener does nothing; a line break ends
them all. What is left at the paragraph's own level is what no untrusted control can reorder:
the page's own words, once every untrusted value is isolated."""
from __future__ import annotations

EMBEDDINGS = "\u202a\u202b\u202d\u202e"
PDF = "\u202c"
ISOLATES = "\u2066\u2067\u2068"
PDI = "\u2069"


def base_text(line: str) -> str:
    """The characters of ``line`` inside no embedding, override or isolate (controls dropped)."""
    stack: list[str] = []  # "e" embedding or override, "i" isolate
    out = []
    for char in line:
        if char in EMBEDDINGS:
            stack.append("e")
        elif char in ISOLATES:
            stack.append("i")
        elif char == PDF:
            if stack and stack[-1] == "e":
                stack.pop()
        elif char == PDI:
            if "i" in stack:
                while stack.pop() != "i":
                    pass
        elif char in "\n\r\u2029":
            stack.clear()
            out.append(char)
        elif not stack:
            out.append(char)
    return "".join(out)
