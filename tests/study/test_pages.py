"""AppTest of the three study pages (pages/3_Study_admin.py, 4_Judge.py, 5_Study_results.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from streamlit.testing.v1 import AppTest

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.demo import demo_corpus, fake_provider
from dkw_core.study.models import Answer, Study, init_db
from dkw_core.study.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
ADMIN = str(ROOT / "pages/3_Study_admin.py")
JUDGE = str(ROOT / "pages/4_Judge.py")
RESULTS = str(ROOT / "pages/5_Study_results.py")
METHOD_A, METHOD_B = "tf-rf", "latent-5word-knn90-rf"


@pytest.fixture
def env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'pages.sqlite'}"
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_DB", url)
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "s3cret")
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    yield engine
    engine.dispose()


def _demo_study(engine, *, judges=1):
    c = demo_corpus()
    return S.create_study(engine, documents=c.documents, categories=c.categories, provider=fake_provider,
                          config=S.StudyConfig(name="demo", corpus="demo-tiny", articles_per_category=1,
                                               categories_per_batch=2, judges_per_article=judges,
                                               keywords_per_method=3, seed=2))


def _texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "title", "subheader", "code", "info", "success",
                                  "error", "warning") for e in getattr(at, kind)]
    parts += [r.label for r in at.radio] + [b.label for b in at.button]
    return "\n".join(map(str, parts))


def _run(path: str, **query) -> AppTest:
    at = AppTest.from_file(path, default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


# ------------------------------------------------------------------ admin

def test_admin_without_configured_password_shows_nothing_of_the_study(env, monkeypatch):
    _demo_study(env)
    monkeypatch.delenv("DKW_ADMIN_PASSWORD")
    at = _run(ADMIN)
    assert not at.exception
    assert "no admin password is configured" in at.error[0].value
    assert not at.tabs and not at.text_input and not at.dataframe
    assert "demo" not in _texts(at).replace("no admin password", "")


def test_admin_wrong_password_shows_nothing_right_password_creates_and_invites(env):
    at = _run(ADMIN)
    at.text_input(key="admin-password").input("wrong").run()
    assert at.error and "Wrong password" in at.error[0].value and not at.tabs
    at.text_input(key="admin-password").input("s3cret").run()
    assert not at.exception and len(at.tabs) == 4
    # create a study on the demo corpus with small settings
    at.selectbox[0].select("demo-tiny")
    at.number_input[1].set_value(1)  # articles per category
    at.number_input[2].set_value(2)  # categories per batch
    at.number_input[4].set_value(7)  # seed
    at.button[0].click().run()  # form submit
    assert not at.exception, at.exception
    assert any("Study 1 created" in s.value for s in at.success)
    with Session(env) as s:
        study = s.get(Study, 1)
        assert (study.corpus, study.seed, len(study.articles), study.split) == ("demo-tiny", 7, 4, "test")
    at.text_input(key="invite_name").input("ann").run()
    at.button(key="invite_go").click().run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "code" in d.value.columns)
    code = table["code"][0]
    assert S.authenticate(env, code) == table["judge_id"][0]
    assert "/Judge?code=" in table["link"][0]


def test_admin_monitor_and_export_after_simulation(env):
    sid = _demo_study(env, judges=2)
    simulate(env, sid, judges=3, seed=1)
    at = _run(ADMIN)
    at.text_input(key="admin-password").input("s3cret").run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    judges = next(f for f in frames if "submitted" in f.columns and "name" in f.columns)
    assert judges["submitted"].sum() == 4 * 2
    assert len(at.get("download_button")) == 2


# ------------------------------------------------------------------ judge

def test_wrong_judge_code_opens_nothing(env):
    _demo_study(env)
    at = _run(JUDGE, code="not-a-code")
    assert not at.exception
    assert "Unknown access code" in at.error[0].value
    assert not at.radio and not at.code and not at.button


def test_judge_page_without_code_asks_for_it_wrong_typed_code_opens_nothing(env):
    sid = _demo_study(env)
    _jid, code = S.invite_judge(env, sid, name="ann")
    at = _run(JUDGE)
    assert not at.exception and at.text_input(key="judge_code_input") and not at.radio
    at.text_input(key="judge_code_input").input("guess").run()
    at.button(key="judge_open").click().run()
    assert "Unknown access code" in at.error[0].value and not at.code and not at.radio
    at.text_input(key="judge_code_input").input(code).run()
    at.button(key="judge_open").click().run()
    assert not at.exception and not at.error
    assert at.button(key="judge_start")  # the instructions come first


def test_judge_flow_instructions_disabled_submit_answers_stored_no_method_names(env):
    sid = _demo_study(env)
    jid, code = S.invite_judge(env, sid, name="ann")
    at = _run(JUDGE, code=code)
    assert not at.exception
    assert "Instructions" in [s.value for s in at.subheader] and not at.radio
    at.button(key="judge_start").click().run()
    assert not at.exception
    radios = at.radio
    assert radios and len(radios) % 2 == 0
    submit = at.button(key="judge_submit")
    assert submit.disabled
    assert at.code[0].value  # the article, as plain text in a code block
    assert any("this article" in m.value for m in at.markdown)  # own category highlighted
    page_text = _texts(at)
    assert METHOD_A not in page_text and METHOD_B not in page_text
    for r in radios[:-1]:
        r.set_value(2)
    at.run()
    assert at.button(key="judge_submit").disabled  # one answer still missing
    at.radio[-1].set_value(3)
    at.run()
    assert not at.button(key="judge_submit").disabled
    n = len(at.radio)
    at.button(key="judge_submit").click().run()
    assert not at.exception
    assert any("Saved" in s.value for s in at.success)
    with Session(env) as s:
        assert s.scalar(select(func.count(Answer.id))) == n
    assert S.judge_progress(env, jid).judged == 1
    # leave and resume: a fresh session continues without the instructions and without repeats
    again = _run(JUDGE, code=code)
    assert not again.exception and again.radio and "Instructions" not in [s.value for s in again.subheader]


# ------------------------------------------------------------------ results

def test_results_page_locked_without_password(env):
    sid = _demo_study(env)
    simulate(env, sid, judges=2)
    at = _run(RESULTS)
    assert not at.exception and not at.get("plotly_chart") and not at.dataframe


def test_results_page_shows_charts_tables_and_pairing(env):
    sid = _demo_study(env, judges=2)
    simulate(env, sid, judges=3, seed=4)
    at = _run(RESULTS)
    at.text_input(key="results-password").input("s3cret").run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 2
    sig = next(d.value for d in at.dataframe if "wilcoxon_T" in d.value.columns)
    assert set(sig["question"]) == {"topic", "category"}
    assert any("same judge" in c.value for c in at.caption)
    assert any(METHOD_B in c.value for c in [*at.caption, *at.subheader])
