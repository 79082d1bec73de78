"""Which metric is better, and by how much: the comparison tables of the Metrics page and the
reference results, from runs as :func:`dkw_core.evaluation.results.load_runs` or
:func:`dkw_core.evaluation.reference.load_reference` give them (F1 in percent).

* :func:`per_document` — the test this project recommends: every pair of metrics at one N
  (K each metric's own, chosen on the training split), compared document by document on the
  same test split (McNemar exact, paired bootstrap CI of the micro-F1 difference,
  Holm-corrected over the pairs; :mod:`.paired`).
* :func:`appendix_d` — the paper's appendix-D test (Wilcoxon signed-rank and sign test over
  paired configurations, Bonferroni-corrected; :mod:`.significance`), kept as the paper's,
  with its power stated by :func:`appendix_d_power`.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..types import PROTOCOL_INFO, PROTOCOLS
from .names import BASELINE_KINDS, TFIDF_CLASSIFIER, is_baseline
from .paired import bootstrap_diff, bootstrap_f1, compare_all, decode_labels
from .protocols import standard
from .significance import compare_metrics

PER_DOCUMENT_COLUMNS = ["metric_a", "metric_b", "higher", "f1_a", "f1_b", "diff", "ci_low", "ci_high",
                        "only_a_right", "only_b_right", "p_mcnemar", "p_holm", "significant", "k_a", "k_b",
                        "documents", "resamples", "seed", "pairs"]


def _options(row) -> dict:
    o = row.get("options") if hasattr(row, "get") else None
    return o if isinstance(o, dict) else {}


def significance_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs the significance tables pair: per-metric Algorithm 2 runs (K each metric's own,
    chosen on the training split) when present, else fixed-K method runs; variants left out."""
    method = runs[runs["kind"].isin(["method", "search"])]
    if method.empty:
        return method
    method = method[method.apply(lambda r: r["kind"] == "method" or len(_options(r).get("metrics", [])) == 1, axis=1)]
    if method.empty:
        return method
    method = method[method.apply(lambda r: standard(_options(r)), axis=1)]
    if (method["kind"] == "search").any():  # K chosen on the training split when available; fixed-K runs left out
        method = method[method["kind"] == "search"]
        cv = method.apply(lambda r: _options(r).get("selection") == "cv", axis=1).astype(bool)
        if cv.any():  # one selection only, never the two mixed: the robust CV when present
            method = method[cv]
    return method


SIGNIFICANCE_PAIR_ON = ("dataset", "sample", "top", "classifier", "split", "vectors", "kind")


def significance_table(runs: pd.DataFrame, protocol: str) -> pd.DataFrame | None:
    """``compare_metrics`` over the paired configurations of one protocol (pairs with data only)."""
    m = significance_runs(runs)
    if m.empty:
        return None
    m = m[m["protocol"] == protocol]
    if m["metric"].nunique() < 2:
        return None
    sig = compare_metrics(m, pair_on=SIGNIFICANCE_PAIR_ON)
    sig = sig[sig["n"] > 0]
    return None if sig.empty else sig


def selection_of(row) -> str:
    """How a stored run's setup was chosen: ``"cv"``, ``"algorithm2"`` or ``"fixed"``."""
    if row.get("kind") != "search":
        return "fixed"
    return "cv" if _options(row).get("selection") == "cv" else "algorithm2"


def curve_runs(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str = "cv") -> pd.DataFrame:
    """The per-(metric, N) runs of one corpus and protocol whose K was chosen by ``selection``
    (one metric and one N in their grid; variants and slices of other options left out), and the
    runs of other keyword methods (kind ``extractor``) at each N."""
    if runs.empty:
        return runs
    here = runs[(runs["dataset"] == dataset) & (runs["protocol"] == protocol) & runs["kind"].isin(["search", "extractor"])]
    if here.empty:
        return here
    # a keyword method's runs (kind "extractor": YAKE!, TextRank, imported keywords) choose no
    # parameter, so they stand beside dkw's metrics under either selection
    keep = here.apply(lambda r: r["kind"] == "extractor" or (
        len(_options(r).get("metrics", [])) == 1 and selection_of(r) == selection and standard(_options(r))), axis=1)
    return here[keep.astype(bool)]


