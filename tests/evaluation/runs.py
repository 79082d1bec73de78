"""Synthetic stored runs with per-document predictions on one test split (as ``load_runs`` and
``load_reference`` give them): metric runs with K chosen by the CV, the choice over all setups,
and the two bag-of-words baselines."""
from __future__ import annotations

import numpy as np
import pandas as pd

from dkw_core.evaluation.paired import encode_labels

GOLD = np.random.default_rng(0).integers(0, 4, 400)
SPLIT = "split-0"


def predictions(accuracy: float, seed: int) -> dict:
    """Predictions right on about ``accuracy`` of the documents (another category elsewhere)."""
    rng = np.random.default_rng(seed)
    right = rng.random(GOLD.size) < accuracy
    pred = np.where(right, GOLD, (GOLD + rng.integers(1, 4, GOLD.size)) % 4)
    return {"split": SPLIT, "gold": encode_labels(GOLD), "pred": encode_labels(pred)}


def f1(record: dict) -> float:
    from dkw_core.evaluation.paired import decode_labels

    return 100 * float(np.mean(decode_labels(record["pred"]) == GOLD))


def run(kind: str, protocol: str, metric: str, k: int, top: int, record: dict, options: dict) -> dict:
    return {"dataset": "toy", "kind": kind, "protocol": protocol, "metric": metric, "k": k, "top": top,
            "classifier": "svm-ovr", "vectors": "v", "split": "test", "sample": None, "micro_f1": f1(record),
            "macro_f1": f1(record) - 1, "options": options, "predictions": record}


CV = {"selection": "cv", "folds": 3, "max_per_category": 50, "seed": 0}
ACCURACY = {"ig": 0.86, "rf": 0.85, "tds": 0.80, "tf-idf": 0.40}


def make_runs(protocol: str = "label-free-top1", *, choice: tuple[str, int, int] = ("ig", 90, 10),
              baselines: bool = True) -> pd.DataFrame:
    rows = []
    for i, (metric, acc) in enumerate(ACCURACY.items()):
        for top in (5, 10):
            rows.append(run("search", protocol, metric, 90 if metric != "rf" else 50, top,
                            predictions(acc, 10 * i + top),
                            {**CV, "metrics": [metric], "tops": [top], "k_choice": "metric"}))
    metric, k, top = choice
    same = next(r for r in rows if (r["metric"], r["top"]) == (metric, top))
    rows.append(run("search", protocol, metric, k, top, same["predictions"],
                    {**CV, "metrics": list(ACCURACY), "tops": [5, 10]}))
    if baselines:
        rows.append(run("baseline-tfidf", "none", "tf-idf-sublinear", 0, 0, predictions(0.88, 99), {}))
        rows.append(run("baseline-bow", protocol, "tf-rf", 0, 10, predictions(0.83, 98), {}))
        rows.append(run("baseline-bow", "label-aware" if protocol != "label-aware" else "label-free", "tf-rf", 0, 10,
                        predictions(0.5, 97), {}))  # another protocol: never compared here
    return pd.DataFrame(rows)
