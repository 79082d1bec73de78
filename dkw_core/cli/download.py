"""``python -m dkw_core download 20ng|r52|r8|webkb|webkb4|all``: fetch corpus archives now
(instead of on first use); see :mod:`dkw_core.corpora.download`."""
from __future__ import annotations

import argparse

from .. import config
from ..corpora.download import DOWNLOADABLE, archive_for, fetch
from .options import ProgressBar, seconds


def cmd_download(args) -> int:
    names = list(DOWNLOADABLE) if "all" in args.corpus else list(dict.fromkeys(args.corpus))
    folder = config.archives_dir()
    done: set[str] = set()
    for name in names:
        spec = archive_for(name)
        if spec.archive in done:  # r52 and r8 (webkb and webkb4) share an archive
            continue
        done.add(spec.archive)
        target = folder / spec.archive
        if target.is_file() and not args.force:
            print(f"{name}: {spec.archive} already in {folder}")
            continue
        with ProgressBar(f"{name}: {spec.archive}") as progress:
            path = fetch(name, archives=folder, force=args.force, progress=progress, timeout=args.timeout)
        record = path.with_name(path.name + ".sha256")
        how = record.read_text().splitlines()[1].lstrip("# ") if record.is_file() else ""
        print(f"{name}: {path} ({path.stat().st_size / 1e6:.1f} MB; {how})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    choices = sorted(DOWNLOADABLE) + ["all"]
    p = sub.add_parser("download", help="download corpus archives into DKW_ARCHIVES (default data/archives)",
                       description="Download built-in corpus archives into the archives folder (DKW_ARCHIVES, "
                                   "default data/archives). DKW_DOWNLOAD_BASE_URL names a mirror.")
    p.add_argument("corpus", nargs="+", choices=choices, metavar="CORPUS", help=f"one or more of {', '.join(choices)}")
    p.add_argument("--force", action="store_true", help="download again even when the archive is present")
    p.add_argument("--timeout", type=seconds, default=30.0, help="seconds to wait for a server (default 30)")
    p.set_defaults(handler=cmd_download)
