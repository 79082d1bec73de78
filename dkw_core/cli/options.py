"""What every sub-command shares: option names, defaults, the progress bar, JSON output.

The same option means the same thing everywhere: ``--dataset`` (a built-in name, a folder or a
``.csv``), repeatable ``--metric``, ``--k``, ``--top``, ``--protocol`` (default: the paper's
label-aware protocol, see :data:`dkw_core.types.DEFAULT_PROTOCOL`), ``--out FILE``, ``--json``,
``--db URL``, ``--neighbours SPEC`` (step 3's retrieval: ``cosine``, ``csls-k10``, ``abtt-d3``).
Older spellings (``--corpus``, ``--metrics a,b``, ``--output``) are accepted as
hidden aliases.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time

from ..errors import InputError
from ..metrics import METRICS
from ..terminal import escape
from ..types import (
    DEFAULT_K,
    DEFAULT_PROTOCOL,
    DEFAULT_TOP,
    PROTOCOL_INFO,
    PROTOCOLS,
    Pace,
    Progress,
    describe_time_left,
)
from ..validation import MAX_K, MAX_PROCESSES, check_count, check_k, check_k_max, check_seed, check_top


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


class ProgressBar:
    """A library ``progress(fraction, message)`` callback on stderr, used as a context manager.
    On a terminal it draws a tqdm bar; in a pipe or a log it prints a plain line instead
    (``preparing 20ng: 37% tagged 300/1,200 documents, ~3 min left``) at most, and while the work
    advances at least, every :data:`LINE_SECONDS` seconds — the first once that long has passed,
    so work that ends sooner (or is refused at once) prints no progress line at all."""

    #: Seconds between two plain progress lines when stderr is not a terminal.
    LINE_SECONDS = 10.0

    def __init__(self, desc: str, *, clock=time.monotonic) -> None:
        from tqdm import tqdm

        self._plain = not sys.stderr.isatty()
        self._bar = tqdm(total=1000, desc=escape(desc), leave=False, file=sys.stderr, mininterval=0.5,
                         disable=self._plain,
                         bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}")
        self._n = 0
        self._desc, self._clock = desc, clock
        self._pace = Pace()
        self._printed = clock()  # the first line comes LINE_SECONDS after the start

    def __call__(self, fraction: float, message: str) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        if self._plain:
            self._line(fraction, message)
            return
        n = int(fraction * 1000)
        self._bar.set_postfix_str(escape(message[:70]), refresh=False)
        if n > self._n:
            self._bar.update(n - self._n)
            self._n = n

    def _line(self, fraction: float, message: str) -> None:
        now = self._clock()
        self._pace.mark(now, fraction)
        if now - self._printed < self.LINE_SECONDS:
            return
        self._printed = now
        left = describe_time_left(self._pace.left(now, fraction))
        text = ", ".join(part for part in (f"{fraction:.0%} {message}".strip(), left) if part)
        print(escape(f"{self._desc}: {text}"), file=sys.stderr, flush=True)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def ints(text: str) -> list[int]:
    """``"10,30,50"`` → ``[10, 30, 50]`` (a one-line error otherwise)."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"expected comma-separated integers, got {text!r}") from None
    if not values:
        raise InputError("empty list")
    return values


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with an option that is required but checked after parsing (``--dataset``,
    whose hidden alias ``--corpus`` counts too: :func:`add_dataset`) shown as required in the
    usage line, as its help says."""

    def _format_usage(self, usage, actions, groups, prefix):  # noqa: ANN001 - argparse's signature
        shown = []
        for action in actions:
            if getattr(action, "checked_required", False):
                action = copy.copy(action)
                action.required = True
            shown.append(action)
        return super()._format_usage(usage, shown, groups, prefix)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line, ``dkw: error: <message> (see --help)``, exit 2
    (argparse's own prints the whole usage block first). Sub-command parsers inherit it, and its
    :class:`HelpFormatter`."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - argparse's own
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.exit(2, f"dkw: error: {message} (see --help)\n")

    def parse_known_args(self, args=None, namespace=None):  # noqa: ANN001 - argparse's own
        """argparse's, but the value of an option added with :func:`dash_value` may start with
        ``-`` (``--name -cmd``): argparse reads any such word as an option (a documented
        limit of argparse), so ``OPT VALUE`` is passed on as ``OPT=VALUE`` unless VALUE is one
        of this parser's own options (``--name --count 2`` stays argparse's "expected one
        argument"). Sub-command parsers are called through this method too."""
        attach = getattr(self, "dash_values", ())
        if args is not None and attach:
            known = {s for action in self._actions for s in action.option_strings}
            words, out = list(args), []
            i = 0
            while i < len(words):
                word = words[i]
                if word == "--":
                    out.extend(words[i:])
                    break
                if word in attach and i + 1 < len(words) and words[i + 1].startswith("-") \
                        and words[i + 1] not in known and words[i + 1] != "--":
                    out.append(f"{word}={words[i + 1]}")
                    i += 2
                    continue
                out.append(word)
                i += 1
            args = out
        return super().parse_known_args(args, namespace)


