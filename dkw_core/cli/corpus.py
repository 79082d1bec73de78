"""Sub-commands ``datasets``, ``prepare`` and ``keywords``."""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from ..types import DEFAULT_K, DEFAULT_PROTOCOL, NEW_TEXT_PROTOCOL, POSTERIOR_PROTOCOLS, PROTOCOL_INFO
from . import options
from .options import ProgressBar, print_json


def corpus_for(dataset: str, *, sample: int | None = None, include: list[str] | None = None):
    """Load a corpus, optionally as its first ``sample`` documents per category and split."""
    from ..corpora import load_corpus

    with ProgressBar(f"loading {dataset}") as progress:
        corpus = load_corpus(dataset, progress=progress)
    if sample:
        corpus = corpus.head(sample, include=include or ())
    return corpus


def _vectors(path: str | None):
    from ..vectors import load_vectors

    return load_vectors(path)


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
            print(f"{r['name']:10s} train {r['train'] or '?':>6}  test {r['test'] or '?':>6}  "
                  f"categories {r['categories']}{state}")
    return 0


# -- prepare -------------------------------------------------------------------------------
def cmd_prepare(args) -> int:
    from ..keywords import KeywordModel

    if args.scheduler is not None:
        return _prepare_on_cluster(args)
    corpus = corpus_for(args.dataset, sample=args.sample)
    with ProgressBar(f"preparing {corpus.key}") as progress:
        model = KeywordModel.prepare(corpus, _vectors(args.vectors), k_max=args.k_max, n_process=args.n_process,
                                     progress=progress, neighbours=args.neighbours)
    print(f"prepared {corpus.key} (neighbours {model.neighbours}): {len(corpus.documents):,} documents, "
          f"{len(model.phrases):,} unique phrases, "
          f"{model.nbr_idx.shape[0]:,} unique phrase vectors, {len(model.problems):,} documents without keywords")
    return 0


