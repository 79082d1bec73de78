"""Command line: ``python -m dkw_core <command> ...`` (or ``dkw <command>`` once installed).

One module per command group, registered here by explicit import:

=================  ==============================================================
:mod:`.corpus`     ``datasets``, ``prepare``, ``keywords``
:mod:`.categories` ``categories``
:mod:`.download`   ``download 20ng|r52|r8|webkb|webkb4|all``
:mod:`.hubness`    ``hubness``
:mod:`.evaluation` ``evaluate``, ``search``, ``baseline``, ``report``
:mod:`.study`      ``study list|create|invite|simulate|analyze|export``
=================  ==============================================================

Shared option names and the progress bar live in :mod:`.options`. A handler returns the exit
code; any :class:`~dkw_core.errors.DkwError` becomes a one-line ``error: …`` and exit code 2.
"""
from __future__ import annotations

import argparse
import sys

from ..errors import DkwError
from ..types import DEFAULT_PROTOCOL
from . import categories, corpus, download, evaluation, hubness, study
from .options import print_json

__all__ = ["main", "build_parser", "print_json"]

_GROUPS = (corpus, categories, download, hubness, evaluation, study)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dkw_core", description="Discriminative keywords in word-vector space.",
        epilog=f"Every command that weights documents takes --protocol; the default is {DEFAULT_PROTOCOL} "
               "(the paper's protocol). Every F1 printed names its protocol.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in _GROUPS:
        group.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from sqlalchemy.exc import DatabaseError, OperationalError

    from ..db import describe_store_error

    parser = build_parser()
    args = parser.parse_args(argv)
    sub = getattr(args, "dataset_required", None)
    if sub is not None and not args.dataset:
        sub.error("the following arguments are required: --dataset")
    try:
        if getattr(args, "neighbours", None) is not None:
            from ..neighbours import neighbours_spec

            args.neighbours = neighbours_spec(args.neighbours)
        if hasattr(args, "scheduler"):
            from ..cluster import scheduler_from

            args.scheduler = scheduler_from(args.scheduler)  # a bad value fails before any work
        return int(args.handler(args) or 0)
    except DkwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (OperationalError, DatabaseError) as exc:  # locked or damaged database mid-command
        print(f"error: {describe_store_error(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head & co.
        return 0
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


def entry_point() -> None:
    """The ``dkw`` console script."""
    sys.exit(main())
