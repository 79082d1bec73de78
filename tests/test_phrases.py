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
    return Tagger(kind="spacy")  # the reference (new texts' default is the fast one: tests/test_fasttagger.py)


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


class _Recording:
    """The real tagger, recording every text it is asked to tag; optionally killed (SIGKILL, no
    clean-up at all) or stopped by an exception after ``die_after`` documents."""

    def __init__(self, tagger, die_after=None, kill=False):
        self.tagger, self.name, self.die_after, self.kill, self.texts = tagger, tagger.name, die_after, kill, []

    def tag_many(self, texts, **kw):
        texts = list(texts)
        for text, doc in zip(texts, self.tagger.tag_many(texts, n_process=1), strict=True):
            if self.die_after is not None and len(self.texts) == self.die_after:
                if self.kill:
                    import os
                    import signal

                    os.kill(os.getpid(), signal.SIGKILL)
                raise KeyboardInterrupt
            self.texts.append(text)
            yield doc


def _uninterrupted(topic_corpus, tagger, folder, monkeypatch):
    from dkw_core import cache
    from dkw_core.phrases import tag_cache_file

    monkeypatch.setenv("DKW_DATA_DIR", str(folder))  # restored after the test, as every other setting
    result = tag_corpus(topic_corpus, tagger=tagger, n_process=1)
    return result, cache.read_pickle(tag_cache_file(topic_corpus.name, tagger))


def test_a_killed_tagging_resumes_from_its_chunks_and_ends_as_an_uninterrupted_one(topic_corpus, tagger, monkeypatch,
                                                                                 tmp_path):
    """SIGKILL after 7 of 8 documents, chunks of 3: the two chunks written (6 documents) are kept;
    the next run tags only the other 2, says so, and its result and cache file are those of a run
    that was never interrupted (same entries, same order)."""
    import multiprocessing

    from dkw_core import cache, phrases

    monkeypatch.setattr(phrases, "CHUNK_DOCS", 3)
    expected, expected_file = _uninterrupted(topic_corpus, tagger, tmp_path / "whole", monkeypatch)
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "killed"))
    child = multiprocessing.get_context("fork").Process(
        target=tag_corpus, args=(topic_corpus,), kwargs={"tagger": _Recording(tagger, die_after=7, kill=True),
                                                         "n_process": 1})
    child.start()
    child.join(60)
    assert child.exitcode == -9  # killed: no finally, no atexit
    path = phrases.tag_cache_file(topic_corpus.name, tagger)
    assert not path.exists() and len(phrases.load_tag_cache(path)) == 6

    messages = []
    again = _Recording(tagger)
    result = tag_corpus(topic_corpus, tagger=again, n_process=1, progress=lambda f, m: messages.append(m))
    assert len(again.texts) == 2  # only what the killed run had not kept
    assert "resuming: 6 documents already tagged by the run that stopped; 6 of 8 tagged" in messages[0]
    assert result == expected
    stored = cache.read_pickle(path)
    assert stored == expected_file and list(stored) == list(expected_file)
    assert not phrases.tag_parts_folder(path).exists()  # the chunks were folded into the cache file


def test_a_stopped_tagging_keeps_every_document_it_tagged(topic_corpus, tagger, monkeypatch, tmp_path):
    """A cancelled job stops tagging with an exception from its progress callback: the documents
    tagged since the last chunk are written too, so the next run tags none of them again."""
    from dkw_core import phrases

    monkeypatch.setattr(phrases, "CHUNK_DOCS", 3)
    expected, _ = _uninterrupted(topic_corpus, tagger, tmp_path / "whole", monkeypatch)
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path / "stopped"))

    class Cancelled(Exception):
        pass

    def cancel_at_four(fraction, message):
        if message.startswith("tagged 4/"):
            raise Cancelled

    with pytest.raises(Cancelled):
        tag_corpus(topic_corpus, tagger=tagger, n_process=1, progress=cancel_at_four)
    again = _Recording(tagger)
    assert tag_corpus(topic_corpus, tagger=again, n_process=1) == expected
    assert len(again.texts) == 4


