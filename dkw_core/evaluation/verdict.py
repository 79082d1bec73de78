"""The verdict of one corpus under one protocol: which metric, by how much, how sure, against
the baseline a reader would use instead — in one paragraph, from the stored runs alone.

* **The best metric** is the setup the protocol's parameter choice picked over all (K, metric,
  N) setups on the training split (the robust stratified k-fold CV when it ran, else the
  paper's Algorithm 2; the configuration the Metrics page's Overview shows,
  :func:`.comparisons.main_choices`) — never a test score. Its micro-F1 on the test split comes
  with a 95 % percentile bootstrap interval over the test documents.
* It is compared document by document (McNemar exact, paired bootstrap 95 % CI of the
  micro-F1 difference; :mod:`.paired`) with every other metric at the same N (K each metric's
  own, chosen by the same selection) and with the baselines — the tf-idf + LinearSVC classifier
  on full text, and the keyword baseline of the same protocol where it ran at that N —; the p
  values are Holm-corrected over these comparisons.
* **The runner-up** is the strongest other metric at that N on the test split (it may score
  higher than the choice: the choice was made on the training split).
* Whether the protocol reads the gold label of the documents it weights comes from
  :data:`dkw_core.types.PROTOCOL_INFO`.

Bootstrap: :data:`.paired.DEFAULT_RESAMPLES` resamples, seed :data:`.paired.DEFAULT_SEED`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..types import PROTOCOL_INFO, check_protocol
from .comparisons import _options, baseline_runs, choices, curve_runs, format_difference, format_p, main_choices
from .names import TFIDF_CLASSIFIER, is_baseline, method_name
from .paired import DEFAULT_RESAMPLES, DEFAULT_SEED, bootstrap_diffs, decode_labels, holm, mcnemar_exact
from .protocols import standard
from .selection import SELECTION_LABELS

ALPHA = 0.05


@dataclass
class VersusRow:
    """The chosen setup against one other method (differences chosen − other, points)."""

    method: str            # metric name or baseline id (names.method_name for a reader)
    name: str              # how a reader reads it
    k: int | None
    f1: float              # the other method's micro-F1 (percent)
    diff: float
    ci_low: float
    ci_high: float
    only_best_right: int
    only_other_right: int
    p_mcnemar: float
    p_holm: float = float("nan")

    @property
    def significant(self) -> bool:
        return bool(self.p_holm < ALPHA)

    def phrase(self) -> str:
        ci = f"[{_signed(self.ci_low)}, {_signed(self.ci_high)}]"
        sig = "significant" if self.significant else "not significant"
        return f"{_signed(self.diff)} {ci}, {sig} after Holm (p_holm {format_p(self.p_holm)})"


def _signed(x: float) -> str:
    return format_difference(x, "+.2f").replace("-", "\u2212")


@dataclass
class Verdict:
    dataset: str
    protocol: str
    reads_labels: bool
    selection: str         # "cv" or "algorithm2": how the best setup was chosen
    chosen_by: str         # the same in words
    metric: str
    k: int
    top: int
    f1: float              # micro-F1 of the chosen setup on the test split (percent)
    ci_low: float
    ci_high: float
    documents: int
    resamples: int
    seed: int
    runner_up: VersusRow | None
    baseline: VersusRow | None       # the tf-idf + LinearSVC classifier
    versus: list[VersusRow] = field(default_factory=list)  # every comparison of the Holm family

    @property
    def comparisons(self) -> int:
        return len(self.versus)

    def headline(self) -> str:
        """The verdict's first sentence: best metric, its F1 and CI, against the runner-up and
        the tf-idf + LinearSVC classifier, and whether the protocol reads the gold label."""
        parts = [f"{self.protocol}, {self.dataset}: {self.metric} {self.f1:.2f} "
                 f"[{self.ci_low:.2f}, {self.ci_high:.2f}]"]
        if self.runner_up is not None:
            parts.append(f"vs runner-up {self.runner_up.name} {self.runner_up.phrase()}")
        if self.baseline is not None:
            parts.append(f"vs {self.baseline.name} {self.baseline.phrase()}")
        else:
            parts.append(f"no {method_name(TFIDF_CLASSIFIER)} run with stored predictions to compare with")
        gold = ("reads the gold label of every document it weights (the paper's protocol, not deployable)"
                if self.reads_labels else "reads no gold label (deployable)")
        return "; ".join(parts) + f". The protocol {gold}."

    def text(self) -> str:
        """The verdict as one plain-text paragraph: :meth:`headline`, then how it was computed."""
        return f"{self.headline()} {self.details()}"

    def details(self) -> str:
        """How the verdict's numbers were computed, in words."""
        return (f"{self.metric} with K {self.k}, N {self.top} is the setup chosen "
                f"over all setups by {self.chosen_by} (never by a test score); micro-F1 in percent on the "
                f"{self.documents:,} test documents with its 95 % bootstrap interval over them, differences "
                f"in points with paired bootstrap 95 % intervals ({self.resamples:,} resamples, seed "
                f"{self.seed}), McNemar's exact test Holm-corrected over the {self.comparisons} comparisons of "
                f"{self.metric} with every other metric at N {self.top} and the baselines; the runner-up is "
                f"the strongest other metric at N {self.top} on the test split.")

    def to_dict(self) -> dict:
        out = asdict(self)
        out.update(text=self.text(), headline=self.headline(), details=self.details())
        return out


