"""Choose the out-of-corpus rule of :mod:`dkw_core.keywords.fit` and measure it.

Texts that fit: 20 Newsgroups documents; texts that do not: R8 and WebKB documents (news on
trade and earnings, university web pages), all scored with 20ng's shipped statistics. The
thresholds (similarity to the nearest category, top posterior P) are chosen on the TRAINING
splits' first documents per category (best F1 of "out of the corpus" over a grid); precision and
recall are then measured on the TEST splits. Writes ``docs/results/keyphrases/corpus-fit.json``.

    DKW_ARCHIVES=/work/data/archives python scripts/corpus_fit.py --per 15
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dkw_core.corpora import load_corpus  # noqa: E402
from dkw_core.keywords.shipped import load_shipped  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "results" / "keyphrases" / "corpus-fit.json"


def signals(model, corpus: str, split: str, per: int) -> np.ndarray:
    """(texts x 2): similarity to the nearest category and top P, first ``per`` texts per category."""
    from dkw_core.keywords.newtexts import text_keywords

    seen: dict[str, int] = {}
    items = []
    for d in load_corpus(corpus).documents:
        if d.split != split or seen.get(d.label, 0) >= per:
            continue
        seen[d.label] = seen.get(d.label, 0) + 1
        items.append((d.id, d.text))
    found = text_keywords(model, items, metrics=["rf"], top=1, about=1.0, fit=True)  # the one path of new texts
    return np.array([(f.fit.similarity, f.fit.p) for f in found if f.problem is None])


def scores(inside: np.ndarray, outside: np.ndarray, s: float, p: float) -> dict:
    def out(x):
        return (x[:, 0] < s) & (x[:, 1] < p)
    tp, fp = int(out(outside).sum()), int(out(inside).sum())
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / len(outside)
    return {"precision": round(prec, 4), "recall": round(rec, 4),
            "f1": round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0,
            "inside": len(inside), "outside": len(outside)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per", type=int, default=15, help="texts per category and split")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    cached = Path(args.out).with_suffix(".signals.npz")
    if cached.is_file():  # the texts' signals of an earlier run (tagging is the slow part)
        with np.load(cached) as z:
            data = {s: (z[f"{s}_in"], z[f"{s}_out"]) for s in ("train", "test")}
    else:
        model = load_shipped("20ng")
        data = {split: (signals(model, "20ng", split, args.per),
                        np.vstack([signals(model, c, split, args.per) for c in ("r8", "webkb")]))
                for split in ("train", "test")}
        cached.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cached, **{f"{s}_{w}": data[s][i] for s in data for i, w in enumerate(("in", "out"))})
    grid = [(s, p) for s in np.round(np.arange(0.60, 1.001, 0.01), 2) for p in np.round(np.arange(0.3, 1.01, 0.05), 2)]
    best = max(grid, key=lambda sp: (scores(*data["train"], *sp)["f1"], -sp[0]))
    result = {"in": "20ng", "out": ["r8", "webkb"], "statistics": "20ng shipped", "per_category": args.per,
              "chosen_on": "train", "min_similarity": float(best[0]), "min_p": float(best[1]),
              "train": scores(*data["train"], *best), "test": scores(*data["test"], *best)}
    print(json.dumps(result, indent=1))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
