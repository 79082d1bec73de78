"""Reference results shipped with dkw (``docs/results/<corpus>.json``).

One JSON file per corpus, written by ``scripts/bench_eval.py --reference FILE`` from the results
store (the writer is ``scripts/reference_writer.py``): every run of the current dkw version on that
corpus (baselines, each metric with K chosen by Algorithm 2, Algorithm 2 over all setups, N curves),
the significance tables between metrics, the leak checks, and what produced them (dkw version,
date, machine, command, wall time, peak memory). :func:`load_reference` reads them back as a runs
DataFrame shaped like :func:`dkw_core.evaluation.results.load_runs`, so the app charts them beside a
user's own runs.

Every row says how each parameter was chosen (``chosen_by``); nothing is chosen by its test
score.
"""
from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pandas as pd

from ..config import reference_dir
from ..errors import InputError

FORMAT = 3  # 2: per-document test predictions (runs[].predictions, test_labels); 3: predictions packed
PACKED = "zlib:"  # runs[].predictions = "zlib:" + base64(zlib(one character per test document))
RUN_FIELDS = ["dataset", "protocol", "metric", "k", "top", "classifier", "split", "vectors", "kind", "sample",
              "micro_f1", "macro_f1", "seconds", "options", "label", "dkw_version", "settings_hash"]


def unpack_predictions(text):
    """Inverse of ``pack_predictions`` (scripts/reference_writer.py); a plain (format 2) string is
    returned as it is."""
    if not isinstance(text, str) or not text.startswith(PACKED):
        return text
    try:
        return zlib.decompress(base64.b64decode(text[len(PACKED):], validate=True)).decode("ascii")
    except (ValueError, zlib.error) as exc:
        raise InputError(f"stored predictions are not valid packed predictions ({exc})") from None


#: Payload key saying the file's p-values (``p_…`` fields) are stored unrounded; older files
#: rounded them to :data:`OLD_P_DECIMALS` decimals like every other float (a tiny p read 0).
P_VALUES_KEY = "p_values"
OLD_P_DECIMALS = 4


def rounded_p_decimals(data: dict) -> int | None:
    """The decimals the p-values of reference document ``data`` were rounded to (None: unrounded)."""
    return None if data.get(P_VALUES_KEY) == "unrounded" else OLD_P_DECIMALS


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
