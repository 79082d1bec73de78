"""Keywords, protocols, provenance and document vectors on a tiny corpus and model; the
paper's example document on a slice of the real 20 Newsgroups."""
import numpy as np
import pytest
from conftest import SPACE, SPORT, needs_20ng, one_text, one_text_keywords

from dkw_core.corpora import Corpus, Document
from dkw_core.errors import InputError
from dkw_core.keywords import BaselineModel, KeywordModel, keywords_by_method, parse_method, top_n


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


def test_label_aware_keywords_come_from_the_documents_topic(model):
    for doc in model.corpus.test:
        words = [kw.word for kw in model.keywords(doc, metric="rf", k=3, top=3)]
        assert set(words) <= set(SPORT if doc.label == "sport" else SPACE), (doc.id, words)


@pytest.mark.parametrize("metric", ["lo", "tf-lo", "lo-own", "tf-lo-own"])
def test_fightin_words_metric_ranks_the_documents_topic(model, metric):
    """The lo metric (dkw_core.peers.fightin_words on A vs C) and lo-own (with the own-word
    counts) run through the keyword path."""
    for doc in model.corpus.test:
        kws = model.keywords(doc, metric=metric, k=3, top=3)
        assert {kw.word for kw in kws} <= set(SPORT if doc.label == "sport" else SPACE), (doc.id, kws)
        assert all(np.isfinite(kw.score) for kw in kws)
    assert model.rank("test", metric=metric, k=3, top=3, protocol="label-free").shape[0] == len(model.corpus.test)


def test_own_word_statistics_count_the_words_each_training_document_contains(model):
    """own_freq (lo-own's own-word counts) against a direct count of the texts' words."""
    import re

    stats = model.category_stats(3)
    expected = np.zeros((len(model.categories), len(model.vocabulary)))
    for doc in model.corpus.documents:
        if doc.split == "train":
            for word in set(re.findall(r"[a-z]+", doc.text.lower())) & set(model.vocabulary):
                expected[model.categories.index(doc.label), model.vocabulary.index(word)] += 1
    np.testing.assert_array_equal(stats.own_freq, expected)
    assert model.category_stats(1).own_freq is not None  # own words do not depend on K
    np.testing.assert_array_equal(model.category_stats(1).own_freq, expected)


def test_cached_statistics_without_own_words_are_counted_again(topic_corpus, topic_vectors, tmp_path):
    """A stats file written before own_freq existed is recounted (and rewritten) with it."""
    fresh = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)
    fresh.cache_dir = tmp_path
    old = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False).category_stats(3)
    np.savez(tmp_path / "stats_k3.npz", doc_freq=old.doc_freq, n_docs=old.n_docs, term_freq=old.term_freq)
    stats = fresh.category_stats(3)
    assert stats.own_freq is not None and stats.own_freq.sum() > 0
    with np.load(tmp_path / "stats_k3.npz") as z:
        np.testing.assert_array_equal(z["own_freq"], stats.own_freq)
    assert [w.word for w in fresh.category_keywords("sport", metric="lo-own", k=3, top=3, phrases=0)] \
        and {w.word for w in fresh.category_keywords("sport", metric="lo-own", k=3, top=3, phrases=0)} <= set(SPORT)


def test_own_words_are_kept_in_the_prepared_cache(topic_corpus, topic_vectors, tmp_path):
    """The own-word matrix is counted once per prepared corpus; a damaged file is counted again."""
    first = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)
    first.cache_dir = tmp_path
    own = first._all_own()
    assert (tmp_path / "own_words.npz").is_file()
    again = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)
    again.cache_dir = tmp_path
    assert (again._all_own() != own).nnz == 0
    (tmp_path / "own_words.npz").write_bytes(b"not a matrix")
    damaged = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)
    damaged.cache_dir = tmp_path
    assert (damaged._all_own() != own).nnz == 0


def test_term_counts_count_phrase_occurrences_per_neighbour(model):
    # with K = 1 every phrase occurrence votes for its single nearest word
    counts = model.term_counts("all", 1)
    vocab = model.vocabulary
    row = model.doc_ids("all").index("topics/train/sport/2")  # "The player kicked the ball; the team celebrated."
    got = {vocab[c]: v for c, v in zip(counts[row].indices, counts[row].data)}
    assert got == {"player": 1, "ball": 1, "team": 1}


def test_larger_k_adds_neighbours(model):
    assert model.term_counts("all", 4).nnz > model.term_counts("all", 1).nnz
    assert (model.term_counts("all", 2).sum(axis=1) == 2 * model.term_counts("all", 1).sum(axis=1)).all()


def test_k_above_k_max_is_refused(model):
    with pytest.raises(InputError, match="K must be between"):
        model.term_counts("all", 5)