def baseline_runs(runs: pd.DataFrame, *, dataset: str, protocol: str, top: int,
                  classifier: str | None = None) -> pd.DataFrame:
    """The bag-of-words baselines compared per document beside the metrics of one protocol at
    N = ``top``: the tf-idf + LinearSVC classifier on full text (no protocol, no N) and the
    keyword baseline of the same protocol and N, with ``method`` their id (:mod:`.names`)."""
    if runs.empty or "kind" not in runs.columns:
        return runs.iloc[0:0]
    here = runs[(runs["dataset"] == dataset) & runs["kind"].isin(BASELINE_KINDS)]
    if classifier is not None:
        here = here[here["classifier"] == classifier]
    keep = (here["kind"] == TFIDF_CLASSIFIER) | ((here["protocol"] == protocol)
                                                & (pd.to_numeric(here["top"], errors="coerce") == int(top)))
    return here[keep.astype(bool)]


def per_document(runs: pd.DataFrame, *, dataset: str, protocol: str, top: int, selection: str = "cv",
                 baselines: bool = True) -> pd.DataFrame:
    """Every pair of metrics at N = ``top`` compared per document (McNemar exact, paired
    bootstrap CI of the micro-F1 difference in points, Holm over the pairs). Only runs with
    stored predictions on one and the same test split take part. With ``baselines`` the
    tf-idf + LinearSVC classifier and the keyword baseline of the same protocol and N take part
    as two more methods (ids ``baseline-tfidf``, ``baseline-bow``; :func:`.names.method_name`),
    in the McNemar tests, the bootstrap and the Holm correction alike."""
    here = curve_runs(runs, dataset=dataset, protocol=protocol, selection=selection)
    if here.empty or "predictions" not in here.columns:
        return pd.DataFrame(columns=PER_DOCUMENT_COLUMNS)
    here = here[here["top"].astype(int) == int(top)]
    rows: list[tuple[str, int | None, Any]] = [(str(row["metric"]), int(row["k"]), row.get("predictions"))
                                               for _, row in here.iterrows()]
    if baselines and not here.empty:
        classifier = str(here["classifier"].iloc[0]) if "classifier" in here.columns else None
        rows += [(str(row["kind"]), None, row.get("predictions")) for _, row in
                 baseline_runs(runs, dataset=dataset, protocol=protocol, top=top, classifier=classifier).iterrows()]
    preds, ks, gold, split = {}, {}, None, None
    for name, k, p in rows:
        if not isinstance(p, dict) or not p.get("pred") or name in preds:
            continue
        if split is None:
            split, gold = p["split"], decode_labels(p["gold"])
        if p["split"] != split:
            continue  # another test split (another corpus version): never paired
        preds[name] = decode_labels(p["pred"])
        ks[name] = k
    if len(preds) < 2 or gold is None:
        return pd.DataFrame(columns=PER_DOCUMENT_COLUMNS)
    table = compare_all(gold, preds)
    table = table.rename(columns={"a": "metric_a", "b": "metric_b"})
    table["k_a"] = table["metric_a"].map(ks)
    table["k_b"] = table["metric_b"].map(ks)
    return table[PER_DOCUMENT_COLUMNS]


def appendix_d(runs: pd.DataFrame, *, dataset: str, protocol: str) -> pd.DataFrame:
    """The paper's appendix-D comparison of one corpus and protocol: Wilcoxon signed-rank (with
    its direction) and the sign test over configurations run with both metrics, Bonferroni-
    corrected. Pairs the per-metric runs with K chosen on the training split over N when there
    are any, else the grid of fixed runs over (K, N)."""
    here = runs[(runs["dataset"] == dataset) & (runs["protocol"] == protocol)]
    if "options" not in here.columns:
        here = here.assign(options=[{}] * len(here))
    chosen = significance_runs(here)
    if not chosen.empty and (chosen["kind"] == "search").any():
        table = significance_table(chosen, protocol)
        return table if table is not None else pd.DataFrame()
    method = here[here["kind"] == "method"]
    if method["metric"].nunique() < 2:
        return pd.DataFrame()
    return compare_metrics(method)


