"""Any keyword method evaluated the paper's way (dkw_core/evaluation/keyword_methods.py)."""
import json
from pathlib import Path

import numpy as np
import pytest

from dkw_core.errors import InputError
from tests.conftest import ROOT
from tests.support.scripts import load_script


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    from dkw_core.keywords import KeywordModel

    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=6, cache=False)


def _dkw_file(model, tmp_path, *, metric, k, top, protocol, drop=()):
    """dkw's own keywords of both splits, written as an imported JSONL file."""
    lines = []
    for split in ("train", "test"):
        idx = model.rank(split, metric=metric, k=k, top=top, protocol=protocol)
        for doc, row in zip(model.doc_ids(split), idx):
            if doc not in drop:
                lines.append({"doc_id": doc, "method": "dkw-copy", "keywords": [model.vocabulary[i] for i in row if i >= 0]})
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("protocol", ["label-aware", "label-free"])
def test_an_imported_file_of_dkws_own_keywords_gives_dkws_f1_exactly(model, topic_corpus, tmp_path, protocol):
    from dkw_core.evaluation.keyword_methods import evaluate_keywords, imported_keywords, keyword_vectors
    from dkw_core.evaluation.protocols import evaluate_tops
    from dkw_core.keywords.imports import read_imported

    kw = dict(metric="rf", k=6, protocol=protocol)
    path = _dkw_file(model, tmp_path, top=5, **kw)
    (method,) = imported_keywords(topic_corpus, read_imported(path), source=path.name)
    assert method.reads == "unknown (computed elsewhere)"
    for split in ("train", "test"):  # the same document vectors, bit for bit
        ids = model.doc_ids(split)
        assert np.array_equal(keyword_vectors(model.vectors, [method.lists[d] for d in ids], 3),
                              model.document_vectors(model.rank(split, top=3, **kw)))
    theirs = evaluate_keywords(topic_corpus, model.vectors, method, tops=[1, 3, 5])
    ours = evaluate_tops(model, tops=[1, 3, 5], **kw)
    for n in (1, 3, 5):
        assert theirs[n][0].micro_f1 == ours[n][0].micro_f1 and theirs[n][0].macro_f1 == ours[n][0].macro_f1
        assert np.array_equal(theirs[n][2], ours[n][2])


def test_an_imported_file_missing_a_training_document_names_it(model, topic_corpus, tmp_path):
    from dkw_core.evaluation.keyword_methods import imported_keywords
    from dkw_core.keywords.imports import read_imported

    gone = model.doc_ids("train")[1]
    path = _dkw_file(model, tmp_path, metric="rf", k=6, top=3, protocol="label-free", drop=[gone])
    with pytest.raises(InputError, match=rf"dkw-copy.*1 of the 6 train document\(s\).*{gone!r}.*must cover both splits") as err:
        imported_keywords(topic_corpus, read_imported(path), source=path.name)
    assert "\n" not in str(err.value)


class FirstWords:
    """A third-party extractor in a few lines: the first words of the text."""

    reads_labels = False

    def extract(self, text, top):
        return [w.strip(".,;").lower() for w in text.split()][:top]


@pytest.fixture
def first_words(monkeypatch, tmp_path):
    from dkw_core.keywords import register_extractor
    from dkw_core.keywords.extractors import unregister_extractor

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    register_extractor(r"first-words", lambda _m: FirstWords())
    yield "first-words"
    unregister_extractor(r"first-words")


def test_the_registry_serves_the_study_and_the_evaluation_alike(first_words, model, topic_corpus):
    from dkw_core.evaluation.keyword_methods import evaluate_keywords, extractor_keywords
    from dkw_core.study import methods as study
    from dkw_core.study.settings import MethodSpec

    spec = MethodSpec(first_words)
    assert study.method_kind(spec) == "extractor" and study.effective_protocol(spec) == "label-free"
    docs = {d.id: d for d in topic_corpus.split("test")}
    shown = study.method_keywords(spec, documents=docs, top=2, provider=lambda *a: {})
    assert shown == {d: FirstWords().extract(docs[d].text, 2) for d in docs}

    method = extractor_keywords(topic_corpus, first_words)
    assert (method.kind, method.reads) == ("extractor", "reads no label")
    assert method.lists[topic_corpus.split("test")[0].id][:2] == shown[topic_corpus.split("test")[0].id]
    scores, _seconds, pred = evaluate_keywords(topic_corpus, model.vectors, method, tops=[3])[3]
    assert len(pred) == 2 and 0 <= scores.micro_f1 <= 1


class LastWords(FirstWords):
    def extract(self, text, top):
        return [w.strip(".,;").lower() for w in reversed(text.split())][:top]


