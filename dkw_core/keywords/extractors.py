"""Third-party keyword extractors behind one small interface, and the cache of what they extract.

An extractor is anything with ``reads_labels`` and ``extract(text, top) -> list[str]`` (best
first; a multiword keyword is one string with its words separated by spaces). Adding one is a
single call (docs/extractors.md)::

    from dkw_core.keywords import register_extractor

    class Rake:
        reads_labels = False  # it never reads a document's category
        def extract(self, text, top):
            import rake_nltk
            r = rake_nltk.Rake(); r.extract_keywords_from_text(text)
            return r.get_ranked_phrases()[:top]

    register_extractor("rake", lambda match: Rake())

From then on ``rake`` is a method of the study, of ``python -m dkw_core evaluate --method rake``
and of the Documents page. Built in (optional extra ``pip install 'dkw[extractors]'``):

* ``yake`` / ``yake-n<k>`` — YAKE! (Campos et al., Information Sciences 2020), statistical,
  unsupervised, single words or phrases of up to k words;
* ``textrank`` — TextRank (Mihalcea & Tarau 2004) through ``pytextrank``, the spaCy pipeline
  component, on dkw's spaCy English model; its keywords are noun phrases.

A missing extra is one :class:`~dkw_core.errors.MissingExtraError` line naming it.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .. import cache
from ..errors import InputError, MissingExtraError
from ..types import Progress, report

#: The pip extra that brings the built-in third-party extractors.
EXTRA = "extractors"


class KeywordExtractor(Protocol):
    """A third-party keyword extractor: one text in, its keywords out, best first.

    ``reads_labels`` says whether it reads the document's category (recorded as the method's
    protocol: ``label-free`` when it does not)."""

    reads_labels: bool

    def extract(self, text: str, top: int) -> list[str]: ...


def require(module: str, *, package: str | None = None, extra: str = EXTRA, what: str = "") -> Any:
    """``module`` imported, or one :class:`MissingExtraError` line naming the extra that brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{what or module} needs the package {package or module!r}, which is not installed: "
                                f"pip install 'dkw[{extra}]'") from None


@dataclass(frozen=True)
class RegisteredExtractor:
    pattern: re.Pattern[str]
    factory: Callable[[re.Match[str]], KeywordExtractor]
    example: str
    help: str


_EXTRACTORS: list[RegisteredExtractor] = []


def register_extractor(pattern: str, factory: Callable[[re.Match[str]], KeywordExtractor], *, example: str | None = None,
                       help: str = "third-party keyword extractor") -> None:
    """Offer a third-party extractor under method names matching ``pattern`` (a full match);
    ``factory(match)`` builds it. This is all a new extractor needs: the study, the evaluation,
    the command line and the pages read this registry. A later registration of the same pattern
    replaces the earlier one."""
    compiled = re.compile(pattern)
    _EXTRACTORS[:] = [r for r in _EXTRACTORS if r.pattern.pattern != pattern]
    _EXTRACTORS.append(RegisteredExtractor(compiled, factory, example or pattern, help))


def unregister_extractor(pattern: str) -> None:
    """Remove the extractor registered under ``pattern`` (tests, plug-ins being reloaded)."""
    _EXTRACTORS[:] = [r for r in _EXTRACTORS if r.pattern.pattern != pattern]


def registered_extractors() -> list[RegisteredExtractor]:
    """The registered extractors, in registration order."""
    return list(_EXTRACTORS)


def extractor_for(spec: str) -> KeywordExtractor | None:
    """The registered extractor named by ``spec``, or None when ``spec`` is no extractor."""
    for reg in _EXTRACTORS:
        m = reg.pattern.fullmatch(spec.strip())
        if m:
            return reg.factory(m)
    return None


def is_extractor(spec: str) -> bool:
    """Whether ``spec`` names a registered extractor (without building it)."""
    return any(reg.pattern.fullmatch(spec.strip()) for reg in _EXTRACTORS)


def _clean(found: Iterable[str], top: int) -> list[str]:
    """Lower-cased (dkw's vocabulary is lower-case, so a word both produce is shown once),
    whitespace collapsed, repeats dropped, at most ``top``."""
    words = (" ".join(str(w).split()).lower() for w in found)
    return list(dict.fromkeys(w for w in words if w))[:top]


