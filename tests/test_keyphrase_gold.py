"""The keyphrase gold standards (benchmarks/keyphrase_gold.py): reader, scorer, cross-fitting,
and the generated table in the docs."""
from __future__ import annotations

import json
import zipfile
from collections import Counter

import numpy as np
import pytest

from benchmarks import keyphrase_gold as kg
from dkw_core import config
from dkw_core.errors import CorpusError
from tests.conftest import ROOT

TEXT = "Neural networks for image classification. Training neural networks on images is hard."
GOLD = ("neural network", "Neural-Networks", "image classification", "deep learning")
PREDICTED = ["neural networks", "Neural network", "images", "image classification", "training", "hard", "cats"]


def test_normalise_lowercases_splits_hyphens_and_punctuation_and_stems():
    assert kg.normalise("Web-based Systems.") == ("web", "base", "system")
    assert kg.normalise("Neural-Networks") == kg.normalise("neural networks") == ("neural", "network")
    assert kg.normalise(" -- ") == ()


def test_scorer_on_a_hand_computed_case():
    """Gold after stemming: {neural network, imag classif, deep learn} — "Neural-Networks" is
    "neural network" again (3 distinct); present in the stemmed text: neural network and imag
    classif (2). Predicted after stemming, repeats dropped: neural network, imag, imag classif,
    train, hard, cat (6; "Neural network" repeats the first).

    * F1@5 as given: top 5 = neural network, imag, imag classif, train, hard; 2 matches;
      P = 2/5, R = 2/3, F1 = 2·0.4·(2/3) / (0.4 + 2/3) = 0.5
    * F1@10 as given: all 6, 2 matches; P = 2/10, R = 2/3, F1 = 2·0.2·(2/3) / (0.2 + 2/3) = 4/13
    * present-only F1@5: P = 2/5, R = 2/2, F1 = 0.8 / 1.4 = 4/7
    * present-only F1@10: P = 2/10, R = 1, F1 = 0.4 / 1.2 = 1/3
    Without dropping the repeat, the top 5 would end at "training" and F1@10 would be unchanged
    but the present-only sets would differ in size; without stemming "images" and "image" differ."""
    doc = kg.GoldDocument("1", TEXT, GOLD)
    got = kg.score(PREDICTED, doc)
    assert got == pytest.approx({"f1@5": 0.5, "f1@10": 4 / 13, "present f1@5": 4 / 7, "present f1@10": 1 / 3})
    # the repeat counts once: the same lists without it score the same
    assert kg.score([p for p in PREDICTED if p != "Neural network"], doc) == got
    # a document without any present gold scores 0 present-only, and no prediction scores 0
    assert kg.score(["x"], kg.GoldDocument("2", "nothing here", ("deep learning",))) == {s: 0.0 for s in kg.SCORES}


def test_presence_is_a_contiguous_stemmed_sequence():
    text = kg.normalise("the image of a classification")
    assert not kg.is_present(kg.normalise("image classification"), text)
    assert kg.is_present(kg.normalise("images"), text)
    assert not kg.is_present(kg.normalise("age"), text)  # whole tokens only, not "im-age"


def _docs(per_category: int = 10, categories: int = 5) -> list[kg.GoldDocument]:
    return [kg.GoldDocument(f"c{c}-{i}", f"text {c} {i}", ("k",), f"c{c}")
            for c in range(categories) for i in range(per_category)]


def test_cross_fitting_never_scores_a_document_with_its_own_statistics():
    docs = _docs()
    seen: list[tuple[set, list]] = []

    def extract(train, test):
        seen.append(({d.id for d in train}, [d.id for d in test]))
        return [[d.id] for d in test]  # each document's "keyphrase" is its own id

    found, fold = kg.cross_fit(docs, extract)
    assert len(seen) == kg.FOLDS
    tested = Counter(i for _train, test in seen for i in test)
    assert tested == Counter(d.id for d in docs)  # every document scored exactly once
    for train, test in seen:
        assert not train & set(test)  # never with statistics that include it
        assert len(train) + len(test) == len(docs)
    assert found == [[d.id] for d in docs]  # keywords returned in the documents' order
    # stratified: every fold holds 2 of each category's 10; the fixed seed gives the same folds again
    for f in range(kg.FOLDS):
        assert Counter(d.category for d, g in zip(docs, fold) if g == f) == {f"c{c}": 2 for c in range(5)}
    assert np.array_equal(fold, kg.fold_of([d.category for d in docs]))


def test_500n_development_part_is_the_training_folds():
    docs = _docs()
    dev = kg.dev_part("500n", docs)
    fold = kg.fold_of([d.category for d in docs])
    assert [d.id for d in dev] == [d.id for d, f in zip(docs, fold) if f != 0]
    assert kg.dev_part("inspec", docs)[:3] == docs[:3] and kg.dev_part("semeval2017", docs) == docs[:120]


