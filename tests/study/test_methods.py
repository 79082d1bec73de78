"""Any two or more methods (dkw_core/study/methods.py, creation.py): built-in specs, YAKE through
the extractor interface, keywords imported from CSV / JSONL files (valid and invalid), blinding
with three methods, and a creation that can be cancelled without leaving anything behind."""
from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.methods import YakeExtractor, check_method_spec, extractor_for, method_kind
from dkw_core.study.models import Article, KeywordSource, Study, StudyKeyword, StudyMethod

from .fakes import CATS, disjoint_provider, make_docs

DOCS = make_docs(CATS[:2])
IDS = {d.id for d in DOCS}


def _csv(text: str, **kw):
    return S.read_imported(text.encode(), filename="mine.csv", doc_ids=IDS, **kw)


def _jsonl(lines: list, **kw):
    raw = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines)
    return S.read_imported(raw.encode(), filename="mine.jsonl", doc_ids=IDS, **kw)


# ------------------------------------------------------------------ imported keywords: valid files

def test_csv_lists_and_ranked_rows_and_jsonl_read_the_same_keywords():
    lists = _csv("doc_id,method,keywords\ntest/c1/0,mine,orbit;launch;nasa\ntest/c1/1,mine,goal|puck\n"
                 "test/c1/0,other,x\n")
    ranked = _csv("doc_id,method,rank,keyword\ntest/c1/0,mine,2,launch\ntest/c1/0,mine,1,orbit\n"
                  "test/c1/0,mine,3,nasa\ntest/c1/1,mine,1,goal\ntest/c1/1,mine,2,puck\ntest/c1/0,other,1,x\n")
    jsonl = _jsonl([{"doc_id": "test/c1/0", "method": "mine", "keywords": ["orbit", "launch", "nasa"]},
                    {"doc_id": "test/c1/1", "method": "mine", "keywords": ["goal", "puck"]}, "",
                    {"doc_id": "test/c1/0", "method": "other", "keywords": ["x"]}])
    expected = {"mine": {"test/c1/0": ["orbit", "launch", "nasa"], "test/c1/1": ["goal", "puck"]},
                "other": {"test/c1/0": ["x"]}}
    assert lists == ranked == jsonl == expected
    specs = S.imported_methods(lists, source="mine.csv")
    assert [(m.name, m.protocol, m.source, m.imported) for m in specs] == [
        ("mine", "unknown", "mine.csv", True), ("other", "unknown", "mine.csv", True)]


def test_import_reads_a_path_with_a_bom(tmp_path):
    path = tmp_path / "kw.csv"
    path.write_bytes("\ufeffdoc_id,method,keywords\ntest/c1/0,mine,orbit\n".encode())
    assert S.read_imported(path, doc_ids=IDS) == {"mine": {"test/c1/0": ["orbit"]}}


# ------------------------------------------------------------------ imported keywords: invalid files

