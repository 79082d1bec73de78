"""AppTest of the three study pages (pages/3_Study_admin.py, 4_Judge.py, 5_Study_results.py)."""
from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from streamlit.testing.v1 import AppTest

from dkw_app import study_ui
from dkw_core.db import make_engine
from dkw_core.study import access, analysis, exclusion, settings
from dkw_core.study import service as S
from dkw_core.study.analysis import LEVEL_PAPER, format_report
from dkw_core.study.demo import demo_corpus, fake_provider
from dkw_core.study.models import Answer, Study, init_db
from dkw_core.study.planner import PLAIN_COLUMNS
from dkw_core.study.settings import PLAN_SIMULATIONS
from dkw_core.study.simulate import simulate
from tests.support.markdown import shown

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
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "s3cret-s3cret")
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
                                  "error", "warning", "text") for e in getattr(at, kind)]
    parts += [r.label for r in at.radio] + [b.label for b in at.button]
    return "\n".join(map(str, parts))


def _run(path: str, **query) -> AppTest:
    at = AppTest.from_file(path, default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


# ------------------------------------------------------------------ admin

def test_admin_without_configured_password_asks_for_the_printed_token(env, monkeypatch, capsys):
    _demo_study(env)
    monkeypatch.delenv("DKW_ADMIN_PASSWORD")
    monkeypatch.delenv("DKW_ADMIN_TOKEN", raising=False)
    monkeypatch.setattr(study_ui, "_process_token", None)
    at = _run(ADMIN)
    assert not at.exception and not at.tabs and not at.dataframe
    assert at.text_input(key="admin-password")
    printed = capsys.readouterr().err
    token = study_ui._process_token
    assert token and len(token) >= 32 and token in printed  # on the server's console
    at.text_input(key="admin-password").input("guess-guess-guess").run()
    assert not at.tabs and "wrong password" in at.error[0].value
    access.gate_for(token, env).clock = lambda: 10.0**10  # past any delay (the gate clock is Unix time)
    at.text_input(key="admin-password").input(token).run()
    assert not at.exception and len(at.tabs) == 6


def test_launcher_token_is_used_when_given(env, monkeypatch):
    monkeypatch.delenv("DKW_ADMIN_PASSWORD")
    monkeypatch.setenv("DKW_ADMIN_TOKEN", "launcher-token-0123456789-abcdef")
    at = _run(ADMIN)
    at.text_input(key="admin-password").input("launcher-token-0123456789-abcdef").run()
    assert not at.exception and len(at.tabs) == 6


def test_too_short_password_keeps_the_admin_closed(env, monkeypatch):
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "short")
    at = _run(ADMIN)
    assert not at.exception and not at.text_input and not at.tabs
    assert "too short" in at.error[0].value and "at least 12" in at.error[0].value


def test_failed_attempts_delay_the_next_attempt_even_with_the_right_password(env, monkeypatch):
    pw = "throttle-" + uuid.uuid4().hex
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", pw)
    now = [1000.0]
    gate = access.gate_for(pw, env)
    gate.clock = lambda: now[0]
    at = _run(ADMIN)
    for i, wait in enumerate((1, 2, 4), start=1):
        at.text_input(key="admin-password").input(f"wrong-{i}").run()
        assert f"attempt {i}" in at.error[0].value and not at.tabs
        at.text_input(key="admin-password").input(pw).run()  # too early: refused unchecked
        assert "too many wrong attempts" in at.error[0].value and not at.tabs
        now[0] += wait  # the delay doubles: 1, 2, 4 s
    other = _run(ADMIN)  # a new browser session does not reset the count: its first entry waits the server's delay
    other.text_input(key="admin-password").input("wrong-4").run()
    assert "a new session's entry is checked in 4 s" in other.error[0].value
    now[0] += 4
    other.run()  # the countdown's rerun: now checked
    assert "attempt 4" in other.error[0].value
    now[0] += 8
    at.text_input(key="admin-password").input(pw + " ").run()
    now[0] += 16
    at.text_input(key="admin-password").input(pw).run()
    assert not at.exception and len(at.tabs) == 6 and gate.failures == 0


def test_admin_wrong_password_shows_nothing_right_password_creates_and_invites(env):
    at = _run(ADMIN)
    now = [10.0**9]
    access.gate_for("s3cret-s3cret", env).clock = lambda: now[0]
    at.text_input(key="admin-password").input("wrong").run()
    assert at.error and "wrong password" in at.error[0].value and not at.tabs
    now[0] += 10
    at.text_input(key="admin-password").input("s3cret-s3cret").run()
    assert not at.exception and len(at.tabs) == 6
    # create a study on the demo corpus with small settings
    create(at, seed=7)
    assert any("Study 1 is ready" in s.value for s in at.success)
    with Session(env) as s:
        study = s.get(Study, 1)
        assert (study.corpus, study.seed, len(study.articles), study.split) == ("demo-tiny", 7, 4, "test")
    at.text_input(key="invite_name").input("ann").run()
    at.button(key="invite_go").click().run()
    assert not at.exception
    assert any("'ann' invited" in s.value for s in at.success)  # confirmed
    assert at.text_input(key="invite_name").value == ""  # and the name field emptied for the next judge
    table = next(d.value for d in at.dataframe if "code" in d.value.columns)
    code = table["code"][0]
    assert S.authenticate(env, code) == table["judge_id"][0]
    assert "/Judge?code=" in table["link"][0]


