"""dkw_core/evaluation/names.py: the tf-idf keyword metric and the tf-idf + LinearSVC classifier
are never named alike."""
from dkw_core.evaluation.names import BASELINE_KINDS, METHOD_NAMES, is_baseline, method_name
from dkw_core.evaluation.protocols import KINDS
from dkw_core.metrics import METRICS


def test_the_two_tfidfs_read_apart_and_every_other_metric_keeps_its_name():
    assert method_name("tf-idf") == "tf-idf (keyword metric)"
    assert method_name("baseline-tfidf") == "tf-idf + LinearSVC (classifier)"
    assert len(set(METHOD_NAMES.values())) == len(METHOD_NAMES)
    assert method_name("ig") == "ig" and not is_baseline("tf-idf") and is_baseline("baseline-tfidf")
    assert set(BASELINE_KINDS) <= set(KINDS) and "tf-idf" in METRICS
