"""``dkw_app.backend``'s door to the registry of keyword methods (the Documents page's columns)."""
from __future__ import annotations

from dkw_app import backend


def test_any_method_of_the_registry_is_a_column_with_provenance_where_it_applies(topic_corpus, monkeypatch, tmp_path):
    from dkw_core.keywords.extractors import YakeExtractor

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    offered = backend.keyword_methods()
    assert {"yake", "textrank", "tf-rf (own words)"} <= set(offered)
    doc = topic_corpus.split("test")[0]
    own = backend.method_keywords("tf-rf (own words)", doc, corpus=topic_corpus, top=3, protocol="label-aware")
    assert own and all(kw.word in doc.text.lower() for kw in own)
    assert backend.has_provenance("tf-rf (own words)") and own[0].provenance[0].phrase == own[0].word
    yake = backend.method_keywords("yake", doc, corpus=topic_corpus, top=3, protocol="label-aware")
    assert [kw.word for kw in yake] == YakeExtractor().extract(doc.text, 3) and not backend.has_provenance("yake")
    assert all(kw.tf >= 1 and kw.provenance == () for kw in yake)
    assert "reads no label" in backend.method_help("yake")


def test_the_instant_box_refuses_other_vectors_in_one_line_and_answers_with_the_default(monkeypatch, tmp_path):
    """The shipped statistics belong to the default vectors: with DKW_VECTORS set to others and
    20ng not prepared for them, the keywords-at-once box must say so in one line instead of
    tagging all of 20ng; with the default vectors it answers from the shipped statistics."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DKW_VECTORS", raising=False)
    assert backend.instant_refusal("20ng") is None  # the shipped statistics answer
    other = tmp_path / "other.txt"
    other.write_text("2 3\nspace 1 0 0\nsport 0 1 0\n", encoding="utf-8")
    monkeypatch.setenv("DKW_VECTORS", str(other))
    line = backend.instant_refusal("20ng")
    assert line is not None and "\n" not in line
    assert "belong to the default vectors" in line and backend.vectors_name() in line and "prepare 20ng" in line
    name = backend.vectors_name()
    monkeypatch.setattr(backend, "is_prepared", lambda corpus, vectors, **_: (corpus, vectors) == ("20ng", name))
    assert backend.instant_refusal("20ng") is None  # prepared for these vectors: answered from the prepared corpus


def test_a_metrics_table_is_computed_once_and_then_read_from_disk(monkeypatch, tmp_path):
    """The verdict's bootstrap made the Metrics page's first open slow on every fresh server: a
    table is kept on disk under its runs' key and the code's, so it is computed once."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    calls = []

    def compute(value):
        calls.append(value)
        return value

    assert backend.disk_cached("verdict", ("runs-a", "r8"), lambda: compute({"text": "r8"})) == {"text": "r8"}
    assert backend.disk_cached("verdict", ("runs-a", "r8"), lambda: compute({"text": "again"})) == {"text": "r8"}
    assert backend.disk_cached("verdict", ("runs-b", "r8"), lambda: compute(None)) is None  # other runs: computed
    assert backend.disk_cached("verdict", ("runs-b", "r8"), lambda: compute("not again")) is None  # None is kept too
    assert calls == [{"text": "r8"}, None]
    monkeypatch.setattr(backend, "_CODE_KEY", ["other code"])
    assert backend.disk_cached("verdict", ("runs-a", "r8"), lambda: compute("new code")) == "new code"


def test_the_pages_backend_imports_neither_scikit_learn_nor_scipy_stats():
    """Every page imports dkw_app.backend on its first open; scikit-learn and scipy.stats (about a
    second and a half together) are imported where a classifier is fitted or a test is run, not
    there (BENCHMARKS.md, "Every page's first open")."""
    import subprocess
    import sys

    code = "import sys, dkw_app.backend; print(sorted(m for m in ('sklearn', 'scipy.stats') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
