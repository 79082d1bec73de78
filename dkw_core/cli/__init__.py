"""Command line: ``python -m dkw_core <command> ...`` (or ``dkw <command>`` once installed).

One module per command group, registered here by explicit import:

====================  ====================================================
Shared option names and the progress bar live in :mod:`.options`; the study database engine of
every ``study`` sub-command in :mod:`.study_db`. A handler returns the exit
code; any :class:`~dkw_core.errors.DkwError` becomes a one-line ``error: …`` and exit code 2, and
an argparse error (an unknown option, a number out of range: :mod:`dkw_core.validation`) a one-line
``dkw: error: … (see --help)`` and exit code 2, before any work.
"""
from __future__ import annotations

import argparse
import sys
import warnings

from ..errors import DkwError
from ..terminal import escape
from ..types import DEFAULT_PROTOCOL, NEW_TEXT_PROTOCOL
from ..version import __version__
from . import categories, corpus, download, evaluation, hubness, study
from .options import Parser, check_args, print_json

__all__ = ["main", "build_parser", "print_json", "entry_point"]

_GROUPS = (corpus, categories, download, hubness, evaluation, study)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m dkw_core", description="Discriminative keywords in word-vector space.",
        epilog=f"Every command that weights documents takes --protocol. The default is {DEFAULT_PROTOCOL} (the "
               f"paper's protocol) for the documents of a corpus, and {NEW_TEXT_PROTOCOL} for new texts (keywords "
               "--text-file, --texts), which have no gold category. Every F1 printed names its protocol.")
    parser.add_argument("--version", action="version", version=f"dkw {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in _GROUPS:
        group.register(sub)
    return parser


_SHOW_WARNING = warnings.showwarning


def _one_line(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
    """Cache notices (a damaged entry rebuilt, nothing saved) as one ``notice:`` line on stderr."""
    from ..cache import CacheWarning

    if issubclass(category, CacheWarning):
        print(f"notice: {escape(message)}", file=sys.stderr)
    else:
        _SHOW_WARNING(message, category, filename, lineno, file, line)


def main(argv: list[str] | None = None) -> int:
    from sqlalchemy.exc import DatabaseError, OperationalError

    from ..db import describe_store_error

    warnings.showwarning = _one_line
    parser = build_parser()
    try:  # an argparse error is one line (options.Parser) and an exit code, as from a handler
        args = parser.parse_args(argv)
        sub = getattr(args, "dataset_required", None)
        if sub is not None and not args.dataset:
            sub.error("the following arguments are required: --dataset")
    except SystemExit as exc:  # also --help
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        if getattr(args, "neighbours", None) is not None:
            from ..neighbours import check_neighbours

            args.neighbours = check_neighbours(args.neighbours)  # its D is checked against the vectors later
        check_args(args)  # K against --k-max, the grids: before any work
        if hasattr(args, "scheduler"):
            from ..cluster import scheduler_from

            args.scheduler = scheduler_from(args.scheduler)  # a bad value fails before any work
        return int(args.handler(args) or 0)
    except DkwError as exc:
        print(f"error: {escape(exc)}", file=sys.stderr)
        return 2
    except (OperationalError, DatabaseError) as exc:  # locked or damaged database mid-command
        print(f"error: {escape(describe_store_error(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head & co.
        return 0
    except OSError as exc:  # e.g. a read-only or full folder met where dkw must write
        where = f" {exc.filename}" if exc.filename else ""
        print(f"error: {escape(f'cannot write or read{where}: {exc.strerror or exc}')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


def entry_point() -> None:
    """The ``dkw`` console script."""
    sys.exit(main())