def create(at: AppTest, *, seed: int = 0, protocols: dict | None = None, upload: tuple | None = None,
           top: int | None = None) -> None:
    """Fill the admin's creation form (demo corpus, 1 article per category, 2 categories per
    batch), create, and wait for the background job to finish."""
    from dkw_app import jobs

    at.selectbox(key="new_corpus").select("demo-tiny").run()
    for spec, protocol in (protocols or {}).items():
        at.selectbox(key=f"new_protocol_{spec}").select(protocol)
    at.number_input(key="new_per_cat").set_value(1)
    at.number_input(key="new_per_batch").set_value(2)
    at.number_input(key="new_seed").set_value(seed)
    if top is not None:
        at.number_input(key="new_top").set_value(top)
    at.button(key="create_go").click().run()
    assert not at.exception, at.exception
    for _ in range(100):
        job = jobs.get("create-study")
        if job is None or not job.running:
            break
        time.sleep(0.1)
    at.run()
    assert not at.exception, at.exception


def test_admin_monitor_and_export_after_simulation(env):
    sid = _demo_study(env, judges=2)
    simulate(env, sid, judges=3, seed=1)
    at = _run(ADMIN)
    at.text_input(key="admin-password").input("s3cret-s3cret").run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    judges = next(f for f in frames if "submitted" in f.columns and "name" in f.columns)
    assert judges["submitted"].sum() == 4 * 2
    assert [b.label for b in at.get("download_button")] == ["Download CSV", "Download JSON", "Download tidy CSV",
                                                            "Download Parquet", "Download participants (CSV)"]


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
    assert any("← this article" in t.value for t in at.text)  # own category marked
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


def test_results_page_leaves_simulated_out_until_switched_on_then_shows_a_banner(env):
    sid = _demo_study(env, judges=2)
    simulate(env, sid, judges=3, seed=4)
    at = _run(RESULTS)
    at.text_input(key="results-password").input("s3cret-s3cret").run()
    assert not at.exception
    assert not at.get("plotly_chart") and not at.warning
    assert any("No submitted answers yet from real judges" in i.value for i in at.info)
    assert any("8 simulated judgement(s) left out" in c.value for c in at.caption)
    at.toggle(key="results_simulated").set_value(True).run()
    assert not at.exception
    assert "SIMULATED" in at.warning[0].value and "never publish" in at.warning[0].value
    assert len(at.get("plotly_chart")) == 3  # Fig. 11, Fig. 12 and the Table 7 chart
    sig = next(d.value for d in at.dataframe if "wilcoxon_z_signed" in d.value.columns)
    assert set(sig["question"]) == {"topic", "category"} and len(sig) == 2
    assert {"direction", "sign_p_two_sided", "sign_p_one_sided"} <= set(sig.columns)
    robust = [d.value for d in at.dataframe if "wilcoxon_z_signed" in d.value.columns][1]
    assert robust["pairs"].max() <= 4  # one pair per article
    assert any("same judge" in c.value for c in at.caption)
    assert any("Table 7" in h.value for h in at.subheader)
    texts = " ".join(t.value for t in at.text)
    assert f"B = {METHOD_B} (label-aware protocol)" in texts


def test_results_page_says_the_rules_left_nothing_rather_than_no_answers_yet(env):
    """Simulated judges switched on, every one of them excluded by a rule: the page said "No
    submitted answers yet from real judges." — neither true. It now gives the verdict's excluded
    line: how many judgements the rules left out, and by which rule."""
    sid = _demo_study(env, judges=2)
    exclusion.set_rules(env, sid, settings.ExclusionRules(max_failed_checks=None, min_articles=100))
    simulate(env, sid, judges=2)
    at = _run(RESULTS)
    at.text_input(key="results-password").input("s3cret-s3cret").run()
    at.toggle(key="results_simulated").set_value(True).run()
    assert not at.exception and not at.get("plotly_chart")
    (info,) = [i.value for i in at.info]
    n = analysis.analyze(env, sid, include_simulated=True)["exclusions"]["removed"]["judgements"]
    assert n and info.startswith(f"No answers left to analyse: {n} judgement(s) excluded in all ({n} by rule "
                                 "'too few articles')."), info
    assert "real judges" not in info


# ------------------------------------------------------------------ life cycle, protocols, modes

def _admin(at_path=ADMIN) -> AppTest:
    at = _run(at_path)
    at.text_input(key="admin-password").input("s3cret-s3cret").run()
    assert not at.exception
    return at


def test_admin_closes_the_study_judges_are_told_and_the_log_records_it(env):
    sid = _demo_study(env)
    _jid, code = S.invite_judge(env, sid, name="ann")
    at = _admin()
    at.selectbox(key="new_status").select("closed").run()
    at.button(key="status_go").click().run()
    assert not at.exception
    assert S.study_settings(env, sid)["status"] == "closed"
    log = next(d.value for d in at.dataframe if "action" in d.value.columns)
    assert list(log["action"]) == ["created", "judge invited", "status"] and log["at"].notna().all()
    assert at.button(key="invite_go").disabled
    judge = _run(JUDGE, code=code)
    judge.button(key="judge_start").click().run()
    assert not judge.exception and not judge.radio
    assert any("closed" in i.value for i in judge.info)


