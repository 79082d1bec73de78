"""Writing the reference results shipped with dkw (``docs/results/<corpus>.json``): the maintainer's
side of :mod:`dkw_core.evaluation.reference`, which reads them back for the app.

One JSON file per corpus, written by ``scripts/bench_eval.py --reference FILE`` (and
``scripts/write_reference.py``) from the results store: every run of the current dkw version on that
corpus, the significance tables between metrics, the leak checks, and what produced them (dkw
version, date, machine, command, wall time, peak memory). ``scripts/complete_reference.py`` refreshes
the tables of a completed file and ``scripts/extractor_results.py`` writes the extractors' files with
the same head. Every row says how each parameter was chosen (:func:`chosen_by`); nothing is chosen by
its test score.
"""
from __future__ import annotations

import base64
import json
import os
import platform
import zlib
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
from repo_root import ROOT  # noqa: F401  (the repository root, put first on sys.path: scripts/repo_root.py)

from dkw_core.evaluation.protocols import dkw_version, standard  # noqa: E402
from dkw_core.evaluation.reference import (  # noqa: E402
    FORMAT,
    P_VALUES_KEY,
    PACKED,
    RUN_FIELDS,
    _read,
    rounded_p_decimals,
    runs_frame,
)


def pack_predictions(text: str) -> str:
    """A run's prediction string (:func:`.paired.encode_labels`) as stored in a reference file:
    zlib-compressed and base64-encoded, about 2.4× smaller (a 20ng run: 7,532 → ~3,200 characters)."""
    if text.startswith(PACKED):
        return text
    return PACKED + base64.b64encode(zlib.compress(text.encode("ascii"), 9)).decode("ascii")


def chosen_by(row) -> str:
    """How the K, metric and N of a stored run were chosen, in words."""
    kind = row.get("kind")
    options = row.get("options") if isinstance(row.get("options"), dict) else {}
    if kind == "search" and options.get("selection") == "cv":
        how = (f"stratified {options.get('folds')}-fold CV on the training split"
               + (f" (at most {options['max_per_category']} documents per category)"
                  if options.get("max_per_category") else "") + ", fold-local statistics")
        if len(options.get("metrics", [])) > 1:
            return f"K, metric and N chosen by {how}; chi2, tf-chi2 excluded as in the paper"
        return f"K chosen per (metric, N) by {how}; metric and N fixed"
    if kind == "search":
        if len(options.get("metrics", [])) > 1:
            return ("K, metric and N chosen by Algorithm 2 over all setups on the training split "
                    "(fold-local statistics; chi2, tf-chi2 excluded as in the paper)")
        return "K chosen by Algorithm 2 on the training split (fold-local statistics); metric and N fixed"
    if kind == "method":
        return "K, metric and N fixed (grid point, not a choice)"
    if kind == "baseline-tfidf":
        return "no parameters chosen (sublinear tf-idf, C = 1)"
    if kind == "baseline-bow":
        return "metric and N fixed"
    if kind == "extractor":
        return "N fixed; the method's own keywords (no parameter chosen)"
    return ""


