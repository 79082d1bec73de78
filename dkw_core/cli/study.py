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
from ..study.settings import PLAN_SIMULATIONS, StudyConfig
from ..terminal import escape
from ..types import DEFAULT_PROTOCOL, PROTOCOLS
from ..validation import MAX_INVITE, check_name
from . import options
from .study_admin import add_rule_options, rules_from_args
from .study_admin import register as register_admin
from .study_db import engine_for

#: ``study create``'s defaults: the paper's study (§4.6), one definition (StudyConfig).
DEFAULTS = StudyConfig.defaults()


def _method_arg(text: str):
    """``SPEC`` or ``SPEC@PROTOCOL`` of ``--method``."""
    from ..study.settings import MethodSpec

    spec, _sep, protocol = text.partition("@")
    return MethodSpec(spec.strip(), protocol.strip() or DEFAULT_PROTOCOL)


def _builtin_methods(args) -> tuple:
    """``--method`` list, or else the A/B pair (``--method-a`` / ``--method-b``, StudyConfig's defaults)."""
    from ..study.methods import check_method_spec
    from ..study.settings import MethodSpec

    pair_given = any(getattr(args, k) is not None for k in ("method_a", "method_b", "protocol_a", "protocol_b"))
    if args.method and pair_given:
        raise InputError("give either --method (repeatable) or --method-a/--method-b/--protocol-a/--protocol-b, "
                         "not both")
    if args.method:
        methods = tuple(_method_arg(check_name("--method", m)) for m in args.method)
    else:
        d = StudyConfig.defaults()
        methods = (MethodSpec(args.method_a or d["method_a"], args.protocol_a or d["protocol_a"]),
                   MethodSpec(args.method_b or d["method_b"], args.protocol_b or d["protocol_b"]))
    if not config.study_fake_keywords():  # the demo's fake provider understands any spec
        for m in methods:
            check_method_spec(m.name)
    return methods


def _create(args) -> int:
    from ..study.methods import imported_methods, read_imported
    from ..study.providers import source
    from ..study.service import create_study

    if args.name is not None:
        check_name("the study's name", args.name)  # before the corpus is loaded
    methods = _builtin_methods(args)
    engine = engine_for(args.db)
    with options.ProgressBar("create study") as progress:
        sample = args.sample if args.sample is not None else config.sample_per_category()
        docs, cats, provider = source(args.dataset, progress=progress, sample=sample)
        known = {d.id for d in docs}
        for path in args.import_ or ():
            methods += tuple(imported_methods(read_imported(path, doc_ids=known), source=Path(path).name))
        from ..study.settings import ExclusionRules

        cfg = StudyConfig(name=args.name or f"{args.dataset} study", corpus=args.dataset, methods=methods,
                          attention_share=args.attention_share, rules=rules_from_args(args, ExclusionRules()),
                          keywords_per_method=args.keywords, articles_per_category=args.per_category,
                          categories_per_batch=args.categories_per_batch,
                          judges_per_article=args.judges, seed=args.seed, split=args.split, sample=sample)
        study_id = create_study(engine, documents=docs, categories=cats, provider=provider, config=cfg,
                                progress=progress)
    from ..study.creation import keywords_shown
    from ..study.exclusion import checks_and_rules
    from ..study.service import study_settings

    st = study_settings(engine, study_id)
    described = ", ".join(f"{m['label']} = {escape(m['name'])} ({m['protocol']})" for m in st["methods"])
    print(f"created study {study_id}: {st['articles_per_category']} articles per category drawn from the "
          f"{st['split']} split of {escape(st['corpus'])} with seed {st['seed']}; {described}, "
          f"{keywords_shown(st['methods'])}, {st['judges_per_article']} judges per article")
    print(checks_and_rules(engine, study_id))
    return 0


def _methods(args) -> int:
    from ..study.methods import describe_methods

    print("spec\tkind\twhat")
    for row in describe_methods():
        print("\t".join(escape(row[k]) for k in ("spec", "kind", "help")))
    return 0


def _invite(args) -> int:
    from ..study.service import invite_judge

    engine = engine_for(args.db)
    names = [check_name("a judge's name", n.strip()) for n in args.name or []]  # every name before any judge
    names += [f"judge-{i + 1}" for i in range(args.count or 0)]
    if not names:
        raise InputError("give --name NAME (repeatable) or --count N")
    base = (args.base_url or "").rstrip("/")
    for i, name in enumerate(names):
        judge_id, code = invite_judge(engine, args.study, name=name)
        if i == 0:  # the header once the first judge exists: a refused invite prints nothing on stdout
            print("judge_id\tname\tcode\tlink")
        link = f"{base}/Judge?code={code}" if base else ""
        print(f"{judge_id}\t{escape(name)}\t{code}\t{escape(link)}")
    return 0


