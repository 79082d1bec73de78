"""The fast coarse tagger (new texts' ``DKW_TAGGER``; a corpus's ``DKW_PREPARE_TAGGER=fast``): its
shipped model, its place beside spaCy's tagger, and how far its candidate phrases agree with
spaCy's (benchmarks/bench_tagger.py measures it)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import archives_present

from dkw_core import config
from dkw_core.errors import InputError
from dkw_core.fasttagger import MODEL_FILE, CoarseModel, agreement
from dkw_core.phrases import TaggedDoc, get_tagger

#: Candidate-phrase F1 and token agreement of the fast tagger against spaCy's on the first 500 R8
#: test texts, as measured (docs/measurements.md "The fast tagger"); the test holds them to 0.9 of
#: that on a slice.
MEASURED_PHRASE_F1_R8 = 0.9730
MEASURED_TOKEN_AGREEMENT_R8 = 0.9828


def test_the_shipped_model_loads_and_is_under_2_mb():
    assert MODEL_FILE.stat().st_size < 2_000_000
    model = CoarseModel.load()
    assert model.weights.shape[1] == 4 and len(model.keys["word"]) > 10_000


def test_the_fast_tagger_tags_a_sentence_as_spacy_does_and_keeps_its_tokens():
    fast, spacy = get_tagger("fast"), get_tagger("spacy")
    assert fast.nlp.pipe_names == ["dkw_coarse_tagger"] and "fast" in fast.name and fast.name != spacy.name
    texts = ["The space shuttle reached the international space station.",
             "  The coach of the football team\n\npraised the  young player. ", "", " \n "]
    a, b = list(spacy.tag_many(texts)), list(fast.tag_many(texts))
    assert [d.text for d in a] == [d.text for d in b]
    assert b[0] == TaggedDoc("The space shuttle reached the international space station .", "ONNOOJNNO")
    assert b[0].phrases() == a[0].phrases()
    assert b[2] == b[3] == TaggedDoc("", "")
    # tag_pieces (new texts' batch) and one text at a time give the same
    words, tags = next(fast.tag_pieces([texts[1]]))
    assert TaggedDoc(" ".join(words), "".join(tags)) == fast.tag(texts[1]) == b[1]


def test_dkw_tagger_chooses_new_texts_tagger_and_leaves_a_corpus_prepared_under_spacy(monkeypatch):
    from dkw_core.keywords.index import index_path
    from dkw_core.phrases import corpus_tagger, tag_cache_file

    monkeypatch.delenv("DKW_TAGGER", raising=False)
    monkeypatch.delenv("DKW_PREPARE_TAGGER", raising=False)
    assert (config.tagger(), config.prepare_tagger()) == ("fast", "spacy")  # the defaults
    spacy_path = index_path("corpus-key", "vectors", 90)
    spacy_tags = tag_cache_file("corpus")
    for kind in ("FAST", "spacy"):
        monkeypatch.setenv("DKW_TAGGER", kind)
        assert get_tagger() is get_tagger(kind.lower())  # new texts
        # the preparation stays spaCy's: its tag cache, its model index
        assert corpus_tagger() is get_tagger("spacy")
        assert tag_cache_file("corpus") == spacy_tags
        assert index_path("corpus-key", "vectors", 90) == spacy_path
    monkeypatch.setenv("DKW_TAGGER", "perceptron")
    with pytest.raises(InputError, match="DKW_TAGGER must be one of spacy, fast"):
        config.tagger()


def test_a_corpus_prepared_under_the_fast_tagger_is_kept_apart(monkeypatch):
    from dkw_core.keywords.index import index_path
    from dkw_core.phrases import corpus_tagger

    monkeypatch.delenv("DKW_PREPARE_TAGGER", raising=False)
    spacy_path = index_path("corpus-key", "vectors", 90)
    monkeypatch.setenv("DKW_PREPARE_TAGGER", "Fast")
    assert config.prepare_tagger() == "fast" and corpus_tagger() is get_tagger("fast")
    fast_path = index_path("corpus-key", "vectors", 90)
    assert fast_path != spacy_path  # a model of fast-tagged documents is its own
    monkeypatch.setattr("dkw_core.fasttagger.model_id", lambda: "retrained")
    assert index_path("corpus-key", "vectors", 90) not in (fast_path, spacy_path)  # and so is retrained weights'
    monkeypatch.setenv("DKW_PREPARE_TAGGER", "lexicon")
    with pytest.raises(InputError, match="DKW_PREPARE_TAGGER must be one of spacy, fast"):
        config.prepare_tagger()


def test_tokens_are_looked_up_once_per_distinct_word_with_each_rows_own_result():
    from dkw_core.fasttagger import TABLES, feature_rows

    keys = {name: np.array([3, 5, 9], dtype=np.uint64) for name in TABLES}
    # columns LOWER, SUFFIX, SHAPE, PREFIX, ORTH; rows of zeros are edges
    hashes = np.array([[0, 0, 0, 0, 0], [5, 9, 4, 3, 101], [7, 9, 5, 3, 102], [5, 9, 4, 3, 101],
                       [9, 1, 3, 5, 103], [0, 0, 0, 0, 0]], dtype=np.uint64)
    expected = [[4, 4, 4, 4], [1, 2, 3, 0], [3, 2, 1, 0], [1, 2, 3, 0], [2, 3, 0, 1], [4, 4, 4, 4]]
    assert feature_rows(hashes, keys).tolist() == expected  # known: position; unknown: 3; edge: 4


def test_a_conjunction_is_looked_up_by_its_two_rows_and_an_unkept_pair_is_its_tables_unknown_row():
    from dkw_core.fasttagger import CONJUNCTIONS, FEATURES, TABLES, feature_columns, n_columns

    sizes = {name: 5 for name in TABLES}  # 3 keys, unknown (3), edge (4)
    edge = [4, 4, 4, 4]
    rows = np.array([edge, edge, [0, 1, 2, 0], [1, 2, 0, 0], edge, edge])  # one text of two tokens
    assert CONJUNCTIONS[0] == (("suffix", 0), ("suffix", -1))  # a suffix joined to the one before
    kept = 2 * 5 + 1  # the second token's suffix (row 2) after the first's (row 1)
    pairs = [np.array([kept])] + [np.array([], dtype=np.int64)] * (len(CONJUNCTIONS) - 1)
    cols = feature_columns(rows, sizes, pairs)
    base = sum(sizes[table] for table, _ in FEATURES)
    assert cols.shape == (2, len(FEATURES) + len(CONJUNCTIONS))
    assert cols[:, len(FEATURES)].tolist() == [base + 1, base + 0]  # the first token's pair (row 1, edge): unknown
    assert cols[:, len(FEATURES) + 1:].max() < n_columns(sizes, pairs)


def test_the_fast_tagger_reads_the_coral_texts_gerund_and_plural_as_nouns_as_spacy_does():
    # Issue 44's coral text: without the conjunction features the tagger read "bleaching" (after a
    # noun) and "transects" (after a preposition) as verbs, and the text lost "Coral bleaching".
    text = ("Coral bleaching on the Great Barrier Reef\n\nMarine biologists surveyed 300 reef sites along "
            "transects this autumn and found that corals on the northern reef suffered the worst damage in decades.")
    fast, spacy = get_tagger("fast").tag(text), get_tagger("spacy").tag(text)
    assert fast.tags == spacy.tags
    assert {"Coral bleaching", "transects"} <= set(fast.phrases())


def test_the_training_perceptron_learns_which_column_marks_which_tag(monkeypatch):
    import importlib

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "scripts"))
    train_tagger = importlib.import_module("train_tagger")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 2000)
    cols = np.stack([y, 4 + rng.integers(0, 6, 2000)], axis=1)  # column y marks tag y; columns 4-9 are noise
    w, b = train_tagger.perceptron(cols, y, 10, epochs=2, batch=64, seed=0)
    assert w.shape == (10, 4) and b.shape == (4,)
    assert ((np.take(w, cols, axis=0).sum(axis=1) + b).argmax(axis=1) == y).all()
    assert (w[:4].argmax(axis=1) == np.arange(4)).all()


@pytest.mark.corpus
def test_the_fast_taggers_candidates_agree_with_spacys_on_r8_as_measured():
    if not archives_present("reuters21578.tar.gz"):
        pytest.skip("reuters21578.tar.gz not in DKW_ARCHIVES")
    from dkw_core.corpora import load_corpus

    texts = [d.text for d in load_corpus("r8").split("test")[:150]]
    found = agreement(list(get_tagger("spacy").tag_many(texts)), list(get_tagger("fast").tag_many(texts)))
    assert found["phrase_f1"] >= 0.9 * MEASURED_PHRASE_F1_R8
    assert found["token_tag_agreement"] >= 0.9 * MEASURED_TOKEN_AGREEMENT_R8


def test_an_evaluation_run_under_the_fast_tagger_is_stored_apart(monkeypatch):
    from dkw_core.evaluation.protocols import RunConfig

    run = RunConfig(dataset="r8", corpus_key="key", vectors="glove", protocol="label-free-top1", metric="lo-own",
                    k=90, top=10)
    monkeypatch.delenv("DKW_PREPARE_TAGGER", raising=False)
    spacy_hash = run.settings_hash()
    monkeypatch.setenv("DKW_PREPARE_TAGGER", "spacy")
    assert run.settings_hash() == spacy_hash
    for kind in ("spacy", "fast"):  # new texts' tagger: not a run's (its documents are the prepared corpus's)
        monkeypatch.setenv("DKW_TAGGER", kind)
        assert run.settings_hash() == spacy_hash
    monkeypatch.setenv("DKW_PREPARE_TAGGER", "fast")
    fast_hash = run.settings_hash()
    assert fast_hash != spacy_hash  # never a cache hit on a spaCy-tagged run's results
    monkeypatch.setattr("dkw_core.fasttagger.model_id", lambda: "retrained")
    assert run.settings_hash() not in (fast_hash, spacy_hash)  # nor on a run tagged by other weights