def machine() -> dict:
    info = {"node": platform.node(), "platform": platform.platform(), "python": platform.python_version(),
            "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count()}
    try:
        import psutil

        info["memory_gib"] = round(psutil.virtual_memory().total / 2**30, 1)
    except Exception:  # pragma: no cover - psutil missing
        pass
    return info


def _clean_p(value):
    if isinstance(value, (np.floating, float)):
        return None if pd.isna(value) else float(value)
    return _clean(value)


def _clean(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return None if pd.isna(value) else round(float(value), 4)
    if isinstance(value, dict):
        return {k: _clean_p(v) if str(k).startswith("p_") else _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if value is pd.NA:
        return None
    return value


def portable(text: str) -> str:
    """``text`` with this machine's folders replaced by the variables that name them
    (``$DKW_DATA_DIR``, ``$DKW_ARCHIVES``), so a shipped file holds no machine-specific path."""
    from dkw_core.config import archives_dir, data_dir

    for folder, name in ((data_dir(), "$DKW_DATA_DIR"), (archives_dir(), "$DKW_ARCHIVES")):
        resolved = str(Path(folder).resolve())
        if len(resolved) > 1:
            text = text.replace(resolved, name)
    return text


def payload_head(dataset: str, command: str, **first) -> dict:
    """The fields every reference document opens with (the runs' and the extractors'), ``first``
    right after the p-value note."""
    return {"format": FORMAT, P_VALUES_KEY: "unrounded", **first, "dkw_version": dkw_version(), "dataset": dataset,
            "date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
            "command": portable(command), "units": "F1 in percent on the test split"}


def reference_payload(runs: pd.DataFrame, *, dataset: str, command: str, extra: dict | None = None) -> dict:
    """The reference document of one corpus from its runs (current version only)."""
    runs = runs[~runs["stale"].astype(bool)] if "stale" in runs.columns else runs
    records = []
    test_labels: dict[str, str] = {}  # split fingerprint -> gold categories, once per file
    for _, row in runs.iterrows():
        rec = {f: _clean(row.get(f)) for f in RUN_FIELDS}
        rec["chosen_by"] = chosen_by(row)
        pred = row.get("predictions")
        if isinstance(pred, dict) and pred.get("pred"):
            test_labels.setdefault(pred["split"], pred["gold"])
            rec["test_split"], rec["predictions"] = pred["split"], pack_predictions(pred["pred"])
        records.append(rec)
    significance, comparisons = comparison_tables(runs, dataset=dataset)
    stability = seed_stability(records)
    return {
        **payload_head(dataset, command, **({"stability": stability} if stability else {})),
        "runs": records,
        "test_labels": test_labels,
        "significance": significance,
        "comparisons": comparisons,
        **({k: _clean(v) for k, v in (extra or {}).items() if v is not None}),
    }


COMPARISON_METHOD = ("McNemar exact (binomial on discordant documents); paired bootstrap 95 % percentile CI of the "
                     "micro-F1 difference; Holm over the pairs; the tf-idf + LinearSVC classifier (baseline-tfidf) "
                     "and the keyword baseline of the same protocol and N (baseline-bow) compared like the metrics")


def comparison_tables(runs: pd.DataFrame, *, dataset: str) -> tuple[dict, dict]:
    """(``significance``, ``comparisons``) of a reference document from its runs: the paper's
    appendix-D test per protocol, and per protocol every pair of metrics and baselines at N = 10
    (CV-chosen K) compared per document; p-values unrounded."""
    from dkw_core.evaluation.comparisons import per_document, significance_table

    significance = {}
    for proto in ("label-aware", "label-free"):
        table = significance_table(runs, proto)
        if table is not None and not table.empty:
            significance[proto] = [_clean(r) for r in table.to_dict(orient="records")]
    comparisons = {}
    for proto in sorted({str(p) for p in runs.get("protocol", pd.Series(dtype=str)).dropna()} - {"none"}):
        table = pd.DataFrame()
        for selection in ("cv", "algorithm2"):  # the robust choice's runs when there are, else the paper's
            table = per_document(runs, dataset=dataset, protocol=proto, top=10, selection=selection)
            if not table.empty:
                break
        if not table.empty:
            comparisons[proto] = {"top": 10, "selection": selection, "method": COMPARISON_METHOD,
                                  "pairs": [_clean(r) for r in table.to_dict(orient="records")]}
    return significance, comparisons


def refresh_tables(data: dict) -> dict:
    """A reference document with its ``significance`` and ``comparisons`` recomputed from its own
    runs (their stored predictions), p-values unrounded: how a completed file (baseline
    predictions added, ``scripts/complete_reference.py``) gets tables that match its runs."""
    runs = runs_frame(data)
    significance, comparisons = comparison_tables(runs, dataset=str(data.get("dataset")))
    return {**data, P_VALUES_KEY: "unrounded", "significance": significance, "comparisons": comparisons}


def _run_key(rec: dict) -> str:
    opts = {k: v for k, v in (rec.get("options") or {}).items() if k != "k_max"}
    return json.dumps([rec.get("kind"), rec.get("protocol"), rec.get("metric") if rec.get("kind") != "search"
                       else None, rec.get("k") if rec.get("kind") == "method" else None,
                       rec.get("top") if rec.get("kind") != "search" else None, rec.get("classifier"),
                       rec.get("sample"), opts], sort_keys=True, default=str)


def _check_key(check: dict) -> tuple:
    return tuple(check.get(k) for k in ("metric", "k", "top", "setup"))


def merge_kept(payload: dict, previous: dict) -> dict:
    """``payload`` plus the runs (and extra entries) of an earlier reference file of the same dkw
    version that ``payload`` does not recompute: a partial re-run keeps the rest of the shipped
    results. Kept runs are marked ``"kept_from"`` (their date); runs of another version are
    dropped, never mixed. The CV choices (one per protocol) and the leak checks (one per setup)
    of the earlier file are kept where the new run did not redo them."""
    if str(previous.get("dkw_version")) != str(payload["dkw_version"]):
        return payload
    fresh = {_run_key(r) for r in payload["runs"]}
    kept = [{**r, "kept_from": r.get("kept_from") or previous.get("date"),
             **({"predictions": pack_predictions(r["predictions"])} if isinstance(r.get("predictions"), str) else {})}
            for r in previous.get("runs", []) if _run_key(r) not in fresh]
    payload["runs"] = payload["runs"] + kept
    for key, value in previous.items():
        if key not in payload or payload[key] in (None, [], {}):
            payload[key] = value
            if key in ("significance", "comparisons") and value and rounded_p_decimals(previous) is not None:
                payload.pop(P_VALUES_KEY, None)  # the kept tables hold the older file's rounded p-values
        elif key == "cv_choice" and isinstance(value, dict) and isinstance(payload[key], dict):
            payload[key] = {**value, **payload[key]}  # one entry per protocol: a re-run of one keeps the others
        elif key == "leakcheck" and isinstance(value, list) and isinstance(payload[key], list):
            fresh_checks = {_check_key(c) for c in payload[key] if isinstance(c, dict)}
            payload[key] = payload[key] + [c for c in value if isinstance(c, dict) and _check_key(c) not in fresh_checks]
    payload["test_labels"] = {**(previous.get("test_labels") or {}), **payload.get("test_labels", {})}
    if kept:
        payload["kept_runs"] = {"count": len(kept), "from": previous.get("date"), "command": previous.get("command")}
    return payload


def seed_stability(records: list[dict]) -> list[dict]:
    """The runs that chose over all setups, one per (protocol, selection, seed), when a
    (protocol, selection) was run with two seeds or more: the seed stability of the choice."""
    rows = []
    for r in records:
        o = r.get("options") or {}
        if r.get("kind") != "search" or len(o.get("metrics", [])) < 2 or not standard(o):
            continue
        rows.append({"protocol": r["protocol"], "selection": o.get("selection", "algorithm2"), "seed": o.get("seed", 0),
                     "metric": r["metric"], "k": r["k"], "top": r["top"], "micro_f1": r["micro_f1"],
                     "macro_f1": r["macro_f1"], "folds": o.get("folds"), "max_per_category": o.get("max_per_category")})
    seeds: dict[tuple, set] = {}
    for row in rows:
        seeds.setdefault((row["protocol"], row["selection"]), set()).add(row["seed"])
    keep = {key for key, s in seeds.items() if len(s) > 1}
    return sorted([row for row in rows if (row["protocol"], row["selection"]) in keep],
                  key=lambda row: (row["protocol"], row["selection"], row["seed"]))


def write_reference(path: str | Path, *, dataset: str, sample: int | None = None, db: str | None = None,
                    command: str, extra: dict | None = None, keep_previous: bool = True) -> Path:
    """Write the reference JSON of ``dataset`` from the results store ``db`` (``keep_previous``:
    keep the runs of the file already there that the store does not hold, :func:`merge_kept`)."""
    from dkw_core.evaluation.results import load_runs

    runs = load_runs(db, dataset=dataset, include_stale=False)
    runs = runs[runs["sample"].isna()] if sample is None else runs[runs["sample"] == sample]
    payload = reference_payload(runs, dataset=dataset, command=command, extra=extra)
    if keep_previous and Path(path).is_file():
        payload = merge_kept(payload, _read(Path(path)))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path