def _zip(path, files: dict[str, str]):
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return path


def test_reader_on_a_tiny_zip(tmp_path):
    path = _zip(tmp_path / "Tiny.zip", {
        "Tiny/docsutf8/10.txt": "ten", "Tiny/docsutf8/2.txt": "\ufefftwo", "Tiny/docsutf8/1.txt": "one",
        "Tiny/keys/10.key": "a\nb  c\n\n", "Tiny/keys/2.key": "Deep\tlearning\r\n", "Tiny/keys/1.key": "x\n",
        "Tiny/README.txt": "not a document"})
    docs = kg.read_zip(path)
    assert [(d.id, d.text, d.keys, d.category) for d in docs] == [
        ("1", "one", ("x",), None), ("2", "two", ("Deep learning",), None), ("10", "ten", ("a", "b c"), None)]
    assert [d.id for d in kg.read_zip(path, limit=2)] == ["1", "2"]
    cats = _zip(tmp_path / "N.zip", {"N/docsutf8/art_and_culture-7.txt": "t", "N/keys/art_and_culture-7.key": "k"})
    assert kg.read_zip(cats, categories=True)[0].category == "art_and_culture"
    broken = _zip(tmp_path / "B.zip", {"B/docsutf8/1.txt": "t"})
    with pytest.raises(CorpusError, match="without keys"):
        kg.read_zip(broken)


def test_missing_zip_is_one_line_naming_file_and_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_KEYPHRASES", str(tmp_path))
    assert config.keyphrases_dir() == tmp_path.resolve()
    with pytest.raises(CorpusError) as err:
        kg.load_gold("inspec")
    message = str(err.value)
    assert "\n" not in message and "Inspec.zip" in message and str(tmp_path.resolve()) in message
    assert "DKW_KEYPHRASES" in message


def test_a_zip_of_another_checksum_is_refused(tmp_path):
    _zip(tmp_path / "SemEval2017.zip", {"SemEval2017/docsutf8/1.txt": "t", "SemEval2017/keys/1.key": "k"})
    with pytest.raises(CorpusError, match="SHA-256"):
        kg.load_gold("semeval2017", folder=tmp_path)
    assert len(kg.load_gold("semeval2017", folder=tmp_path, verify=False)) == 1


def test_summary_against_the_best_peer():
    docs = [kg.GoldDocument(str(i), "neural network image", ("neural network", "image")) for i in range(20)]
    per_doc = {"peer a": [kg.score(["neural network"], d) for d in docs],
               "peer b": [kg.score(["zzz"], d) for d in docs],
               "dkw toy": [kg.score(["neural network", "image"], d) for d in docs]}
    out = kg.summarise(per_doc, ("peer a", "peer b"), resamples=200)
    assert out["best_peer"] == "peer a" and out["documents"] == 20
    # peer a: 1 match, P = 1/10, R = 1/2 → F1@10 = 1/6; ours: 2 matches, P = 2/10, R = 1 → 1/3;
    # ours at 5: P = 2/5, R = 1 → 4/7
    assert out["methods"]["peer a"]["f1@10"]["mean"] == pytest.approx(16.67)
    assert out["methods"]["dkw toy"]["f1@10"] == {"mean": pytest.approx(33.33), "ci": [pytest.approx(33.33)] * 2}
    ours = out["against_best_peer"]["f1@10"]["dkw toy"]
    assert ours["diff"] == pytest.approx(16.67) and ours["p_wilcoxon"] < 0.001
    assert ours["p_holm"] == pytest.approx(min(1.0, 2 * ours["p_wilcoxon"]))  # Holm over 2 comparisons
    table = kg.results_table({"datasets": [{"title": "Toy", "summary": out}]})
    assert "| Toy (20) | peer a | " in table and "best peer |" in table and "+16.67" in table
    assert "Published" not in table  # no published figures for this data set
    assert kg.run_line({"dev": True, "limit": 50}).startswith("Scope: the development part (Inspec's first 500 "
                                                              "documents, SemEval2017's first 120, 500N-KPCrowd's "
                                                              "training folds), its first 50")
    assert kg.run_line({"test": True}).startswith("Scope: the documents outside the development part")
    assert kg.run_line({"limit": 50}).startswith("Scope: the first 50 documents of each data set.")
    # a data set with published figures: ours (present-only) beside the paper's, never instead of them
    beside = kg.published_table({"datasets": [{"name": "inspec", "title": "Inspec", "summary": out}]})
    assert "| Inspec | ours: dkw toy | 57.14 [57.14, 57.14] | 33.33 [33.33, 33.33] |" in beside
    assert "| Inspec | ours: peer a |" in beside and "| Inspec | published: PromptRank" in beside and "37.88" in beside


