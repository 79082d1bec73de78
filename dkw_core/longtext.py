"""Candidate phrases of one long new text in bounded memory (step 1 of docs/method.md, for
texts of many megabytes).

spaCy's memory grows with the number of tokens it holds at once: tagging a text as a few
100,000-character pieces in one ``nlp.pipe`` batch held every piece's activations together
(3.5 GB for 1 MB of text, about 10 GB for 5 MB). Here the text is cut at paragraph breaks
(blank lines; a paragraph longer than ``chunk_chars`` at line breaks, then sentence ends,
then spaces) into pieces of at most ``chunk_chars`` characters, tagged a few at a time, and
only the running phrase counts are kept: memory is bounded by one batch plus the distinct
phrases, whatever the text's length. A phrase never spans two paragraphs.

``DKW_MAX_TEXT_MB`` (default 10) caps a new text's size; a larger one is refused with one
line before any tagging (:func:`check_size`).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from . import config
from .errors import InputError
from .types import Progress

__all__ = ["CHUNK_CHARS", "check_size", "pieces", "count_phrases"]

CHUNK_CHARS = 5_000
BATCH_SIZE = 8
_BREAKS = (re.compile(r"\n[ \t]*\n"), re.compile(r"\n"), re.compile(r"(?<=[.!?])\s"), re.compile(r" "))


def check_size(n_bytes: int, name: str = "text") -> None:
    """One-line :class:`InputError` when a text of ``n_bytes`` exceeds ``DKW_MAX_TEXT_MB``."""
    limit = config.max_text_mb()
    if n_bytes > limit * 1e6:
        raise InputError(f"{name}: {n_bytes / 1e6:.1f} MB is above the limit of {limit:g} MB for one text "
                         "(DKW_MAX_TEXT_MB); split it or raise the limit")


def _split(text: str, limit: int, level: int = 0) -> Iterator[str]:
    if len(text) <= limit:
        yield text
        return
    if level >= len(_BREAKS):  # no break at all: hard cut
        for i in range(0, len(text), limit):
            yield text[i:i + limit]
        return
    buf: list[str] = []
    size = 0
    start = 0
    for m in _BREAKS[level].finditer(text):
        part = text[start:m.end()]
        start = m.end()
        if size + len(part) > limit and buf:
            yield "".join(buf)
            buf, size = [], 0
        if len(part) > limit:
            yield from _split(part, limit, level + 1)
            continue
        buf.append(part)
        size += len(part)
    tail = text[start:]
    if size + len(tail) > limit and buf:
        yield "".join(buf)
        buf, size = [], 0
    if len(tail) > limit:
        yield from _split(tail, limit, level + 1)
    else:
        buf.append(tail)
    if buf:
        yield "".join(buf)


def pieces(text: str, chunk_chars: int = CHUNK_CHARS) -> Iterator[str]:
    """``text`` in order, cut into pieces of at most ``chunk_chars`` characters at the best
    available break (paragraph, line, sentence end, space); blank pieces are skipped."""
    for piece in _split(text, chunk_chars):
        if piece.strip():
            yield piece


def count_phrases(text: str, *, tagger=None, chunk_chars: int = CHUNK_CHARS, batch_size: int = BATCH_SIZE,
                  n_process: int | None = None, progress: Progress | None = None) -> Counter:
    """The candidate phrases of ``text`` with their counts, tagged piece by piece."""
    from .phrases import TaggedDoc, coarse_tag, get_tagger

    tagger = tagger or get_tagger()
    total = max(1, len(text))
    if n_process is None:  # worker processes pay off only for long texts
        n_process = config.n_process() if len(text) > 8 * chunk_chars else 1
    counts: Counter = Counter()
    done = 0
    stream = pieces(text, chunk_chars)
    lengths: list[int] = []

    def remember(it):
        for piece in it:
            lengths.append(len(piece))
            yield piece

    for doc in tagger.nlp.pipe(remember(stream), batch_size=batch_size, n_process=n_process):
        words, tags = [], []
        for tok in doc:
            if tok.is_space:
                continue
            words.append(tok.text.replace(" ", "_"))
            tags.append(coarse_tag(tok.tag_))
        counts.update(TaggedDoc(" ".join(words), "".join(tags)).phrases())
        done += lengths.pop(0) if lengths else 0
        if progress is not None:
            progress(min(1.0, done / total), f"tagged {done / 1e6:.1f} of {total / 1e6:.1f} MB")
    return counts