def _simulate(args) -> int:
    from ..study.simulate import simulate

    engine = engine_for(args.db)
    with options.ProgressBar("simulate") as progress:
        out = simulate(engine, args.study, judges=args.judges, mode=args.mode, seed=args.seed, progress=progress)
    print(f"{out['judgements']} judgements by {out['judges']} simulated judges ({args.mode})")
    return 0


def _analyze(args) -> int:
    from ..study.analysis import analyze, format_report
    from .options import print_json

    result = analyze(engine_for(args.db), args.study, include_simulated=args.include_simulated)
    if args.json:
        print_json(result)
    else:
        options.write_text(format_report(result) + "\n", None)
    return 0


def _export(args) -> int:
    from ..study.export import export

    if args.format == "participants":
        from ..study.participants import participants_csv

        if args.include_simulated or args.participant_ids:
            raise InputError("--format participants has every platform participant with her id (never a simulated "
                             "judge): leave out --include-simulated and --participant-ids")
        return _write_export(args.out, participants_csv(engine_for(args.db), args.study))
    if args.format in ("tidy-csv", "parquet"):
        from ..study.tidy import tidy_export

        if args.participant_ids:
            raise InputError("the tidy export never holds platform participant ids; use --format csv or json")
        if args.format == "parquet" and not args.out:
            raise InputError("--format parquet writes a binary file: give --out FILE")
        return _write_export(args.out, tidy_export(engine_for(args.db), args.study,
                                                   "csv" if args.format == "tidy-csv" else "parquet",
                                                   include_simulated=args.include_simulated))

    return _write_export(args.out, export(engine_for(args.db), args.study, args.format,
                                          include_simulated=args.include_simulated,
                                          participant_ids=args.participant_ids))


def _write_export(out: str | None, data: str | bytes) -> int:
    """An export to ``out`` (written whole or not at all: a failure leaves no partial file, an older
    file stays as it was; its name shown escaped) or, without ``out``, to standard output."""
    from ..cache import atomic_file

    if not out:
        sys.stdout.write(data if isinstance(data, str) else data.decode("utf-8"))
        return 0
    with atomic_file(Path(out)) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")
    print(f"wrote {escape(out)}", file=sys.stderr)
    return 0


def _plan(args) -> int:
    from ..study.planner import format_plan, plan_study
    from .options import print_json

    result = plan_study(engine_for(args.db), args.study, difference=args.difference, articles=args.articles,
                        judges=args.judges, simulations=args.simulations, seed=args.seed,
                        **({"keywords": args.keywords} if args.keywords else {}))
    if args.json:
        print_json(result)
    else:
        print(format_plan(result))
    return 0


def _init(args) -> int:
    from ..db import safe_url
    from ..study.schema import open_study_db, revision

    engine = open_study_db(args.db or config.study_db_url())
    print(f"study schema at revision {revision(engine)} ({safe_url(engine.url)})")
    return 0


def _list(args) -> int:
    from ..study.service import list_studies

    for s in list_studies(engine_for(args.db)):
        methods = "\t".join(f"{m['label']}={escape(m['name'])} ({m['protocol']})" for m in s["methods"])
        print(f"{s['id']}\t{escape(s['name'])}\t{s['status']}\t{escape(s['corpus'])}\t{s['articles']} articles\t"
              f"{methods}")
    return 0


_positive = options.positive


