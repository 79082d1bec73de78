"""Analysis against scipy on a synthetic answer set with a known effect (dkw_core/study/analysis.py)."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from scipy import stats
from sqlalchemy import select
from sqlalchemy.orm import Session

from dkw_core.errors import InputError
from dkw_core.study import service as S
from dkw_core.study.analysis import LEVEL_ARTICLES, LEVEL_PAPER, PAIRING, analyze, format_report
from dkw_core.study.answers import answers_frame
from dkw_core.study.models import Judgement

from .fakes import CATS, case_provider, disjoint_provider, make_docs, overlap_provider


def _design(judge: int, article: int, word: str, question: str) -> int:
    """Known effect: on 'category' B's keywords (beta*) are Relevant, A's (alpha*) vary low;
    on 'topic' the judges agree exactly (value depends on article and word only)."""
    if question == "topic":
        return (article * 7 + int(word[-1]) * 3 + (0 if word.startswith("alpha") else 1)) % 3 + 1
    if word.startswith("beta"):
        return 3 if (judge + article + int(word[-1])) % 6 else 0  # some "Do not know"
    return random.Random(f"{judge}:{article}:{word}").choice([0, 1, 1, 2, 3])


@pytest.fixture
def filled(engine):
    cfg = S.StudyConfig(name="syn", corpus="fake", articles_per_category=4, categories_per_batch=2,
                        judges_per_article=3, keywords_per_method=3, seed=3)
    sid = S.create_study(engine, documents=make_docs(CATS, per_split=5), categories=CATS,
                         provider=disjoint_provider, config=cfg)
    given = {}  # (judgement, word, question) -> value, as the test wrote it
    for j in range(3):
        jid = S.invite_judge(engine, sid, name=f"j{j}")[0]
        while (st := S.next_task(engine, jid)).task is not None:
            words = dict(st.task.keywords)
            ans = {(k, q): _design(j, st.task.article_id, words[k], q) for k in words for q in ("topic", "category")}
            for (k, q), v in ans.items():
                given[(st.task.judgement_id, words[k], q)] = v
            S.submit(engine, judge_id=jid, judgement_id=st.task.judgement_id, answers=ans)
    with Session(engine) as s:
        slots = dict(s.execute(select(Judgement.id, Judgement.slot)).all())
        article_of = dict(s.execute(select(Judgement.id, Judgement.article_id)).all())
    return engine, sid, given, slots, article_of


def _expected_pairs(given, question):
    a, b = [], []
    for jid in sorted({k[0] for k in given}):
        for i in (1, 2, 3):
            va, vb = given[(jid, f"alpha{i}", question)], given[(jid, f"beta{i}", question)]
            if va and vb:
                a.append(va)
                b.append(vb)
    return a, b


def test_wilcoxon_and_sign_test_match_scipy_with_known_effect(filled):
    engine, sid, given, _slots, _art = filled
    result = analyze(engine, sid)
    rows = {r["question"]: r for r in result["significance"] if r["level"] == LEVEL_PAPER}
    for q in ("topic", "category"):
        a, b = _expected_pairs(given, q)
        ref = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx")
        d = np.subtract(a, b)
        n_plus, n_minus = int((d > 0).sum()), int((d < 0).sum())
        row = rows[q]
        assert row["pairs"] == len(a)
        assert row["wilcoxon_T"] == pytest.approx(ref.statistic)
        ranks = stats.rankdata(np.abs(d[d != 0]))
        r_plus, r_minus = ranks[d[d != 0] > 0].sum(), ranks[d[d != 0] < 0].sum()
        assert (row["wilcoxon_R_plus"], row["wilcoxon_R_minus"]) == pytest.approx((r_plus, r_minus))
        assert row["wilcoxon_T"] == pytest.approx(min(r_plus, r_minus))
        assert abs(row["wilcoxon_z_signed"]) == pytest.approx(abs(ref.zstatistic))
        assert np.sign(row["wilcoxon_z_signed"]) == np.sign(r_plus - r_minus)
        assert row["direction"] == ("A rated higher" if r_plus > r_minus else "B rated higher")
        assert row["wilcoxon_p_two_sided"] == pytest.approx(ref.pvalue)
        assert row["sign_M"] == (n_plus - n_minus) / 2
        alt = "greater" if n_plus >= n_minus else "less"
        assert row["sign_p_one_sided"] == pytest.approx(stats.binomtest(n_plus, n_plus + n_minus, 0.5, alternative=alt).pvalue)
        assert row["sign_p_two_sided"] == pytest.approx(stats.binomtest(n_plus, n_plus + n_minus, 0.5).pvalue)
    cat = rows["category"]  # the designed effect: B clearly better on category
    assert cat["wilcoxon_z_signed"] < 0 and cat["wilcoxon_p_two_sided"] < 1e-3 and cat["direction"] == "B rated higher"
    assert cat["sign_M"] < 0 and cat["sign_p_one_sided"] < 1e-3
    assert cat["sign_alternative"] == "B rated higher than A"
    assert "rank i of method x vs rank i of method y" in result["pairing"] == PAIRING


def test_robustness_rows_average_each_article_then_test_over_articles(filled):
    engine, sid, given, _slots, article_of = filled
    rows = {r["question"]: r for r in analyze(engine, sid)["significance"] if r["level"] == LEVEL_ARTICLES}
    for q in ("topic", "category"):
        per_article: dict[int, dict[str, list[int]]] = {}
        for (jid, w, qq), v in given.items():
            if qq == q and v:
                per_article.setdefault(article_of[jid], {"A": [], "B": []})["A" if w.startswith("alpha") else "B"].append(v)
        a = [np.mean(m["A"]) for _art, m in sorted(per_article.items()) if m["A"] and m["B"]]
        b = [np.mean(m["B"]) for _art, m in sorted(per_article.items()) if m["A"] and m["B"]]
        row = rows[q]
        assert row["pairs"] == len(a) <= 24  # one pair per article, not per answer
        d = np.subtract(a, b)
        if (d != 0).any():
            ref = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx")
            assert row["wilcoxon_p_two_sided"] == pytest.approx(ref.pvalue)
        assert row["n_plus"] == int((d > 0).sum()) and row["n_minus"] == int((d < 0).sum())
    assert rows["category"]["direction"] == "B rated higher"


def test_simulated_judgements_are_left_out_unless_included(engine):
    cfg = S.StudyConfig(name="s", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=2, keywords_per_method=2, seed=1)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider,
                         config=cfg)
    real = S.invite_judge(engine, sid, name="ann")[0]
    st = S.next_task(engine, real)
    S.submit(engine, judge_id=real, judgement_id=st.task.judgement_id,
             answers={(p, q): 3 for p, _w in st.task.keywords for q in ("topic", "category")})
    from dkw_core.study.simulate import simulate

    simulate(engine, sid, judges=2, seed=1)
    plain = analyze(engine, sid)
    assert plain["counts"]["judgements"] == 1 and plain["counts"]["judges"] == 1
    assert plain["simulated_judgements"] == 3 and not plain["includes_simulated"]
    assert "3 simulated judgement(s) left out" in format_report(plain)
    both = analyze(engine, sid, include_simulated=True)
    assert both["counts"]["judgements"] == 4 and both["includes_simulated"]
    assert "SIMULATED" in format_report(both)
    assert set(answers_frame(engine, sid)["simulated"]) == {False}
    assert set(answers_frame(engine, sid, include_simulated=True)["simulated"]) == {False, True}


def test_protocols_are_stored_and_reported(engine):
    cfg = S.StudyConfig(name="p", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=1, keywords_per_method=2, seed=1, protocol_b="label-free")
    seen = []

    def provider(spec, ids, top, protocol):
        seen.append((spec, protocol))
        return disjoint_provider(spec, ids, top)

    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=provider, config=cfg)
    assert seen == [("tf-rf", "label-aware"), ("latent-5word-knn90-rf", "label-free")]
    result = analyze(engine, sid)
    assert (result["study"]["protocol_a"], result["study"]["protocol_b"]) == ("label-aware", "label-free")
    assert "tf-rf (label-aware)" in format_report(result) and "(label-free)" in format_report(result)
    with pytest.raises(InputError, match="protocol of method A"):
        S.StudyConfig(protocol_a="gold").validate()


def test_distribution_counts_every_answer_per_method_and_question(filled):
    engine, sid, given, _slots, _art = filled
    result = analyze(engine, sid)
    expected = Counter(("A" if w.startswith("alpha") else "B", q, v) for (_j, w, q), v in given.items())
    got = {(r["method"], r["question"], r["value"]): r["count"] for r in result["distribution"]}
    assert got == {k: expected.get(k, 0) for k in got}
    assert sum(got.values()) == len(given)
    assert result["counts"]["do_not_know"] == sum(v == 0 for v in given.values())


def test_spearman_per_method_and_question_matches_scipy_and_perfect_agreement_is_one(filled):
    engine, sid, given, slots, article_of = filled
    result = analyze(engine, sid)
    rows = {(r["method"], r["question"]): r for r in result["agreement"]}
    # topic answers depend on the keyword only: every judge agrees
    for m in "AB":
        assert rows[(m, "topic")]["spearman_rho"] == pytest.approx(1.0)
        assert rows[(m, "topic")]["krippendorff_alpha_ordinal"] == pytest.approx(1.0)
    # A / category: build judge pairs on the same keyword (lower slot first), DNK left out
    by_kw: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for (jid, w, q), v in given.items():
        if q == "category" and w.startswith("alpha") and v:
            by_kw.setdefault((article_of[jid], w), []).append((slots[jid], v))
    xs, ys = [], []
    for vals in by_kw.values():
        vals.sort()
        for i in range(len(vals)):
            for j in range(i + 1, len(vals)):
                xs.append(vals[i][1])
                ys.append(vals[j][1])
    ref = stats.spearmanr(xs, ys)
    assert rows[("A", "category")]["pairs"] == len(xs)
    assert rows[("A", "category")]["spearman_rho"] == pytest.approx(ref.statistic)
    assert -1 <= rows[("A", "category")]["krippendorff_alpha_ordinal"] < 0.9


def test_shared_keyword_counts_for_both_methods(engine):
    cfg = S.StudyConfig(name="o", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=1, keywords_per_method=3, seed=1)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=overlap_provider, config=cfg)
    jid = S.invite_judge(engine, sid, name="x")[0]
    st = S.next_task(engine, jid)
    words = [w for _k, w in st.task.keywords]
    assert sorted(words) == ["a2", "a3", "b1", "b3", "shared"]  # shown once
    S.submit(engine, judge_id=jid, judgement_id=st.task.judgement_id,
             answers={(k, q): (3 if w == "shared" else 1) for k, w in st.task.keywords for q in ("topic", "category")})
    frame = answers_frame(engine, sid)
    shared = frame[frame["keyword"] == "shared"]
    assert shared["in_a"].all() and shared["in_b"].all()
    assert set(shared["rank_a"]) == {1} and set(shared["rank_b"]) == {2}
    dist = {(r["method"], r["question"], r["answer"]): r["count"] for r in analyze(engine, sid)["distribution"]}
    assert dist[("A", "topic", "Relevant")] == 1 and dist[("B", "topic", "Relevant")] == 1


def test_a_keyword_two_methods_give_in_two_cases_counts_for_both_in_table_7(engine):
    """A: NASA, Café, a3; B: b1, nasa, café (decomposed). Shown once each, every answer to NASA
    and Café counts for both methods at their own ranks: the distribution counts it for A and B,
    Table 7 pairs every rank (A's 1-3 against B's 1-3) and accounts for every answer."""
    cfg = S.StudyConfig(name="c", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=2, keywords_per_method=3, seed=1)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=case_provider, config=cfg)
    value = {"NASA": 3, "Caf\u00e9": 2, "a3": 1, "b1": 1}
    for j in range(2):
        jid = S.invite_judge(engine, sid, name=f"j{j}")[0]
        while (st := S.next_task(engine, jid)).task is not None:
            assert sorted(w for _k, w in st.task.keywords) == sorted(value)  # each word once
            S.submit(engine, judge_id=jid, judgement_id=st.task.judgement_id,
                     answers={(k, q): value[w] for k, w in st.task.keywords for q in ("topic", "category")})
    frame = answers_frame(engine, sid)
    nasa = frame[frame["keyword"] == "NASA"]
    assert len(nasa) == 4 * 2 and nasa["in_a"].all() and nasa["in_b"].all()
    assert set(nasa["rank_a"]) == {1} and set(nasa["rank_b"]) == {2}
    result = analyze(engine, sid)
    dist = {(r["method"], r["question"], r["answer"]): r["count"] for r in result["distribution"]}
    assert dist[("A", "topic", "Relevant")] == 4 and dist[("B", "topic", "Relevant")] == 4  # NASA for both
    assert dist[("B", "topic", "Partially")] == 4 and dist[("B", "topic", "Irrelevant")] == 4  # café, b1
    a, b = [3, 2, 1] * 4, [1, 3, 2] * 4  # per judgement: ranks 1-3 of A (NASA, Café, a3) and B (b1, NASA, Café)
    ref = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx")
    for row in (r for r in result["significance"] if r["level"] == LEVEL_PAPER):
        assert row["pairs"] == 12 and row["answers"] == row["answers_paired"] == 24
        assert row["wilcoxon_T"] == pytest.approx(ref.statistic) and row["wilcoxon_p_two_sided"] == pytest.approx(ref.pvalue)


def test_empty_study_analyses_without_error_and_report_states_protocol(engine):
    cfg = S.StudyConfig(name="e", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=1, keywords_per_method=2, seed=1)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider, config=cfg)
    result = analyze(engine, sid)
    assert result["counts"]["answers"] == 0
    assert all(r["wilcoxon_T"] is None for r in result["significance"])
    assert {r["level"] for r in result["significance"]} == {LEVEL_PAPER, LEVEL_ARTICLES}
    text = format_report(result)
    assert "pairs: same article, same judge" in text and "tf-rf" in text
    with pytest.raises(S.StudyError):
        analyze(engine, sid + 99)


def test_methods_showing_different_counts_pair_every_shared_rank_and_account_for_the_rest(engine):
    """Issue 26 item 4: A shows 2 keywords, B 4. Table 7 pairs ranks 1..2; the answers to B's
    ranks 3..4 are counted as left out (no partner rank), none silently dropped, and the report
    names each method's count instead of one study-wide number."""
    methods = (S.MethodSpec("tf-rf", top=2), S.MethodSpec("latent-5word-knn90-rf", top=4))
    cfg = S.StudyConfig(name="u", corpus="fake", articles_per_category=2, categories_per_batch=2,
                        judges_per_article=2, keywords_per_method=3, seed=1, methods=methods)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider,
                         config=cfg)
    for j in range(2):
        jid = S.invite_judge(engine, sid, name=f"j{j}")[0]
        while (st := S.next_task(engine, jid)).task is not None:
            S.submit(engine, judge_id=jid, judgement_id=st.task.judgement_id,
                     answers={(k, q): 1 + (k + j) % 3 for k, _w in st.task.keywords for q in ("topic", "category")})
    result = analyze(engine, sid)
    judgements = result["counts"]["judgements"]
    assert judgements == 8 and result["counts"]["answers"] == judgements * 6 * 2
    for row in (r for r in result["significance"] if r["level"] == LEVEL_PAPER):
        assert row["ranks_paired"] == 2 and row["pairs"] == judgements * 2
        assert row["answers"] == judgements * 6  # every answer to this question, A's and B's
        assert row["answers_paired"] == judgements * 4 and row["left_out_no_partner_rank"] == judgements * 2
        assert row["answers_paired"] + row["left_out_do_not_know"] + row["left_out_partner_do_not_know"] \
            + row["left_out_no_partner_rank"] == row["answers"]
    text = format_report(result)
    assert "keywords per method: A 2, B 4" in text
    assert f"{judgements * 4} of {judgements * 6} answers in pairs" in text and "without a partner rank" in text