def appendix_d_power(table: pd.DataFrame) -> str:
    """What the appendix-D test can detect here: the smallest two-sided p its exact Wilcoxon
    test can reach with the pairs it has, before and after the Bonferroni correction."""
    if table is None or table.empty:
        return ""
    n = int(table["n"].max())
    pairs = len(table)
    smallest = 2.0 / 2 ** n if n else 1.0
    corrected = min(1.0, smallest * pairs)
    verdict = ("so no difference can come out significant at 0.05 (power 0)" if corrected >= 0.05
               else "so only differences consistent over nearly every configuration can come out significant")
    return (f"With at most n = {n} paired configurations per pair, the exact Wilcoxon test's smallest two-sided "
            f"p is {smallest:.3g}; Bonferroni over {pairs} pairs makes it {corrected:.3g}, {verdict}.")


#: How a p-value that underflowed (0.0 in float: below the smallest double) reads.
UNDERFLOW = "< 1e-300"


def format_p(p: float | None, *, rounded_to: int | None = None) -> str:
    """A p-value as text, the one format of every page and table: two significant digits
    (``0.031``, ``1.2e-45``), ``< 1e-300`` where it underflowed (0.0 in float), empty for NaN.
    ``rounded_to``: the decimals an older reference file rounded p to — there a 0 only means
    below half the last digit (``< 5e-05`` for 4 decimals)."""
    if p is None or pd.isna(p):
        return ""
    value = float(p)
    if value == 0.0:
        return f"< {0.5 * 10.0 ** -rounded_to:.0e}" if rounded_to is not None else UNDERFLOW
    return f"{value:.2g}"


def format_difference(x: float, spec: str = "+.2f") -> str:
    """A difference as text (``spec``); an exact tie — also -0.0 or one rounding to zero — as ``0``."""
    text = f"{x:{spec}}"
    return "0" if float(text) == 0 else text


CURVE_COLUMNS = ["metric", "top", "k", "micro_f1", "macro_f1", "ci_low", "ci_high", "selection", "k_choice",
                 "classifier", "vectors", "split", "sample", "dataset", "protocol", "kind"]


def curve_table(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str = "cv",
                classifier: str | None = None) -> pd.DataFrame:
    """F1 against N: one row per (metric, N) with K chosen on the training split by
    ``selection``, and the 95 % percentile bootstrap interval of its micro-F1 over the test
    documents (``ci_low``, ``ci_high``; empty when the run has no stored predictions).
    ``k_choice`` says whether K was chosen per (metric, N) or once per metric."""
    here = curve_runs(runs, dataset=dataset, protocol=protocol, selection=selection)
    if classifier is not None and not here.empty:
        here = here[here["classifier"] == classifier]
    if here.empty:
        return pd.DataFrame(columns=CURVE_COLUMNS)
    here = here.dropna(subset=["micro_f1", "top"])
    order = "id" if "id" in here.columns else None
    here = (here.sort_values(order) if order else here).drop_duplicates(["metric", "top"], keep="last")
    rows = []
    for _, r in here.iterrows():
        low = high = float("nan")
        p = r.get("predictions") if "predictions" in here.columns else None
        if isinstance(p, dict) and p.get("pred"):
            correct = decode_labels(p["pred"]) == decode_labels(p["gold"])
            low, high = bootstrap_f1(correct)
        opts = _options(r)
        rows.append({"metric": r["metric"], "top": int(r["top"]), "k": int(r["k"]),
                     "micro_f1": float(r["micro_f1"]), "macro_f1": float(r["macro_f1"]), "ci_low": low,
                     "ci_high": high, "selection": selection,
                     "k_choice": opts.get("k_choice", "metric-n"), "classifier": r.get("classifier"),
                     "vectors": r.get("vectors"), "split": r.get("split"), "sample": r.get("sample"),
                     "dataset": dataset, "protocol": protocol, "kind": r.get("kind")})
    return pd.DataFrame(rows, columns=CURVE_COLUMNS).sort_values(["metric", "top"]).reset_index(drop=True)