def _how(options: dict, selection: str) -> str:
    """How the chosen setup was chosen, in words (folds, subsample cap, seed)."""
    if selection == "cv":
        cap = options.get("max_per_category")
        return (f"stratified {options.get('folds')}-fold CV on the training split"
                + (f" (at most {cap} documents per category)" if cap else "") + f", seed {options.get('seed', 0)}")
    return f"{SELECTION_LABELS.get(selection, selection)} on the training split, seed {options.get('seed', 0)}"


def _choice_run(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str,
                classifier: str | None) -> pd.Series | None:
    picks = main_choices(choices(runs, dataset=dataset, classifier=classifier), runs)
    picks = picks[(picks["protocol"] == protocol) & (picks["selection"] == selection)] if not picks.empty else picks
    if picks.empty:
        return None
    pick = picks.iloc[0]
    here = runs[(runs["dataset"] == dataset) & (runs["protocol"] == protocol) & (runs["kind"] == "search")]
    if classifier is not None:
        here = here[here["classifier"] == classifier]

    def plain(v):
        return None if v is None or (isinstance(v, float) and np.isnan(v)) else v

    for _, r in here.iterrows():
        o = _options(r)
        if (len(o.get("metrics", [])) > 1 and standard(o)
                and (o.get("selection") or "algorithm2") == selection
                and (o.get("seed") or 0) == (plain(pick["seed"]) or 0)
                and plain(o.get("folds")) == plain(pick["folds"])
                and plain(o.get("max_per_category")) == plain(pick["max_per_category"])
                and (r["metric"], int(r["k"]), int(r["top"])) == (pick["metric"], int(pick["k"]), int(pick["top"]))
                and isinstance(r.get("predictions"), dict) and r["predictions"].get("pred")):
            return r
    return None


def verdict(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str | None = None,
            classifier: str | None = None) -> Verdict | None:
    """The verdict of ``dataset`` under ``protocol`` from stored runs (``load_runs`` or
    ``load_reference`` shape; see the module docstring), or None when no run chose over all
    setups with stored predictions. ``selection``: ``"cv"``, ``"algorithm2"`` or None (the CV
    when it ran, else Algorithm 2)."""
    check_protocol(protocol)
    if runs is None or runs.empty or "kind" not in runs.columns:
        return None
    if "options" not in runs.columns:
        runs = runs.assign(options=[{}] * len(runs))
    wanted = [selection] if selection else ["cv", "algorithm2"]
    best, used = None, None
    for sel in wanted:
        best = _choice_run(runs, dataset=dataset, protocol=protocol, selection=sel, classifier=classifier)
        if best is not None:
            used = sel
            break
    if best is None or used is None:
        return None
    metric, k, top = str(best["metric"]), int(best["k"]), int(best["top"])
    pred = best["predictions"]
    split, gold = pred["split"], decode_labels(pred["gold"])
    mine = decode_labels(pred["pred"])
    correct = mine == gold
    clf = str(best.get("classifier")) if best.get("classifier") is not None else None
    others = curve_runs(runs, dataset=dataset, protocol=protocol, selection=used)
    others = others[(others["top"].astype(int) == top) & (others["metric"] != metric)]
    if "kind" in others.columns:  # the family is dkw's metrics and the baselines; extractors have their own tables
        others = others[others["kind"] != "extractor"]
    if clf is not None and "classifier" in others.columns:
        others = others[others["classifier"] == clf]
    candidates: list[tuple[str, int | None, Any]] = [(str(r["metric"]), int(r["k"]), r.get("predictions"))
                                                     for _, r in others.iterrows()]
    candidates += [(str(r["kind"]), None, r.get("predictions")) for _, r in
                   baseline_runs(runs, dataset=dataset, protocol=protocol, top=top, classifier=clf).iterrows()]
    chosen: dict[str, tuple[int | None, np.ndarray]] = {}
    for name, other_k, p in candidates:
        if name not in chosen and isinstance(p, dict) and p.get("pred") and p.get("split") == split:
            chosen[name] = (other_k, decode_labels(p["pred"]) == gold)
    # the choice against each (McNemar, paired bootstrap), and its own F1 interval, on one set of resamples (same seed)
    intervals = bootstrap_diffs([correct.astype(np.float64) - right for _, right in chosen.values()]
                                + [correct.astype(np.float64)], resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED)
    low, high = intervals.pop()
    rows: list[VersusRow] = []
    for (name, (other_k, right)), (d_low, d_high) in zip(chosen.items(), intervals):
        only_best, only_other, p_value = mcnemar_exact(correct, right)
        rows.append(VersusRow(method=name, name=method_name(name), k=other_k, f1=100 * float(right.mean()),
                              diff=100 * float(correct.mean()) - 100 * float(right.mean()), ci_low=d_low,
                              ci_high=d_high, only_best_right=only_best, only_other_right=only_other,
                              p_mcnemar=p_value))
    for row, p_holm in zip(rows, holm([r.p_mcnemar for r in rows])):
        row.p_holm = float(p_holm)
    metrics = [r for r in rows if not is_baseline(r.method)]
    runner_up = max(metrics, key=lambda r: (r.f1, -metrics.index(r))) if metrics else None
    baseline = next((r for r in rows if r.method == TFIDF_CLASSIFIER), None)
    return Verdict(dataset=dataset, protocol=protocol, reads_labels=PROTOCOL_INFO[protocol].reads_labels,
                   selection=used, chosen_by=_how(_options(best), used), metric=metric, k=k, top=top,
                   f1=100 * float(correct.mean()), ci_low=low, ci_high=high, documents=int(gold.size),
                   resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, runner_up=runner_up, baseline=baseline, versus=rows)
