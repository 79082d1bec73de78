"""Corpus + keyword wiring of a study (dkw_core/study/providers.py): the demo switch, and the real
core (load_corpus + keywords_by_method) on a tiny folder corpus built here."""
from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import providers, service
from dkw_core.study.demo import DEMO_CORPUS
from dkw_core.study.models import Article

TEXTS = {
    "space": "The shuttle launch from the orbit station was delayed by engineers at NASA. "
             "The rocket engine and the satellite payload were inspected.",
    "hockey": "The goalie stopped the puck and the team won the playoff game. "
              "The coach praised the defenceman and the winger of the club.",
}


def test_demo_corpus_only_behind_the_switch(monkeypatch):
    monkeypatch.delenv("DKW_STUDY_FAKE_KEYWORDS", raising=False)
    assert DEMO_CORPUS not in providers.corpus_choices()
    with pytest.raises(InputError, match="DKW_STUDY_FAKE_KEYWORDS"):
        providers.source(DEMO_CORPUS)
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    assert providers.corpus_choices()[0] == DEMO_CORPUS
    docs, cats, provider = providers.source(DEMO_CORPUS)
    kws = provider("tf-rf", [docs[0].id], 3)
    assert len(kws[docs[0].id]) == 3 and len(cats) == 4


def test_real_core_provider_on_a_tiny_folder_corpus(tmp_path, monkeypatch, engine):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "corpus"
    for split in ("train", "test"):
        for cat, text in TEXTS.items():
            folder = root / split / cat
            folder.mkdir(parents=True)
            for i in range(3):
                (folder / str(i)).write_text(f"{text} Extra sentence number {i} about {cat} news.")
    docs, cats, provider = providers.source(str(root))
    sid = service.create_study(engine, documents=docs, categories=cats, provider=provider,
                               config=service.StudyConfig(corpus=str(root), articles_per_category=2,
                                                          categories_per_batch=1, keywords_per_method=3, seed=1))
    with Session(engine) as s:
        arts = s.scalars(select(Article).where(Article.study_id == sid)).all()
        assert len(arts) == 4 and all("/test/" in f"/{a.doc_id}" for a in arts)
        for a in arts:
            methods = [src.method for kw in a.keywords for src in kw.sources]
            assert methods.count("A") == 3 and methods.count("B") == 3
        # the baseline (tf-rf over the article's own words) only uses words of the article
        for a in arts:
            a_words = [kw.word for kw in a.keywords if any(src.method == "A" for src in kw.sources)]
            assert all(w.lower() in a.text.lower() for w in a_words)


def test_choices_offer_present_or_downloadable_corpora_and_uploaded_ones_only(monkeypatch, tmp_path):
    from dkw_core.corpora.uploads import import_corpus

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DKW_ARCHIVES", str(tmp_path / "archives"))  # empty: nothing present
    monkeypatch.setenv("DKW_DOWNLOAD", "0")
    monkeypatch.delenv("DKW_STUDY_FAKE_KEYWORDS", raising=False)
    assert providers.corpus_choices() == []
    monkeypatch.setenv("DKW_DOWNLOAD", "1")
    offered = providers.corpus_choices()
    assert "20ng" in offered and "7sectors" not in offered  # 7 Sectors cannot be downloaded
    rows = "text,label,split\n" + "".join(f"{c} text {i},{c},{s}\n" for c in "ab" for s in ("train", "test")
                                          for i in range(2))
    import_corpus("mine", rows.encode(), "mine.csv")
    assert providers.corpus_choices()[-1] == "mine"