def dash_value(p: argparse.ArgumentParser, *flags: str, **kwargs) -> argparse.Action:  # noqa: ANN003
    """``p.add_argument(*flags, **kwargs)`` for a free text (a name) that may start with ``-``:
    ``--name -cmd`` reads as ``--name=-cmd`` (:meth:`Parser.parse_known_args`)."""
    action = p.add_argument(*flags, **kwargs)
    p.dash_values = (*getattr(p, "dash_values", ()), *action.option_strings)  # type: ignore[attr-defined]
    return action


def _checked(check, text: str):
    """A ``type=`` function's value: ``check(int(text))``, a bad value as argparse's one-line error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    try:
        return check(value)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def counted(lo: int = 1, hi: int | None = None, name: str = "the value"):
    """A ``type=`` function for an integer in ``[lo, hi]`` (:func:`dkw_core.validation.check_count`)."""
    def parse(text: str) -> int:
        return _checked(lambda v: check_count(name, v, lo, hi), text)

    parse.__name__ = "integer"
    return parse


def positive(text: str) -> int:
    return _checked(lambda v: check_count("the value", v, 1), text)


def k_value(text: str) -> int:
    return _checked(check_k, text)


def k_max_value(text: str) -> int:
    return _checked(check_k_max, text)


def top_value(text: str) -> int:
    return _checked(check_top, text)


def seed_value(text: str) -> int:
    return _checked(lambda v: check_seed(v, "the seed"), text)


def n_process_value(text: str) -> int:
    return _checked(lambda v: check_count("the number of processes", v, 1, MAX_PROCESSES), text)


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def check_args(args) -> None:
    """The checks that involve two options or a list, after parsing and before any work
    (``cli.main``): K against --k-max, every K of --ks, every N of --tops, every size of --sizes."""
    k, k_max = getattr(args, "k", None), getattr(args, "k_max", None)
    if k is not None and k_max is not None and k > k_max:
        raise InputError(f"--k {k} must be between 1 and --k-max {k_max}")
    for option, check in (("ks", lambda v: check_k(v, k_max or MAX_K, why="--k-max" if k_max else "")),
                          ("tops", check_top), ("sizes", lambda v: check_count("a size of --sizes", v, 1))):
        text = getattr(args, option, None)
        if isinstance(text, str):
            for v in ints(text):
                check(v)


class _SplitMetrics(argparse.Action):
    """The hidden ``--metrics a,b`` alias: appends to the same list as ``--metric``."""

    def __call__(self, parser, namespace, values, option_string=None):
        current = list(getattr(namespace, self.dest) or [])
        current += [m.strip() for m in values.split(",") if m.strip()]
        setattr(namespace, self.dest, current)


def add_dataset(p: argparse.ArgumentParser, *, required: bool = True, help: str | None = None) -> None:
    # "required" is checked after parsing (cli.main) so that the hidden alias --corpus counts too
    action = p.add_argument("--dataset", metavar="NAME",
                            help=(help or "20ng, r52, r8, webkb, webkb4, 7sectors, a folder <split>/<category>/<file> "
                                  "or a .csv") + (" (required)" if required else ""))
    action.checked_required = required  # type: ignore[attr-defined]  # the usage line shows it required
    p.add_argument("--corpus", dest="dataset", help=argparse.SUPPRESS)
    if required:
        p.set_defaults(dataset_required=p)


def add_metric(p: argparse.ArgumentParser, *, default: list[str] | None = None, required: bool = False) -> None:
    shown = f" (default {', '.join(default)})" if default else ""
    # checked by metrics_of (a one-line error), not by argparse choices (usage + error)
    p.add_argument("--metric", action="append", metavar="M", required=required,
                   help=f"repeatable; one of {', '.join(METRICS)}{shown}")
    p.add_argument("--metrics", dest="metric", action=_SplitMetrics, help=argparse.SUPPRESS)
    p.set_defaults(metric_default=default)


def metrics_of(args) -> list[str]:
    """The ``--metric`` values, else the command's default; each checked against the registry."""
    from ..metrics import get_metric

    metrics = args.metric or getattr(args, "metric_default", None) or []
    for m in metrics:
        get_metric(m)
    return list(dict.fromkeys(metrics))