def test_an_interrupted_tagging_is_counted_without_loading_spacy(topic_corpus, tagger, monkeypatch, tmp_path):
    """What Home says after a killed server: how many documents the chunks hold, per corpus name."""
    from dkw_core import phrases

    monkeypatch.setattr(phrases, "CHUNK_DOCS", 3)
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    assert phrases.interrupted_tagging("topics") == 0
    with pytest.raises(KeyboardInterrupt):
        tag_corpus(topic_corpus, tagger=_Recording(tagger, die_after=5), n_process=1)
    assert phrases.interrupted_tagging("topics") == 5
    assert phrases.interrupted_tagging("topic") == 0 and phrases.interrupted_tagging("other") == 0
    tag_corpus(topic_corpus, tagger=tagger, n_process=1)
    assert phrases.interrupted_tagging("topics") == 0  # finished: nothing interrupted any more


def test_a_cancelled_tagging_job_stops_its_worker_processes_at_once(tagger, monkeypatch, tmp_path):
    """A server's background job tags with a pool of worker processes; its
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
    feeders = {t.ident for t in threading.enumerate() if t.name == "QueueFeederThread"}  # other tests' pools
    worker = threading.Thread(target=job)  # as dkw_app.jobs runs it: not the main thread
    worker.start()
    worker.join(60)
    assert not worker.is_alive() and len(outcome) == 1 and isinstance(outcome[0], Stop)
    assert [p for p in multiprocessing.active_children() if p.pid not in before] == []
    left = [t for t in threading.enumerate() if t.name == "QueueFeederThread" and t.ident not in feeders]
    for thread in left:
        thread.join(5)  # a terminated pool's feeder ends once its pipe is closed
    assert not [t for t in left if t.is_alive()]


def test_a_resumed_tagging_says_the_pages_number_and_its_bar_goes_on_from_there(topic_corpus, tagger, monkeypatch,
                                                                                tmp_path):
    """A slice tagged earlier (2 documents, finished) and a run stopped after 3 more (chunks of 3):
    the page says "its 3 tagged documents are kept" (interrupted_tagging), so the next run must say
    "resuming: 3 …" too (not 5, which mixes in the slice), and its progress bar starts at 5/8, not 0 %."""
    from dkw_core import phrases

    monkeypatch.setattr(phrases, "CHUNK_DOCS", 3)
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    tag_corpus(topic_corpus.head(1), tagger=tagger, n_process=1)  # a finished slice: 1 per (split, category)
    sliced = len(topic_corpus.head(1).documents)
    with pytest.raises(KeyboardInterrupt):
        tag_corpus(topic_corpus, tagger=_Recording(tagger, die_after=3), n_process=1)
    kept = phrases.interrupted_tagging(topic_corpus.name)
    assert kept == 3
    calls = []
    tag_corpus(topic_corpus, tagger=tagger, n_process=1, progress=lambda f, m: calls.append((f, m)))
    total = len(topic_corpus.documents)
    first_fraction, first = calls[0]
    assert f"resuming: {kept} documents already tagged by the run that stopped; {sliced + kept} of {total} tagged" in first
    assert first_fraction == pytest.approx((sliced + kept) / total)  # the bar goes on, it does not restart at 0 %
    assert [f for f, _ in calls] == sorted(f for f, _ in calls) and calls[-1][0] == pytest.approx(1.0)
    assert f"tagged {total}/{total} documents" in calls[-1][1]


def test_tags_of_an_earlier_slice_are_reused_not_called_a_resumption(topic_corpus, tagger, monkeypatch, tmp_path):
    """``study create --sample 2`` tags a slice and finishes; a later ``prepare`` of the whole
    corpus reuses those tags, but nothing was interrupted: it must not say "resuming"."""
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    tag_corpus(topic_corpus.head(1), tagger=tagger, n_process=1)
    sliced = len(topic_corpus.head(1).documents)
    messages = []
    tag_corpus(topic_corpus, tagger=tagger, n_process=1, progress=lambda f, m: messages.append(m))
    assert "resuming" not in " ".join(messages)
    assert f"{sliced} of {len(topic_corpus.documents)} documents were tagged earlier, e.g. in a slice, and are reused" \
        in messages[0]
