"""Sub-commands ``datasets``, ``prepare`` and ``keywords``."""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from ..terminal import escape
from ..types import DEFAULT_ABOUT, DEFAULT_CORPUS, DEFAULT_K, DEFAULT_METRIC, DEFAULT_PROTOCOL, NEW_TEXT_PROTOCOL, PROTOCOL_INFO
from . import options
from .options import ProgressBar, print_json


def corpus_for(dataset: str, *, sample: int | None = None):
    """Load a corpus, optionally as its first ``sample`` documents per category and split."""
    from ..corpora import load_corpus

    with ProgressBar(f"loading {dataset}") as progress:
        corpus = load_corpus(dataset, progress=progress)
    if sample:
        corpus = corpus.head(sample)
    return corpus


# -- datasets ------------------------------------------------------------------------------
def cmd_datasets(args) -> int:
    from ..corpora import dataset_info, list_corpora, load_corpus

    rows = []
    for name in list_corpora():  # built-in, then corpora uploaded in the app
        info = dataset_info(name)
        if info["available"]:
            corpus = load_corpus(name)
            info.update(train=len(corpus.train), test=len(corpus.test), categories=len(corpus.categories))
        rows.append({k: info[k] for k in ("name", "train", "test", "categories", "available")})
    if args.json:
        print_json(rows)
    else:
        from ..config import archives_dir
        from ..corpora.download import DOWNLOADABLE

        for r in rows:
            fetch = f"python -m dkw_core download {r['name']}" if r["name"] in DOWNLOADABLE else "not downloadable"
            state = "" if r["available"] else f"  (archive missing from {archives_dir()}; {fetch})"
            print(f"{escape(r['name']):10s} train {r['train'] or '?':>6}  test {r['test'] or '?':>6}  "
                  f"categories {r['categories']}{state}")
    return 0


# -- prepare -------------------------------------------------------------------------------
def cmd_prepare(args) -> int:
    from ..keywords import KeywordModel
    from ..vectors import load_vectors

    if args.scheduler is not None:
        return _prepare_on_cluster(args)
    corpus = corpus_for(args.dataset, sample=args.sample)
    with ProgressBar(f"preparing {corpus.key}") as progress:
        model = KeywordModel.prepare(corpus, load_vectors(args.vectors), k_max=args.k_max, n_process=args.n_process,
                                     progress=progress, neighbours=args.neighbours)
    print(f"prepared {escape(corpus.key)} (neighbours {model.neighbours}): {len(corpus.documents):,} documents, "
          f"{len(model.phrases):,} unique phrases, "
          f"{model.nbr_idx.shape[0]:,} unique phrase vectors, {len(model.problems):,} documents without keywords")
    return 0


def _prepare_on_cluster(args) -> int:
    from ..cluster import CorpusRef, prepare_on_cluster, session

    with session(args.scheduler) as client, ProgressBar(f"preparing {args.dataset} on {args.scheduler}") as progress:
        done = prepare_on_cluster(client, CorpusRef(args.dataset, args.sample), vectors_path=args.vectors,
                                  k_max=args.k_max, neighbours=args.neighbours, progress=progress)
    if done.cached:
        print(f"{escape(done.key)} (neighbours {args.neighbours}) was already prepared: {escape(done.path)}")
    else:
        print(f"prepared {escape(done.key)} (neighbours {args.neighbours}) on {args.scheduler}: {done.documents:,} documents, "
              f"{done.phrases:,} unique phrases, {done.unique_vectors:,} unique phrase vectors, "
              f"{done.without_keywords:,} documents without keywords; tagged {done.tagged:,} documents "
              f"({done.words:,} words) in {done.seconds:.1f} s ("
              + ", ".join(f"{k} {v:.1f} s" for k, v in (done.phases or {}).items()) + ")")
    return 0


