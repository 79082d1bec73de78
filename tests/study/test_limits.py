"""Stored-field limits (dkw_core/study/limits.py): what either database would refuse is refused
by both, before any keyword is computed, in one line naming the field, the value and its row;
a computed keyword the study cannot store is left out. Every test runs on SQLite and on a real
PostgreSQL server (``any_engine``)."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.limits import FIELDS, max_chars
from dkw_core.study.models import Article, Study, StudyEvent, StudyKeyword, StudyMethod

from .fakes import Doc, disjoint_provider, make_docs

CATS = ["c1", "c2"]
LONG_ID = "d" * 400
LONG_CATEGORY = "c" * 210
LONG_WORD = "w" * 50_000


class Recording:
    """A keyword provider that records being asked (it must not be, when the input is refused)."""

    def __init__(self, provider=disjoint_provider):
        self.calls = 0
        self.provider = provider

    def __call__(self, spec, ids, top, protocol="label-aware"):
        self.calls += 1
        return self.provider(spec, ids, top, protocol)


def _create(engine, docs, provider, **config):
    cfg = S.StudyConfig(name=config.pop("name", "t"), corpus="fake", articles_per_category=1,
                        categories_per_batch=2, judges_per_article=1, seed=3, keywords_per_method=3, **config)
    cats = list(dict.fromkeys(d.label for d in docs))
    return S.create_study(engine, documents=docs, categories=cats, provider=provider, config=cfg)


def _nothing_stored(engine):
    with Session(engine) as session:
        assert session.scalar(select(func.count(Study.id))) == 0
        assert session.scalar(select(func.count(Article.id))) == 0


def test_the_limits_are_the_models_column_widths():
    assert max_chars("document id") == Article.__table__.c.doc_id.type.length == 300
    assert max_chars("category") == Article.__table__.c.category.type.length == 200
    assert max_chars("keyword") == StudyKeyword.__table__.c.word.type.length == 300
    assert max_chars("method name") == StudyMethod.__table__.c.name.type.length == 200
    assert max_chars("article text") is None and len(FIELDS) >= 8


def _hostile(kind):
    docs = make_docs(CATS, per_split=1)
    if kind == "id":
        docs[1] = Doc(id=LONG_ID, text=docs[1].text, label=docs[1].label, split="test")
    elif kind == "category":
        docs = [Doc(id=d.id, text=d.text, label=LONG_CATEGORY if d.label == "c2" else d.label, split=d.split)
                for d in docs]
    elif kind == "text":
        docs[1] = Doc(id=docs[1].id, text="before\x00after", label=docs[1].label, split="test")
    return docs


@pytest.mark.parametrize("kind,message", [
    ("id", "document id 'dddddddddddddddddddddddddddddddddddddddd'… (400 characters) of drawn article 1 is "
           "longer than the 300 characters the study database stores"),
    ("category", "category 'cccccccccccccccccccccccccccccccccccccccc'… (210 characters) of drawn article 2 "
                 "('test/c2/0') is longer than the 200 characters the study database stores"),
    ("text", "article text 'before\\x00after' of drawn article 1 ('test/c1/0') holds a NUL character (U+0000) at "
             "position 7, which the study database cannot store"),
])
def test_a_drawn_value_either_database_would_refuse_is_refused_before_any_keyword(any_engine, kind, message):
    provider = Recording()
    with pytest.raises(InputError) as refused:
        _create(any_engine, _hostile(kind), provider)
    assert str(refused.value) == message  # the same line on SQLite and PostgreSQL
    assert provider.calls == 0  # before any keyword was computed
    _nothing_stored(any_engine)


def test_an_imported_method_name_with_a_nul_is_refused_at_import_and_at_creation(any_engine):
    docs = make_docs(CATS, per_split=1)
    parsed = {"Meth\x00Nul": {d.id: ["alpha", "beta"] for d in docs}}
    with pytest.raises(InputError, match=r"^method name 'Meth\\x00Nul' of imported method 'Meth\\x00Nul' holds a NUL"):
        S.imported_methods(parsed, source="k.jsonl")
    spec = S.MethodSpec(name="Meth\x00Nul", protocol="unknown", keywords=parsed["Meth\x00Nul"], source="k.jsonl")
    provider = Recording()
    with pytest.raises(InputError, match=r"^method name 'Meth\\x00Nul' of method B holds a NUL character"):
        _create(any_engine, docs, provider, methods=(S.MethodSpec("tf-rf"), spec))
    assert provider.calls == 0
    _nothing_stored(any_engine)


def test_an_imported_keyword_too_long_is_refused_naming_method_and_document(any_engine):
    docs = make_docs(CATS, per_split=1)
    keywords = {d.id: ["alpha", LONG_WORD if d.label == "c2" else "beta"] for d in docs}
    spec = S.MethodSpec(name="llm", protocol="unknown", keywords=keywords, source="k.jsonl")
    provider = Recording()
    with pytest.raises(InputError) as refused:
        _create(any_engine, docs, provider, methods=(S.MethodSpec("tf-rf"), spec))
    assert str(refused.value) == ("keyword 'wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww'… (50,000 characters) of imported "
                                  "method B ('llm'), document 'test/c2/0' is longer than the 300 characters the study "
                                  "database stores")
    assert provider.calls == 0
    _nothing_stored(any_engine)


def test_a_judge_name_with_a_nul_is_refused(any_engine):
    sid = _create(any_engine, make_docs(CATS, per_split=1), disjoint_provider)
    with pytest.raises(InputError, match=r"^judge name 'eve\\x00' of the new judge holds a NUL"):
        S.invite_judge(any_engine, sid, name="eve\x00")


def test_a_computed_keyword_the_study_cannot_store_is_left_out_and_logged(any_engine):
    """The tf-rf baseline picks a 50,000-letter word from an article: it is left out, the
    method's next word shown in its place, and the log names method, document and word — the
    same study on SQLite and PostgreSQL."""
    def provider(spec, ids, top, protocol="label-aware"):
        words = [LONG_WORD, "first", "bad\x00word", "second", "third", "fourth"]
        return {d: (words if spec == "tf-rf" else ["b1", "b2", "b3"])[:top] for d in ids}

    sid = _create(any_engine, make_docs(CATS, per_split=1), provider)
    with Session(any_engine) as session:
        for art in session.scalars(select(Article).where(Article.study_id == sid)):
            shown = {k.word: {s.method: s.rank for s in k.sources} for k in art.keywords}
            assert {w for w, m in shown.items() if "A" in m} == {"first", "second", "third"}
            assert shown["third"]["A"] == 3
        log = [e.detail for e in session.scalars(select(StudyEvent).where(StudyEvent.action == "keywords left out"))]
    assert len(log) == 2 and all(
        "method A" in d and "'wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww'… (50,000 characters)" in d
        and "'bad\\x00word' (holds a NUL)" in d for d in log), log
