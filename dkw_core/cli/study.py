"""``python -m dkw_core study {init,list,create,invite,simulate,analyze,export,...}``: the human study.

Every command takes ``--db URL`` (any SQLAlchemy URL; default env ``DKW_STUDY_DB``, else
``sqlite:///<DKW_DATA_DIR>/study.sqlite``). Bad input raises a DkwError (one-line message).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import config
from ..errors import InputError
from ..types import DEFAULT_PROTOCOL, PROTOCOLS
from . import options
from .study_admin import register as register_admin
from .study_db import engine_for


def _tqdm_progress(desc: str):
    bar = options.ProgressBar(desc)
    return bar, bar


def _create(args) -> int:
    from ..study.providers import source
    from ..study.service import StudyConfig, create_study

    engine = engine_for(args.db)
    bar, progress = _tqdm_progress("create study")
    try:
        docs, cats, provider = source(args.dataset, progress=progress)
        config = StudyConfig(name=args.name or f"{args.dataset} study", corpus=args.dataset,
                             method_a=args.method_a, method_b=args.method_b, keywords_per_method=args.keywords,
                             articles_per_category=args.per_category,
                             categories_per_batch=args.categories_per_batch,
                             judges_per_article=args.judges, seed=args.seed, split=args.split,
                             protocol_a=args.protocol_a, protocol_b=args.protocol_b)
        study_id = create_study(engine, documents=docs, categories=cats, provider=provider, config=config,
                                progress=progress)
    finally:
        bar.close()
    from ..study.service import study_settings

    st = study_settings(engine, study_id)
    print(f"created study {study_id}: {st['articles_per_category']} articles per category drawn from the "
          f"{st['split']} split of {st['corpus']} with seed {st['seed']}; A = {st['method_a']} "
          f"({st['protocol_a']}), B = {st['method_b']} ({st['protocol_b']}), {st['keywords_per_method']} keywords each, "
          f"{st['judges_per_article']} judges per article")
    return 0


def _invite(args) -> int:
    from ..study.service import invite_judge

    engine = engine_for(args.db)
    names = list(args.name or [])
    names += [f"judge-{i + 1}" for i in range(args.count or 0)]
    if not names:
        raise InputError("give --name NAME (repeatable) or --count N")
    base = (args.base_url or "").rstrip("/")
    print("judge_id\tname\tcode\tlink")
    for name in names:
        judge_id, code = invite_judge(engine, args.study, name=name)
        link = f"{base}/Judge?code={code}" if base else ""
        print(f"{judge_id}\t{name}\t{code}\t{link}")
    return 0


def _simulate(args) -> int:
    from ..study.simulate import simulate

    engine = engine_for(args.db)
    bar, progress = _tqdm_progress("simulate")
    try:
        out = simulate(engine, args.study, judges=args.judges, mode=args.mode, seed=args.seed, progress=progress)
    finally:
        bar.close()
    print(f"{out['judgements']} judgements by {out['judges']} simulated judges ({args.mode})")
    return 0


def _analyze(args) -> int:
    from ..cli import print_json
    from ..study.analysis import analyze, format_report

    result = analyze(engine_for(args.db), args.study, include_simulated=args.include_simulated)
    if args.json:
        print_json(result)
    else:
        print(format_report(result))
    return 0


def _export(args) -> int:
    from ..study.export import export

    text = export(engine_for(args.db), args.study, args.format, include_simulated=args.include_simulated)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _init(args) -> int:
    from ..db import make_engine
    from ..study.schema import upgrade

    engine = make_engine(args.db or config.study_db_url(), default_file="study.sqlite")
    print(f"study schema at revision {upgrade(engine)} ({engine.url.render_as_string(hide_password=True)})")
    return 0


def _list(args) -> int:
    from ..study.service import list_studies

    for s in list_studies(engine_for(args.db)):
        print(f"{s['id']}\t{s['name']}\t{s['status']}\t{s['corpus']}\t{s['articles']} articles\t"
              f"A={s['method_a']} ({s['protocol_a']})\tB={s['method_b']} ({s['protocol_b']})")
    return 0


_positive = options.positive


def register(subparsers) -> None:
    p = subparsers.add_parser("study", help="blinded human-judging study (paper §4.6)")
    sub = p.add_subparsers(dest="study_command", required=True, metavar="ACTION")

    def add(name: str, handler, help_: str, *, study: bool = True):
        q = sub.add_parser(name, help=help_)
        q.add_argument("--db", help="SQLAlchemy URL (default $DKW_STUDY_DB or data/study.sqlite)")
        if study:
            q.add_argument("--study", type=int, required=True, help="study id")
        q.set_defaults(handler=handler)
        return q

    add("init", _init, "create or upgrade the study schema (Alembic, under a lock)", study=False)
    add("list", _list, "list studies", study=False)
    c = add("create", _create, "draw articles and keywords, store a new study", study=False)
    c.add_argument("--name")
    c.add_argument("--dataset", default="20ng", help="corpus to draw articles from (default 20ng)")
    c.add_argument("--corpus", dest="dataset", help=argparse.SUPPRESS)
    c.add_argument("--method-a", default="tf-rf")
    c.add_argument("--method-b", default="latent-5word-knn90-rf")
    c.add_argument("--keywords", type=_positive, default=5, help="keywords per method (default 5)")
    c.add_argument("--per-category", type=_positive, default=5, help="articles per category (default 5)")
    c.add_argument("--categories-per-batch", type=_positive, default=5)
    c.add_argument("--judges", type=_positive, default=3, help="judges per article (default 3)")
    c.add_argument("--seed", type=int, help="sampling seed (default: random, recorded)")
    c.add_argument("--split", default="test", choices=["test", "train", "all"])
    for slot in ("a", "b"):
        c.add_argument(f"--protocol-{slot}", choices=PROTOCOLS, default=DEFAULT_PROTOCOL,
                       help=f"keyword protocol of method {slot.upper()} (default {DEFAULT_PROTOCOL}, the paper's; "
                            f"label-free: no gold label read)")
    i = add("invite", _invite, "create judges and print their access codes")
    i.add_argument("--name", action="append", help="judge name (repeatable)")
    i.add_argument("--count", type=_positive, help="create N judges named judge-1..N")
    i.add_argument("--base-url", help="app URL, e.g. http://host:8501, to print judge links")
    s = add("simulate", _simulate, "fill the study with simulated judges")
    s.add_argument("--judges", type=_positive, help="number of simulated judges (default judges per article + 2)")
    s.add_argument("--mode", choices=["scripted", "random"], default="scripted")
    s.add_argument("--seed", type=int, default=0)
    a = add("analyze", _analyze, "distributions, agreement, Wilcoxon and sign tests")
    a.add_argument("--json", action="store_true")
    e = add("export", _export, "all answers with method provenance")
    e.add_argument("--format", choices=["csv", "json"], default="csv")
    options.add_out(e)
    for q in (a, e):
        q.add_argument("--include-simulated", action="store_true",
                       help="include simulated judges' answers (left out by default)")
    register_admin(add)