def test_the_extractors_reference_file_charts_under_every_protocol_and_in_the_significance_table(
        first_words, model, topic_corpus, tmp_path):
    from dkw_core.evaluation.comparisons import curve_table, per_document
    from dkw_core.evaluation.experiments import model_experiment
    from dkw_core.evaluation.reference import load_reference
    from dkw_core.keywords import register_extractor
    from dkw_core.keywords.extractors import unregister_extractor
    from dkw_core.types import PROTOCOLS

    register_extractor(r"last-words", lambda _m: LastWords())
    try:
        exp = model_experiment(model, dataset="topics", sample=None)
        payload = load_script("extractor_results").extractor_payload(exp, methods=["first-words", "last-words"], tops=[1, 2],
                                                         metric="rf", k=6, protocol="label-free")
    finally:
        unregister_extractor(r"last-words")
    (tmp_path / "extractors").mkdir()
    (tmp_path / "extractors" / "topics.json").write_text(json.dumps(payload))
    runs = load_reference(tmp_path)
    assert set(runs["protocol"]) == set(PROTOCOLS)  # no label read: shown under every protocol
    assert set(runs["metric"]) == {"first-words", "last-words"} and set(runs["kind"]) == {"extractor"}
    assert set(runs["options"].map(lambda o: o["reads"])) == {"reads no label"}
    curves = curve_table(runs, dataset="topics", protocol="label-free-top1")
    assert sorted(zip(curves["metric"], curves["top"])) == [("first-words", 1), ("first-words", 2),
                                                            ("last-words", 1), ("last-words", 2)]
    pairs = per_document(runs, dataset="topics", protocol="label-aware", top=2)
    assert list(zip(pairs["metric_a"], pairs["metric_b"])) == [("first-words", "last-words")]
    dkw = payload["dkw_default"]
    assert (dkw["metric"], dkw["k"], [r["top"] for r in dkw["runs"]]) == ("rf", 6, [1, 2])
    names = {(p["a"], p["b"]) for p in payload["comparisons"]["label-free"]["by_top"]["2"]}
    assert ("dkw rf K6", "first-words") in names and ("last-words", "tf-idf + LinearSVC (classifier)") in names


SHIPPED = Path(__file__).resolve().parents[2] / "docs" / "results" / "extractors"


@pytest.mark.parametrize("corpus", ["20ng", "r8", "r52", "webkb"])
def test_the_shipped_extractor_results_load_and_match_their_format(corpus):
    from dkw_core.evaluation.paired import decode_labels
    from dkw_core.evaluation.reference import FORMAT, load_reference, unpack_predictions
    from dkw_core.types import PROTOCOLS

    path = SHIPPED / f"{corpus}.json"
    assert path.is_file() and path.stat().st_size < 2_000_000
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["dataset"], data["dkw_default"]["protocol"]) == (FORMAT, corpus, "label-free-top1")
    tops = [1, 2, 5, 10, 20, 50]
    assert sorted((r["metric"], r["top"]) for r in data["runs"]) == [(m, n) for m in ("textrank", "yake") for n in tops]
    (split, gold), = data["test_labels"].items()
    assert len(gold) == data["documents"]["test"]
    for run in data["runs"] + data["dkw_default"]["runs"] + [data["baseline"]]:
        assert run["test_split"] == split and 0 < run["micro_f1"] <= 100
        pred = decode_labels(unpack_predictions(run["predictions"]))
        assert len(pred) == len(gold)
        assert round(100 * float((pred == decode_labels(gold)).mean()), 4) == pytest.approx(run["micro_f1"], abs=1e-3)
    for run in data["runs"]:
        assert (run["kind"], run["protocol"], run["options"]["reads"]) == ("extractor", "label-free", "reads no label")
    assert sorted(int(n) for n in data["comparisons"]["label-free-top1"]["by_top"]) == tops
    assert [r["top"] for r in data["dkw_default"]["runs"]] == tops
    runs = load_reference(SHIPPED.parent)
    mine = runs[(runs["dataset"] == corpus) & (runs["kind"] == "extractor")]
    assert set(mine["protocol"]) == set(PROTOCOLS) and len(mine) == 12 * len(PROTOCOLS)


def test_the_extractors_table_of_the_docs_is_the_one_the_shipped_files_generate():
    """docs/extractors.md's N = 10 table is generated (scripts/extractor_results.py --render) from
    docs/results/extractors/*.json, and says every corpus's dkw default and the classifier."""
    script = load_script("extractor_results")
    body = (ROOT / "docs" / "extractors.md").read_text(encoding="utf-8")
    block = body.split(script.BEGIN, 1)[1].split(script.END, 1)[0]
    generated = script.table()
    assert block == "\n" + generated
    from dkw_core.types import DEFAULT_METRIC

    for corpus in ("20ng", "r8", "r52", "webkb"):
        # the row names the classifier's category dkw's keywords read (not equal information with the extractors)
        assert (f"| {corpus} | dkw {DEFAULT_METRIC}, K = 90, label-free-top1 + the category a tf-idf classifier "
                "predicts |") in generated
        assert f"| {corpus} | tf-idf + LinearSVC (classifier) |" in generated


def test_a_comparison_of_extractors_with_dkw_under_a_category_reading_protocol_says_so():
    from dkw_core.evaluation.keyword_methods import information_note

    top1 = information_note("label-free-top1", ["dkw lo-own K90", "yake", "textrank"])
    assert top1.startswith("Not equal information: under label-free-top1")
    assert "tf-idf + LinearSVC classifier predicts" in top1 and "textrank, yake read the text alone" in top1
    assert "gold category" in information_note("label-aware", ["ig", "yake"])
    assert information_note("label-free", ["ig", "yake"]) == ""  # keywords alone for all: equal
    assert information_note("label-free-top1", ["ig", "rf"]) == ""  # no extractor in the comparison
