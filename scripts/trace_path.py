"""Which of dkw's files a user path enters, in order: the first call into each file of
``dkw_core``, ``dkw_app``, ``pages`` and ``app.py``, recorded with ``sys.setprofile`` and
``threading.setprofile`` (Streamlit's AppTest runs a page in a thread of its own). ARCHITECTURE.md's
three walks come from it::

    .venv/bin/python scripts/trace_path.py home      # a text pasted on Home → its keywords shown
    .venv/bin/python scripts/trace_path.py evaluate  # python -m dkw_core evaluate … → stored run and table
    .venv/bin/python scripts/trace_path.py judge     # a judge's answer → the Study results page's verdict

One line per file: the file and the first function entered in it (a module's or a class's body, run
by an import, is not a step; a page's script is). ``home`` is the real path (the
shipped statistics of 20ng, the default vectors, spaCy), traced only within the page's calls for the
box (the rest of Home, the corpora list, is another path); ``evaluate`` runs the command on a
12-document corpus written to a temporary folder (tagging it needs spaCy and the vectors); ``judge``
answers a demo study's article on the Judge page (``DKW_STUDY_FAKE_KEYWORDS=1``, as
tests/study/test_pages.py does), then opens the Study results page with the answers of two
simulated judges switched on.
"""
from __future__ import annotations

import argparse
import inspect
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from repo_root import ROOT

PAGES = (str(ROOT / "pages"), str(ROOT / "app.py"))
PRODUCT = (str(ROOT / "dkw_core"), str(ROOT / "dkw_app"), *PAGES)


class Trace:
    """The first (file, function) entered per product file; with ``within``, only while a call of
    one of those function names (from a product file) runs."""

    def __init__(self, within: set[str] | None = None) -> None:
        self.within, self.inside = within, 0
        self.first: dict[str, str] = {}
        self.frames: set[int] = set()
        self.lock = threading.Lock()

    def __call__(self, frame, event, _arg):
        if event not in ("call", "return"):
            return
        path = frame.f_code.co_filename
        if not path.startswith(PRODUCT):
            return
        name = frame.f_code.co_name
        with self.lock:
            if self.within is not None and name in self.within:
                if event == "call":
                    self.frames.add(id(frame))
                    self.inside += 1
                elif id(frame) in self.frames:
                    self.frames.discard(id(frame))
                    self.inside -= 1
                    return
            if (event == "call" and (self.within is None or self.inside) and path not in self.first
                    and (frame.f_code.co_flags & inspect.CO_OPTIMIZED or path.startswith(PAGES))):
                # a function's call; a module's or a class's body (an import) is not a step, a page's script is
                self.first[path] = name

    def run(self, fn: Callable[[], object]) -> list[tuple[str, str]]:
        threading.setprofile(self)
        sys.setprofile(self)
        try:
            fn()
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
        return [(str(Path(p).relative_to(ROOT)), f) for p, f in self.first.items()]


def home() -> list[tuple[str, str]]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600).run()
    at.text_area(key="instant_text").input("The shuttle launch to the space station was delayed by a fuel leak "
                                           "in the rocket engine.")

    def click():
        at.button[0].click().run()
        assert not at.exception and any(t.value.startswith("Keywords: ") for t in at.text), at.error

    return Trace({"instant_refusal", "keyword_list", "keyphrase_answer"}).run(click)


TEXTS = {("train", "sport"): ["The team won the game after the coach changed the player.",
                              "A new season of the league starts with a goal by the striker.",
                              "The player kicked the ball and the team celebrated the goal."],
         ("train", "space"): ["The rocket reached orbit around the planet.",
                              "A launch of the mission to the moon with the astronauts.",
                              "The star and the earth seen from orbit by the astronauts."],
         ("test", "sport"): ["The coach praised the team and the league.", "Goal for the team in the last game."],
         ("test", "space"): ["The mission put a rocket near the moon.", "Astronauts saw the planet from orbit."]}


def evaluate(tmp: Path) -> list[tuple[str, str]]:
    root = tmp / "mini"
    for (split, label), texts in TEXTS.items():
        (root / split / label).mkdir(parents=True)
        for i, t in enumerate(texts):
            (root / split / label / f"{i}.txt").write_text(t, encoding="utf-8")
    argv = ["evaluate", "--dataset", str(root), "--metric", "rf", "--k", "10", "--top", "2", "--tops", "2",
            "--db", f"sqlite:///{tmp / 'runs.sqlite'}"]

    def command():
        import runpy

        sys.argv = ["dkw_core", *argv]
        try:
            runpy.run_module("dkw_core", run_name="__main__")
        except SystemExit as done:
            assert not done.code, done.code

    return Trace({"cmd_evaluate"}).run(command)  # after __main__ → cli.main's parse: the command itself


def judge(tmp: Path) -> list[tuple[str, str]]:
    from streamlit.testing.v1 import AppTest

    from dkw_core.db import make_engine
    from dkw_core.study import service as S
    from dkw_core.study.demo import demo_corpus, fake_provider
    from dkw_core.study.models import init_db
    from dkw_core.study.simulate import simulate

    url = f"sqlite:///{tmp / 'study.sqlite'}"
    os.environ.update(DKW_STUDY_DB=url, DKW_ADMIN_PASSWORD="s3cret-s3cret", DKW_STUDY_FAKE_KEYWORDS="1")
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    c = demo_corpus()
    sid = S.create_study(engine, documents=c.documents, categories=c.categories, provider=fake_provider,
                         config=S.StudyConfig(name="demo", corpus="demo-tiny", articles_per_category=1,
                                              categories_per_batch=2, judges_per_article=3,
                                              keywords_per_method=3, seed=2))
    simulate(engine, sid, judges=2)
    _jid, code = S.invite_judge(engine, sid, name="ann")
    at = AppTest.from_file(str(ROOT / "pages/4_Judge.py"), default_timeout=120)
    at.query_params["code"] = code
    at.run()
    at.button(key="judge_start").click().run()
    for r in at.radio:
        r.set_value(2)

    def answer_then_results():
        at.run()
        at.button(key="judge_submit").click().run()
        assert not at.exception and any("Saved" in s.value for s in at.success)
        results = AppTest.from_file(str(ROOT / "pages/5_Study_results.py"), default_timeout=120).run()
        results.text_input(key="results-password").input("s3cret-s3cret").run()
        results.toggle(key="results_simulated").set_value(True).run()
        assert not results.exception and results.get("plotly_chart")

    return Trace().run(answer_then_results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", choices=["home", "evaluate", "judge"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DKW_DATA_DIR"] = os.environ.get("DKW_DATA_DIR") or str(Path(tmp) / "data")
        found = home() if args.path == "home" else evaluate(Path(tmp)) if args.path == "evaluate" else judge(Path(tmp))
    for i, (path, function) in enumerate(found, 1):
        print(f"{i:3d}. {path}  ({function})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
