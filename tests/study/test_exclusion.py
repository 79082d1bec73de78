"""Exclusion rules fixed in advance (dkw_core/study/exclusion.py): stored with the study, locked
at the first judgement, applied by the analysis, recomputed here from the stored answers alone."""
from __future__ import annotations

import statistics
from collections import defaultdict

import pytest
from sqlalchemy import text

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.analysis import analyze, format_report
from dkw_core.study.errors import StudyError
from dkw_core.study.exclusion import rules_locked, set_rules, study_rules
from dkw_core.study.settings import ExclusionRules
from dkw_core.study.tasks import display_keyword_ids
from dkw_core.study.verdict import Verdict

from .fakes import CATS, category_provider, make_docs

RULES = ExclusionRules(max_failed_checks=0, min_seconds_per_article=20, max_same_answer_share=0.5, min_articles=2)


def _study(engine, rules=RULES, attention_share=0.5):
    cfg = S.StudyConfig(name="ex", corpus="fake", articles_per_category=2, categories_per_batch=6,
                        judges_per_article=5, keywords_per_method=3, seed=4, attention_share=attention_share,
                        rules=rules)
    return S.create_study(engine, documents=make_docs(CATS, per_split=4), categories=CATS,
                          provider=category_provider, config=cfg)


def _judge(engine, sid, name, answer, seconds, articles):
    """A judge who submits ``articles`` articles, answering ``answer(keyword is intruder, kw_id, q)``."""
    jid = S.invite_judge(engine, sid, name=name)[0]
    with engine.connect() as c:
        intruders = set(c.execute(text("SELECT id FROM study_keyword WHERE intruder")).scalars())
    for _ in range(articles):
        task = S.next_task(engine, jid).task
        ids = display_keyword_ids(engine, task.judgement_id)
        S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, seconds_spent=seconds,
                 answers={(p, q): answer(ids[p] in intruders, ids[p], q) for p, _w in task.keywords
                          for q in ("topic", "category")})
    return jid


def _honest(intruder, kw, q):
    return 1 if intruder else (kw + (q == "topic")) % 3 + 1


@pytest.fixture
def crowd(engine):
    sid = _study(engine)
    judges = {
        "careless": _judge(engine, sid, "careless", lambda i, k, q: 3 if i else _honest(i, k, q), 60, 12),
        "speeder": _judge(engine, sid, "speeder", _honest, 5, 12),
        "straight": _judge(engine, sid, "straight", lambda i, k, q: 1, 60, 12),
        "quitter": _judge(engine, sid, "quitter", _honest, 60, 1),
        "good": _judge(engine, sid, "good", _honest, 60, 12),
    }
    return engine, sid, judges


def _recomputed(engine, rules):
    """Each judge's figures and exclusion, from the stored answers alone (plain SQL)."""
    rows = engine.connect().execute(text(
        "SELECT j.judge_id, j.id, j.seconds_spent, k.intruder, a.value FROM study_answer a "
        "JOIN study_judgement j ON j.id = a.judgement_id JOIN study_keyword k ON k.id = a.keyword_id "
        "WHERE j.submitted_at IS NOT NULL")).all()
    per = defaultdict(lambda: defaultdict(list))
    secs = {}
    for judge, jd, seconds, intruder, value in rows:
        per[judge][jd].append((bool(intruder), value))
        secs[jd] = seconds
    out = {}
    for judge, jds in per.items():
        checks = [any(i for i, _v in a) for a in jds.values()]
        failed = sum(any(i and v != 1 for i, v in a) for a in jds.values())
        median = statistics.median(secs[j] for j in jds)
        same = sum(len({v for _i, v in a}) == 1 for a in jds.values()) / len(jds)
        by = [name for name, hit in (("max_failed_checks", failed > rules.max_failed_checks),
                                     ("min_seconds_per_article", median < rules.min_seconds_per_article),
                                     ("max_same_answer_share", same > rules.max_same_answer_share),
                                     ("min_articles", len(jds) < rules.min_articles)) if hit]
        out[judge] = {"articles": len(jds), "attention_checks": sum(checks), "failed_checks": failed,
                      "median_seconds": median, "same_answer_share": same, "excluded_by": by}
    return out


