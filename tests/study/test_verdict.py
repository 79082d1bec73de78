"""The verdict (dkw_core/study/verdict.py) recomputed from the stored answers alone: plain SQL
over study_answer, study_judgement and study_keyword_source, scipy for the tests."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sqlalchemy import text

from dkw_core.study import service as S
from dkw_core.study.analysis import analyze, format_report
from dkw_core.study.simulate import simulate
from dkw_core.study.verdict import RESAMPLES, SEED, Verdict, verdict

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


def _three_methods_frame(articles: int) -> pd.DataFrame:
    """Answers of 6 judgements per article, 3 keywords per method: C's always "Relevant", A's and
    B's "Irrelevant" or "Partially" (A's and B's by the same rule, so A and B do not differ)."""
    rows = []
    for art in range(articles):
        for j in range(6):
            jid = art * 6 + j
            for m, label in enumerate("ABC"):
                for rank in (1, 2, 3):
                    for q in ("topic", "category"):
                        value = 3 if label == "C" else 1 + (art + j + rank) % 2
                        rows.append({"judgement_id": jid, "article_id": art, "question": q, "value": value,
                                     "keyword_id": 10 * m + rank, "intruder": False,
                                     **{f"in_{x.lower()}": x == label for x in "ABC"},
                                     **{f"rank_{x.lower()}": rank if x == label else None for x in "ABC"}})
    return pd.DataFrame(rows).astype({f"rank_{x}": "Int64" for x in "abc"})


METHODS3 = [{"label": x, "name": n, "top": 3} for x, n in zip("ABC", ("tf-rf", "yake", "mine"), strict=True)]


def test_a_difference_the_article_means_do_not_confirm_is_said_so_beside_the_verdict():
    """"C rated higher" once stood alone while the article-mean robustness tests were
    not significant after Holm. Three articles give C's every paired answer the higher rating
    (significant over 54 pairs) but only three article means (Wilcoxon p > 0.05 at best)."""
    found = verdict(_three_methods_frame(3), METHODS3)
    topic = found["questions"][0]
    assert topic["rated_higher"] == "C"
    fragile = {(r["method_x"], r["method_y"]): r for r in topic["pairs"]}
    assert fragile[("A", "C")]["significant"] and not fragile[("A", "C")]["article_significant"]
    assert fragile[("A", "C")]["article_p_holm"] > 0.05 and fragile[("A", "C")]["article_pairs"] == 3
    p_ac, p_bc = (f"{fragile[k]['article_p_holm']:.3f}" for k in (("A", "C"), ("B", "C")))
    assert topic["headline"] == ("topic: C (mine) rated higher than every method it differs from; significant "
                                 "after Holm over 3 pairs: C > A, C > B; over article means, not significant after "
                                 f"Holm (A−C p = {p_ac}, B−C p = {p_bc}).")
    lines = Verdict(found).question_lines(topic)
    assert lines[0] == topic["headline"] and len(lines) == 4  # the headline, then each pair's sentence
    assert f"over article means not significant after Holm (Wilcoxon p = {p_ac})" in lines[2]  # A-C
    assert "over article means Wilcoxon p = " in lines[1] and "not significant after Holm (W" not in lines[1]  # A-B


def test_a_difference_the_article_means_confirm_says_so_too():
    found = verdict(_three_methods_frame(12), METHODS3)
    topic = found["questions"][0]
    assert all(r["article_significant"] for r in topic["pairs"] if r["rated_higher"])
    assert topic["headline"].endswith("C > A, C > B; significant over article means too.")
    assert "not significant" not in Verdict(found).question_lines(topic)[2]


def test_with_two_methods_the_article_means_are_not_said_to_be_holm_adjusted():
    frame = _three_methods_frame(3).drop(columns=["in_b", "rank_b"])
    found = verdict(frame[frame["in_a"] | frame["in_c"]], [METHODS3[0], METHODS3[2]])
    (sentence,) = Verdict(found).question_lines(found["questions"][0])
    assert "over article means not significant (Wilcoxon p = " in sentence and "Holm" not in sentence