class YakeExtractor:
    """YAKE! (package ``yake``): statistical, unsupervised, one text at a time; reads no label.
    Keywords are lower-cased and repeated ones dropped."""

    reads_labels = False

    def __init__(self, max_words: int = 1, language: str = "en") -> None:
        self.max_words = max_words
        self.language = language
        self.name = "yake" if max_words == 1 else f"yake-n{max_words}"

    @property
    def version(self) -> str:
        from importlib.metadata import version

        return f"yake {version('yake')}"

    def extract(self, text: str, top: int) -> list[str]:
        yake = require("yake", what="the YAKE! extractor")
        found = yake.KeywordExtractor(lan=self.language, n=self.max_words, top=top * 2).extract_keywords(text)
        return _clean((str(kw) for kw, _score in found), top)


class TextRankExtractor:
    """TextRank (Mihalcea & Tarau 2004) through ``pytextrank``, the spaCy pipeline component,
    on dkw's spaCy English model (with its parser: TextRank ranks noun chunks). Unsupervised,
    one text at a time; reads no label. Phrases lower-cased, repeats dropped."""

    reads_labels = False
    name = "textrank"
    #: TextRank reads the first this many characters of a text: its cost is spaCy's parse, which
    #: grows with the text (docs/extractors.md); 2,000 covers the whole of most documents of the
    #: built-in corpora (20ng median 1,175 characters, R52 703 on average).
    MAX_CHARS = 2_000

    def __init__(self) -> None:
        self._nlp = None

    @property
    def version(self) -> str:
        from importlib.metadata import version

        return f"pytextrank {version('pytextrank')}, spacy {version('spacy')}, first {self.MAX_CHARS} characters"

    def _pipeline(self):
        if self._nlp is None:
            # importing pytextrank registers the "textrank" component; its version check prints a
            # GitPython message on stdout (it looks for a git checkout), which would break --json
            with contextlib.redirect_stdout(io.StringIO()):
                require("pytextrank", what="the TextRank extractor")
            import spacy

            from ..phrases import TAGGER_MODELS

            last: Exception | None = None
            for name in TAGGER_MODELS:
                try:
                    nlp = spacy.load(name, exclude=["ner"])
                    break
                except (OSError, ImportError) as exc:
                    last = exc
            else:
                raise InputError(f"no spaCy English model found (tried {', '.join(TAGGER_MODELS)})") from last
            nlp.add_pipe("textrank")
            self._nlp = nlp
        return self._nlp

    def extract(self, text: str, top: int) -> list[str]:
        return self.extract_many([text], top)[0]

    def extract_many(self, texts: Sequence[str], top: int) -> list[list[str]]:
        return [self.tidy(found, top) for found in self.phrases_many(texts)]

    def phrases_many(self, texts: Sequence[str]) -> list[list[str]]:
        """pytextrank's ranked phrases of each text as it ships them, best first, untouched
        (``the weather satellite``): :meth:`tidy` makes dkw's keywords of them, :meth:`as_shipped`
        the package's own list."""
        nlp = self._pipeline()
        return [[p.text for p in doc._.phrases] for doc in nlp.pipe((t[:self.MAX_CHARS] for t in texts), batch_size=16)]

    @staticmethod
    def as_shipped(phrases: Iterable[str], top: int) -> list[str]:
        """pytextrank's phrases as the package gives them, only lower-cased with repeats dropped
        (determiners kept: ``the weather satellite``): the TextRank a reader who installs the
        package gets, beside :meth:`tidy`'s (docs/keyphrases.md)."""
        return _clean(phrases, top)

    @staticmethod
    def tidy(phrases: Iterable[str], top: int) -> list[str]:
        """Noun chunks without their leading and trailing stop words (``the weather satellite``
        and ``a weather satellite`` are one keyword, ``weather satellite``), lower-cased, repeats
        dropped. Idempotent: applied again to cached lists it changes nothing."""
        from spacy.lang.en.stop_words import STOP_WORDS

        out = []
        for phrase in phrases:
            words = str(phrase).lower().split()
            while words and (words[0] in STOP_WORDS or not any(c.isalnum() for c in words[0])):
                words.pop(0)
            while words and (words[-1] in STOP_WORDS or not any(c.isalnum() for c in words[-1])):
                words.pop()
            out.append(" ".join(words))
        return _clean(out, top)


def _yake(match: re.Match[str]) -> KeywordExtractor:
    n = int(match.group(1) or 1)
    if not 1 <= n <= 5:
        raise InputError(f"yake-n{n}: phrases of 1 to 5 words")
    return YakeExtractor(max_words=n)


register_extractor(r"yake(?:-n(\d+))?", _yake, example="yake",
                   help="YAKE! (third-party, unsupervised, reads no label): single words; yake-n3 for "
                        "phrases of up to 3 words")
register_extractor(r"textrank", lambda _m: TextRankExtractor(), example="textrank",
                   help="TextRank through pytextrank, the spaCy component (third-party, unsupervised, reads no "
                        "label): noun phrases")

