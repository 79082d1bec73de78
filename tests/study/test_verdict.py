"""The verdict (dkw_core/study/verdict.py) recomputed from the stored answers alone: plain SQL
over study_answer, study_judgement and study_keyword_source, scipy for the tests."""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from scipy import stats
from sqlalchemy import text

from dkw_core.study import service as S
from dkw_core.study.analysis import analyze, format_report
from dkw_core.study.simulate import simulate
from dkw_core.study.verdict import RESAMPLES, SEED

from .fakes import CATS, disjoint_provider, make_docs


@pytest.fixture
def judged(engine):
    cfg = S.StudyConfig(name="v", corpus="fake", articles_per_category=3, categories_per_batch=3,
                        judges_per_article=3, keywords_per_method=3, seed=5)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=4), categories=CATS,
                         provider=disjoint_provider, config=cfg)
    simulate(engine, sid, judges=3, mode="scripted", seed=1)  # A better on topic, B on category
    return engine, sid


def _stored_pairs(engine, question):
    """(article, rating of A's rank i, rating of B's rank i) per judgement, from the tables."""
    rows = engine.connect().execute(text(
        "SELECT j.id, j.article_id, s.method, s.rank, a.value FROM study_answer a "
        "JOIN study_judgement j ON j.id = a.judgement_id JOIN study_keyword_source s ON s.keyword_id = a.keyword_id "
        "WHERE a.question = :q AND j.submitted_at IS NOT NULL"), {"q": question}).all()
    by = defaultdict(dict)
    art = {}
    for jid, aid, method, rank, value in rows:
        by[jid][(method, rank)] = value
        art[jid] = aid
    out = []
    for jid in sorted(by):
        for i in (1, 2, 3):
            a, b = by[jid].get(("A", i), 0), by[jid].get(("B", i), 0)
            if a and b:
                out.append((art[jid], a, b))
    return out


def test_the_verdict_is_recomputed_from_the_stored_answers_alone(judged):
    engine, sid = judged
    result = analyze(engine, sid, include_simulated=True)
    for item in result["verdict"]["questions"]:
        (row,) = item["pairs"]
        pairs = _stored_pairs(engine, item["question"])
        arts = np.array([p[0] for p in pairs])
        a = np.array([p[1] for p in pairs], dtype=float)
        b = np.array([p[2] for p in pairs], dtype=float)
        assert row["pairs"] == len(pairs)
        assert row["mean_difference"] == pytest.approx((a - b).mean())
        assert row["relevant_x"] == pytest.approx((a == 3).mean())
        assert row["relevant_y"] == pytest.approx((b == 3).mean())
        ref = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx")
        assert row["p_holm"] == pytest.approx(ref.pvalue)  # two methods: one pair, Holm changes nothing
        n_plus, n_minus = int((a > b).sum()), int((a < b).sum())
        assert row["sign_p_holm"] == pytest.approx(stats.binomtest(n_plus, n_plus + n_minus, 0.5).pvalue)
        # the CI: articles resampled with replacement (cluster bootstrap), percentile interval
        ids = sorted(set(arts))
        sums = np.array([(a - b)[arts == i].sum() for i in ids])
        counts = np.array([(arts == i).sum() for i in ids], dtype=float)
        idx = np.random.default_rng(SEED).integers(0, len(ids), size=(RESAMPLES, len(ids)))
        low, high = np.percentile(sums[idx].sum(axis=1) / counts[idx].sum(axis=1), [2.5, 97.5])
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
        assert row["ci_low"] < row["mean_difference"] < row["ci_high"]


def test_the_verdict_names_the_method_the_judges_rated_higher_and_comes_first(judged):
    engine, sid = judged
    result = analyze(engine, sid, include_simulated=True)
    found = {q["question"]: q for q in result["verdict"]["questions"]}
    assert found["topic"]["rated_higher"] == "A" and found["category"]["rated_higher"] == "B"
    assert found["topic"]["pairs"][0]["mean_difference"] > 0 > found["category"]["pairs"][0]["mean_difference"]
    assert found["topic"]["headline"].startswith("topic: A (tf-rf) rated higher than B")
    assert list(result)[0] == "verdict"
    report = format_report(result)
    assert report.index("Verdict:") < report.index("Answer distribution")
    assert "category: B (latent-5word-knn90-rf) rated higher than A (tf-rf)" in report


def test_without_a_difference_the_verdict_says_so_and_counts_the_left_out_simulated_judgements(engine):
    cfg = S.StudyConfig(name="v", corpus="fake", articles_per_category=3, categories_per_batch=3,
                        judges_per_article=2, keywords_per_method=3, seed=5)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=4), categories=CATS,
                         provider=disjoint_provider, config=cfg)
    simulate(engine, sid, judges=2, answer_fn=lambda j, kw, q, rng: 2)  # every keyword "Partially"
    kept = analyze(engine, sid, include_simulated=True)["verdict"]
    for item in kept["questions"]:
        assert item["rated_higher"] is None
        assert item["headline"].startswith(f"{item['question']}: no significant difference between A")
    left = analyze(engine, sid)["verdict"]
    excluded = left["excluded"]
    assert {why: n for why, n in excluded.items() if n} == {"simulated (study simulate)": 36}
    assert all(why.startswith("by rule ") for why, n in excluded.items() if not n)  # each rule says it removed none
    assert "36 simulated" in format_report(analyze(engine, sid))
