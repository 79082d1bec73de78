"""``dkw_app.keywords_door``: the registry's keyword methods as the Documents page's columns, and the
instant box's refusal under other vectors."""
from __future__ import annotations

from dkw_app import corpora_models, keywords_door
from dkw_core.keywords import KeywordModel
from dkw_core.keywords.request import KeywordRequest


def test_any_method_of_the_registry_is_a_column_with_provenance_where_it_applies(topic_corpus, monkeypatch, tmp_path):
    from dkw_core.keywords.extractors import YakeExtractor

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    offered = keywords_door.keyword_methods()
    assert {"yake", "textrank", "tf-rf (own words)"} <= set(offered)
    doc = topic_corpus.split("test")[0]
    own = keywords_door.method_keywords("tf-rf (own words)", doc, corpus=topic_corpus, top=3, protocol="label-aware")
    assert own and all(kw.word in doc.text.lower() for kw in own)
    assert keywords_door.has_provenance("tf-rf (own words)") and own[0].provenance[0].phrase == own[0].word
    yake = keywords_door.method_keywords("yake", doc, corpus=topic_corpus, top=3, protocol="label-aware")
    assert [kw.word for kw in yake] == YakeExtractor().extract(doc.text, 3) and not keywords_door.has_provenance("yake")
    assert all(kw.tf >= 1 and kw.provenance == () for kw in yake)
    assert "reads no label" in keywords_door.method_help("yake")


def _pasted() -> KeywordRequest:
    """A text pasted into the box: a request of its own (its source decided once, under the
    vectors in use when it is pasted)."""
    return KeywordRequest(dataset="20ng", text="a text")


def test_the_instant_box_refuses_other_vectors_in_one_line_and_answers_with_the_default(monkeypatch, tmp_path):
    """The shipped statistics belong to the default vectors: with DKW_VECTORS set to others and
    20ng not prepared for them, the keywords-at-once box must say so in one line instead of
    tagging all of 20ng; with the default vectors it answers from the shipped statistics."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DKW_VECTORS", raising=False)
    assert keywords_door.instant_refusal(_pasted()) is None  # the shipped statistics answer
    other = tmp_path / "other.txt"
    other.write_text("2 3\nspace 1 0 0\nsport 0 1 0\n", encoding="utf-8")
    monkeypatch.setenv("DKW_VECTORS", str(other))
    line = keywords_door.instant_refusal(_pasted())
    assert line is not None and "\n" not in line
    assert "belong to the default vectors" in line and corpora_models.vectors_name() in line and "prepare 20ng" in line
    name = corpora_models.vectors_name()
    monkeypatch.setattr(KeywordModel, "is_prepared",
                        staticmethod(lambda corpus, vectors, **_: (corpus, vectors) == ("20ng", name)))
    assert keywords_door.instant_refusal(_pasted()) is None  # prepared for these vectors: answered from the prepared corpus
