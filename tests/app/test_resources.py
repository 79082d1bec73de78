"""dkw_app.resources: the app's server-wide loaders warm the tagger each path tags with."""
from __future__ import annotations

from dkw_app import resources

from .fakes import FakeBackend


def test_preparing_a_corpus_loads_the_preparations_tagger_and_a_new_text_new_texts(monkeypatch):
    """A corpus is prepared under DKW_PREPARE_TAGGER (spaCy's by default) and a new text tagged
    under DKW_TAGGER (the fast one by default): each warm-up loads that path's tagger, not the
    other's (before, both loaded new texts' tagger, and preparation loaded spaCy unwarmed)."""
    monkeypatch.setenv("DKW_PREPARE_TAGGER", "spacy")
    fake = FakeBackend(monkeypatch, prepared=False)
    resources.model("20ng", None, 90)
    assert fake.taggers == ["spacy"]
    resources.shipped_model("20ng", 90)
    assert fake.taggers == ["spacy", None]
