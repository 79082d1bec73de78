"""The keyphrase method (docs/method.md §13): ``about``, which phrases may be listed, the
out-of-corpus rule, and the method through the model (a corpus document ranked as a new text),
the registry and the request path on a tiny corpus."""
import numpy as np
import pytest
from conftest import SPACE, SPORT, one_text

from dkw_core.errors import InputError
from dkw_core.keywords import KeywordModel, describe_methods, method_kind, parse_method
from dkw_core.keywords.fit import category_centroids, corpus_fit
from dkw_core.keywords.keyphrases import check_about, is_own_phrase
from dkw_core.keywords.ranking import Keyword
from dkw_core.keywords.registry import keyphrases_spec

WORDS = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", float("nan")])
def test_about_outside_zero_to_one_is_one_line(bad):
    with pytest.raises(InputError, match="about"):
        check_about(bad)


def test_out_of_corpus_needs_both_low_similarity_and_low_p():
    centroids = category_centroids(np.array([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), WORDS)
    assert np.allclose(centroids, [[1, 0], [0, 1]])
    far = np.array([0.6, 0.8])  # cosine 0.8 to the second category: similarity 0.8
    assert corpus_fit(far, centroids, np.array([0.5, 0.5]), ["a", "b"], min_similarity=0.9, min_p=0.6).out_of_corpus
    assert not corpus_fit(far, centroids, np.array([0.7, 0.3]), ["a", "b"], min_similarity=0.9, min_p=0.6).out_of_corpus
    fit = corpus_fit(far, centroids, np.array([0.5, 0.5]), ["a", "b"], min_similarity=0.7, min_p=0.6)
    assert not fit.out_of_corpus and fit.nearest == "b" and round(fit.distance, 3) == 0.2


@pytest.fixture(scope="module")
def model(topic_corpus, topic_vectors):
    return KeywordModel.prepare(topic_corpus, topic_vectors, k_max=4, cache=False)


def _noun_phrases(text: str) -> set[str]:
    """The whole noun phrases of a text's body (:mod:`~dkw_core.keywords.candidates`), lower-cased."""
    from dkw_core.keywords.candidates import candidates, news_body
    from dkw_core.phrases import get_tagger

    body = news_body(text)
    tagged = get_tagger().tag(body)
    return {c.key for c in candidates(body, tagged.tokens, tagged.tags)}


def test_keyphrases_are_the_documents_own_phrases_and_about_one_the_papers_words(model):
    for doc in model.corpus.test:
        kp = model.keywords(doc, metric="lo-own", k=3, top=3, about=0.5)
        assert kp and all(kw.word.lower() in _noun_phrases(doc.text) for kw in kp if is_own_phrase(kw)), kp
        paper = model.keywords(doc, metric="lo-own", k=3, top=3)
        assert model.keywords(doc, metric="lo-own", k=3, top=3, about=1.0) == paper
        assert {kw.word for kw in paper} <= set(SPORT if doc.label == "sport" else SPACE)


POST = ("From: ldo@waikato.ac.nz (Lawrence D'Oliveiro)\nSubject: Re: rocket launch\n"
        "Organization: University of Waikato\n\n"
        "In article <1@cs.edu> someone writes:\n> Did the team coach see the launch?\n\n"
        "The moon mission put a big rocket into orbit. The rocket stage circled the planet\n"
        "and the mission team watched the star tracker.\n\n"
        "--\nLawrence D'Oliveiro, Computer Services Dept, University of Waikato\n")


@pytest.fixture(scope="module")
def news_model(topic_corpus, topic_vectors):
    """The tiny corpus with a news post and a plain text among its test documents, prepared
    with the cache (the corpus's tagging is kept as a preparation keeps it)."""
    from dkw_core.corpora import Corpus, Document

    docs = [*topic_corpus.documents, Document(id="topics/test/space/post", text=POST, label="space", split="test"),
            Document(id="topics/test/space/plain", text="The mission team launched a rocket toward the moon "
                     "and the rocket stage reached orbit.", label="space", split="test")]
    return KeywordModel.prepare(Corpus("topics-news", docs), topic_vectors, k_max=4)


@pytest.mark.parametrize("doc_id", ["topics/test/space/post", "topics/test/space/plain"])
def test_a_corpus_documents_keyphrases_are_whole_phrases_of_its_body_as_a_new_text_gets_them(news_model, doc_id):
    # Before: a corpus document's keyphrases were the automaton spans of the whole post (header
    # and signature too) ranked by centroid cosine and MMR; a new text's, whole noun phrases of
    # its body (relevance.text_keyphrases). Now both go through that one ranking.
    doc = news_model.corpus.get(doc_id)
    got = news_model.keywords(doc, metric="lo-own", k=3, top=5, protocol="label-free", about=0.4)
    own = [kw for kw in got if is_own_phrase(kw)]
    assert len(own) >= 3 and all(kw.word.lower() in _noun_phrases(doc.text) for kw in own), got
    assert any(len(kw.word.split()) > 1 for kw in own), got  # whole phrases, not their words
    assert not any(w in kw.word.lower() for kw in got for w in ("waikato", "oliveiro", "coach", "services"))
    new = one_text(news_model, doc.text, metric="lo-own", k=3, top=5, protocol="label-free", about=0.4)
    assert [(kw.word, round(kw.score, 9)) for kw in got] == \
        [(kw.word, round(kw.score, 9)) for kw in new.keywords["lo-own"]]
    assert news_model.keywords(doc, metric="lo-own", k=3, top=5, about=1.0) == \
        news_model.keywords(doc, metric="lo-own", k=3, top=5)  # about 1: the paper's words, unchanged


def test_a_corpus_documents_tagging_is_read_from_the_preparation_not_tagged_again(news_model, monkeypatch):
    doc = news_model.corpus.get("topics/test/space/plain")
    expected = news_model.keywords(doc, metric="lo-own", k=3, top=5, about=0.4)

    def no_tagging(*args, **kwargs):
        raise AssertionError("the corpus was tagged again")

    from dkw_core.phrases import get_tagger

    for method in ("tag", "tag_many", "tag_pieces"):
        monkeypatch.setattr(type(get_tagger()), method, no_tagging)
    news_model.__dict__.pop("_tagged", None)
    assert news_model.keywords(doc, metric="lo-own", k=3, top=5, about=0.4) == expected


def test_the_registry_names_the_keyphrase_method(model):
    assert parse_method("keyphrases-a0.4-knn3-lo-own")["about"] == 0.4
    with pytest.raises(InputError, match="about"):
        parse_method("keyphrases-a2-knn3-lo-own")
    assert method_kind("keyphrases-a0.3-knn3-lo-own") == "dkw"
    assert keyphrases_spec() in {r["spec"] for r in describe_methods()}


def test_a_new_text_gets_its_fit_and_keyphrases(model):
    text = "The rocket and the moon mission reached orbit."
    found = one_text(model, text, metric="lo-own", k=3, top=3, about=0.0)
    fit = found.fit
    assert 0.0 <= fit.p <= 1.0 and fit.nearest in model.categories
    kp = found.keywords["lo-own"]
    assert {kw.word for kw in kp} <= {"rocket", "moon mission", "orbit", "the rocket", "moon"} | set(SPACE), kp


def test_an_out_of_corpus_text_gets_keywords_about_itself_unless_about_is_asked_for(model, monkeypatch):
    from dkw_core.keywords.fit import CorpusFit

    outside = CorpusFit(p=0.3, similarity=0.5, nearest=model.categories[0], out_of_corpus=True)
    monkeypatch.setattr(type(model), "corpus_fit", lambda self, units, posterior, artefacts=None: outside)
    text = "The rocket and the moon mission reached orbit."
    default = one_text(model, text, metric="lo-own", k=3, top=3, about=None)
    own = one_text(model, text, metric="lo-own", k=3, top=3, about=0.0)
    assert default.about == 0.0 and [kw.word for kw in default.keywords["lo-own"]] == \
        [kw.word for kw in own.keywords["lo-own"]]
    assert "does not fit" in default.describe() and "weighted as" in default.describe()
    assert default.to_dict()["out_of_corpus"] is True
    asked = one_text(model, text, metric="lo-own", k=3, top=3, about=1.0)
    assert asked.about == 1.0 and [kw.word for kw in asked.keywords["lo-own"]] != \
        [kw.word for kw in own.keywords["lo-own"]]


def test_a_long_texts_keyphrases_come_back_in_memory_linear_in_its_phrases():
    # The old ranking's MMR once built the phrases x phrases cosine matrix, 115 GiB for a 5 MB
    # text's 124,337 phrases. text_keyphrases scores each candidate alone: here 6,000 distinct
    # phrases (that matrix alone would be 288 MB) within a few KB per phrase.
    import tracemalloc

    from dkw_core.keywords.relevance import specificity, text_keyphrases

    n = 6000
    words = [f"zq{i}x" for i in range(2 * n)]
    tokens = [t for i in range(n) for t in (words[2 * i], words[2 * i + 1], ".")]
    text = " ".join(tokens)
    index = {w: i for i, w in enumerate(words)}
    scores = np.linspace(0.0, 1.0, len(words))
    specificity("the")  # wordfreq's table is loaded once per process, not by this ranking
    tracemalloc.start()
    try:
        got = text_keyphrases(text, tokens, "NNO" * n, top=10, about=0.4, word_scores=scores, word_index=index)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(got) == 10 and all(is_own_phrase(kw) for kw in got) and len({kw.word for kw in got}) == 10
    assert peak < 5_000 * n, f"peak {peak / 1e6:.1f} MB for {n} phrases (n x n float64: {8 * n * n / 1e6:.0f} MB)"


CJK_RUN = "中文字符串" * 164 + "文"  # 821 characters, one unsegmented token


@pytest.mark.parametrize("phrase,ok", [("=", False), ("。", False), ("= =", False), ("--", False), ("", False),
                                       ("plotting packages =", False), ("= c:\\dos mode", False),
                                       (CJK_RUN, False), ("a b c d e f", False), ("x" * 61, False),
                                       ("steel", True), ("f-16", True), ("3d", True), ("中文", True),
                                       ("center for excellence in space", True)])
def test_a_keyphrase_holds_a_letter_or_digit_and_is_bounded(phrase, ok):
    from dkw_core.keywords.keyphrases import is_keyphrase

    assert is_keyphrase(phrase) is ok


def test_symbols_and_an_unsegmented_cjk_run_are_never_listed_as_keyphrases():
    # docs/method.md §13: "=", "。" and an 821-character Chinese string came out as keyphrases
    from dkw_core.keywords.relevance import text_keyphrases

    text = f"The steel plant . = 。 {CJK_RUN} . the river plant . {CJK_RUN}"
    tokens = text.split(" ")
    tags = "ONNONNNOONNON"
    latent = [Keyword("gamma", 3.0, 2, ()), Keyword("=", 1.0, 1, ()), Keyword("beta", 0.5, 1, ())]
    for about in (0.0, 0.4):
        got = text_keyphrases(text, tokens, tags, top=5, about=about, word_scores=np.zeros(1),
                              word_index={"steel": 0}, latent=latent)
        assert sorted(kw.word for kw in got[:2]) == ["river plant", "steel plant"], about
        assert [kw.word for kw in got[2:]] == ["gamma", "beta"], about


def test_a_corpus_documents_tagging_outside_the_cache_is_the_preparations_and_a_new_texts_is_new_texts(
        model, monkeypatch):
    """Keyphrases read the tagging their phrases were counted from: a corpus document the tag
    cache does not hold (a model prepared without it) is tagged by the preparation's tagger
    (spaCy's), an edited text by new texts' (``DKW_TAGGER``)."""
    from dkw_core.corpora import Document
    from dkw_core.phrases import Tagger

    used: list[str] = []
    tag = Tagger.tag

    def spy(self, text):
        used.append(self.kind)
        return tag(self, text)

    monkeypatch.setattr(Tagger, "tag", spy)
    monkeypatch.setattr("dkw_core.phrases.load_tag_cache", lambda path: {})
    monkeypatch.setenv("DKW_TAGGER", "fast")
    monkeypatch.delenv("DKW_PREPARE_TAGGER", raising=False)
    model.__dict__.pop("_tagged", None)
    doc = model.corpus.test[0]
    assert model.keywords(doc, metric="lo-own", k=3, top=3, about=0.5)
    assert used == ["spacy"]
    edited = Document(id="edited", text=doc.text + " The rocket reached orbit.", label=doc.label, split="test")
    assert model.keywords(edited, metric="lo-own", k=3, top=3, about=0.5)
    assert used[1:] and set(used[1:]) == {"fast"}
    model.__dict__.pop("_tagged", None)
