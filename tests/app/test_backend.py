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