@pytest.mark.parametrize("text, message", [
    ("doc_id,method,keywords\ntest/c1/0,mine,a;b\nnope/9,mine,c\n", r"mine\.csv line 3: unknown document id 'nope/9'"),
    ("doc_id,method,keywords\ntest/c1/0,mine,\n", r"line 2: empty keyword list for document 'test/c1/0'"),
    ("doc_id,method,keywords\ntest/c1/0,mine,a;;b\n", r"line 2: empty keyword"),
    ("doc_id,method,keywords\ntest/c1/0,mine,a\ntest/c1/1,mine,b\ntest/c1/0,mine,c\n",
     r"line 4: duplicate: document 'test/c1/0' of method 'mine' already given on line 2"),
    ("doc_id,method,keywords\ntest/c1/0,mine,a;b;a\n", r"line 2: duplicate keyword 'a'"),
    ("doc_id,method,keywords\ntest/c1/0,mine\n", r"line 2: malformed line: 2 fields, the header has 3"),
    ("doc,method,words\nx,y,z\n", r"line 1: the header must hold doc_id,method,keywords"),
    ("doc_id,method,keywords\ntest/c1/0,,a\n", r"line 2: no method name"),
    ("doc_id,method,rank,keyword\ntest/c1/0,mine,1,a\ntest/c1/0,mine,1,b\n",
     r"line 3: duplicate: rank 1 of document 'test/c1/0' of method 'mine' already given on line 2"),
    ("doc_id,method,rank,keyword\ntest/c1/0,mine,first,a\n", r"line 2: rank 'first' is not a whole number"),
    ("doc_id,method,keywords\n", r"no keywords found"),
    ("", r"empty file"),
])
def test_invalid_csv_files_get_one_line_errors_naming_the_line(text, message):
    with pytest.raises(InputError, match=message) as err:
        _csv(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("lines, message", [
    (['{"doc_id": "test/c1/0", "method": "m", "keywords": ["a"]}', "{not json"],
     r"mine\.jsonl line 2: malformed line, not JSON"),
    ([["a", "b"]], r"line 1: malformed line: expected an object"),
    ([{"doc_id": "test/c1/0", "keywords": ["a"]}], r"line 1: malformed line: missing method"),
    ([{"doc_id": "test/c1/0", "method": "m", "keywords": "a b"}], r"line 1: malformed line: keywords must be a list"),
    ([{"doc_id": "zzz", "method": "m", "keywords": ["a"]}], r"line 1: unknown document id 'zzz'"),
    ([{"doc_id": "test/c1/0", "method": "m", "keywords": []}], r"line 1: empty keyword list"),
    ([{"doc_id": "test/c1/0", "method": "m", "keywords": ["a"]},
      {"doc_id": "test/c1/0", "method": "m", "keywords": ["b"]}],
     r"line 2: duplicate: document 'test/c1/0' of method 'm' already given on line 1"),
    ([{"doc_id": "test/c1/0", "method": "m", "keywords": ["a", None]}], r"line 1: keyword None is not text"),
])
def test_invalid_jsonl_files_get_one_line_errors_naming_the_line(lines, message):
    with pytest.raises(InputError, match=message):
        _jsonl(lines)


def test_non_utf8_and_unknown_format_and_oversized_files_are_refused(monkeypatch):
    with pytest.raises(InputError, match=r"line 2: not UTF-8"):
        S.read_imported(b"doc_id,method,keywords\n\xff\xfe,m,a\n", filename="k.csv")
    with pytest.raises(InputError, match=r"\.csv or \.jsonl"):
        S.read_imported(b"x", filename="k.xlsx")
    from dkw_core.keywords import imports as methods

    monkeypatch.setattr(methods, "MAX_IMPORT_BYTES", 10)
    with pytest.raises(InputError, match="larger than"):
        S.read_imported(b"doc_id,method,keywords\n", filename="k.csv")


# ------------------------------------------------------------------ built-in specs and YAKE

def test_builtin_specs_are_recognised_and_bad_ones_get_one_line_errors():
    assert method_kind("latent-5word-knn90-rf") == "dkw"
    assert method_kind("latent-5word-knn30-tds:csls-k10") == "dkw"
    assert method_kind("tf-rf") == "baseline"
    assert method_kind("yake") == method_kind("yake-n3") == "extractor"
    check_method_spec("latent-5word-knn90-rf:abtt-d2")
    for bad, why in (("latent-5word-knn90-nosuch", "unknown method"), ("tf-rf:csls-k10", "latent"),
                     ("latent-5word-knn90-rf:cosinus", "neighbours"), ("", "needs a name")):
        with pytest.raises(InputError, match=why):
            check_method_spec(bad)


def test_keywords_by_method_parses_the_neighbours_spec():
    from dkw_core.keywords.methods import parse_method

    assert parse_method("latent-5word-knn90-rf:csls")["neighbours"] == "csls-k10"
    assert parse_method("latent-5word-knn90-rf:cosine")["neighbours"] is None
    assert parse_method("latent-5word-knn90-rf") == {"kind": "latent", "k": 90, "metric": "rf", "neighbours": None}


def test_yake_extractor_returns_lower_case_words_of_the_text_best_first():
    text = ("The shuttle launch was delayed because of a fuel leak. NASA engineers inspected the orbiter "
            "and the launch pad before the new launch window opened.")
    words = YakeExtractor().extract(text, 5)
    assert len(words) == 5 and len(set(words)) == 5
    assert all(w == w.lower() and " " not in w and w in text.lower() for w in words)
    assert "launch" in words  # the text's most repeated content word
    phrases = extractor_for("yake-n3").extract(text, 5)
    assert any(" " in p for p in phrases)
    assert extractor_for("tf-rf") is None and YakeExtractor.reads_labels is False


# ------------------------------------------------------------------ studies with three methods

def _three_method_study(engine, **kw):
    imported = {"mine": {d.id: [f"gamma{i}" for i in range(1, 4)] + ["alpha1"] for d in DOCS}}
    methods = (S.MethodSpec("tf-rf"), S.MethodSpec("latent-5word-knn90-rf", "label-free"),
               *S.imported_methods(imported, source="mine.jsonl"))
    cfg = S.StudyConfig(name="three", corpus="fake", articles_per_category=2, categories_per_batch=1,
                        judges_per_article=2, seed=5, keywords_per_method=3, methods=methods, **kw)
    return S.create_study(engine, documents=DOCS, categories=CATS[:2], provider=disjoint_provider, config=cfg)


def test_a_study_stores_three_methods_with_kinds_protocols_and_provenance(engine):
    sid = _three_method_study(engine)
    st = S.study_settings(engine, sid)
    assert [(m["label"], m["name"], m["protocol"], m["kind"], m["top"], m["source"]) for m in st["methods"]] == [
        ("A", "tf-rf", "label-aware", "baseline", 3, ""), ("B", "latent-5word-knn90-rf", "label-free", "dkw", 3, ""),
        ("C", "mine", "unknown", "imported", 3, "mine.jsonl")]
    assert (st["method_a"], st["method_b"]) == ("tf-rf", "latent-5word-knn90-rf")
    with Session(engine) as s:
        art = s.scalars(select(Article).where(Article.study_id == sid)).first()
        words = {kw.word: {src.method: src.rank for src in kw.sources} for kw in art.keywords}
    assert words == {"alpha1": {"A": 1}, "alpha2": {"A": 2}, "alpha3": {"A": 3}, "beta1": {"B": 1},
                     "beta2": {"B": 2}, "beta3": {"B": 3}, "gamma1": {"C": 1}, "gamma2": {"C": 2},
                     "gamma3": {"C": 3}}  # the imported list was cut to N = 3


def test_three_methods_stay_blind_to_the_judge(engine):
    """The judge view of a three-method study holds no method name, label, protocol, kind,
    rank or source file; keyword rows are not created in method-then-rank order."""
    sid = _three_method_study(engine)
    ann = S.invite_judge(engine, sid, name="ann")[0]
    state = S.next_task(engine, ann)
    dump = repr(state) + repr(S.judge_info(engine, ann))
    for secret in ("tf-rf", "latent", "mine", "jsonl", "imported", "baseline", "label-free", "unknown",
                   "rank", "method"):
        assert secret not in dump, secret
    assert sorted(w for _p, w in state.task.keywords) == sorted(
        [f"{p}{i}" for p in ("alpha", "beta", "gamma") for i in (1, 2, 3)])
    assert [p for p, _w in state.task.keywords] == list(range(9))
    assert re.fullmatch(r"[0-9a-f]{16}", state.task.token)
    with Session(engine) as s:
        orders = [[kw.word for kw in sorted(a.keywords, key=lambda k: k.id)]
                  for a in s.scalars(select(Article).where(Article.study_id == sid))]
    by_method = sorted(orders[0], key=lambda w: (w[:-1], w[-1]))
    assert sum(o == by_method for o in orders) < 2


def test_imported_method_missing_a_drawn_article_or_unknown_spec_is_refused_before_storing(engine):
    partial = {"mine": {"test/c1/0": ["x"]}}
    cfg = S.StudyConfig(name="p", corpus="fake", articles_per_category=2, categories_per_batch=1, seed=5,
                        methods=(S.MethodSpec("tf-rf"), *S.imported_methods(partial)))
    with pytest.raises(InputError, match=r"method B \(mine\) has no keywords for \d of the 4 drawn article"):
        S.create_study(engine, documents=DOCS, categories=CATS[:2], provider=disjoint_provider, config=cfg)
    with pytest.raises(InputError, match="two methods are named 'tf-rf'"):
        S.StudyConfig(methods=(S.MethodSpec("tf-rf"), S.MethodSpec("tf-rf"))).validate()
    with pytest.raises(InputError, match="2 to 26 methods"):
        S.StudyConfig(methods=(S.MethodSpec("tf-rf"),)).validate()
    with pytest.raises(InputError, match="protocol of method A"):
        S.StudyConfig(methods=(S.MethodSpec("tf-rf", "unknown"), S.MethodSpec("x"))).validate()
    with Session(engine) as s:
        assert s.scalar(select(func.count(Study.id))) == 0


def test_yake_as_a_study_method_reads_the_article_text(engine):
    docs = [type(DOCS[0])(id=f"test/{c}/{i}", text=t, label=c, split="test")
            for c, t in (("space", "The orbiter launch was delayed. The launch pad crew inspected the orbiter."),
                         ("hockey", "The goalie stopped the puck. The goalie won the hockey game."))
            for i in range(2)]
    cfg = S.StudyConfig(name="y", corpus="fake", articles_per_category=1, categories_per_batch=2, seed=1,
                        keywords_per_method=2, methods=(S.MethodSpec("tf-rf"), S.MethodSpec("yake")))
    sid = S.create_study(engine, documents=docs, categories=["space", "hockey"], provider=disjoint_provider,
                         config=cfg)
    st = S.study_settings(engine, sid)
    assert [(m["name"], m["kind"], m["protocol"]) for m in st["methods"]][1] == ("yake", "extractor", "label-free")
    with Session(engine) as s:
        rows = s.execute(select(Article.text, StudyKeyword.word).join(StudyKeyword).join(KeywordSource)
                         .where(KeywordSource.method == "B")).all()
    assert len(rows) == 4 and all(word in text.lower() for text, word in rows)


def test_cancelled_creation_stores_nothing_and_the_database_stays_consistent(engine):
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 2  # after drawing and the first method

    with pytest.raises(S.Cancelled, match="nothing was stored"):
        S.create_study(
            engine, documents=DOCS, categories=CATS[:2], provider=disjoint_provider, cancel=cancel,
            config=S.StudyConfig(name="c", corpus="fake", articles_per_category=2, categories_per_batch=1, seed=1))
    with Session(engine) as s:
        assert s.scalar(select(func.count(Study.id))) == 0
        assert s.scalar(select(func.count(StudyMethod.id))) == 0
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    assert _three_method_study(engine) == 1  # the database is usable right after


def test_study_config_defaults_are_the_papers_and_one_definition():
    d = S.StudyConfig.defaults()
    assert (d["method_a"], d["method_b"], d["keywords_per_method"], d["articles_per_category"],
            d["categories_per_batch"], d["judges_per_article"], d["split"]) == (
        "tf-rf", "latent-5word-knn90-rf", 5, 5, 5, 3, "test")
    from dkw_core.cli.study import DEFAULTS

    assert DEFAULTS == d


def test_a_slice_is_recorded_and_offered_by_the_provider(engine, tmp_path):
    from dkw_core.study.providers import source

    root = tmp_path / "corpus"
    for split in ("train", "test"):
        for cat in ("a", "b"):
            for i in range(5):
                (root / split / cat).mkdir(parents=True, exist_ok=True)
                (root / split / cat / f"{i}.txt").write_text(f"document {cat} {i}", encoding="utf-8")
    docs, cats, _provider = source(str(root), sample=2)
    assert len(docs) == 2 * 2 * 2 and sorted(cats) == ["a", "b"]
    cfg = S.StudyConfig(name="s", corpus=str(root), articles_per_category=2, categories_per_batch=2, seed=1,
                        sample=2)
    sid = S.create_study(engine, documents=docs, categories=cats, provider=disjoint_provider, config=cfg)
    assert S.study_settings(engine, sid)["sample"] == 2
    assert "slice: first 2 documents per category and split" in S.study_events(engine, sid)[0]["detail"]
    with pytest.raises(InputError, match="slice size"):
        S.StudyConfig(sample=0).validate()


def test_an_interrupt_while_the_study_is_being_stored_rolls_everything_back(engine, monkeypatch):
    """SIGINT / SIGTERM handlers raise in the main thread; if that lands inside the final
    transaction, nothing of the study stays (the write session rolls back on any exception)."""
    from dkw_core.study import creation

    calls = []

    def shuffle(items):
        calls.append(1)
        if len(calls) == 3:  # third article: some rows are already added to the session
            raise KeyboardInterrupt
    monkeypatch.setattr(creation._ROW_ORDER, "shuffle", shuffle)
    with pytest.raises(KeyboardInterrupt):
        S.create_study(engine, documents=DOCS, categories=CATS[:2], provider=disjoint_provider,
                       config=S.StudyConfig(name="i", corpus="fake", articles_per_category=2,
                                            categories_per_batch=1, seed=1))
    with Session(engine) as s:
        assert s.scalar(select(func.count(Study.id))) == 0
        assert s.scalar(select(func.count(StudyKeyword.id))) == 0
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"


@pytest.mark.parametrize("stop_at", [1, 3, 6])
def test_preparation_cancelled_midway_leaves_a_cache_that_gives_the_same_keywords(topic_corpus, topic_vectors,
                                                                                  stop_at):
    """Cancelling a study's corpus preparation (what SIGTERM does in the app) stops it at its next
    progress report; whatever it cached is complete, so the next preparation gives exactly the
    keywords of a preparation that never used the cache."""
    from dkw_core.corpora import Corpus
    from dkw_core.keywords.model import KeywordModel
    from dkw_core.study.errors import cancellable

    corpus = Corpus(f"topics-cancel-{stop_at}", list(topic_corpus.documents))
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) >= stop_at

    with pytest.raises(S.Cancelled):
        KeywordModel.prepare(corpus, topic_vectors, k_max=4, progress=cancellable(None, cancel))
    again = KeywordModel.prepare(corpus, topic_vectors, k_max=4)
    fresh = KeywordModel.prepare(corpus, topic_vectors, k_max=4, cache=False)
    for doc in corpus.documents:
        assert [k.word for k in again.keywords(doc.id, metric="rf", k=4, top=3)] == \
            [k.word for k in fresh.keywords(doc.id, metric="rf", k=4, top=3)]