#: Keywords an extractor's cache keeps per document (the largest N of the evaluation grid).
CACHED_TOP = 50
_CHUNK = 200


def _extractor_version(ext: KeywordExtractor) -> str:
    try:
        return str(getattr(ext, "version", "") or type(ext).__qualname__)
    except Exception:  # noqa: BLE001 - a version we cannot read only narrows the cache key
        return type(ext).__qualname__


def extract_cached(spec: str, texts: Sequence[str], *, top: int = CACHED_TOP,
                   progress: Progress | None = None) -> list[list[str]]:
    """Keywords of every text by the extractor ``spec``, best first, at most ``top`` each.

    Cached per document (keyed by the extractor, its package version and the text's content
    hash, chunks of 200 written atomically while it runs), so a re-run — or a run killed
    midway — extracts only what is missing. At most :data:`CACHED_TOP` keywords are cached;
    any N up to it is the first N of them."""
    ext = extractor_for(spec)
    if ext is None:
        raise InputError(f"{spec!r} is no registered keyword extractor")
    if top > CACHED_TOP:
        raise InputError(f"extractors are cached with at most {CACHED_TOP} keywords per document, not {top}")
    folder, known = _cached(spec, ext)
    hashes = [cache.text_hash(t) for t in texts]
    todo = list(dict.fromkeys(h for h in hashes if h not in known))
    by_hash = dict(zip(hashes, texts))
    many = getattr(ext, "extract_many", None)
    for start in range(0, len(todo), _CHUNK):
        part_hashes = todo[start:start + _CHUNK]
        part_texts = [by_hash[h] for h in part_hashes]
        found = many(part_texts, CACHED_TOP) if many else [ext.extract(t, CACHED_TOP) for t in part_texts]
        part = {h: list(ws)[:CACHED_TOP] for h, ws in zip(part_hashes, found)}
        known.update(part)
        cache.write_pickle(folder / f"{cache.key(*part_hashes)}.pkl", part)
        report(progress, (start + len(part_hashes)) / max(1, len(todo)),
               f"{spec}: {start + len(part_hashes)} of {len(todo)} documents")
    tidy = getattr(ext, "tidy", None)  # an extractor's own clean-up, applied to cached lists too
    return [tidy(known[h], top) if tidy else known[h][:top] for h in hashes]


def _cached(spec: str, ext: KeywordExtractor) -> tuple[Path, dict[str, list[str]]]:
    """The extractor's cache folder and every text hash's cached keywords."""
    folder = cache.folder("extractor-keywords") / cache.key(spec.strip(), _extractor_version(ext),
                                                            readable=spec.strip())
    known: dict[str, list[str]] = {}
    if folder.is_dir():
        for chunk in sorted(folder.glob("*.pkl")):
            part = cache.read_pickle(chunk)
            if isinstance(part, dict):
                known.update(part)
    return folder, known


def cached_keywords(spec: str, texts: Sequence[str], *, top: int = CACHED_TOP) -> list[list[str]] | None:
    """:func:`extract_cached`'s answer when every text is already in the cache, else None (nothing
    is extracted: for a caller that must not start a long extraction)."""
    ext = extractor_for(spec)
    if ext is None:
        raise InputError(f"{spec!r} is no registered keyword extractor")
    _, known = _cached(spec, ext)
    hashes = [cache.text_hash(t) for t in texts]
    if any(h not in known for h in hashes):
        return None
    tidy = getattr(ext, "tidy", None)
    return [tidy(known[h], top) if tidy else known[h][:top] for h in hashes]


@dataclass(frozen=True)
class ExtractedKeyword:
    """One keyword of a third-party method, shaped like dkw's :class:`~.ranking.Keyword` where
    a keyword table reads it: its word, no score of dkw's (NaN), how often it occurs in the
    text (``tf``), and no provenance (an extractor's keyword is its own words)."""

    word: str
    rank: int
    tf: int
    score: float = float("nan")
    provenance: tuple = ()


def keywords_of_text(spec: str, text: str, top: int) -> list[ExtractedKeyword]:
    """The keywords of one text by the registered extractor ``spec``, best first (cached per
    text up to :data:`CACHED_TOP`)."""
    if top <= CACHED_TOP:
        words = extract_cached(spec, [text], top=top)[0]
    else:
        ext = extractor_for(spec)
        if ext is None:
            raise InputError(f"{spec!r} is no registered keyword extractor")
        words = ext.extract(text, top)[:top]
    lower = text.lower()
    return [ExtractedKeyword(word=w, rank=i, tf=len(re.findall(rf"(?<!\w){re.escape(w)}(?!\w)", lower)))
            for i, w in enumerate(words, start=1)]