def _prepare_on_cluster(args) -> int:
    from ..cluster import CorpusRef, prepare_on_cluster, session

    with session(args.scheduler) as client, ProgressBar(f"preparing {args.dataset} on {args.scheduler}") as progress:
        done = prepare_on_cluster(client, CorpusRef(args.dataset, args.sample), vectors_path=args.vectors,
                                  k_max=args.k_max, neighbours=args.neighbours, progress=progress)
    if done.cached:
        print(f"{done.key} (neighbours {args.neighbours}) was already prepared: {done.path}")
    else:
        print(f"prepared {done.key} (neighbours {args.neighbours}) on {args.scheduler}: {done.documents:,} documents, "
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


def cmd_keywords(args) -> int:
    from ..keywords import BaselineModel, KeywordModel

    metrics = options.metrics_of(args)
    if args.split or args.texts:
        return _cmd_keywords_batch(args, metrics)
    if args.format or args.out or args.scheduler:
        raise InputError("--format, --out and --scheduler go with --split or --texts (many documents at once)")
    if bool(args.doc) == bool(args.text_file):
        raise InputError("give one of --doc ID, --text-file PATH, --split S or --texts PATH (the last three with "
                         "--dataset NAME)")
    if args.text_file and not args.dataset:
        raise InputError("--text-file needs --dataset NAME (the corpus whose statistics score the words)")
    dataset = args.dataset or args.doc.split("/", 1)[0]
    protocol = _protocol_of(args, new_texts=bool(args.text_file))
    text = _read_text_file(args.text_file) if args.text_file else None
    corpus = corpus_for(dataset, sample=args.sample, include=[args.doc] if args.doc else None)
    if args.doc:
        corpus.get(args.doc)  # unknown ids fail before any heavy work
    model: KeywordModel | BaselineModel
    with ProgressBar(f"preparing {corpus.key}") as progress:
        if args.baseline:
            model = BaselineModel.prepare(corpus, progress=progress)
        else:
            model = KeywordModel.prepare(corpus, _vectors(args.vectors), k_max=max(args.k, DEFAULT_K),
                                         progress=progress, neighbours=args.neighbours)
    result = {}
    weighting = None
    with ProgressBar(f"tagging {args.text_file or args.doc}") as tagging:
        for m in metrics:
            if text is not None:
                if not isinstance(model, KeywordModel):
                    raise InputError("--baseline works on corpus documents (--doc), not new texts")
                kws = model.keywords_for_text(text, metric=m, k=args.k, top=args.top, name=args.text_file,
                                              protocol=protocol, progress=tagging)
                if protocol in POSTERIOR_PROTOCOLS and weighting is None:
                    weighting = model.text_weighting(text)
            else:
                kws = model.keywords(args.doc, metric=m, k=args.k, top=args.top, protocol=protocol)
            result[m] = kws
    out = {
        "doc": args.doc or args.text_file,
        "keywords": {m: [kw.word for kw in kws] for m, kws in result.items()},
        "protocol": protocol,
        "dataset": corpus.key,
        "method": "baseline (own words)" if args.baseline else "latent (word vectors)",
        "vectors": model.vectors.name if isinstance(model, KeywordModel) else None,
        "neighbours": model.neighbours if isinstance(model, KeywordModel) else None,
        "k": None if args.baseline else args.k,
        "top": args.top,
    }
    if weighting is not None:  # which category the new text's words are weighted with, and how sure
        out.update(weighting.to_dict())
    if args.json:
        print_json(out)
    else:
        print(f"{out['doc']}  [{protocol}, {out['method']}, vectors={out['vectors']}, neighbours={out['neighbours']}, "
              f"K={out['k']}, N={args.top}, "
              f"statistics from the training split of {corpus.key}]")
        if weighting is not None:
            print(f"{'':>10}  {weighting.describe()}")
        for m, kws in result.items():
            print(f"{m:>10}: " + ", ".join(kw.word for kw in kws))
    return 0


def _cmd_keywords_batch(args, metrics: list[str]) -> int:
    """Every document of a split, or every text of a folder / JSONL / CSV, to JSONL or CSV."""
    from ..keywords import KeywordModel
    from ..keywords.batch import format_of, read_texts, split_records, text_records, write_records

    if args.doc or args.text_file or (args.split and args.texts):
        raise InputError("give either --split S or --texts PATH (not with --doc or --text-file)")
    if not args.dataset:
        raise InputError("--split and --texts need --dataset NAME (the corpus whose statistics score the words)")
    if args.baseline:
        raise InputError("--baseline works on single corpus documents (--doc)")
    fmt = format_of(args.format, args.out)
    protocol = _protocol_of(args, new_texts=bool(args.texts))
    if args.scheduler is not None:
        return _keywords_batch_on_cluster(args, metrics, fmt, protocol)
    items = read_texts(args.texts) if args.texts else None  # bad input fails before any heavy work
    corpus = corpus_for(args.dataset, sample=args.sample)
    with ProgressBar(f"preparing {corpus.key}") as progress:
        model = KeywordModel.prepare(corpus, _vectors(args.vectors), k_max=max(args.k, DEFAULT_K), progress=progress,
                                     neighbours=args.neighbours)
    with _output(args) as out, ProgressBar("keywords") as progress:
        records: Iterable[dict]
        if items is not None:
            records = text_records(model, items, metrics=metrics, k=args.k, top=args.top,
                                   n_process=args.n_process, total=len(items), progress=progress, protocol=protocol)
        else:
            records = split_records(model, args.split, metrics=metrics, k=args.k, top=args.top,
                                    protocol=protocol, progress=progress)
        n = write_records(records, out, fmt, metrics)
    _summary(args, n, protocol, metrics, corpus.key, fmt)
    return 0


def _protocol_of(args, *, new_texts: bool) -> str:
    """``--protocol``, else the default: the paper's label-aware for corpus documents,
    label-free-top1 for new texts (``--text-file``, ``--texts``), which have no gold category."""
    if not new_texts:
        return args.protocol or DEFAULT_PROTOCOL
    if args.protocol == "label-aware":
        raise InputError("a new text has no gold category: use --protocol label-free-top1 (the default for new "
                         "texts), label-free-posterior or label-free")
    return args.protocol or NEW_TEXT_PROTOCOL


@contextlib.contextmanager
def _output(args) -> Iterator:
    """``--out`` opened for writing (closed afterwards), or standard output."""
    if not args.out or args.out == "-":
        yield sys.stdout
        return
    with open(args.out, "w", encoding="utf-8", newline="") as out:
        yield out


def _summary(args, n: int, protocol: str, metrics: list[str], key: str, fmt: str, where: str = "") -> None:
    """One line on standard error when the records went to a file."""
    if args.out and args.out != "-":
        print(f"{n:,} documents, {protocol}, K={args.k}, N={args.top}, metrics {', '.join(metrics)}, statistics "
              f"from the training split of {key}{where} -> {args.out} ({fmt})", file=sys.stderr)


def _keywords_batch_on_cluster(args, metrics: list[str], fmt: str, protocol: str) -> int:
    """The batch export on a Dask cluster: prepared there if needed, records streamed back in order."""
    from ..cluster import CorpusRef, ModelRef, prepare_on_cluster, session
    from ..cluster.batch import split_records_on_cluster, text_records_on_cluster
    from ..keywords.batch import iter_texts, write_records

    items = iter_texts(args.texts) if args.texts else None  # the path's kind is checked here
    k_max = max(args.k, DEFAULT_K)
    ref = ModelRef(CorpusRef(args.dataset, args.sample), args.vectors, k_max, args.neighbours)
    with _output(args) as out, session(args.scheduler) as client:
        with ProgressBar(f"preparing {args.dataset} on {args.scheduler}") as progress:
            done = prepare_on_cluster(client, ref.corpus, vectors_path=args.vectors, k_max=k_max,
                                      neighbours=args.neighbours, progress=progress)
        with ProgressBar("keywords") as progress:
            if items is not None:
                records = text_records_on_cluster(client, ref, items, metrics=metrics, k=args.k, top=args.top,
                                                  progress=progress, protocol=protocol)
            else:
                records = split_records_on_cluster(client, ref, args.split, metrics=metrics, k=args.k,
                                                   top=args.top, protocol=protocol, progress=progress)
            n = write_records(records, out, fmt, metrics)
    _summary(args, n, protocol, metrics, done.key, fmt, f", on {args.scheduler}")
    return 0


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
    p.add_argument("--text-file", help=f"a UTF-8 text file to extract keywords from (default protocol "
                   f"{NEW_TEXT_PROTOCOL}; label-free-posterior and label-free also work)")
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
                        help="corpus whose training statistics score the words (default: the id's prefix)")
    options.add_metric(p, default=["tf-rf"])
    options.add_k(p)
    options.add_top(p)
    options.add_protocol(p, default=None, help=f"how words are weighted (default {DEFAULT_PROTOCOL}, the paper's, "
                         f"for --doc and --split; {NEW_TEXT_PROTOCOL} for --text-file and --texts, which have no "
                         "gold category); " + "; ".join(f"{n}: {i.help}" for n, i in PROTOCOL_INFO.items()))
    p.add_argument("--baseline", action="store_true", help="score the document's own words, no vectors")
    p.add_argument("--sample", type=options.positive, metavar="N",
                   help="statistics from the first N documents per category and split only")
    options.add_vectors(p)
    options.add_neighbours(p)
    options.add_json(p)
    p.set_defaults(handler=cmd_keywords)
