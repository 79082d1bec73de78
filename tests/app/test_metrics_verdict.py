"""The Metrics page's verdict (``widgets.verdict_block`` over ``dkw_core.evaluation.verdict``):
for every shipped corpus and protocol its numbers equal a direct computation from
``docs/results/<corpus>.json``, and it names the comparison with the tf-idf + LinearSVC
classifier."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from dkw_app import stored_runs
from dkw_core.evaluation.comparisons import format_p
from dkw_core.evaluation.paired import bootstrap_f1, compare_all, decode_labels, holm
from dkw_core.evaluation.reference import reference_files, unpack_predictions
from tests.app.conftest import page
from tests.app.fakes import FakeBackend

ORIGINAL_REFERENCE_RUNS = stored_runs.reference_runs
FILES = {json.loads(p.read_text())["dataset"]: p for p in reference_files()}
PROTOCOLS = ["label-aware", "label-free-top1", "label-free", "label-free-posterior"]


def plain(text: str) -> str:
    """Markdown escaped by ``dkw_app.untrusted.md`` as it reads."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u2060", "")


def signed(x: float) -> str:
    text = f"{x:+.2f}"
    return ("0" if float(text) == 0 else text).replace("-", "\u2212")


def direct(data: dict, protocol: str) -> str:
    """The verdict's first sentence computed from the file alone: the CV choice (seed 0, the
    configuration with curves), every other metric's CV run at its N and the baselines."""
    gold_of = data["test_labels"]

    def pred(run):
        return decode_labels(unpack_predictions(run["predictions"]))

    choice = data["cv_choice"][protocol]
    cv = [r for r in data["runs"] if r["kind"] == "search" and r["protocol"] == protocol
          and r["options"].get("selection") == "cv"]
    curves = [r for r in cv if len(r["options"]["metrics"]) == 1]
    cap = curves[0]["options"]["max_per_category"]
    best = next(r for r in cv if len(r["options"]["metrics"]) > 1 and r["options"].get("seed", 0) == 0
                and r["options"].get("max_per_category") == cap
                and (r["metric"], r["k"], r["top"]) == (choice["metric"], choice["k"], choice["top"]))
    gold = decode_labels(gold_of[best["test_split"]])
    mine = pred(best)
    low, high = bootstrap_f1(mine == gold, resamples=2000, seed=0)
    others = {r["metric"]: r for r in curves if r["top"] == best["top"] and r["metric"] != best["metric"]}
    for r in data["runs"]:
        if r["kind"] == "baseline-tfidf" or r["kind"] == "baseline-bow" and r["protocol"] == protocol \
                and r["top"] == best["top"]:
            others[r["kind"]] = r
    tests = {m: compare_all(gold, {"best": mine, m: pred(r)}).iloc[0] for m, r in others.items()}
    p_holm = dict(zip(tests, holm([t["p_mcnemar"] for t in tests.values()])))
    runner = max((m for m in tests if not m.startswith("baseline-")), key=lambda m: tests[m]["f1_b"])

    def versus(m):
        t = tests[m]
        sig = "significant" if p_holm[m] < 0.05 else "not significant"
        return (f"{signed(t['diff'])} [{signed(t['ci_low'])}, {signed(t['ci_high'])}], {sig} after Holm "
                f"(p_holm {format_p(p_holm[m])})")

    name = {"tf-idf": "tf-idf (keyword metric)"}.get(runner, runner)
    return (f"{protocol}, {data['dataset']}: {best['metric']} {100 * np.mean(mine == gold):.2f} "
            f"[{low:.2f}, {high:.2f}]; vs runner-up {name} {versus(runner)}; "
            f"vs tf-idf + LinearSVC (classifier) {versus('baseline-tfidf')}.")


@pytest.mark.skipif(not FILES, reason="a checkout without docs/results")
@pytest.mark.parametrize("dataset", sorted(FILES))
def test_the_verdict_of_every_protocol_equals_a_direct_computation_from_the_reference_file(monkeypatch, dataset):
    data = json.loads(FILES[dataset].read_text())
    FakeBackend(monkeypatch)  # an empty results store; the shipped reference results
    monkeypatch.setattr(stored_runs, "reference_runs", ORIGINAL_REFERENCE_RUNS)
    at = AppTest.from_file(page("pages/2_Metrics.py"), default_timeout=120).run()
    at.selectbox(key="m_dataset").set_value(dataset).run()
    assert not at.exception
    for protocol in PROTOCOLS:
        at.radio(key="m_protocol").set_value(protocol).run()
        assert not at.exception
        shown = [plain(m.value) for m in at.markdown if m.value.startswith("**Verdict** — ")]
        assert len(shown) == 1, f"{dataset} {protocol}: one verdict"
        headline = shown[0].removeprefix("**Verdict** — ")
        assert headline.startswith(direct(data, protocol)), f"{dataset} {protocol}"
        assert "vs tf-idf + LinearSVC (classifier) " in headline
        gold = "reads the gold label" if protocol == "label-aware" else "reads no gold label (deployable)"
        assert gold in headline