def test_admin_revokes_and_reissues_a_code_answers_kept(env):
    sid = _demo_study(env)
    jid, code = S.invite_judge(env, sid, name="ann")
    S.acknowledge_instructions(env, jid)
    task = S.next_task(env, jid).task
    S.submit(env, judge_id=jid, judgement_id=task.judgement_id,
             answers={(p, q): 1 for p, _w in task.keywords for q in ("topic", "category")})
    at = _admin()
    at.selectbox(key="access_judge").select(jid).run()
    at.button(key="revoke_go").click().run()
    assert not at.exception and "revoked" in at.success[0].value
    judge = _run(JUDGE, code=code)
    assert "revoked" in judge.error[0].value and not judge.radio
    at.button(key="reissue_go").click().run()
    new_link = next(d.value for d in at.dataframe if "link" in d.value.columns)["link"].iloc[-1]
    new_code = new_link.split("code=")[1]
    assert new_code != code
    judge = _run(JUDGE, code=new_code)
    assert not judge.exception and judge.radio  # continues with her next article
    assert S.judge_progress(env, jid).judged == 1


def test_protocols_chosen_at_creation_shown_to_admin_never_to_judges(env):
    at = _admin()
    create(at, protocols={METHOD_B: "label-free"})
    assert any("is ready" in s.value for s in at.success)
    sid = S.list_studies(env)[-1]["id"]
    settings = S.study_settings(env, sid)
    assert (settings["protocol_a"], settings["protocol_b"]) == ("label-aware", "label-free")
    assert any("(label-free)" in t.value for t in at.sidebar.text)
    _jid, code = S.invite_judge(env, sid, name="ann")
    judge = _run(JUDGE, code=code)
    assert "Corpus: demo-tiny" in [t.value for t in judge.text]  # the instructions name the corpus
    judge.button(key="judge_start").click().run()
    text = _texts(judge)
    assert judge.radio and "label" not in text and "protocol" not in text.lower()


def test_keywords_per_method_set_on_the_admin_page_is_what_judges_see_and_table_7_pairs(env):
    """Issue 26 item 4: "Keywords per method" = 2 on the form gave 5 + 5 keywords per article
    while Table 7 paired ranks 1..2 only and the report said 2. Now the one number is shown for
    every method, stored per method, and Table 7 uses every answer given (none left out for a
    missing partner rank)."""
    at = _admin()
    create(at, seed=3, top=2)
    assert any("is ready" in s.value for s in at.success)
    sid = S.list_studies(env)[-1]["id"]
    settings = S.study_settings(env, sid)
    assert [m["top"] for m in settings["methods"]] == [2, 2]
    with Session(env) as s:
        ranks = {src.rank for a in s.get(Study, sid).articles for kw in a.keywords for src in kw.sources}
    assert ranks == {1, 2}  # no keyword beyond the second of any method was shown
    simulate(env, sid, judges=2, seed=1, mode="random")
    result = analysis.analyze(env, sid, include_simulated=True)
    for row in (r for r in result["significance"] if r["level"] == LEVEL_PAPER):
        assert row["ranks_paired"] == 2 and row["left_out_no_partner_rank"] == 0
        assert row["answers_paired"] + row["left_out_do_not_know"] + row["left_out_partner_do_not_know"] \
            == row["answers"] == result["counts"]["answers"] // 2  # every answer to this question
    assert "2 keywords per method" in format_report(result)
    results = _run(RESULTS)
    results.text_input(key="results-password").input("s3cret-s3cret").run()
    results.toggle(key="results_simulated").set_value(True).run()
    assert not results.exception
    assert any("2 keywords per method" in t.value for t in results.text)


@pytest.mark.parametrize("page", ["pages/0_Home.py", "pages/1_Documents.py", "pages/2_Metrics.py"])
def test_study_mode_asks_every_other_page_for_the_admin_password(env, monkeypatch, page):
    monkeypatch.setenv("DKW_MODE", "study")
    at = _run(str(ROOT / page))
    assert not at.exception
    assert at.text_input(key=f"{Path(page).stem.split('_')[-1].lower()}-password")
    assert not at.button and not at.dataframe and not at.get("plotly_chart")
    assert not any("Prepare" in b.label for b in at.button)


def test_study_mode_leaves_the_judge_page_open_and_refuses_an_unknown_mode(env, monkeypatch):
    sid = _demo_study(env)
    _jid, code = S.invite_judge(env, sid, name="ann")
    monkeypatch.setenv("DKW_MODE", "study")
    judge = _run(JUDGE, code=code)
    assert not judge.exception and judge.button(key="judge_start") and not judge.text_input
    monkeypatch.setenv("DKW_MODE", "kiosk")
    home = _run(str(ROOT / "pages/0_Home.py"))
    assert not home.exception and "DKW_MODE must be one of explorer, study" in shown(home.error[0].value)
    assert not home.button


