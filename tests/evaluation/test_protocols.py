import json
from pathlib import Path

import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.protocols import RunConfig, evaluate_model, run_variant, standard

from .fakes import FakeModel


def test_label_free_never_reads_test_labels_before_predicting():
    model = FakeModel(seed=4, noise=1.0)
    shuffled = model.shuffled_test_labels()
    _, _, pred = evaluate_model(model, metric="rf", k=10, top=3, protocol="label-free")
    _, _, pred_shuffled = evaluate_model(shuffled, metric="rf", k=10, top=3, protocol="label-free")
    assert np.array_equal(pred, pred_shuffled)
    # the keywords themselves are identical too
    assert np.array_equal(model.rank("test", metric="rf", k=10, top=3, protocol="label-free"),
                          shuffled.rank("test", metric="rf", k=10, top=3, protocol="label-free"))


def test_label_aware_uses_test_labels():
    model = FakeModel(seed=4, noise=1.5)
    shuffled = model.shuffled_test_labels()
    _, _, pred = evaluate_model(model, metric="rf", k=10, top=3, protocol="label-aware")
    _, _, pred_shuffled = evaluate_model(shuffled, metric="rf", k=10, top=3, protocol="label-aware")
    assert not np.array_equal(pred, pred_shuffled)
    # label-aware predictions follow the (shuffled) labels written into the keyword vectors
    agree = (pred_shuffled == shuffled._labels["test"]).mean()
    assert agree > (pred == shuffled._labels["test"]).mean()


def test_scores_match_predictions():
    model = FakeModel(seed=5)
    scores, seconds, pred = evaluate_model(model, metric="tf-rf", k=10, top=4, protocol="label-free")
    truth = model._labels["test"]
    assert scores.micro_f1 == pytest.approx((pred == truth).mean())
    assert set(seconds) == {"keywords", "classify"}
    assert scores.micro_f1 > 0.5  # well-separated synthetic categories


def test_unknown_protocol():
    with pytest.raises(InputError, match="protocol"):
        evaluate_model(FakeModel(), metric="rf", k=10, top=3, protocol="oracle")


def test_a_variant_stored_by_an_older_dkw_keeps_its_label_and_stays_apart():
    """The shipped reference holds a run with label-aware training documents (an option dkw no
    longer offers): it still loads with its stored label, and no comparison pairs it."""
    runs = json.loads((Path(__file__).resolve().parents[2] / "docs/results/20ng.json").read_text())["runs"]
    old = next(r for r in runs if (r.get("options") or {}).get("train_protocol"))
    fields = ("dataset", "vectors", "protocol", "metric", "k", "top", "classifier", "split", "kind", "sample")
    config = RunConfig(corpus_key="20ng", options=old["options"], **{f: old[f] for f in fields})
    assert config.label() == old["label"]
    assert run_variant(old["options"]) == "training documents label-aware" and not standard(old["options"])
    assert standard({"k_max": 90, "neighbours": "csls-k10"}) and standard(None)