def choices(runs: pd.DataFrame, *, dataset: str, classifier: str | None = None,
            predictions: bool = False) -> pd.DataFrame:
    """The setup each selection chose over all setups, per protocol, with its test F1 (and,
    with ``predictions``, the run's stored test predictions in a column of that name)."""
    columns = ["protocol", "selection", "metric", "k", "top", "micro_f1", "macro_f1", "seed", "classifier",
               "vectors", "folds", "max_per_category", *(["predictions"] if predictions else [])]
    if runs.empty:
        return pd.DataFrame(columns=columns)
    here = runs[(runs["dataset"] == dataset) & (runs["kind"] == "search")]
    if classifier is not None:
        here = here[here["classifier"] == classifier]
    rows = []
    for _, r in here.iterrows():
        opts = _options(r)
        if len(opts.get("metrics", [])) < 2 or not standard(opts):
            continue
        rows.append({"protocol": r["protocol"], "selection": selection_of(r), "metric": r["metric"],
                     "k": int(r["k"]), "top": int(r["top"]), "micro_f1": float(r["micro_f1"]),
                     "macro_f1": float(r["macro_f1"]), "seed": opts.get("seed"), "classifier": r.get("classifier"),
                     "vectors": r.get("vectors"), "folds": opts.get("folds"),
                     "max_per_category": opts.get("max_per_category"),
                     **({"predictions": r.get("predictions")} if predictions else {})})
    return pd.DataFrame(rows, columns=columns).sort_values(["protocol", "selection", "seed"]).reset_index(drop=True)


