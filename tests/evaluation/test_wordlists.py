"""A method's word lists and their quality, F1 included: the same numbers as the evaluation's own
code and :func:`dkw_core.quality.list_quality` give on the tiny topic corpus (conftest)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from dkw_core.errors import InputError
from dkw_core.evaluation.baselines import bow_baseline
from dkw_core.evaluation.protocols import evaluate_model
from dkw_core.evaluation.wordlists import (
    DOCUMENT_COLUMNS,
    TOP1_SUFFIX,
    category_lists,
    document_columns,
    document_lists,
    load_quality,
    method_f1,
    method_quality,
    quality_method_id,
    quality_path,
    quality_summary,
    reference_tokens,
)
from dkw_core.keywords import BaselineModel, KeywordModel
from dkw_core.keywords.categories import category_keywords
from dkw_core.quality import REFERENCE, list_quality

PROTOCOL = "label-free"  # deployable; the tiny corpus is too small for the calibrated posterior of top-1


@pytest.fixture(scope="module")
def latent(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


@pytest.fixture(scope="module")
def own(topic_corpus):
    return BaselineModel.prepare(topic_corpus, cache=False)


def test_reference_tokens_are_the_splits_content_words(topic_corpus):
    tokens = reference_tokens(topic_corpus)
    assert len(tokens.test) == 2 and len(tokens.train) == len(tokens.train_labels) == 6
    assert ["coach", "praised", "team", "league"] in tokens.test
    assert sorted(tokens.train_labels) == ["space"] * 3 + ["sport"] * 3


@pytest.mark.parametrize("which, metric, k", [("latent", "rf", 3), ("own", "fw", None), ("own", "ctfidf", None)])
def test_method_quality_is_list_quality_of_the_methods_lists_with_its_evaluated_f1(request, topic_corpus, which,
                                                                                  metric, k):
    model = request.getfixturevalue(which)
    got = method_quality(model, metric=metric, k=k, top=3, protocol=PROTOCOL)
    want_lists = {c: [w.word for w in category_keywords(model, c, metric=metric, k=k, top=3, phrases=0)]
                  for c in model.categories}
    assert got.lists == {c: ws for c, ws in want_lists.items() if ws} == category_lists(model, metric=metric, k=k,
                                                                                        top=3)
    if which == "own":
        scores, _, _ = bow_baseline(model, metric=metric, top=3, protocol=PROTOCOL)
        assert "binary keyword sets" in got.quality.f1.means
    else:
        scores, _, _ = evaluate_model(model, metric=metric, k=k, top=3, protocol=PROTOCOL)
        assert "keyword-vector sums" in got.quality.f1.means and "K=3" in got.quality.f1.means
    f1 = got.quality.f1
    assert (f1.micro_f1, f1.macro_f1, f1.top, f1.protocol) == (scores.micro_f1, scores.macro_f1, 3, PROTOCOL)
    tokens = reference_tokens(topic_corpus)
    plain = list_quality(got.lists, tokens.test, tokens.train, tokens.train_labels, topn=3)
    assert (got.quality.npmi, got.quality.exclusivity, got.quality.absent_share) == pytest.approx(
        (plain.npmi, plain.exclusivity, plain.absent_share), nan_ok=True)
    assert got.quality.reference == REFERENCE
    assert f"micro-F1 {100 * scores.micro_f1:.2f} of the test documents'" in got.quality.describe()


def test_document_lists_are_the_test_documents_keywords_with_their_gold_category(latent):
    words, gold = document_lists(latent, metric="ig", k=3, top=2, protocol=PROTOCOL)
    for doc in latent.corpus.test:
        assert words[doc.id] == [kw.word for kw in latent.keywords(doc.id, metric="ig", k=3, top=2,
                                                                   protocol=PROTOCOL)]
        assert gold[doc.id] == doc.label
    got = method_quality(latent, metric="ig", k=3, lists="documents", top=2, protocol=PROTOCOL, f1=False)
    assert got.lists == words and got.quality.f1 is None
    assert got.quality.exclusivity_per_list.keys() == words.keys()


def test_the_f1_of_own_words_is_the_bag_of_words_baseline_not_a_vector_sum(own):
    f1 = method_f1(own, metric="fw", k=90, top=2, protocol=PROTOCOL)  # K is ignored for own words
    scores, _, _ = bow_baseline(own, metric="fw", top=2, protocol=PROTOCOL)
    assert f1.micro_f1 == scores.micro_f1 and "own-word keywords" in f1.means


def test_an_unknown_kind_of_list_is_one_input_error(latent):
    with pytest.raises(InputError, match="unknown kind of word lists 'words'"):
        method_quality(latent, metric="rf", k=3, lists="words")


# --------------------------------------------------------------------------- the shipped quality table

def _method(metric: str, words: str, npmi, absent: float, excl: float, micro: float, macro: float) -> dict:
    return {"method": metric, "metric": metric, "words": words, "npmi": npmi, "absent_share": absent,
            "exclusivity": excl, "npmi_skipped": [], "micro_f1": micro, "macro_f1": macro, "lists": {}}


def _write(tmp_path, methods: list[dict], corpus: str = "toy") -> Path:
    data = {"command": "scripts/quality_table.py --corpora toy", "date": "2026-11-26", "dkw_version": "9.9",
            "k": 90, "k_choice": "fixed", "top": 10, "protocol": "label-free-top1",
            "reference": "the test split's content words", "window": 10, "f1": "micro/macro F1 at N = 10",
            "corpora": {corpus: {"dataset": corpus, "methods": methods}}}
    path = tmp_path / "quality.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_load_quality_is_the_shipped_json_with_plain_column_names():
    shipped = json.loads(quality_path().read_text(encoding="utf-8"))
    got = load_quality()
    assert list(got.table.columns) == ["corpus", "id", "method", "words", "NPMI", "absent from test split (%)",
                                       "exclusivity", "micro-F1 (%)", "macro-F1 (%)", *document_columns(),
                                       *document_columns(TOP1_SUFFIX)]
    assert got.corpora == list(shipped["corpora"]) and got.k == shipped["k"] and got.window == shipped["window"]
    for corpus, item in shipped["corpora"].items():
        rows = got.of(corpus)
        assert len(rows) == len(item["methods"])
        for row, m in zip(rows.to_dict("records"), item["methods"]):
            assert row["id"] == quality_method_id(m["words"], m["metric"])
            for key, name in DOCUMENT_COLUMNS.items():  # the document figures, F1 in percent
                triple = (m.get("documents") or {}).get("figures", {}).get(key)
                scale = 100 if key.endswith("_f1") else 1
                want = [math.nan] * 3 if triple is None else [math.nan if x is None else scale * x for x in triple]
                assert [row[name], row[f"{name} low"], row[f"{name} high"]] == pytest.approx(want, nan_ok=True)
            if m["words"] in ("extractor", "imported", "keyphrases"):
                continue  # document keywords only
            assert row["NPMI"] == pytest.approx(m["npmi"]) and row["exclusivity"] == pytest.approx(m["exclusivity"])
            assert row["absent from test split (%)"] == pytest.approx(100 * m["absent_share"])
            assert (row["micro-F1 (%)"], row["macro-F1 (%)"]) == pytest.approx((m["micro_f1"], m["macro_f1"]))
    labels = dict(zip(got.table["id"], got.table["method"]))
    assert labels["own:fw"] == "Fightin' Words (own words)" and labels["tf-idf"] == "tf-idf (keyword metric)"


def test_quality_summary_names_the_best_methods_and_holds_the_default_against_fightin_words(tmp_path):
    results = load_quality(_write(tmp_path, [
        _method("rf", "latent", -0.3, 0.88, 0.10, 97.0, 93.0), _method("tds", "latent", -0.3, 0.88, 0.10, 97.0, 93.0),
        _method("ig", "latent", -0.37, 0.29, 0.60, 97.12, 92.87),
        _method("fw", "own words", 0.063, 0.0, 0.539, 97.03, 92.37),
        _method("ctfidf", "own words", 0.066, 0.0, 0.518, 96.89, 92.32)]))
    got = quality_summary(results, "toy", default="ig")
    assert got.answer.startswith("On toy, c-TF-IDF (own words) gives the most coherent category words "
                                 "(NPMI +0.066) and ig the most exclusive (exclusivity 0.600)")
    assert "the default, ig (latent, K 90), reaches NPMI \u22120.370 (29.0 % of its words absent" in got.answer
    assert "Fightin' Words (own words): NPMI +0.063, exclusivity 0.539, micro-F1 97.03 %" in got.answer
    assert got.answer.endswith("the default is below it in coherence, above it in exclusivity.")
    assert "K = 90" in got.how and "window of 10 words" in got.how and "N = 10" in got.how
    tied = quality_summary(results, "toy", default="rf")
    assert "the default is below it on both." in tied.answer
    assert "the default metric lo was not measured here." in quality_summary(results, "toy", default="lo").answer


def test_the_best_of_several_tied_methods_names_them_all(tmp_path):
    results = load_quality(_write(tmp_path, [
        _method("ig", "latent", 0.1, 0.0, 0.5, 90.0, 80.0), _method("gr", "latent", 0.1, 0.0, 0.5, 90.0, 80.0),
        _method("rf", "latent", None, 1.0, 0.2, 50.0, 40.0)]))
    got = quality_summary(results, "toy", default="rf")
    assert got.answer.startswith("On toy, ig and gr give both the most coherent category words (NPMI +0.100) "
                                 "and the most exclusive (exclusivity 0.500)")
    assert results.of("toy")["NPMI"].isna().tolist() == [False, False, True]
    assert "Fightin' Words was not measured here." in got.answer


def test_a_missing_corpus_or_malformed_quality_file_is_one_input_error(tmp_path):
    results = load_quality(_write(tmp_path, [_method("ig", "latent", 0.1, 0.0, 0.5, 90.0, 80.0)]))
    with pytest.raises(InputError, match="no quality measurement of corpus 'r8'"):
        quality_summary(results, "r8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"corpora": {"toy": {"methods": [{"metric": "ig", "words": "latent",
                                                                  "npmi": "high"}]}}}), encoding="utf-8")
    with pytest.raises(InputError, match="npmi is not a number"):
        load_quality(bad)
    with pytest.raises(InputError, match="not a readable quality table"):
        load_quality(tmp_path / "missing.json")


def test_method_document_quality_measures_the_models_keyword_lists_of_both_splits(latent, topic_corpus):
    from dkw_core.evaluation.keyword_methods import MethodKeywords, evaluate_keywords
    from dkw_core.evaluation.wordlists import keywords_quality, method_document_quality, model_keyword_lists

    tokens = reference_tokens(topic_corpus)
    lists = model_keyword_lists(latent, metric="ig", k=3, top=2, protocol="label-free")
    assert set(lists) == set(tokens.train_ids) | set(tokens.test_ids)
    for doc in topic_corpus.test:
        assert lists[doc.id] == [kw.word for kw in latent.keywords(doc.id, metric="ig", k=3, top=2,
                                                                   protocol="label-free")]
    got = method_document_quality(latent, metric="ig", k=3, top=2, tokens=tokens)
    assert got.ids == tokens.test_ids and got.categories == tokens.test_labels
    # the keywords-alone F1 is the extractor path's on the same lists (the one classification of keywords)
    scores = evaluate_keywords(topic_corpus, latent.vectors, MethodKeywords("ig", "dkw", False, "", lists), tops=[2])
    assert got.summary(ci=False)["micro_f1"]["value"] == pytest.approx(scores[2][0].micro_f1)
    again = keywords_quality(lists, tokens, latent.vectors, top=2)
    assert np.array_equal(again.topic_rr, got.topic_rr, equal_nan=True)
    with pytest.raises(InputError, match="no keywords for 6 of the 6 training documents"):
        keywords_quality({d: lists[d] for d in tokens.test_ids}, tokens, latent.vectors, top=2)
    assert keywords_quality({d: lists[d] for d in tokens.test_ids}, tokens, latent.vectors, top=2,
                            f1=False).predicted is None


def test_the_pareto_front_keeps_the_methods_no_other_beats_on_both_and_says_so():
    import pandas as pd

    from dkw_core.evaluation.wordlists import CATEGORY_AXIS, TOPIC_AXIS, front_sentence, pareto_front

    rows = pd.DataFrame({"id": ["a", "b", "c", "d", "e"], "method": ["A", "B", "C", "D", "E"],
                         TOPIC_AXIS: [0.6, 0.2, 0.1, 0.2, np.nan], CATEGORY_AXIS: [90.0, 94.0, 80.0, 93.0, 99.0]})
    # c is beaten by a and b on both; d by b (level on topic, lower on category); e has no topic figure
    assert list(pareto_front(rows)["id"]) == ["a", "b"]
    sentence = front_sentence(rows, "r8")
    assert sentence.startswith("On r8, the methods no other beats on both")
    assert "A (topic MRR 0.600, micro-F1 90.00 %) and B (topic MRR 0.200, micro-F1 94.00 %)" in sentence
    assert "C" not in sentence.split(";")[0].replace("(", " ").split() and "D (" not in sentence