def test_label_free_never_reads_the_labels_it_ranks(topic_corpus, topic_vectors):
    """Swap the test labels: label-free keywords stay, label-aware ones follow the label."""
    swapped = Corpus("topics", [Document(d.id, d.text, {"sport": "space", "space": "sport"}[d.label], d.split)
                                if d.split == "test" else d for d in topic_corpus.documents])
    a = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)
    b = KeywordModel.prepare(swapped, topic_vectors, k_max=4, cache=False)
    def by_id(model, protocol):  # the corpus orders documents by label, so compare by id
        rows = model.words(model.rank("test", metric="rf", k=3, top=3, protocol=protocol))
        return dict(zip(model.doc_ids("test"), rows))

    assert by_id(a, "label-free") == by_id(b, "label-free")
    assert by_id(a, "label-aware") != by_id(b, "label-aware")


def test_rank_matches_single_document_keywords(model):
    idx = model.rank("test", metric="tf-rf", k=3, top=4)
    for row, doc_id in zip(model.words(idx), model.doc_ids("test")):
        assert row == [kw.word for kw in model.keywords(doc_id, metric="tf-rf", k=3, top=4)]


def test_provenance_names_the_phrases_behind_a_keyword(model):
    kws = model.keywords("topics/test/space/0", metric="tf-rf", k=1, top=5)
    by_word = {kw.word: kw for kw in kws}
    assert {p.phrase for p in by_word["rocket"].provenance} == {"rocket"}
    prov = by_word["rocket"].provenance[0]
    assert prov.count == 1 and prov.similarity == pytest.approx(1.0, abs=1e-2)
    assert by_word["rocket"].tf == 1


def test_document_vectors_are_normalised_sums(model):
    idx = np.array([[model.vocabulary.index("team"), model.vocabulary.index("goal"), -1], [-1, -1, -1]])
    vecs = model.document_vectors(idx)
    m = model.vectors.cropped_matrix
    expect = m[idx[0, 0]] + m[idx[0, 1]]
    np.testing.assert_allclose(vecs[0], expect / np.linalg.norm(expect), rtol=1e-5)
    assert not vecs[1].any()


def test_new_text_is_weighted_with_its_predicted_category_by_default(model):
    text = "The rocket left the planet."
    found = one_text(model, text, k=2, top=2)
    assert {kw.word for kw in found.keywords["rf"]} <= set(SPACE)
    assert found.protocol == "label-free-top1"
    assert found.weighting.category == model.categories[int(model.text_posteriors([text])[0].argmax())]


@pytest.mark.parametrize("text,message", [
    ("", "empty"),
    ("   \n ", "empty"),
    ("and then quickly, slowly.", "no candidate noun phrases"),
    ("The qwzxv of blorfs.", "has a word known"),
])
def test_unusable_texts_are_clear_errors(model, text, message):
    with pytest.raises(InputError, match=message):
        one_text(model, text, k=2, top=2)


def test_unknown_protocol_and_metric(model):
    with pytest.raises(InputError, match="protocol"):
        model.keywords("topics/test/space/0", metric="rf", protocol="psychic")
    with pytest.raises(InputError):
        model.keywords("topics/test/space/0", metric="nope")


def test_documents_without_keywords_are_reported(topic_corpus, topic_vectors):
    docs = topic_corpus.documents + [Document("topics/train/space/9", "", "space", "train"),
                                     Document("topics/train/sport/9", "Quickly and slowly.", "sport", "train")]
    model = KeywordModel.prepare(Corpus("topics2", docs), topic_vectors, k_max=2, cache=False)
    assert model.problems == {"topics/train/space/9": "empty document",
                              "topics/train/sport/9": "no candidate noun phrases"}
    rows = model.rank("train", metric="rf", k=2, top=2)
    assert (rows[model.doc_ids("train").index("topics/train/space/9")] == -1).all()


def test_prepared_model_is_cached_on_disk(topic_corpus, topic_vectors, tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    assert not KeywordModel.is_prepared(topic_corpus, topic_vectors, 4)
    first = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4)
    assert KeywordModel.is_prepared(topic_corpus, topic_vectors, 4)
    again = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4)
    np.testing.assert_array_equal(first.nbr_idx, again.nbr_idx)
    assert first.phrases == again.phrases


def test_top_n_ties_go_to_the_lower_column():
    import scipy.sparse as sp

    counts = sp.csr_matrix(np.array([[1, 1, 1, 0]], dtype=np.float32))
    scores = np.ones((1, 4))
    assert top_n(counts, scores, labels=None, use_tf=False, top=2).tolist() == [[0, 1]]


def test_baseline_scores_the_documents_own_words(topic_corpus):
    base = BaselineModel.prepare(topic_corpus, cache=False)
    words = [kw.word for kw in base.keywords("topics/test/sport/0", metric="tf-rf", top=3)]
    assert set(words) <= {"coach", "praised", "team", "league"}
    assert "the" not in base.vocabulary


def test_method_specs():
    assert parse_method("latent-5word-knn90-rf") == {"kind": "latent", "k": 90, "metric": "rf", "neighbours": None}
    assert parse_method("latent-5word-knn90-rf:csls-k10")["neighbours"] == "csls-k10"
    assert parse_method("tf-rf") == {"kind": "baseline", "k": None, "metric": "tf-rf", "neighbours": None}
    with pytest.raises(InputError):
        parse_method("latent-5word-knn90-magic")


