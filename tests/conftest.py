"""Shared test set-up: a private DKW_DATA_DIR per test session, the corpus archives where
``dkw_core.config.archives_dir()`` finds them (``DKW_ARCHIVES``, default ``data/archives``; tests on
real corpora skip without them), no download behind the tests' back, and tiny vector models
built in memory."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from tests.support.archives import pytest_runtest_makereport  # noqa: F401  (DKW_REQUIRE_ARCHIVES=1: no silent skips)
from tests.support.collection import pytest_deselected  # noqa: F401  (the README's test count)

ROOT = Path(__file__).resolve().parents[1]

# A private data folder per session. Under pytest-xdist (`make test`: -n 2) every worker is a session
# of its own: it inherits the folder the controller made (DKW_TEST_DATA_DIR names it) and makes its
# own, so no cache is written by two processes at once and each worker sees what a serial run sees.
# A DKW_DATA_DIR set by the caller is kept.
if os.environ.get("DKW_DATA_DIR") in (None, os.environ.get("DKW_TEST_DATA_DIR")):
    os.environ["DKW_DATA_DIR"] = os.environ["DKW_TEST_DATA_DIR"] = tempfile.mkdtemp(
        prefix=f"dkw-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-")
os.environ.setdefault("DKW_N_PROCESS", "1")
os.environ["DKW_DOWNLOAD"] = "0"  # a missing archive skips a test; it is never fetched silently


def archives_folder() -> Path:
    """The absolute folder the library searches for archives (relative DKW_ARCHIVES resolved)."""
    from dkw_core.config import archives_dir

    return archives_dir()


ARCHIVES = archives_folder()


def archives_present(*names: str) -> bool:
    return all((ARCHIVES / n).is_file() for n in names)


needs_20ng = pytest.mark.skipif(not archives_present("20news-bydate.tar.gz"),
                                reason=f"20news-bydate.tar.gz not in {ARCHIVES} (DKW_ARCHIVES)")

SPORT = ["team", "game", "player", "goal", "coach", "season", "league", "ball"]
SPACE = ["planet", "orbit", "rocket", "moon", "star", "launch", "mission", "earth"]


def make_kv(words_vectors: dict[str, np.ndarray]):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(len(next(iter(words_vectors.values()))))
    kv.add_vectors(list(words_vectors), np.array(list(words_vectors.values()), dtype=np.float32))
    return kv


@pytest.fixture(scope="session")
def topic_vectors():
    """An 8-d model where sport words cluster on axis 0, space words on axis 1, plus noise
    axes so that neighbours within a topic are ordered."""
    from dkw_core.vectors import Vectors

    rng = np.random.default_rng(7)
    vecs = {}
    for i, w in enumerate(SPORT):
        v = np.zeros(8)
        v[0], v[2 + i % 6] = 3.0, 1.0 + 0.1 * i
        vecs[w] = v + rng.normal(0, 0.01, 8)
    for i, w in enumerate(SPACE):
        v = np.zeros(8)
        v[1], v[2 + i % 6] = 3.0, 1.0 + 0.1 * i
        vecs[w] = v + rng.normal(0, 0.01, 8)
    return Vectors(make_kv(vecs), "topics")


@pytest.fixture(scope="session")
def topic_corpus():
    """Six training and two test documents about sport or space."""
    from dkw_core.corpora import Corpus, Document

    texts = {
        ("train", "sport"): ["The team won the game after the coach changed the player.",
                             "A new season of the league starts with a goal.",
                             "The player kicked the ball; the team celebrated."],
        ("train", "space"): ["The rocket reached orbit around the planet.",
                             "A launch of the mission to the moon.",
                             "The star and the earth seen from orbit."],
        ("test", "sport"): ["The coach praised the team and the league."],
        ("test", "space"): ["The mission put a rocket near the moon."],
    }
    docs = [Document(id=f"topics/{split}/{label}/{i}", text=t, label=label, split=split)
            for (split, label), ts in texts.items() for i, t in enumerate(ts)]
    return Corpus("topics", docs)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test` (-n 2 --dist loadfile): whole files per worker, tests/cluster as one unit
    (tests/support/xdist.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.support.xdist import FileScheduling

    return FileScheduling(config, log)


@pytest.fixture(autouse=True)
def _main_module_restored():
    """Streamlit's script runner (every AppTest) puts the page's script in ``sys.modules["__main__"]``
    and leaves it there; a later ``multiprocessing`` spawn (Dask workers, the tagging pool) would
    re-run that script as its main module and die (an ``AppTest.from_function`` script raises
    NameError). Each test gets the real ``__main__`` back."""
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main


def one_text(model, text: str, *, metric: str = "rf", k: int | None = None, top: int = 10,
             protocol: str | None = None, about: float | None = 1.0):
    """A new text's :class:`~dkw_core.keywords.request.KeywordAnswer` through the one public path
    (``answer`` with a resolved model; ``about`` 1, the paper's words, unless asked)."""
    from dkw_core.keywords.request import KeywordRequest, answer

    return answer(KeywordRequest(text=text, metrics=(metric,), k=k, top=top, protocol=protocol, about=about),
                  model=model)


def one_text_keywords(model, text: str, **kwargs) -> list:
    """The keywords of :func:`one_text` under its one metric."""
    return next(iter(one_text(model, text, **kwargs).keywords.values()))