def test_the_right_password_refused_during_the_wait_is_accepted_when_it_is_over_without_new_input(env, monkeypatch):
    pw = "throttle-" + uuid.uuid4().hex
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", pw)
    now = [5000.0]
    access.gate_for(pw, env).clock = lambda: now[0]
    at = _run(ADMIN)
    for i in range(6):
        at.text_input(key="admin-password").input(f"wrong-{i}").run()
        now[0] += min(2 ** i, 30)  # each wrong attempt after the previous wait (at most 30 s)
    now[0] -= 30
    assert "accepted in 30 s" in at.error[0].value and " UTC)" in at.error[0].value
    now[0] += 28
    at.text_input(key="admin-password").input(pw).run()  # 2 s too early: refused unchecked
    assert "too many wrong attempts" in at.error[0].value and "checked again then" in at.error[0].value
    assert any("Next attempt accepted in 2 s" in c.value for c in at.caption) and not at.tabs
    at.run()  # same input, still waiting: no new attempt, no change
    assert not at.tabs and access.gate_for(pw, env).failures == 6
    now[0] += 2.5
    at.run()  # the countdown's rerun once the wait is over: the same entry is checked now
    assert not at.exception and len(at.tabs) == 6 and access.gate_for(pw, env).failures == 0


def test_study_mode_opens_on_the_judge_page_with_no_navigation_until_the_organiser_logs_in(env, monkeypatch):
    monkeypatch.setenv("DKW_MODE", "study")
    at = _run(str(ROOT / "app.py"))
    assert not at.exception
    assert [t.key for t in at.text_input] == ["judge_code_input"]  # "/" = the judge page
    assert "Keyword judging" in [t.value for t in at.title]
    at.switch_page(str(ROOT / "pages/0_Home.py")).run()  # "/Home": the organisers' page, behind the admin prompt
    assert not at.exception and at.text_input(key="home-password")
    monkeypatch.delenv("DKW_MODE")
    explorer = _run(str(ROOT / "app.py"))  # the explorer opens on Home, as before
    assert not explorer.exception and "Keyword judging" not in [t.value for t in explorer.title]


def _judge_on_article(env, **study):
    sid = _demo_study(env, **study)
    jid, code = S.invite_judge(env, sid, name="ann")
    S.acknowledge_instructions(env, jid)
    return sid, jid, code, _run(JUDGE, code=code)


def test_answers_are_saved_as_given_and_come_back_after_a_reload_unanswered_ones_marked(env):
    _sid, _jid, code, at = _judge_on_article(env)
    assert at.radio[0].options == ["Relevant", "Partially", "Irrelevant", "Do not know"]  # instructions' order
    assert not any("Not answered yet" in m.value for m in at.markdown)  # nothing marked before the first answer
    n = len(at.radio)
    for i, value in enumerate((3, 2, 0)):
        at.radio[i].set_value(value).run()
    assert not at.exception
    marks = [m.value for m in at.markdown if "Not answered yet" in m.value]
    assert len(marks) == n - 3  # every open question marked
    assert any(f"3 of {n} answers given" in c.value and "Still open" in c.value for c in at.caption)
    reloaded = _run(JUDGE, code=code)  # a reload: a new session, same article, answers back
    assert not reloaded.exception
    assert [r.value for r in reloaded.radio] == [3, 2, 0] + [None] * (n - 3)  # 3 Relevant, 2 Partially, 0 Do not know
    for r in reloaded.radio[3:]:
        r.set_value(1)
    reloaded.run()
    reloaded.button(key="judge_submit").click().run()
    assert any("Saved" in s.value and "next article" in s.value for s in reloaded.success)


def test_a_revoke_tells_the_judge_her_article_was_given_back(env):
    sid, jid, _code, at = _judge_on_article(env)
    at.radio[0].set_value(3).run()
    S.revoke_judge(env, sid, jid)
    new_code = S.reissue_code(env, sid, jid)
    again = _run(JUDGE, code=new_code)
    assert not again.exception
    notice = [w.value for w in again.warning]
    assert notice and "revoked" in notice[0]
    again.button(key="notice-ok-0").click().run()
    assert not again.warning and not again.exception


def test_submit_while_paused_says_saved_and_paused_never_next_article(env):
    sid, _jid, _code, at = _judge_on_article(env)
    S.set_status(env, sid, "paused")
    for r in at.radio:
        r.set_value(2)
    at.run()
    at.button(key="judge_submit").click().run()
    assert not at.exception
    saved = " ".join(s.value for s in at.success)
    assert "Saved" in saved and "paused" in saved and "next article" not in saved
    assert any("paused" in i.value for i in at.info) and not at.radio


def test_after_close_and_reopen_the_judge_is_no_longer_told_the_study_was_closed(env):
    sid = _demo_study(env)
    _jid, code = S.invite_judge(env, sid, name="ann")
    judge = _run(JUDGE, code=code)
    judge.button(key="judge_start").click().run()
    assert judge.radio and not judge.warning  # she was given an article and has answered nothing yet
    admin = _admin()
    for status in ("closed", "open"):
        admin.selectbox(key="new_status").select(status).run()
        admin.button(key="status_go").click().run()
        assert not admin.exception and S.study_settings(env, sid)["status"] == status
        judge.run()
        warnings = [w.value for w in judge.warning]
        if status == "closed":
            assert len(warnings) == 1 and "The study was closed while you were judging" in warnings[0]
            assert "unsent answer(s)" not in warnings[0] and "the article stays yours" in warnings[0], warnings
        else:  # reopened: the same article again, and no word of a closed study above it
            assert judge.radio and not any("closed" in w for w in warnings), warnings


