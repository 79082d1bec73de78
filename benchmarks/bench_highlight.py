"""Time of marking a keyword's phrases in a long document (``dkw_app.highlight.highlight_html``,
the Documents page's highlighting), in the current process.

    .venv/bin/python benchmarks/bench_highlight.py --mb 5 --phrases 300
    .venv/bin/python benchmarks/bench_highlight.py --root /tmp/old   # before (a git worktree)

The document is English-like text of ``--mb`` megabytes: words drawn (seeded) from wordfreq's
5,000 most frequent English words by their frequency, in sentences and paragraphs. The phrases
are ``--phrases`` distinct one- to three-word phrases of the same words, as a keyword's
provenance holds them (the page marks at most ``MAX_PHRASES`` = 300). Prints a JSON line: wall and CPU
seconds of ``highlight_html`` (best of ``--repeat``), the 1-minute load, the spans marked and the characters of the text.
``--root`` imports ``dkw_app`` from another checkout (e.g. ``git worktree add /tmp/old <commit>``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from repo_root import ROOT  # the repository root, put first on sys.path (scripts/repo_root.py)


def document(mb: float, seed: int) -> str:
    import numpy as np
    from wordfreq import top_n_list, word_frequency

    words = [w for w in top_n_list("en", 5000) if w.isalpha()]
    weights = np.array([word_frequency(w, "en") for w in words])
    rng = np.random.default_rng(seed)
    drawn = rng.choice(words, size=int(mb * 1e6 / 5), p=weights / weights.sum())  # ~5 characters a word
    ends = np.cumsum(rng.integers(6, 25, size=len(drawn)))
    parts, start = [], 0
    for end in ends[ends < len(drawn)]:
        parts.append(" ".join(drawn[start:end]).capitalize() + (".\n\n" if rng.random() < 0.15 else ". "))
        start = end
    text = "".join(parts)
    while len(text) < mb * 1e6:
        text += text
    return text[:int(mb * 1e6)]


def phrases(n: int, seed: int) -> list[str]:
    import numpy as np
    from wordfreq import top_n_list

    words = [w for w in top_n_list("en", 3000)[100:] if w.isalpha()]  # content words, not "the"
    rng = np.random.default_rng(seed + 1)
    out: set[str] = set()
    while len(out) < n:
        out.add(" ".join(rng.choice(words, size=int(rng.integers(1, 4)))))
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0, help="size of the document in MB (default 5)")
    parser.add_argument("--phrases", type=int, default=300, help="number of phrases to mark (default 300)")
    parser.add_argument("--repeat", type=int, default=1, help="runs; the best is reported (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--root", default=None, help="import dkw_app from this checkout instead")
    args = parser.parse_args()
    if args.root:
        sys.path.insert(0, args.root)
    from dkw_app import highlight

    text, marked = document(args.mb, args.seed), phrases(args.phrases, args.seed)
    best, cpu, found = float("inf"), float("inf"), 0
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        _html, found = highlight.highlight_html(text, marked)
        best, cpu = min(best, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    print(json.dumps({"seconds": round(best, 3), "cpu_seconds": round(cpu, 3), "spans": found, "characters": len(text),
                      "phrases": len(marked), "load": round(os.getloadavg()[0], 1),
                      "dkw_app": str(highlight.__file__).replace(str(ROOT), ".")}))


if __name__ == "__main__":
    main()