# -- keywords ------------------------------------------------------------------------------
def _read_text_file(path: str) -> str:
    from ..longtext import check_size

    p = Path(path)
    if p.is_dir():
        raise InputError(f"{path}: a folder, not a text file (--texts takes a folder of texts)")
    if p.exists() and not p.is_file():
        raise InputError(f"{path}: not a regular file (a device, pipe or socket); give a UTF-8 text file")
    if not p.is_file():
        raise InputError(f"{path}: no such file")
    check_size(p.stat().st_size, path)  # DKW_MAX_TEXT_MB, before reading or loading anything
    data = p.read_bytes()
    from ..corpora.user import looks_utf16

    if looks_utf16(data):
        raise InputError(f"{path}: UTF-16 text, not UTF-8; re-save it as UTF-8")
    if b"\x00" in data:
        raise InputError(f"{path}: binary file, not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    if not text.strip():
        raise InputError(f"{path}: the document is empty")
    return text


def keyword_request(args):
    """The ``keywords`` options as one :class:`~dkw_core.keywords.request.KeywordRequest` (the
    text file read and checked here, before any heavy work); the option combinations checked."""
    from ..keywords.request import KeywordRequest

    batch = bool(args.split or args.texts)
    if batch:
        if args.doc or args.text_file or (args.split and args.texts):
            raise InputError("give either --split S or --texts PATH (not with --doc or --text-file)")
        if args.split and not args.dataset:
            raise InputError("--split needs --dataset NAME (the corpus whose statistics score the words)")
        if args.baseline:
            raise InputError("--baseline works on single corpus documents (--doc)")
    else:
        if args.format or args.out or args.scheduler:
            raise InputError("--format, --out and --scheduler go with --split or --texts (many documents at once)")
        if bool(args.doc) == bool(args.text_file):
            raise InputError("give one of --doc ID, --text-file PATH, --split S or --texts PATH")
    if args.baseline and args.text_file:
        raise InputError("--baseline works on corpus documents (--doc), not new texts")
    request = KeywordRequest(dataset=args.dataset, doc=args.doc, split=args.split, name=args.text_file,
                             metrics=tuple(args.metric or ()),
                             k=args.k, top=args.top, protocol=args.protocol, baseline=args.baseline,
                             sample=args.sample, vectors=args.vectors, neighbours=args.neighbours,
                             about=args.about)
    request.about_value  # noqa: B018 - a bad --about fails here, before any heavy work
    request.metric_list  # noqa: B018 - an unknown metric fails here, before any heavy work
    request.resolved_protocol  # noqa: B018 - label-aware for a new text fails here
    if args.text_file:
        from dataclasses import replace

        request = replace(request, text=_read_text_file(args.text_file))
    return request


def cmd_keywords(args) -> int:
    from ..keywords.request import answer, model_for

    request = keyword_request(args)
    if args.split or args.texts:
        return _cmd_keywords_batch(args, request)
    with ProgressBar(f"preparing {request.corpus}") as progress, \
            ProgressBar(f"tagging {args.text_file or args.doc}") as tagging:
        result = answer(request, model=model_for(request, progress=progress), tagging=tagging)
    out = result.to_dict()
    if args.json:
        print_json(out)
        return 0
    print(escape(f"{out['doc']}  [{result.protocol}, {result.method}, vectors={result.vectors}, "
                 f"neighbours={result.neighbours}, K={out['k']}, N={out['top']}, "
                 f"statistics from the training split of {result.dataset} ({result.source})]"))
    print(f"{'':>10}  {escape(result.describe())}")
    for m, kws in result.keywords.items():
        print(f"{escape(m):>10}: " + ", ".join(escape(kw.word) for kw in kws))
        if result.category_words.get(m):
            print(f"{'category':>10}: " + ", ".join(escape(kw.word) for kw in result.category_words[m]))
    return 0


def _cmd_keywords_batch(args, request) -> int:
    """Every document of a split, or every text of a folder / JSONL / CSV, to JSONL or CSV."""
    from ..keywords.batch import format_of, read_texts, split_records, text_records, write_records
    from ..keywords.request import model_for

    fmt = format_of(args.format, args.out)
    protocol = request.resolved_protocol
    metrics, k, top = request.metric_list, request.k_value, request.top_value
    if args.scheduler is not None:  # the same records as on this machine, at every about
        return _keywords_batch_on_cluster(args, request, fmt, protocol)
    skipped = _Skipped()
    items = read_texts(args.texts, warn=skipped) if args.texts else None  # bad input fails before any heavy work
    skipped.summary()
    with ProgressBar(f"preparing {request.corpus}") as progress:
        model = model_for(request, progress=progress)
    with _output(args) as out, ProgressBar("keywords") as progress:
        records: Iterable[dict]
        if items is not None:  # the batched path at every about; no --about: 0 for a text out of the corpus
            records = text_records(model, items, metrics=metrics, k=k, top=top, n_process=args.n_process,
                                   total=len(items), progress=progress, protocol=protocol, about=request.about)
        else:
            records = split_records(model, args.split, metrics=metrics, k=k, top=top, protocol=protocol,
                                    progress=progress, about=request.about_value)
        n = write_records(records, out, fmt, metrics)
    _summary(args, n, protocol, metrics, model.corpus.key, fmt, request)
    return 0


class _Skipped:
    """The bad lines of a JSONL of texts (:func:`~dkw_core.keywords.batch.read_jsonl`): each one
    ``warning:`` line on standard error, escaped (the file's name can hold ESC), then one line
    counting them."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        print(f"warning: {escape(message)}", file=sys.stderr)

    def summary(self) -> None:
        if self.count:
            print(f"{self.count:,} lines skipped (named above)", file=sys.stderr)


@contextlib.contextmanager
def _output(args) -> Iterator:
    """``--out`` opened for writing, or standard output. The file is written under a temporary
    name beside it and renamed into place once every record is written: a run that fails half
    way leaves no partial file (and an older file as it was)."""
    if not args.out or args.out == "-":
        yield sys.stdout
        return
    from ..cache import atomic_file

    with atomic_file(Path(args.out)) as tmp, open(tmp, "w", encoding="utf-8", newline="") as out:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # the mode open() would give, not the temporary file's 0600
        yield out


def _summary(args, n: int, protocol: str, metrics: list[str], key: str, fmt: str, request, where: str = "") -> None:
    """One line on standard error when the records went to a file."""
    if args.out and args.out != "-":
        print(escape(f"{n:,} documents, {protocol}, K={request.k_value}, N={request.top_value}, metrics "
                     f"{', '.join(metrics)}, statistics from the training split of {key}{where} -> {args.out} ({fmt})"),
              file=sys.stderr)


def _keywords_batch_on_cluster(args, request, fmt: str, protocol: str) -> int:
    """The batch export on a Dask cluster, records streamed back in order. New texts that the
    shipped statistics answer (as on one machine: :func:`~dkw_core.keywords.request.uses_shipped`)
    are scored with them on the workers; anything else is prepared there first if needed."""
    from ..cluster import CorpusRef, ModelRef, ShippedRef, prepare_on_cluster, session
    from ..cluster.batch import split_records_on_cluster, text_records_on_cluster
    from ..keywords.batch import iter_texts, write_records
    from ..keywords.request import uses_shipped

    metrics, k, top = request.metric_list, request.k_value, request.top_value
    streaming = bool(args.texts) and Path(args.texts).suffix.lower() == ".jsonl" and Path(args.texts).is_file()
    skipped = _Skipped()
    items = iter_texts(args.texts, warn=skipped) if args.texts and not streaming else None  # the path's kind is checked here
    k_max = max(k, DEFAULT_K)
    ref: ModelRef | ShippedRef
    if args.texts and uses_shipped(request):  # no corpus to prepare: 20ng's shipped statistics answer at once
        ref = ShippedRef(request.corpus, k, args.vectors)
    else:
        ref = ModelRef(CorpusRef(request.corpus, args.sample), args.vectors, k_max, args.neighbours)
    resumable = streaming and bool(args.out) and args.out != "-"  # the stream opens (and resumes) --out itself
    with (contextlib.nullcontext(None) if resumable else _output(args)) as out, session(args.scheduler) as client:
        key = request.corpus  # the shipped statistics' corpus key is its name
        if isinstance(ref, ModelRef):
            with ProgressBar(f"preparing {request.corpus} on {args.scheduler}") as progress:
                key = prepare_on_cluster(client, ref.corpus, vectors_path=args.vectors, k_max=k_max,
                                         neighbours=args.neighbours, progress=progress).key
        if streaming:
            n = _stream_on_cluster(args, request, client, ref, fmt, protocol, out, skipped)
            _summary(args, n, protocol, metrics, key, fmt, request, f", on {args.scheduler}")
            return 0
        with ProgressBar("keywords") as progress:
            if items is not None:
                records = text_records_on_cluster(client, ref, items, metrics=metrics, k=k, top=top,
                                                  progress=progress, protocol=protocol, about=request.about)
            else:
                assert isinstance(ref, ModelRef)  # a split is a prepared corpus's
                records = split_records_on_cluster(client, ref, args.split, metrics=metrics, k=k, top=top,
                                                   protocol=protocol, progress=progress, about=request.about_value)
            n = write_records(records, out, fmt, metrics)
    skipped.summary()
    _summary(args, n, protocol, metrics, key, fmt, request, f", on {args.scheduler}")
    return 0


def _stream_on_cluster(args, request, client, ref, fmt: str, protocol: str, out, skipped: _Skipped) -> int:
    """A JSONL of new texts streamed through the cluster chunk by chunk (:mod:`dkw_core.keywords.stream`):
    resumable when written to a file, bad lines named on standard error and skipped."""
    from ..cluster.batch import text_chunks_on_cluster
    from ..keywords.stream import state_path, stream_keywords

    metrics, k, top, about = request.metric_list, request.k_value, request.top_value, request.about
    target = None if not args.out or args.out == "-" else args.out
    settings = {"dataset": request.corpus, "sample": args.sample, "vectors": args.vectors,
                "neighbours": args.neighbours, "metrics": metrics, "k": k, "top": top, "protocol": protocol,
                "format": fmt, "about": about}
    if target is not None and state_path(target).is_file():
        print(f"resuming {escape(target)} from its last finished chunk", file=sys.stderr)
    runner = text_chunks_on_cluster(client, ref, metrics=metrics, k=k, top=top, protocol=protocol, about=about)
    with ProgressBar("keywords") as progress:
        result = stream_keywords(args.texts, target, runner, fmt=fmt, metrics=metrics, settings=settings,
                                 progress=progress, warn=skipped, stdout=out)
    skipped.summary()
    return int(result["records"])


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("datasets", help="list the built-in corpora and their document counts")
    options.add_json(p)
    p.set_defaults(handler=cmd_datasets)

    p = sub.add_parser("prepare", help="tag a corpus and cache the nearest words of its phrases")
    options.add_dataset(p)
    options.add_k_max(p)
    options.add_sample(p)
    options.add_vectors(p)
    options.add_neighbours(p)
    options.add_scheduler(p)
    p.add_argument("--n-process", type=options.n_process_value, help="tagging processes (default: DKW_N_PROCESS or 2)")
    p.set_defaults(handler=cmd_prepare)

    p = sub.add_parser("keywords", help="the discriminative keywords of a document, a new text, a whole split "
                                        "or a collection of new texts")
    p.add_argument("--doc", help="document id, e.g. 20ng/test/comp.graphics/38758")
    p.add_argument("--text-file", help=f"a UTF-8 text file to extract keywords from (default corpus {DEFAULT_CORPUS}, "
                   f"whose statistics ship with dkw: no preparation; default protocol {NEW_TEXT_PROTOCOL}, "
                   "label-free-posterior and label-free also work)")
    p.add_argument("--split", choices=("train", "test", "all"),
                   help="every document of this split of --dataset (batch; see --format, --out)")
    p.add_argument("--texts", metavar="PATH",
                   help=f"new texts (default protocol {NEW_TEXT_PROTOCOL}): a folder of text files, a .jsonl "
                        "(field text, optional id) or a .csv (column text, optional id)")
    p.add_argument("--format", choices=("jsonl", "csv"), help="batch output format (default: --out's suffix, else jsonl)")
    options.add_out(p, help="batch output file (default: standard output)")
    p.add_argument("--n-process", type=options.n_process_value,
                   help="tagging processes for --texts (default: DKW_N_PROCESS, 2 on a multi-core machine)")
    options.add_scheduler(p)
    options.add_dataset(p, required=False,
                        help=f"corpus whose training statistics score the words (default: the id's prefix; "
                             f"{DEFAULT_CORPUS} for --text-file and --texts)")
    options.add_metric(p, default=[DEFAULT_METRIC])
    options.add_k(p)
    options.add_top(p)
    options.add_protocol(p, default=None, help=f"how words are weighted (default {DEFAULT_PROTOCOL}, the paper's, "
                         f"for --doc and --split; {NEW_TEXT_PROTOCOL} for --text-file and --texts, which have no "
                         "gold category); " + "; ".join(f"{n}: {i.help}" for n, i in PROTOCOL_INFO.items()))
    p.add_argument("--about", type=float, default=None, metavar="A",
                   help=f"0 = about this text (its own keyphrases) … 1 = about its category (the paper's "
                        f"discriminative words); default {DEFAULT_ABOUT} (docs/method.md §13)")
    p.add_argument("--baseline", action="store_true", help="score the document's own words, no vectors")
    p.add_argument("--sample", type=options.positive, metavar="N",
                   help="statistics from the first N documents per category and split only")
    options.add_vectors(p)
    options.add_neighbours(p)
    options.add_json(p)
    p.set_defaults(handler=cmd_keywords)
