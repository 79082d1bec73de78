"""``python -m dkw_core categories``: each category's discriminative words, JSON and text."""
import json

import pytest

from dkw_core.corpora import load_corpus
from dkw_core.keywords import KeywordModel
from tests.cli.test_corpus import TEXTS, folder, run  # noqa: F401  (the mini corpus fixture)


@pytest.mark.parametrize("metric", ["rf", "lo-own"])
def test_categories_json_equals_the_library(folder, capsys, metric):  # noqa: F811
    code, out, err = run(capsys, "categories", "--dataset", str(folder), "--metric", metric, "--k", "10",
                         "--top", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["metric"] == metric and data["k"] == 10 and data["statistics"] == "training split"
    assert set(data["categories"]) == {"sport", "space"}
    model = KeywordModel.prepare(load_corpus(str(folder)), k_max=90)
    for cat, words in data["categories"].items():
        want = model.category_keywords(cat, metric=metric, k=10, top=4, phrases=3)
        assert [w["word"] for w in words] == [w.word for w in want]
        assert [w["documents"] for w in words] == [w.documents for w in want]
        assert all(w["phrases"] for w in words)
    assert data["train_documents"] == {"sport": 2, "space": 2}


def test_one_category_as_text(folder, capsys):  # noqa: F811
    code, out, err = run(capsys, "categories", "--dataset", str(folder), "--metric", "ig", "--category", "space",
                         "--k", "10", "--top", "3")
    assert code == 0, err
    assert "metric=ig, K=10" in out and "statistics from the training split" in out
    assert "\nspace (2 training documents)" in out and "sport (" not in out
    assert len([line for line in out.splitlines() if line.startswith("  ")]) == 3


def test_unknown_category_and_metric_are_one_line_errors(folder, capsys):  # noqa: F811
    code, out, err = run(capsys, "categories", "--dataset", str(folder), "--metric", "rf", "--category", "chess")
    assert code == 2 and "unknown category 'chess'" in err and "Traceback" not in err
    code, out, err = run(capsys, "categories", "--dataset", str(folder), "--metric", "nope")
    assert code == 2 and "nope" in err


def test_baseline_ranks_the_documents_own_words_by_fightin_words(folder, capsys):  # noqa: F811
    from dkw_core.keywords import BaselineModel
    from dkw_core.keywords.categories import category_keywords

    code, out, err = run(capsys, "categories", "--dataset", str(folder), "--baseline", "--metric", "fw",
                         "--top", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["words"] == "own words" and data["metric"] == "fw" and data["k"] is None
    base = BaselineModel.prepare(load_corpus(str(folder)))
    for cat, words in data["categories"].items():
        assert [w["word"] for w in words] == [w.word for w in category_keywords(base, cat, metric="fw", top=3)]
        assert words and all(w["phrases"] == [] for w in words)
    code, out, err = run(capsys, "categories", "--dataset", str(folder), "--baseline", "--metric", "ctfidf",
                         "--category", "space", "--top", "2")
    assert code == 0, err
    assert "metric=ctfidf, the documents' own words, no vectors" in out
