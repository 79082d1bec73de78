"""Reference results shipped with dkw (``docs/results/<corpus>.json``).

One JSON file per corpus, written by ``scripts/bench_eval.py --reference FILE`` from the results
store: every run of the current dkw version on that corpus (baselines, each metric with K
chosen by Algorithm 2, Algorithm 2 over all setups, N curves), the significance tables between
metrics, the leak checks, and what produced them (dkw version, date, machine, command, wall
time, peak memory). :func:`load_reference` reads them back as a runs DataFrame shaped like
:func:`dkw_core.evaluation.results.load_runs`, so the app charts them beside a user's own runs.

Every row says how each parameter was chosen (``chosen_by``); nothing is chosen by its test
score.
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

from ..config import reference_dir
from ..errors import InputError
from .protocols import dkw_version, standard

FORMAT = 3  # 2: per-document test predictions (runs[].predictions, test_labels); 3: predictions packed
PACKED = "zlib:"  # runs[].predictions = "zlib:" + base64(zlib(one character per test document))
RUN_FIELDS = ["dataset", "protocol", "metric", "k", "top", "classifier", "split", "vectors", "kind", "sample",
              "micro_f1", "macro_f1", "seconds", "options", "label", "dkw_version", "settings_hash"]


def pack_predictions(text: str) -> str:
    """A run's prediction string (:func:`.paired.encode_labels`) as stored in a reference file:
    zlib-compressed and base64-encoded, about 2.4× smaller (a 20ng run: 7,532 → ~3,200 characters)."""
    if text.startswith(PACKED):
        return text
    return PACKED + base64.b64encode(zlib.compress(text.encode("ascii"), 9)).decode("ascii")


def unpack_predictions(text):
    """Inverse of :func:`pack_predictions`; a plain (format 2) string is returned as it is."""
    if not isinstance(text, str) or not text.startswith(PACKED):
        return text
    try:
        return zlib.decompress(base64.b64decode(text[len(PACKED):], validate=True)).decode("ascii")
    except (ValueError, zlib.error) as exc:
        raise InputError(f"stored predictions are not valid packed predictions ({exc})") from None


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


#: Payload key saying the file's p-values (``p_…`` fields) are stored unrounded; older files
#: rounded them to :data:`OLD_P_DECIMALS` decimals like every other float (a tiny p read 0).
P_VALUES_KEY = "p_values"
OLD_P_DECIMALS = 4


def rounded_p_decimals(data: dict) -> int | None:
    """The decimals the p-values of reference document ``data`` were rounded to (None: unrounded)."""
    return None if data.get(P_VALUES_KEY) == "unrounded" else OLD_P_DECIMALS


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
    from ..config import archives_dir, data_dir

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
    from .comparisons import per_document, significance_table

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
    from .results import load_runs

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


def reference_files(folder: str | Path | None = None) -> list[Path]:
    folder = Path(folder) if folder else reference_dir()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


#: The sub-folder of the reference results holding the third-party extractors' runs
#: (``docs/results/extractors/<corpus>.json``, ``scripts/extractor_results.py``).
EXTRACTORS = "extractors"


def extractor_files(folder: str | Path | None = None) -> list[Path]:
    """The extractors' reference files (:data:`EXTRACTORS` under the reference folder)."""
    return reference_files((Path(folder) if folder else reference_dir()) / EXTRACTORS)


def every_protocol(frame: pd.DataFrame) -> pd.DataFrame:
    """Runs of keyword methods that read no label (an extractor such as YAKE!) stand under every
    protocol: their document vectors do not depend on it, so each such run is repeated once per
    protocol (``options["reads"]`` keeps what it reads) and charted beside dkw's metrics there."""
    if frame.empty or "kind" not in frame.columns:
        return frame
    from ..types import PROTOCOLS

    free = (frame["kind"] == "extractor") & frame["protocol"].isin(["label-free", "none"])
    if not free.any():
        return frame
    copies = [frame[free].assign(protocol=p) for p in PROTOCOLS]
    return pd.concat([frame[~free], *copies], ignore_index=True)


