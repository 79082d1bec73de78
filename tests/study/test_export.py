"""CSV / JSON export with method provenance (dkw_core/study/export.py)."""
from __future__ import annotations

import csv
import io
import json

import pytest

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.export import export

from .fakes import CATS, make_docs, overlap_provider


@pytest.fixture
def done(engine):
    cfg = S.StudyConfig(name="ex", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=1, keywords_per_method=3, seed=1)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=overlap_provider, config=cfg)
    jid, code = S.invite_judge(engine, sid, name="ann")
    while (st := S.next_task(engine, jid)).task is not None:
        S.submit(engine, judge_id=jid, judgement_id=st.task.judgement_id,
                 answers={(k, q): 1 for k, _w in st.task.keywords for q in ("topic", "category")})
    return engine, sid, code


def test_csv_has_one_row_per_answer_with_provenance_and_no_codes(done):
    engine, sid, code = done
    text = export(engine, sid, "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 2 * 5 * 2  # 2 articles, 5 keywords, 2 questions
    shared = [r for r in rows if r["keyword"] == "shared"]
    assert {(r["in_a"], r["rank_a"], r["in_b"], r["rank_b"]) for r in shared} == {("True", "1", "True", "2")}
    assert {r["method_a"] for r in rows} == {"tf-rf"} and {r["method_b"] for r in rows} == {"latent-5word-knn90-rf"}
    assert code not in text


def test_json_round_trips_and_bad_format_is_refused(done):
    engine, sid, code = done
    data = json.loads(export(engine, sid, "json"))
    assert data["study"]["method_a"] == "tf-rf" and len(data["answers"]) == 20
    assert {a["answer"] for a in data["answers"]} == {"Irrelevant"}
    assert code not in json.dumps(data)
    with pytest.raises(InputError):
        export(engine, sid, "xml")


def test_the_participants_export_flags_each_participant_as_the_tidy_export_flags_her_answers(engine):
    """One definition of the rules: the participants file an organiser approves or rejects from
    says what the tidy export (and the analysis) says of the same judge, and its ids are the
    --participant-ids export's, so no file needs joining by hand."""
    from dkw_core.study.export import export_frame
    from dkw_core.study.participants import PlatformSettings, join, participants_frame, set_platform
    from dkw_core.study.settings import RULE_NAMES, ExclusionRules
    from dkw_core.study.simulate import all_answers
    from dkw_core.study.tidy import tidy_frame

    from .fakes import category_provider

    cfg = S.StudyConfig(name="crowd", corpus="fake", articles_per_category=2, categories_per_batch=6,
                        judges_per_article=3, keywords_per_method=2, seed=2, attention_share=1.0,
                        rules=ExclusionRules(max_failed_checks=0, min_articles=2))
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=3), categories=CATS,
                         provider=category_provider, config=cfg)
    set_platform(engine, sid, PlatformSettings("PROLIFIC_PID", "C1A2B3", None, 2))
    plan = {"p-careless": (2, 2), "p-careful": (1, 2), "p-short": (1, 1)}  # answer value, articles
    for pid, (value, articles) in plan.items():
        jid = join(engine, sid, pid)
        for _ in range(articles):
            task = S.next_task(engine, jid).task
            S.submit(engine, judge_id=jid, judgement_id=task.judgement_id, answers=all_answers(value)(jid, task))
    people = participants_frame(engine, sid).set_index("judge_id")
    tidy = tidy_frame(engine, sid).groupby("judge_id").first()
    columns = ["excluded", *(f"excluded_{rule}" for rule in RULE_NAMES)]
    assert people.loc[tidy.index, columns].astype(bool).equals(tidy[columns].astype(bool))
    assert dict(zip(people["participant_id"], people["excluded"], strict=True)) == {
        "p-careless": True, "p-careful": False, "p-short": True}
    ids = export_frame(engine, sid, participant_ids=True).groupby("judge_id")["participant_id"].first()
    assert people.loc[ids.index, "participant_id"].tolist() == ids.tolist()