def test_keywords_by_method_for_the_study(topic_corpus):
    got = keywords_by_method("tf-rf", dataset=topic_corpus, doc_ids=["topics/test/space/0"], top=2)
    assert len(got["topics/test/space/0"]) == 2


@needs_20ng
def test_paper_example_document_on_a_20ng_slice():
    """The paper's §4.5 document gets graphics-flavoured keywords even from a small slice."""
    from dkw_core.corpora import load_corpus

    corpus = load_corpus("20ng").head(10)
    model = KeywordModel.prepare(corpus, k_max=90)
    words = [kw.word for kw in model.keywords("20ng/test/comp.graphics/38758", metric="rf", k=90, top=20)]
    assert len(words) == 20
    visual = {"video", "animation", "animations", "images", "imagery", "graphics", "rendering", "pixels", "3d",
              "visualization", "graphical", "display", "displays", "image", "frames", "movie", "screen"}
    assert visual & set(words), words


def test_training_statistics_are_cached_with_the_model(topic_corpus, topic_vectors, tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    first = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4)
    expect = first.metric_scores("rf", 3)
    again = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4)

    def no_counts(k):
        raise AssertionError("recomputed corpus counts although the statistics are cached")

    monkeypatch.setattr(again, "_all_counts", no_counts)
    np.testing.assert_array_equal(again.metric_scores("rf", 3), expect)
    assert [kw.word for kw in again.keywords("topics/test/space/0", metric="rf", k=3, top=3)] == \
        [kw.word for kw in first.keywords("topics/test/space/0", metric="rf", k=3, top=3)]


def test_editing_a_folder_corpus_changes_its_keywords(tmp_path, monkeypatch, topic_corpus, topic_vectors):
    """Caches are keyed by content: a document edited on disk gets keywords from its new text."""
    from dkw_core.corpora import load_corpus

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "mine"
    for doc in topic_corpus.documents:
        path = root / doc.split / doc.label / (doc.id.rsplit("/", 1)[1] + ".txt")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(doc.text, encoding="utf-8")
    doc_id = "mine/test/sport/0.txt"

    def words(corpus):
        model = KeywordModel.prepare(corpus, topic_vectors, k_max=2)  # cached on disk
        assert model.cache_dir is not None
        return [kw.word for kw in model.keywords(doc_id, metric="rf", k=1, top=3, protocol="label-free")]

    before = words(load_corpus(root))
    assert set(before) <= set(SPORT)
    (root / "test" / "sport" / "0.txt").write_text("The rocket left the orbit of the moon.", encoding="utf-8")
    edited = load_corpus(root)
    after = words(edited)
    assert set(after) <= set(SPACE) and after != before


# -- step 3 under a hubness-aware neighbours spec ---------------------------------------------------
@pytest.mark.parametrize("spec", ["csls-k3", "abtt-d1"])
def test_a_neighbours_spec_is_used_for_corpus_documents_and_new_texts_alike(topic_corpus, topic_vectors, spec):
    from dkw_core.neighbours import searcher

    model = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False, neighbours=spec)
    assert model.neighbours == spec
    # every unique phrase vector's neighbours are the spec's exact top-4
    uids = np.unique(model.phrase_uid[model.phrase_uid >= 0])
    units = {}
    for p, u in zip(model.phrases, model.phrase_uid):
        if u >= 0:
            units.setdefault(int(u), topic_vectors.units(p.split(" ")))
    queries = topic_vectors.compose([units[int(u)] for u in uids])
    expect, _ = searcher(topic_vectors, spec).nearest(queries, 4)
    np.testing.assert_array_equal(model.nbr_idx[uids].astype(np.int64), expect)
    # a new text with a corpus document's words gets the same keywords as the cached document
    doc = model.corpus.test[0]
    cached = model.keywords(doc, metric="rf", k=3, top=3, protocol="label-free")
    fresh = one_text_keywords(model, doc.text, k=3, top=3, protocol="label-free")
    assert [kw.word for kw in cached] == [kw.word for kw in fresh]


def test_each_neighbours_spec_has_its_own_cache_entry(topic_corpus, topic_vectors, tmp_path, monkeypatch):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    cos = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4)
    assert not KeywordModel.is_prepared(topic_corpus, topic_vectors, 4, neighbours="csls-k3")
    csls = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, neighbours="csls-k3")
    assert KeywordModel.is_prepared(topic_corpus, topic_vectors, 4, neighbours="csls-k3")
    assert cos.cache_dir != csls.cache_dir
    again = KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, neighbours="csls-k3")
    assert again.neighbours == "csls-k3" and again.cache_dir == csls.cache_dir
    np.testing.assert_array_equal(again.nbr_idx, csls.nbr_idx)
    assert KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4).neighbours == "cosine"


def test_a_method_spec_with_an_out_of_range_k_is_refused_when_parsed():
    with pytest.raises(InputError, match="latent-5word-knn1000000000-rf: K must be between 1 and 20000"):
        parse_method("latent-5word-knn1000000000-rf")  # before any corpus is loaded or prepared
    with pytest.raises(InputError, match="CSLS neighbourhood k of csls-k99999"):
        parse_method("latent-5word-knn90-rf:csls-k99999")