def main_choices(picks: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """One choice per (protocol, selection) out of :func:`choices`' rows: the one shown in the
    headline. Where a selection ran in several configurations (a CV on a capped subsample and
    on the whole training split, say) it is the configuration whose F1-against-N curves were
    stored (so the headline and the curves come from the same CV), then the smallest seed."""
    if picks.empty:
        return picks
    curved = set()
    if not runs.empty:
        for _, r in runs[runs["kind"] == "search"].iterrows():
            opts = _options(r)
            if len(opts.get("metrics", [])) == 1 and selection_of(r) == "cv":
                curved.add((r["protocol"], opts.get("folds"), opts.get("max_per_category"), opts.get("seed", 0)))
    def plain(v, default=None):  # pandas turns None into NaN in a numeric column
        return default if v is None or (isinstance(v, float) and np.isnan(v)) else int(v)

    curved = {(p, plain(f), plain(m), plain(s, 0)) for p, f, m, s in curved}
    key = [(p, plain(f), plain(m), plain(s, 0)) in curved
           for p, f, m, s in zip(picks["protocol"], picks["folds"], picks["max_per_category"], picks["seed"])]
    ordered = picks.assign(_curved=key, _seed=picks["seed"].fillna(0))
    ordered = ordered.sort_values(["_curved", "_seed"], ascending=[False, True], kind="stable")
    out = ordered.drop_duplicates(["protocol", "selection"]).drop(columns=["_curved", "_seed"])
    return out.sort_values(["protocol", "selection"]).reset_index(drop=True)


STABILITY_COLUMNS = ["protocol", "selection", "folds", "max_per_category", "seeds", "mean", "sd", "min", "max",
                     "chosen"]


def seed_stability(picks: pd.DataFrame | list[dict]) -> pd.DataFrame:
    """How much the chosen setup's test micro-F1 moves with the selection's seed: per (protocol,
    selection, folds, subsample cap) run with two seeds or more, the seeds, mean, sample sd
    (n − 1), min, max, and how often each setup was chosen ("ig K 90 N 5 (3); …", most often
    first). ``picks`` are rows as :func:`choices` gives them (F1 in percent)."""
    frame = pd.DataFrame(picks)
    if frame.empty or "seed" not in frame.columns:
        return pd.DataFrame(columns=STABILITY_COLUMNS)
    frame = frame.assign(seed=frame["seed"].fillna(0).astype(int),
                         folds=frame.get("folds", pd.Series(index=frame.index, dtype=object)),
                         max_per_category=frame.get("max_per_category", pd.Series(index=frame.index, dtype=object)))
    rows = []
    keys = ["protocol", "selection", "folds", "max_per_category"]
    for key, group in frame.astype({"folds": object, "max_per_category": object}).groupby(keys, dropna=False, sort=True):
        group = group.drop_duplicates("seed").sort_values("seed")
        if len(group) < 2:
            continue
        f1 = group["micro_f1"].astype(float)
        setups = (group["metric"].astype(str) + " K " + group["k"].astype(int).astype(str) + " N "
                  + group["top"].astype(int).astype(str)).value_counts(sort=False)
        setups = setups.sort_values(ascending=False, kind="stable")
        rows.append({**dict(zip(keys, key)), "seeds": ", ".join(str(s) for s in group["seed"]),
                     "mean": float(f1.mean()), "sd": float(f1.std(ddof=1)), "min": float(f1.min()),
                     "max": float(f1.max()), "chosen": "; ".join(f"{s} ({n})" for s, n in setups.items())})
    out = pd.DataFrame(rows, columns=STABILITY_COLUMNS)
    for column in ("folds", "max_per_category"):  # Algorithm 2 has none, the whole split no cap: None, not NaN
        out[column] = out[column].astype(object).where(out[column].notna(), None)
    return out


def _correct(predictions) -> tuple[str, np.ndarray] | None:
    """(test split, correct per test document) of a run's stored predictions, or None."""
    if not isinstance(predictions, dict) or not predictions.get("pred") or not predictions.get("gold"):
        return None
    return str(predictions.get("split")), decode_labels(predictions["pred"]) == decode_labels(predictions["gold"])


def classifier_baseline(runs: pd.DataFrame, *, dataset: str, classifier: str | None = None) -> pd.Series | None:
    """The latest tf-idf + LinearSVC classifier run (``baseline-tfidf``) of a corpus, or None."""
    if runs.empty or "kind" not in runs.columns:
        return None
    here = runs[(runs["dataset"] == dataset) & (runs["kind"] == TFIDF_CLASSIFIER)].dropna(subset=["micro_f1"])
    if classifier is not None and "classifier" in here.columns:
        here = here[here["classifier"] == classifier]
    if here.empty:
        return None
    return (here.sort_values("id") if "id" in here.columns else here).iloc[-1]


OVERVIEW_COLUMNS = ["protocol", "reads_labels", "selection", "metric", "k", "top", "micro_f1", "macro_f1", "ci_low",
                    "ci_high", "baseline_f1", "diff", "diff_low", "diff_high", "paired", "seed", "folds",
                    "max_per_category", "classifier", "vectors"]


def overview(runs: pd.DataFrame, *, dataset: str, classifier: str | None = None) -> pd.DataFrame:
    """The headline of the Metrics page: per (protocol, selection) the setup chosen on the
    training split (:func:`main_choices`), its test micro-F1 with the 95 % percentile bootstrap
    interval over the test documents (``ci_low``, ``ci_high``), whether the protocol reads the
    gold label, and its difference to the tf-idf + LinearSVC classifier (``diff`` in points,
    ``baseline_f1``). The difference's interval is the paired bootstrap of the two runs'
    per-document correctness when the baseline stored its predictions on the same test split
    (``paired`` true), else the choice's own interval shifted by the baseline's F1."""
    picks = main_choices(choices(runs, dataset=dataset, classifier=classifier, predictions=True), runs)
    if picks.empty:
        return pd.DataFrame(columns=OVERVIEW_COLUMNS)
    base = classifier_baseline(runs, dataset=dataset, classifier=classifier)
    base_f1 = float(base["micro_f1"]) if base is not None else float("nan")
    base_correct = _correct(base.get("predictions")) if base is not None else None
    rows = []
    for _, r in picks.iterrows():
        mine = _correct(r.get("predictions"))
        low = high = diff_low = diff_high = float("nan")
        paired = False
        if mine is not None:
            low, high = bootstrap_f1(mine[1])
        if base is not None:
            if mine is not None and base_correct is not None and base_correct[0] == mine[0]:
                diff_low, diff_high = bootstrap_diff(mine[1], base_correct[1], resamples=1000)  # as bootstrap_f1
                paired = True
            else:
                diff_low, diff_high = low - base_f1, high - base_f1
        rows.append({**{c: r.get(c) for c in OVERVIEW_COLUMNS if c in picks.columns},
                     "reads_labels": bool(PROTOCOL_INFO[r["protocol"]].reads_labels) if r["protocol"] in PROTOCOL_INFO
                     else False, "ci_low": low, "ci_high": high, "baseline_f1": base_f1,
                     "diff": float(r["micro_f1"]) - base_f1, "diff_low": diff_low, "diff_high": diff_high,
                     "paired": paired})
    order = {p: i for i, p in enumerate(PROTOCOLS)}
    frame = pd.DataFrame(rows, columns=OVERVIEW_COLUMNS)
    frame = frame.assign(_o=frame["protocol"].map(lambda p: order.get(p, len(order))))
    return frame.sort_values(["_o", "selection"], kind="stable").drop(columns="_o").reset_index(drop=True)


def best_method(pairs: pd.DataFrame) -> str | None:
    """The keyword metric (or extractor) with the highest micro-F1 in a per-document pairs table
    (:func:`per_document`); the baselines never count; a tie goes to the name first in
    alphabetical order (:func:`tied_best` lists the others). None for an empty table."""
    if pairs is None or pairs.empty:
        return None
    f1 = pd.concat([pairs.set_index("metric_a")["f1_a"], pairs.set_index("metric_b")["f1_b"]])
    f1 = f1[[not is_baseline(m) for m in f1.index]]
    if f1.empty:
        return None
    f1 = f1.groupby(level=0).first().sort_index()
    return str(f1.sort_values(ascending=False, kind="stable").index[0])


def tied_best(pairs: pd.DataFrame) -> list[str]:
    """Every keyword metric whose micro-F1 equals the best one's (the same correct documents)."""
    best = best_method(pairs)
    if best is None:
        return []
    f1 = pd.concat([pairs.set_index("metric_a")["f1_a"], pairs.set_index("metric_b")["f1_b"]]).groupby(level=0).first()
    top = f1[best]
    return sorted(str(m) for m, v in f1.items() if not is_baseline(m) and np.isclose(v, top, rtol=0, atol=1e-9))


AGAINST_COLUMNS = ["method", "reference", "f1", "f1_reference", "diff", "ci_low", "ci_high", "p_holm", "significant"]


def against(pairs: pd.DataFrame, reference: str) -> pd.DataFrame:
    """Every method of a per-document pairs table against ``reference`` (the best metric, or the
    ``baseline-tfidf`` classifier): its micro-F1, the difference method − reference in points
    with its 95 % paired bootstrap interval, and the Holm-corrected McNemar p of that pair
    (corrected over all the table's pairs). Highest F1 first."""
    rows = []
    for r in (pairs.itertuples(index=False) if pairs is not None else []):
        if r.metric_b == reference:
            rows.append((r.metric_a, r.f1_a, r.f1_b, r.diff, r.ci_low, r.ci_high, r.p_holm, r.significant))
        elif r.metric_a == reference:
            rows.append((r.metric_b, r.f1_b, r.f1_a, -r.diff, -r.ci_high, -r.ci_low, r.p_holm, r.significant))
    frame = pd.DataFrame([(m, reference, *rest) for m, *rest in rows], columns=AGAINST_COLUMNS)
    frame["significant"] = frame["significant"].astype(bool)
    return frame.sort_values("f1", ascending=False, kind="stable").reset_index(drop=True)
