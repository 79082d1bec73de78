"""Command line: ``python -m dkw_core <command> ...``.

Each feature package contributes its sub-commands through a ``register(subparsers)``
function listed in ``_PLUGINS``; a handler returns the process exit code. Any
:class:`~dkw_core.errors.DkwError` becomes a one-line message and exit code 2.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from sqlalchemy.exc import DatabaseError, OperationalError

from .db import describe_store_error
from .errors import DkwError

# Modules that add sub-commands. Each has ``register(subparsers) -> None``.
_PLUGINS = (
    "dkw_core.cli_core",        # datasets, prepare, keywords
    "dkw_core.cli_download",    # download
    "dkw_core.evaluation.cli",  # evaluate, search, baseline, report
    "dkw_core.study.cli",       # study create/simulate/analyze/...
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dkw_core", description="Discriminative keywords in word-vector space.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # feature not installed in this checkout
            raise
        module.register(sub)
    return parser


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
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