def register(subparsers) -> None:
    p = subparsers.add_parser("study", help="blinded human-judging study (paper §4.6)")
    sub = p.add_subparsers(dest="study_command", required=True, metavar="ACTION")

    def add(name: str, handler, help_: str, *, study: bool = True):
        q = sub.add_parser(name, help=help_)
        q.add_argument("--db", help="SQLAlchemy URL (default $DKW_STUDY_DB or data/study.sqlite)")
        if study:
            q.add_argument("--study", type=_positive, required=True, help="study id")
        q.set_defaults(handler=handler)
        return q

    add("init", _init, "create or upgrade the study schema (Alembic, under a lock)", study=False)
    add("list", _list, "list studies", study=False)
    add("methods", _methods, "list the built-in keyword methods a study can compare", study=False)
    c = add("create", _create, "draw articles and keywords, store a new study", study=False)
    options.dash_value(c, "--name", help="the study's name (may start with '-')")
    c.add_argument("--dataset", default=DEFAULTS["corpus"], help=f"corpus to draw articles from (default "
                                                                 f"{DEFAULTS['corpus']})")
    c.add_argument("--corpus", dest="dataset", help=argparse.SUPPRESS)
    c.add_argument("--method", action="append", metavar="SPEC[@PROTOCOL]",
                   help="a compared method (repeatable, labelled A, B, C… in order): latent-5word-knn<K>-<metric>"
                        "[:<neighbours>], a metric such as tf-rf, or yake; @PROTOCOL picks its protocol "
                        f"(default {DEFAULT_PROTOCOL}). See `study methods`. Default: the paper's pair")
    c.add_argument("--import", dest="import_", action="append", metavar="FILE",
                   help="add every method of a CSV or JSONL keyword file (doc_id, method, ordered keywords; "
                        "docs/study.md), after the built-in methods (repeatable)")
    c.add_argument("--method-a", default=None, help=f"the paper's method A (default {DEFAULTS['method_a']})")
    c.add_argument("--method-b", default=None, help=f"the paper's method B (default {DEFAULTS['method_b']})")
    c.add_argument("--keywords", type=_positive, default=DEFAULTS["keywords_per_method"],
                   help=f"keywords per method (default {DEFAULTS['keywords_per_method']})")
    c.add_argument("--per-category", type=_positive, default=DEFAULTS["articles_per_category"],
                   help=f"articles per category (default {DEFAULTS['articles_per_category']})")
    c.add_argument("--categories-per-batch", type=_positive, default=DEFAULTS["categories_per_batch"],
                   help=f"categories per batch (default {DEFAULTS['categories_per_batch']})")
    c.add_argument("--judges", type=_positive, default=DEFAULTS["judges_per_article"],
                   help=f"judges per article (default {DEFAULTS['judges_per_article']})")
    c.add_argument("--seed", type=options.seed_value, help="sampling seed (default: random, recorded)")
    c.add_argument("--sample", type=_positive, metavar="N",
                   help="draw from a slice: the first N documents per category and split (default "
                        "$DKW_SAMPLE_PER_CATEGORY, else the whole corpus)")
    c.add_argument("--split", default=DEFAULTS["split"], choices=["test", "train", "all"])
    c.add_argument("--attention-share", type=float, default=DEFAULTS["attention_share"], metavar="F",
                   help="share of articles (0..1) carrying one planted intruder keyword from a distant category, "
                        f"an attention check (default {DEFAULTS['attention_share']})")
    add_rule_options(c)
    for slot in ("a", "b"):
        c.add_argument(f"--protocol-{slot}", choices=PROTOCOLS, default=None,
                       help=f"keyword protocol of method {slot.upper()} (default {DEFAULTS['protocol_' + slot]}, "
                            f"the paper's; label-free: no gold label read)")
    i = add("invite", _invite, "create judges and print their access codes")
    options.dash_value(i, "--name", action="append", help="judge name (repeatable; may start with '-')")
    i.add_argument("--count", type=options.counted(1, MAX_INVITE, "--count"), help="create N judges named judge-1..N")
    i.add_argument("--base-url", help="app URL, e.g. http://host:8501, to print judge links")
    s = add("simulate", _simulate, "fill the study with simulated judges")
    s.add_argument("--judges", type=_positive, help="number of simulated judges (default judges per article + 2)")
    s.add_argument("--mode", choices=["scripted", "random"], default="scripted")
    s.add_argument("--seed", type=options.seed_value, default=0)
    a = add("analyze", _analyze, "distributions, agreement, Wilcoxon and sign tests")
    a.add_argument("--json", action="store_true")
    pl = add("plan", _plan, "sample size: power of articles x judges designs to detect a rating difference, "
                            "simulated from the study's pilot judgements (or its simulated judges)")
    pl.add_argument("--difference", type=float, default=0.2, help="rating difference to detect, in points (0.2)")
    pl.add_argument("--articles", type=options.ints, default=[25, 50, 100, 200], help="article counts (25,50,100,200)")
    pl.add_argument("--judges", type=options.ints,
                    help="judges per article (default: the study's fixed number; e.g. 1,3,5 to try others)")
    pl.add_argument("--keywords", type=_positive, help="keywords per method (default: the study's)")
    pl.add_argument("--simulations", type=_positive, default=PLAN_SIMULATIONS,
                    help=f"simulated studies per design ({PLAN_SIMULATIONS}: each power's Monte Carlo standard "
                         f"error at most {50 / PLAN_SIMULATIONS ** 0.5:.1f} points)")
    pl.add_argument("--seed", type=options.seed_value, default=0)
    pl.add_argument("--json", action="store_true")
    e = add("export", _export, "all answers with method provenance")
    e.add_argument("--format", choices=["csv", "json", "tidy-csv", "parquet", "participants"], default="csv",
                   help="csv / json: one row per answer with every method's provenance; tidy-csv / parquet: one "
                        "row per answer and method with exclusion flags, typed as docs/study.md's codebook; "
                        "participants: one row per platform participant (platform id, judge, articles, completed, "
                        "each exclusion rule's flag, the completion code she was shown), CSV")
    options.add_out(e)
    e.add_argument("--participant-ids", action="store_true",
                   help="add the platform participant ids (column participant_id; left out by default)")
    for q in (a, e):
        q.add_argument("--include-simulated", action="store_true",
                       help="include simulated judges' answers (left out by default)")
    register_admin(add)