RESULTS = ROOT / "docs" / "results" / "keyphrases" / "gold-standards.json"


def test_committed_results_and_the_docs_table_agree():
    """docs/keyphrases.md carries the table generated from the committed JSON, BENCHMARKS.md its
    summary: every data set's F1@10 of every method, as in the full table."""
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    for page, table in ((ROOT / "docs" / "keyphrases.md", kg.results_table(results)),
                        (ROOT / "BENCHMARKS.md", kg.summary_table(results))):
        assert kg.embedded_table(page.read_text(encoding="utf-8")) == table, f"{page.name}: regenerate it with " \
            "benchmarks/bench_keyphrases.py --render --update-docs"
    summary = kg.summary_table(results)
    for ds in results["datasets"]:
        for figs in ds["summary"]["methods"].values():
            assert kg._cell(figs["f1@10"]) in summary
    assert RESULTS.stat().st_size < 2_000_000 and (RESULTS.parent / "gold-standards-f1-at-10.png").stat().st_size < 300_000


@pytest.mark.corpus
@pytest.mark.parametrize("name", list(kg.GOLD_SETS))
def test_real_zips_read_and_score(name):
    spec = kg.GOLD_SETS[name]
    folder = config.keyphrases_dir()
    if not (folder / spec.zip).is_file():
        pytest.skip(f"{spec.zip} not in {folder} (DKW_KEYPHRASES)")
    docs = kg.load_gold(name, limit=10)
    assert len(docs) == 10 and all(d.text.strip() and d.keys for d in docs)
    assert all((d.category is not None) == spec.categories for d in docs)
    # the present gold predicted: found under both rules; most gold of these sets is present
    present = [[k for k in d.keys if kg.is_present(kg.normalise(k), kg.normalise(d.text))] for d in docs]
    assert sum(map(len, present)) > sum(len(d.keys) for d in docs) / 3
    for d, keys in zip(docs, present):
        got = kg.score(keys, d)
        assert (got["present f1@10"] > 0 and got["f1@10"] > 0) == bool(keys)


def test_summary_repeats_a_method_without_statistics_on_each_row():
    def fig(x):
        return {"f1@10": {"mean": x, "ci": [x - 1, x + 1]}}

    methods = {"dkw-new about 0, no statistics": fig(20.0), "peer a": fig(10.0), "dkw x, 20ng statistics": fig(5.0),
               "dkw x, cross-fitted statistics": fig(6.0)}
    results = {"datasets": [{"title": "Toy", "summary": {"documents": 3, "methods": methods}}]}
    rows = [line for line in kg.summary_table(results).splitlines() if line.startswith("| Toy")]
    assert rows == ["| Toy (3) | 20ng statistics | 10.00 [9.00, 11.00] | 20.00 [19.00, 21.00] | 5.00 [4.00, 6.00] |",
                    "| Toy (3) | cross-fitted statistics | 10.00 [9.00, 11.00] | 20.00 [19.00, 21.00] | 6.00 [5.00, 7.00] |"]
    assert "| data set | dkw's statistics | peer a | dkw-new about 0 | dkw x |" in kg.summary_table(results)


def test_ratio_table_divides_each_dkw_row_by_each_peer_on_both_scores():
    def fig(f5, f10):
        return {"f1@5": {"mean": f5, "ci": [f5, f5]}, "f1@10": {"mean": f10, "ci": [f10, f10]}}

    methods = {"peer a": fig(20.0, 25.0), "peer b": fig(0.0, 10.0), "dkw about 0, 20ng statistics": fig(26.0, 30.0),
               "dkw about 1, 20ng statistics": fig(1.0, 1.0)}
    results = {"datasets": [{"title": "Toy", "summary": {"documents": 3, "methods": methods}}]}
    table = kg.ratio_table(results)
    assert "| data set | method | × peer a (F1@5 / F1@10) | × peer b (F1@5 / F1@10) |" in table
    # 26 / 20 = 1.30, 30 / 25 = 1.20; a peer with a zero score gives no ratio; about 1 is not a keyphrase row
    assert "| Toy | dkw about 0, 20ng statistics | 1.30 / 1.20 | – |" in table and "about 1" not in table
    assert kg.ratio_table({"datasets": [{"title": "Toy", "summary": {"methods": {"dkw x": fig(1, 1)}}}]}) == ""


def test_textrank_as_shipped_keeps_determiners_where_tidy_trims_them():
    from dkw_core.keywords.extractors import TextRankExtractor

    phrases = ["the weather satellite", "The Weather Satellite", "a low orbit", "orbit"]
    assert TextRankExtractor.as_shipped(phrases, 10) == ["the weather satellite", "a low orbit", "orbit"]
    assert TextRankExtractor.tidy(phrases, 10) == ["weather satellite", "low orbit", "orbit"]