def test_study_analyze_and_the_results_page_print_the_same_verdict(tmp_path, monkeypatch, capsys):
    """With three methods ``study analyze`` once printed only each question's headline
    while the Study results page gave a sentence per pair. Both now print Verdict.lines(): the
    same lines, in the same order, from the same simulated study of three methods."""
    from streamlit.testing.v1 import AppTest

    from dkw_core.cli import main

    db = f"sqlite:///{tmp_path / 'same.sqlite'}"
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DKW_STUDY_DB", db)
    monkeypatch.setenv("DKW_ADMIN_PASSWORD", "s3cret-s3cret")
    monkeypatch.setenv("DKW_STUDY_FAKE_KEYWORDS", "1")
    assert main(["study", "create", "--db", db, "--dataset", "demo-tiny", "--per-category", "2", "--seed", "4",
                 "--keywords", "3", "--method", "tf-rf", "--method", "latent-5word-knn90-rf",
                 "--method", "tf-idf"]) == 0
    assert main(["study", "simulate", "--db", db, "--study", "1", "--judges", "4", "--mode", "scripted"]) == 0
    capsys.readouterr()
    assert main(["study", "analyze", "--db", db, "--study", "1", "--include-simulated"]) == 0
    report = capsys.readouterr().out.splitlines()
    start = report.index("Verdict:") + 1
    cli = [line.strip() for line in report[start:report.index("", start)] if not line.startswith("  (")]
    assert len(cli) == 2 * (1 + 3) + 1  # per question the headline and 3 pair sentences, then who was left out
    assert sum(" − " in line and "points per keyword" in line for line in cli) == 6
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "pages/5_Study_results.py"), default_timeout=60)
    at.run()
    at.text_input(key="results-password").input("s3cret-s3cret").run()
    at.toggle(key="results_simulated").set_value(True).run()
    assert not at.exception
    page = [t.value for t in at.text]
    first = page.index(cli[0])
    assert page[first:first + len(cli)] == cli


@pytest.mark.parametrize("excluded,in_all,line", [
    ({"simulated (study simulate)": 8, "by rule 'a'": 2, "by rule 'b'": 0}, 10,
     "10 judgement(s) excluded in all (8 simulated (study simulate); 2 by rule 'a')"),
    ({"simulated (study simulate)": 0, "by rule 'a'": 2, "by rule 'b'": 2, "by rule 'c'": 1}, 3,
     "3 judgement(s) excluded in all (2 by rule 'a'; 2 by rule 'b'; 1 by rule 'c'; a judgement caught by two "
     "rules counts under each)"),
    ({"simulated (study simulate)": 0, "by rule 'a'": 0}, 0, "no judgement excluded"),
])
def test_the_excluded_line_gives_the_judgements_left_out_in_all_and_by_reason(excluded, in_all, line):
    found = verdict(_three_methods_frame(3), METHODS3, excluded=excluded, excluded_in_all=in_all)
    assert Verdict(found).excluded_line() == line and Verdict(found).lines()[-1] == line


def test_each_method_name_of_a_verdict_line_goes_through_the_readers_name_function():
    """The Study results page set the stored sentences whole into its lines: a method name with an
    unclosed U+202E reversed the rest of the sentence. The lines take each name through
    ``Verdict.name`` (the page's isolate); with ``str`` they are the stored sentences word for word."""
    from tests.support.bidi import base_text

    methods = [dict(m, name=m["name"] + "\u202e") for m in METHODS3]
    found = verdict(_three_methods_frame(3), methods)
    topic = found["questions"][0]
    assert Verdict(found).question_lines(topic) == [topic["headline"], *(r["sentence"] for r in topic["pairs"])]
    isolated = Verdict(found, name=lambda n: f"\u2068{n}\u2069").question_lines(topic)
    assert base_text(isolated[0]).startswith("topic: C () rated higher than every method it differs from; significant "
                                             "after Holm over 3 pairs: C > A, C > B; over article means")
    assert all(base_text(line).endswith(" articles.") for line in isolated[1:])  # each pair's sentence to its end
    assert base_text(Verdict(found).question_lines(topic)[0]) == "topic: C (mine"  # as stored: the rest overridden