# ------------------------------------------------------------------ the admin throttle: one count in the database

_OTHER_PROCESS = """
import sys
from streamlit.testing.v1 import AppTest
from dkw_core.study import access
from dkw_core.study.schema import open_study_db

url, password, now, path = sys.argv[1], sys.argv[2], [float(sys.argv[3])], sys.argv[4]
access.gate_for(password, open_study_db(url)).clock = lambda: now[0]
at = AppTest.from_file(path, default_timeout=60).run()
at.text_input(key="admin-password").input("wrong-from-another-process").run()
print(at.error[0].value)  # a new session while the server counts a failure: checked after its wait
now[0] += 1.0
at.run()  # the countdown's rerun
print(at.error[0].value)
"""


def test_a_second_app_process_shares_the_count_of_failed_admin_attempts(env, monkeypatch):
    import os
    import subprocess
    import sys

    pw = "throttle-" + uuid.uuid4().hex
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", pw)
    now = [1000.0]
    access.gate_for(pw, env).clock = lambda: now[0]
    at = _run(ADMIN)
    at.text_input(key="admin-password").input("wrong-1").run()
    assert "wrong password (attempt 1)" in at.error[0].value
    other = subprocess.run([sys.executable, "-c", _OTHER_PROCESS, str(env.url), pw, "1001.5", ADMIN], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "the server has counted 1 wrong attempt(s) lately: a new session's entry is checked in 1 s" \
        in other.stdout, other.stdout + other.stderr  # this process's failure, seen by the other
    assert "wrong password (attempt 2)" in other.stdout, other.stdout + other.stderr  # not a count of its own
    now[0] = 1004.0
    at.text_input(key="admin-password").input("wrong-3").run()
    assert "wrong password (attempt 3)" in at.error[0].value and "accepted in 4 s" in at.error[0].value


def test_the_wait_after_failed_admin_attempts_is_bounded(env, monkeypatch):
    from dkw_core.study.access import MAX_DELAY

    pw = "throttle-" + uuid.uuid4().hex
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", pw)
    now = [2000.0]
    access.gate_for(pw, env).clock = lambda: now[0]
    at = _run(ADMIN)
    waits = []
    for i in range(1, 13):  # twelve wrong attempts, each as soon as it is accepted
        at.text_input(key="admin-password").input(f"wrong-{i}").run()
        waits.append(int(at.error[0].value.split("accepted in ")[1].split(" s")[0]))
        now[0] += waits[-1]
    assert MAX_DELAY == 30 and waits == [1, 2, 4, 8, 16] + [30] * 7
    at.text_input(key="admin-password").input(pw).run()
    assert not at.exception and len(at.tabs) == 6


def test_the_keyword_import_states_its_own_limit(env, monkeypatch):
    monkeypatch.setenv("DKW_MAX_UPLOAD_MB", "12")
    at = _admin()
    (upload,) = [u.proto for u in at.get("file_uploader") if u.proto.label.startswith("Imported keywords")]
    assert upload.max_upload_size_mb == 12 and "12 MB" in upload.help  # never Streamlit's 200


def _jsonl(methods: list[str]) -> bytes:
    import json

    from dkw_core.study.demo import demo_corpus
    docs = [d.id for d in demo_corpus().documents]
    return "\n".join(json.dumps({"doc_id": d, "method": m, "keywords": [f"{m}-word", "other"]})
                     for m in methods for d in docs).encode()


def test_a_reupload_of_imported_keywords_shows_exactly_the_file_s_methods(env):
    """good.jsonl (4 methods), then another file (3), then good.jsonl again: the four again,
    all chosen, and the study is created with them."""
    good, other = _jsonl(["kb-a", "kb-b", "kb-c", "kb-d"]), _jsonl(["kb-a", "kb-b", "llm-x"])
    at = _admin()
    at.selectbox(key="new_corpus").select("demo-tiny").run()
    upload = at.file_uploader(key="new_import")
    chosen = []
    for content in (good, other, good):
        upload.set_value(("good.jsonl" if content is good else "other.jsonl", content, "application/json")).run()
        assert not at.exception and not at.error, [e.value for e in at.error]
        (picker,) = [m for m in at.multiselect if m.label == "Imported methods to compare"]
        chosen.append((list(picker.options), list(picker.value)))
        upload = at.file_uploader(key="new_import")
    assert chosen[1] == (["kb-a", "kb-b", "llm-x"],) * 2
    assert chosen[0] == chosen[2] == (["kb-a", "kb-b", "kb-c", "kb-d"],) * 2
    create(at)
    with Session(env) as session:
        (study,) = session.scalars(select(Study)).all()
        assert sorted(m.name for m in study.methods) == sorted([METHOD_A, METHOD_B, "kb-a", "kb-b", "kb-c", "kb-d"])


def test_an_uploaded_method_name_the_study_cannot_store_is_one_error_box(env):
    at = _admin()
    at.selectbox(key="new_corpus").select("demo-tiny").run()
    content = _jsonl(["MethNul", "fine"]).replace(b'"method": "MethNul"', b'"method": "Meth\\u0000Nul"')
    at.file_uploader(key="new_import").set_value(("nul.jsonl", content, "application/json")).run()
    assert not at.exception
    (error,) = [shown(e.value) for e in at.error]
    assert "method name 'Meth\\x00Nul'" in error and "holds a control character (NUL)" in error, error
    assert error.count("\n") == 0, error
    assert at.button(key="create_go").disabled


# ------------------------------------------------------------------ participants from a platform

def test_a_platform_link_gives_one_identity_resumed_then_shows_the_completion_code(env):
    from dkw_core.study.participants import PlatformSettings, set_platform

    sid = _demo_study(env)
    set_platform(env, sid, PlatformSettings("PROLIFIC_PID", "CODE-42", "https://app.prolific.com/done?cc=CODE-42", 1))
    at = _run(JUDGE, study=str(sid), PROLIFIC_PID="60a1b2c3d4")
    assert not at.exception
    at.button(key="judge_start").click().run()
    for r in at.radio:
        r.set_value(1)
    at.run()
    other_device = _run(JUDGE, study=str(sid), PROLIFIC_PID="60a1b2c3d4")  # same id, fresh session
    assert not other_device.exception and len(other_device.radio) == len(at.radio)
    assert all(r.value == 1 for r in other_device.radio)  # the same article, her answers restored
    other_device.button(key="judge_submit").click().run()
    assert not other_device.exception
    assert "CODE-42" in [c.value for c in other_device.code]
    assert "Your completion code" in _texts(other_device)
    page = other_device.get("link_button")
    assert page and page[0].proto.url == "https://app.prolific.com/done?cc=CODE-42"


#: Characters that show as nothing but travel with a copy of the message.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


@pytest.mark.parametrize("query,says", [
    ({}, "This study link has no participant id"),
    ({"PROLIFIC_PID": "x" * 10_000}, "limited to 100 characters"),
    ({"PROLIFIC_PID": "<img src=x onerror=alert(1)>"}, "letters, digits and - _ . : @ (this one holds markup)"),
    ({"PROLIFIC_PID": "a b"}, "(this one holds a character other than these)"),
    ({"study": "2", "PROLIFIC_PID": "p1"}, "No study with id 2"),
    ({"study": "x"}, "This study link is not valid"),
])
def test_a_bad_platform_link_is_one_sentence_on_the_judge_page(env, query, says):
    """One line, starting with a capital letter and ending with a full stop, that copies as it
    reads: no invisible word joiner after the "@" of the allowed characters."""
    from dkw_core.study.participants import PlatformSettings, set_platform

    sid = _demo_study(env)
    set_platform(env, sid, PlatformSettings("PROLIFIC_PID", "CODE-42"))
    at = _run(JUDGE, **{"study": str(sid), **query})
    assert not at.exception and not at.radio
    (error,) = [e.value for e in at.error]
    assert says in shown(error), error
    assert error[0].isupper() and error.endswith("."), error
    assert not set(error) & set(INVISIBLE), ascii(error)


def test_every_error_the_judge_page_shows_goes_through_one_sentence_maker():
    """The page shows no error but by ``study_ui.judge_error``, which starts each library message
    (lower case, for the command line's ``error:`` lines) with a capital letter; here every
    message the study service raises to the judge page's calls, through it."""
    import ast

    calls = {ast.unparse(n.func) for n in ast.walk(ast.parse(Path(JUDGE).read_text())) if isinstance(n, ast.Call)}
    assert "judge_error" in calls and not calls & {"st.error", "show_error", "widgets.show_error", "st.exception"}
    raised = []
    for module in ("participants", "judges", "store", "tasks", "submission"):
        tree = ast.parse((ROOT / "dkw_core/study" / f"{module}.py").read_text())
        named = {n.targets[0].id: n.value.value for n in tree.body  # REVOKED, NOT_RESERVED, ALREADY_SUBMITTED
                 if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args):
                continue
            first = node.exc.args[0]
            if isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                raised.append(first.values[0].value)
            elif isinstance(first, ast.Constant) and isinstance(first.value, str):
                raised.append(first.value)
            elif isinstance(first, ast.Name) and first.id in named:
                raised.append(named[first.id])
    assert len(raised) > 30 and any(m[0].islower() for m in raised)  # the library's own start in lower case
    for message in raised:
        made = study_ui.sentence(message)
        assert made[0].isupper() and made.endswith((".", "!", "?")), (message, made)
        assert study_ui.sentence(made) == made  # a message already a sentence is left as it is


def test_a_second_device_is_told_the_article_was_submitted_from_the_first_and_stores_nothing(env):
    """One participant link open on two devices (two sessions): A submits, then B submits changed
    answers, or changes an answer. B says the article was already submitted from another device,
    stores nothing and shows her next article only when she clicks Continue."""
    from dkw_core.study.models import Draft, Judgement
    from dkw_core.study.participants import PlatformSettings, set_platform

    def stored():
        with Session(env) as s:
            rows = s.execute(select(Judgement.id, Judgement.submitted_at)).all()
            return (sorted(rows), sorted(s.execute(select(Answer.judgement_id, Answer.keyword_id, Answer.question,
                                                          Answer.value)).all()),
                    s.scalar(select(func.count(Draft.id))))

    sid = _demo_study(env)
    set_platform(env, sid, PlatformSettings("PROLIFIC_PID", "CODE-42"))
    a = _run(JUDGE, study=str(sid), PROLIFIC_PID="p-1")
    a.button(key="judge_start").click().run()
    b = _run(JUDGE, study=str(sid), PROLIFIC_PID="p-1")
    assert len(a.radio) == len(b.radio) > 0 and not b.exception
    for page, value in ((a, 1), (b, 3)):  # both answer every question, B differently
        for r in page.radio:
            r.set_value(value)
        page.run()
    a.button(key="judge_submit").click().run()
    assert any("Saved" in s.value for s in a.success)
    before = stored()
    assert {v for *_ids, v in before[1]} == {1} and before[2] == 0
    b.button(key="judge_submit").click().run()  # B submits her changed answers
    for step in ("submit", "draft"):
        assert not b.exception
        (error,) = [shown(e.value) for e in b.error]
        assert "this article was already submitted from another device" in error and "not stored" in error, error
        assert error[0].isupper() and not b.radio and not b.success  # no next article in its place
        assert stored() == before  # nothing of B's, no next article reserved behind her back
        b.button(key="judge_continue").click().run()
        assert not b.exception and not b.error and b.radio  # her next article, on her click
        if step == "submit":  # the next article on both devices; A submits it, then B changes an answer
            a.run()
            for r in a.radio:
                r.set_value(2)
            a.run()
            a.button(key="judge_submit").click().run()
            before = stored()
            b.radio[0].set_value(0).run()


def test_the_rules_table_shows_every_rule_that_excludes_a_judge(env):
    """The Rules & quality table (an interactive grid) cut a judge's excluded_by
    cell after the first rule. It is now a static table whose cells wrap: every rule, each cell
    as stored (markdown escaped), the figures as text (seconds, percent)."""
    sid = _demo_study(env, judges=2)
    exclusion.set_rules(env, sid, settings.ExclusionRules(max_failed_checks=0, min_seconds_per_article=300,
                                                       min_articles=100))
    simulate(env, sid, judges=2)  # 30 to 240 s per article, a few articles each: caught by two rules
    at = _admin()
    assert not [d for d in at.dataframe if "excluded_by" in d.value.columns]
    (table,) = [t.value for t in at.table if "excluded by" in t.value.columns]
    assert [shown(v) for v in table["excluded by"]] == ["time per article below the floor, too few articles"] * 2
    assert all(shown(v).endswith(" s") for v in table["median seconds"])
    assert all(shown(v).endswith("%") for v in table["same answer share"])
    assert [shown(v) for v in table["simulated"]] == ["yes", "yes"]


def test_admin_rules_tab_shows_each_judge_against_the_rules_and_plans_a_sample_size(env):
    sid = _demo_study(env, judges=2)
    simulate(env, sid, judges=2)
    at = _run(ADMIN)
    at.text_input(key="admin-password").input("s3cret-s3cret").run()
    assert not at.exception
    assert any("Exclusion rules: failed attention checks: more than 0" in t.value for t in at.text)
    assert any("Locked since the first judgement" in c.value for c in at.caption)
    table = next(t.value for t in at.table if "failed checks" in t.value.columns)
    assert len(table) == 2 and {"failed checks", "median seconds", "excluded by"} <= set(table.columns)
    assert at.text_input(key="plan_judges").value == "2"  # the study's fixed judges per article
    assert at.number_input(key="plan_sims").value == PLAN_SIMULATIONS
    at.text_input(key="plan_articles").input("10,20").run()
    at.number_input(key="plan_sims").set_value(10).run()
    at.button(key="plan_go").click().run()
    assert not at.exception
    plan = next(t.value for t in at.table if PLAIN_COLUMNS["power_wilcoxon"] in t.value.columns)
    assert list(plan.columns) == list(PLAIN_COLUMNS.values()) and len(plan) == 2
    assert set(plan[PLAIN_COLUMNS["judges"]]) == {"2"} and all(" % ± " in v for v in plan[PLAIN_COLUMNS["power_sign"]])
    texts = shown(_texts(at))
    assert "significance level 0.05 (two methods, one comparison)" in texts and "Monte Carlo standard error" in texts
    assert "answers used" in texts and "art.means" not in texts
    assert "× 2 judges per article" in texts or "None of these designs" in texts
    at.text_input(key="plan_articles").input("ten").run()
    at.button(key="plan_go").click().run()
    assert any("expected whole numbers separated by commas" in e.value for e in at.error)


def test_the_admin_shows_a_participants_platform_id_beside_her_judge_and_exports_them_with_the_rules(env):
    from dkw_core.study.participants import PlatformSettings, join, participants_csv, platform, set_platform

    sid = _demo_study(env)
    set_platform(env, sid, PlatformSettings("PROLIFIC_PID", "CODE-42", None, 1))
    jid = join(env, sid, "60a1b2c3d4")
    task = S.next_task(env, jid).task
    S.submit(env, judge_id=jid, judgement_id=task.judgement_id,
             answers={(p, q): 1 for p, _w in task.keywords for q in ("topic", "category")})
    at = _admin()
    judges = next(d.value for d in at.dataframe if "submitted" in d.value.columns and "name" in d.value.columns)
    row = judges[judges["judge_id"] == jid].iloc[0]
    assert (row["name"], row["platform_id"]) == (f"participant-{jid}", "60a1b2c3d4")
    assert f"{jid}: participant-{jid} [60a1b2c3d4] (active)" in at.selectbox(key="access_judge").options
    (button,) = [b for b in at.get("download_button") if b.proto.label == "Download participants (CSV)"]
    assert participants_csv(env, sid).startswith("participant_id,judge_id,judge,articles,completed,")
    at.text_input(key="plat_code_failed").input("CODE-42").run()
    at.button(key="plat_go").click().run()
    assert any("must differ from the completion code" in e.value for e in at.error)
    at.text_input(key="plat_code_failed").input("FAILED-7").run()
    at.button(key="plat_go").click().run()
    assert not at.exception and platform(env, sid).completion_code_failed == "FAILED-7"
    (rules,) = [t.value for t in at.table if "excluded by" in t.value.columns]  # Rules & quality: beside her too
    assert [shown(v) for v in rules["judge"]] == [f"participant-{jid}"]
    assert [shown(v) for v in rules["platform id"]] == ["60a1b2c3d4"]


# ------------------------------------------------------------------ bidi: the page's own words keep their order

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE, left unclosed


def _hostile_names(engine, sid: int, jid: int) -> None:
    """Names as a database written before names were checked (or by hand) may hold them: an
    unclosed U+202E after the study's name and corpus, each method's name, a judge's name and a
    participant's platform id."""
    from dkw_core.study.models import Judge, Participant, StudyMethod

    with Session(engine) as s:
        study = s.get(Study, sid)
        study.name, study.corpus = f"demo{RLO}", f"demo-tiny{RLO}"
        study.method_a, study.method_b = study.method_a + RLO, study.method_b + RLO
        for method in s.scalars(select(StudyMethod).where(StudyMethod.study_id == sid)):
            method.name += RLO
        s.get(Judge, jid).name = f"ann{RLO}"
        s.scalars(select(Participant).where(Participant.judge_id == jid)).one().participant_id = f"60a1{RLO}"
        s.commit()


def test_an_override_in_a_stored_name_leaves_the_study_pages_words_in_order(env):
    """A study, method or judge name or a platform id holding an unclosed U+202E reversed the
    rest of its line: "Study … (open): corpus … (test split, seed 2), …", "Methods: A = …
    (label-aware protocol), B = …", the study pickers and the judge picker's "… [id] (active)".
    Each value is isolated: the page's own words stay outside every override (the bidi
    algorithm's explicit levels)."""
    from dkw_core.study.participants import PlatformSettings, join, set_platform
    from tests.support.bidi import base_text

    sid = _demo_study(env, judges=2)
    simulate(env, sid, judges=3, seed=4)
    set_platform(env, sid, PlatformSettings("PROLIFIC_PID", "CODE-42", None, 1))
    jid = join(env, sid, "60a1b2c3d4")
    _hostile_names(env, sid, jid)

    at = _run(RESULTS)
    at.text_input(key="results-password").input("s3cret-s3cret").run()
    at.toggle(key="results_simulated").set_value(True).run()
    assert not at.exception
    assert [base_text(o) for o in at.selectbox(key="results_study").options] == [f"{sid}:  ()"]
    lines = [base_text(t.value) for t in at.text]
    assert any(line.startswith("Study  (open): corpus  (test split, seed 2), 3 keywords per method, 2 judges per article.")
               for line in lines), lines
    assert "Methods: A =  (label-aware protocol), B =  (label-aware protocol)" in lines
    assert "A =  (label-aware protocol), B =  (label-aware protocol)" in lines  # above Table 7
    verdict = [line for line in lines if line.startswith(("topic: ", "category: "))]
    assert len(verdict) == 4 and all(line.endswith(" articles.") for line in verdict), verdict  # with and without rules

    at = _admin()
    assert not at.exception
    (study,) = at.sidebar.selectbox(key="admin_study").options
    assert base_text(study) == f"{sid}:  (, 4 articles, open)"
    (status,) = [base_text(t.value) for t in at.sidebar.text if t.value.startswith("Status")]
    assert status == "Status: open\nA =  (label-aware)\nB =  (label-aware)"
    picker = [base_text(o) for o in at.selectbox(key="access_judge").options]
    assert f"{jid}:  [] (active)" in picker, picker


def test_an_override_in_a_category_leaves_the_judge_page_words_in_order(env):
    """A category "sport\u202e" read "▶ sport … elcitra siht ←" on the judge page's category
    list; each category is isolated, so "← this article" stays in order."""
    from tests.support.bidi import base_text

    c = demo_corpus()
    docs = [type(d)(id=d.id, text=d.text, label=d.label + RLO, split=d.split) for d in c.documents]
    sid = S.create_study(env, documents=docs, categories=[cat + RLO for cat in c.categories], provider=fake_provider,
                         config=S.StudyConfig(name="demo", corpus="demo-tiny", articles_per_category=1,
                                              categories_per_batch=2, judges_per_article=1,
                                              keywords_per_method=3, seed=2))
    _jid, code = S.invite_judge(env, sid, name="ann")
    at = _run(JUDGE, code=code)
    at.button(key="judge_start").click().run()
    assert not at.exception
    (own,) = [base_text(t.value) for t in at.text if t.value.startswith("▶")]
    assert own == "▶   ← this article"