def test_exclusions_are_recomputed_from_the_stored_answers_alone(crowd):
    engine, sid, judges = crowd
    result = analyze(engine, sid)
    mine = _recomputed(engine, RULES)
    theirs = {r["judge_id"]: r for r in result["exclusions"]["judges"]}
    assert set(theirs) == set(mine)
    for judge, expected in mine.items():
        for key, value in expected.items():
            assert theirs[judge][key] == pytest.approx(value), (judge, key)
    assert {name: theirs[j]["excluded_by"] for name, j in judges.items()} == {
        "careless": ["max_failed_checks"], "speeder": ["min_seconds_per_article"],
        "straight": ["max_same_answer_share"], "quitter": ["min_articles"], "good": []}
    removed = result["exclusions"]["removed"]
    assert {k: v["judgements"] for k, v in removed["by_rule"].items()} == {
        "max_failed_checks": 12, "min_seconds_per_article": 12, "max_same_answer_share": 12, "min_articles": 1}
    assert removed["judges"] == 4 and removed["judgements"] == 37
    # applied: only the good judge's answers are analysed; without the rules, everyone's
    assert result["counts"]["judges"] == 1 and result["counts"]["judgements"] == 12
    assert analyze(engine, sid, apply_rules=False)["counts"]["judgements"] == 49
    assert result["verdict"]["excluded"]["by rule 'failed attention checks'"] == 12
    report = format_report(result)
    assert "time per article below the floor: 1 judge(s), 12 judgement(s) removed" in report
    assert "Verdict without the exclusion rules:" in report


def test_rules_are_stored_and_locked_once_the_first_judgement_arrives(engine):
    sid = _study(engine)
    assert study_rules(engine, sid) == RULES and rules_locked(engine, sid) is None
    looser = ExclusionRules(max_failed_checks=1, min_seconds_per_article=None)
    set_rules(engine, sid, looser)  # before judging: allowed, logged
    assert study_rules(engine, sid) == looser
    assert any(e["action"] == "rules" for e in S.study_events(engine, sid))
    _judge(engine, sid, "first", _honest, 60, 1)
    assert rules_locked(engine, sid) is not None
    with pytest.raises(StudyError, match="exclusion rules of study .* are locked: judging began at") as err:
        set_rules(engine, sid, RULES)
    assert "\n" not in str(err.value)
    assert study_rules(engine, sid) == looser  # nothing changed


@pytest.mark.parametrize("rules,says", [
    (ExclusionRules(max_failed_checks=-1), "whole number >= 0"),
    (ExclusionRules(min_seconds_per_article=-3), "between 0 and 86400"),
    (ExclusionRules(max_same_answer_share=2), "between 0 and 1"),
])
def test_invalid_rules_are_refused_in_one_line(engine, rules, says):
    with pytest.raises(InputError, match=says):
        _study(engine, rules=rules)


def test_a_judge_caught_by_two_rules_counts_under_each_and_once_in_all(engine):
    """The verdict once listed "2; 2; 2; 1" judgements excluded per rule while 5 were
    removed, with nothing saying so. Now the line gives the judgements excluded in all (each
    once) and says a judgement caught by two rules counts under each."""
    sid = _study(engine, attention_share=1.0)  # every article checks: the careless judge's 3 all fail
    _judge(engine, sid, "careless", lambda i, k, q: 3 if i else _honest(i, k, q), 60, 3)
    _judge(engine, sid, "sloppy", lambda i, k, q: 1, 5, 2)  # too fast AND the same answer throughout
    _judge(engine, sid, "good", _honest, 60, 3)
    result = analyze(engine, sid)
    by = {r["judge"]: r["excluded_by"] for r in result["exclusions"]["judges"]}
    assert by["sloppy"] == ["min_seconds_per_article", "max_same_answer_share"] and by["careless"] == ["max_failed_checks"]
    found = result["verdict"]
    assert sum(found["excluded"].values()) == 3 + 2 + 2 and found["excluded_in_all"] == 5
    line = Verdict(found).excluded_line()
    assert line == ("5 judgement(s) excluded in all (3 by rule 'failed attention checks'; 2 by rule 'time per "
                    "article below the floor'; 2 by rule 'the same answer for every keyword'; a judgement "
                    "caught by two rules counts under each)")
    assert f"  {line}" in format_report(result).splitlines()
    single = analyze(engine, sid, apply_rules=False)["verdict"]  # nothing but the (absent) simulated judges
    assert Verdict(single).excluded_line() == "no judgement excluded"
