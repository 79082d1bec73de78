"""Candidate phrases: the FSM on tag patterns of the paper's Appendix A, and real tagging."""
import pytest

from dkw_core.phrases import MAX_PHRASE_LEN, Tagger, coarse_tag, extract_phrases, phrase_strings, tag_corpus


def spans_text(tokens, tags):
    return set(phrase_strings(tokens, tags))


@pytest.mark.parametrize("pattern,phrase", [
    ("JN", "Mathematical Foundations"),
    ("NN", "Searching Tools"),
    ("JIN", "better than competition"),
    ("JJN", "Macedonian human rights"),
    ("NIN", "Design of Pyramid"),
    ("JIJN", "highest among young males"),
    ("NINN", "Factors in Computing Systems"),
    ("NININ", "Center for Excellence in Space"),
    ("NNINN", "International Journal of Robotics Research"),
    ("JJNIN", "international ecumenical community of monks"),
    ("JNNNN", "Energetic Gamma Ray Experiment Telescope"),
])
def test_appendix_a_patterns_are_emitted_whole(pattern, phrase):
    tokens = phrase.split()
    assert phrase in spans_text(tokens, pattern)


def test_overlapping_sub_phrases_are_all_kept():
    tokens = "Center for Excellence in Space".split()
    got = spans_text(tokens, "NININ")
    assert got == {"Center", "Center for Excellence", "Center for Excellence in Space",
                   "Excellence", "Excellence in Space", "Space"}


def test_phrases_end_in_a_noun():
    # "small Ottoman" (JJ) is not a phrase, "small Ottoman garrison" is
    got = spans_text("small Ottoman garrison".split(), "JNN")
    assert "small" not in got and "small Ottoman garrison" in got
    assert all(p.split()[-1] in {"Ottoman", "garrison"} for p in got)


def test_two_prepositions_in_a_row_break_the_phrase():
    got = spans_text("way out of town".split(), "NIIN")
    assert got == {"way", "town"}


def test_other_tags_break_the_phrase():
    got = spans_text("dog runs home".split(), "NON")
    assert got == {"dog", "home"}


def test_phrases_never_start_with_a_preposition():
    assert extract_phrases(["of", "town"], "IN") == [(1, 2)]


def test_maximum_length_is_five_tokens():
    tokens = "a b c d e f".split()
    spans = extract_phrases(tokens, "NNNNNN")
    assert max(b - a for a, b in spans) == MAX_PHRASE_LEN
    assert (0, 6) not in spans
    assert len(spans) == 6 + 5 + 4 + 3 + 2  # lengths 1..5 over 6 nouns


def test_tokens_and_tags_must_align():
    with pytest.raises(ValueError):
        extract_phrases(["a"], "NN")


@pytest.mark.parametrize("tag,coarse", [("JJ", "J"), ("JJS", "J"), ("NN", "N"), ("NNPS", "N"),
                                        ("IN", "I"), ("VB", "O"), ("DT", "O"), (".", "O")])
def test_coarse_tags(tag, coarse):
    assert coarse_tag(tag) == coarse


@pytest.fixture(scope="module")
def tagger():
    return Tagger()


def test_tagger_runs_only_the_components_it_needs(tagger):
    assert set(tagger.nlp.pipe_names) <= {"tok2vec", "tagger"}


def test_real_tagging_finds_an_appendix_phrase(tagger):
    doc = tagger.tag("The International Journal of Robotics Research published it.")
    assert "International Journal of Robotics Research" in doc.phrases()


def test_tag_many_keeps_order_and_empty_texts(tagger):
    docs = list(tagger.tag_many(["The cat sat.", "", "Rockets fly."]))
    assert [d.text.split(" ")[0] if d.text else "" for d in docs] == ["The", "", "Rockets"]
    assert docs[1].tags == ""


def test_long_texts_are_tagged_in_chunks(tagger):
    text = "The rocket reached orbit. " * 9000  # > 100,000 characters
    doc = tagger.tag(text)
    assert doc.tokens.count("rocket") == 9000


def test_tag_corpus_caches_on_disk(topic_corpus, tagger, monkeypatch, tmp_path):
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    first = tag_corpus(topic_corpus, tagger=tagger, n_process=1)
    from dkw_core import cache

    files = list(cache.folder("tagged").glob("topics__*.pkl"))
    assert len(files) == 1 and str(files[0]).startswith(str(tmp_path))

    class Boom:  # a second call must not tag again
        name = tagger.name

        def tag_many(self, *a, **k):
            raise AssertionError("re-tagged a cached corpus")

    again = tag_corpus(topic_corpus, tagger=Boom(), n_process=1)
    assert again == first


def test_tag_corpus_retags_an_edited_document(topic_corpus, tagger, monkeypatch, tmp_path):
    """Entries are keyed by the text's content: same id, new text -> tagged again."""
    from dkw_core.corpora import Corpus, Document

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    tag_corpus(topic_corpus, tagger=tagger, n_process=1)
    first = topic_corpus.documents[0]
    edited = Corpus(topic_corpus.name, [Document(first.id, "The telescope watched a comet.", first.label, first.split),
                                        *topic_corpus.documents[1:]])
    tagged = tag_corpus(edited, tagger=tagger, n_process=1)
    assert "telescope" in tagged[first.id].tokens
    assert "team" not in tagged[first.id].tokens


def test_a_cancelled_tagging_job_stops_its_worker_processes_at_once(tagger, monkeypatch, tmp_path):
    """Issue 26 item 7: a server's background job tags with a pool of worker processes; its
    progress call raises when the server stops. Tagging must unwind there and leave no worker
    process and no queue thread behind (spaCy's own pool kept both, and the process could not
    exit until the launcher killed it)."""
    import multiprocessing
    import threading

    from dkw_core.corpora import Corpus, Document

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    corpus = Corpus("many", [Document(f"d{i}", f"The rocket number {i} reached a high orbit. " * 30, "space", "train")
                             for i in range(400)])

    class Stop(Exception):
        pass

    calls: list[float] = []
    outcome: list[BaseException] = []

    def progress(fraction: float, _message: str) -> None:
        calls.append(fraction)
        if len(calls) > 1:  # the server is stopping
            raise Stop

    def job() -> None:
        try:
            tag_corpus(corpus, tagger=tagger, n_process=2, progress=progress)
        except BaseException as exc:  # noqa: BLE001 - checked below
            outcome.append(exc)

    before = {p.pid for p in multiprocessing.active_children()}
    worker = threading.Thread(target=job)  # as dkw_app.jobs runs it: not the main thread
    worker.start()
    worker.join(60)
    assert not worker.is_alive() and len(outcome) == 1 and isinstance(outcome[0], Stop)
    assert [p for p in multiprocessing.active_children() if p.pid not in before] == []
    assert not [t for t in threading.enumerate() if t.name == "QueueFeederThread" and t.is_alive()]