def read_document(path: Path, *, what: str, key: str, kind: type) -> dict:
    """A shipped JSON document (reference results, the quality table): one :class:`InputError`
    line when it cannot be read, or when it is not an object whose ``key`` is a ``kind``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path.name}: not a readable {what} ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), kind):
        raise InputError(f"{path.name}: not a {what} (no {key})")
    return data


def _read(path: Path) -> dict:
    return read_document(path, what="reference results file", key="runs", kind=list)


def runs_frame(data: dict) -> pd.DataFrame:
    """The runs of one reference document as a DataFrame like ``load_runs`` (F1 in percent),
    each run's ``predictions`` unpacked with its split's gold categories."""
    frame = pd.DataFrame.from_records(data.get("runs") or [])
    if frame.empty:
        return frame
    labels = data.get("test_labels")
    gold: dict = labels if isinstance(labels, dict) else {}
    frame["predictions"] = [
        {"split": s, "gold": gold[s], "pred": unpack_predictions(p)}
        if isinstance(p, str) and isinstance(s, str) and s in gold
        else None
        for s, p in zip(frame.get("test_split", [None] * len(frame)), frame.get("predictions", [None] * len(frame)))]
    docs = data.get("documents")
    if isinstance(docs, dict) and isinstance(docs.get("test"), int):
        frame["test_documents"] = docs["test"]  # the significance tests count correct documents
    if "dataset" not in frame.columns:
        frame["dataset"] = data.get("dataset")
    return frame


def load_reference(folder: str | Path | None = None) -> pd.DataFrame:
    """Every shipped reference run as a DataFrame like ``load_runs`` (F1 in percent), the
    extractors' runs (:func:`extractor_files`) under every protocol (:func:`every_protocol`), with the
    extra columns ``source`` ("reference results of dkw <version>"), ``chosen_by``, ``date``,
    ``machine`` and ``command``."""
    frames = []
    for path in reference_files(folder) + extractor_files(folder):
        data = _read(path)
        frame = every_protocol(runs_frame(data))
        if frame.empty:
            continue
        version = str(data.get("dkw_version", "?"))
        frame["source"] = f"reference results of dkw {version}"
        frame["date"] = data.get("date")
        frame["command"] = data.get("command")
        frame["machine"] = (data.get("machine") or {}).get("node") if isinstance(data.get("machine"), dict) else None
        frame["stale"] = False
        frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=[*RUN_FIELDS, "chosen_by", "source", "date", "command", "machine", "stale"])
    return pd.concat(frames, ignore_index=True)


HUBNESS_COLUMNS = ["dataset", "vectors", "neighbours", "k", "queries", "vocabulary", "skewness", "top1_share",
                   "never_share", "max_k_occurrence", "hubs", "source"]


def load_reference_hubness(folder: str | Path | None = None) -> pd.DataFrame:
    """The hubness of step 3 stored in the reference results (``hubness``, written by
    ``scripts/complete_reference.py``), one row per corpus; ``hubs`` the biggest hubs."""
    rows = []
    for path in reference_files(folder):
        data = _read(path)
        hub = data.get("hubness")
        if isinstance(hub, dict):
            rows.append({**hub, "dataset": hub.get("dataset") or data.get("dataset"),
                         "source": f"reference results of dkw {data.get('dkw_version', '?')}"})
    frame = pd.DataFrame.from_records(rows)
    return frame if not frame.empty else pd.DataFrame(columns=HUBNESS_COLUMNS)


def load_reference_leakchecks(folder: str | Path | None = None) -> pd.DataFrame:
    """The leak checks of the shipped reference results, one row per (corpus, metric, K, N)."""
    rows = []
    for path in reference_files(folder):
        data = _read(path)
        for item in data.get("leakcheck") or []:
            if isinstance(item, dict):
                rows.append({**item, "protocol": item.get("protocol") or "label-free",  # older files: label-free
                             "source": f"reference results of dkw {data.get('dkw_version', '?')}"})
    columns = ["dataset", "metric", "k", "top", "setup", "protocol", "follow_wrong_label_aware",
               "follow_wrong_label_free", "expected_no_leak", "chance", "source"]
    frame = pd.DataFrame.from_records(rows)
    return frame if not frame.empty else pd.DataFrame(columns=columns)