def add_k(p: argparse.ArgumentParser, *, default: int | None = DEFAULT_K) -> None:
    req = default is None
    p.add_argument("--k", type=k_value, default=default, required=req,
                   help="nearest words per phrase" + ("" if req else f" (default {default})"))


def add_top(p: argparse.ArgumentParser, *, default: int | None = DEFAULT_TOP) -> None:
    req = default is None
    p.add_argument("--top", type=top_value, default=default, required=req,
                   help="keywords per document, N" + ("" if req else f" (default {default})"))


def add_k_max(p: argparse.ArgumentParser) -> None:
    p.add_argument("--k-max", type=k_max_value, default=DEFAULT_K, help=f"neighbours prepared per phrase (default {DEFAULT_K})")


def add_protocol(p: argparse.ArgumentParser, *, both: bool = False, dest: str = "protocol",
                 flag: str = "--protocol", default: str | None = DEFAULT_PROTOCOL, help: str = "") -> None:
    choices = [*PROTOCOLS, "both"] if both else list(PROTOCOLS)
    shown = f" (default {default}: the paper's protocol)" if default == DEFAULT_PROTOCOL else ""
    p.add_argument(flag, dest=dest, choices=choices, default=default,
                   help=(help or "; ".join(f"{name}: {info.help}" for name, info in PROTOCOL_INFO.items())) + shown)


def add_out(p: argparse.ArgumentParser, help: str = "write to FILE (default: standard output)") -> None:
    p.add_argument("--out", metavar="FILE", help=help)
    p.add_argument("--output", dest="out", help=argparse.SUPPRESS)


def add_vectors(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vectors", metavar="PATH", help="word2vec/GloVe/fastText/.kv file (default: GloVe 6B 50d)")


def add_neighbours(p: argparse.ArgumentParser) -> None:
    """``--neighbours SPEC``; canonicalised (``csls`` → ``csls-k10``) and checked in ``cli.main``
    before any work, so a bad spec is a one-line error."""
    from ..neighbours import DEFAULT_NEIGHBOURS

    p.add_argument("--neighbours", default=DEFAULT_NEIGHBOURS, metavar="SPEC",
                   help="how step 3 finds the nearest words: cosine (the paper's), csls-k<k> (CSLS, e.g. csls-k10) "
                        f"or abtt-d<D> (all-but-the-top, e.g. abtt-d3) (default {DEFAULT_NEIGHBOURS})")


def add_scheduler(p: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS|local:N``: run the heavy steps on a Dask cluster; checked in
    ``cli.main`` before any work (see :mod:`dkw_core.cluster`)."""
    p.add_argument("--scheduler", metavar="ADDRESS|local:N",
                   help="run the heavy steps on a Dask cluster: a scheduler address (tcp://host:8786) or local:N "
                        "(N local worker processes); default DKW_DASK_SCHEDULER, else this machine only")


def add_sample(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sample", type=positive, metavar="N", help="only the first N documents per category and split")


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")


def add_db(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--db", metavar="URL", help=help)


def write_text(text: str, out: str | None) -> None:
    """A human-readable document (a Markdown report) to ``out`` or standard output, each line's
    control characters escaped (``terminal.escape``); its own line breaks kept."""
    text = "\n".join(escape(line) for line in text.split("\n"))
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
