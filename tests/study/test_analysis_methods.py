"""Analysis of a study with more than two methods (dkw_core/study/analysis.py): every pair is
compared and, per question and level, Holm-corrected — checked against scipy run directly on
pairs the test builds itself from what the judges answered."""
from __future__ import annotations

import hashlib
from itertools import combinations

import numpy as np
import pytest
from scipy import stats

from dkw_core.study import service as S
from dkw_core.study.analysis import analyze, format_report, holm
from dkw_core.study.export import export_frame
from dkw_core.study.models import QUESTIONS
from dkw_core.study.simulate import take_turns

from .fakes import CATS, make_docs

PREFIX = {"A": "alpha", "B": "beta", "C": "gamma"}
BIAS = {"alpha": 0.0, "beta": 0.6, "gamma": 1.0}
N = 3


def _provider(spec, doc_ids, top, protocol="label-aware"):
    prefix = {"tf-rf": "alpha", "latent-5word-knn90-rf": "beta"}[spec]
    return {d: [f"{prefix}{i}" for i in range(1, top + 1)] for d in doc_ids}


def _value(judge: int, article: int, word: str, question: str) -> int:
    """A deterministic answer 0..3: noise from a hash, shifted by the method the word tells."""
    h = int(hashlib.sha256(f"{judge}:{article}:{word}:{question}".encode()).hexdigest(), 16)
    if h % 17 == 0:
        return 0  # "Do not know" now and then
    base = 1 + (h // 17) % 3 + BIAS[word.rstrip("0123456789")] * (question == "category")
    return int(min(3, base))


@pytest.fixture
def three(engine):
    docs = make_docs(CATS[:4], per_split=5)
    imported = {"mine": {d.id: [f"gamma{i}" for i in range(1, N + 1)] for d in docs}}
    cfg = S.StudyConfig(name="three", corpus="fake", articles_per_category=4, categories_per_batch=2,
                        judges_per_article=3, seed=11, keywords_per_method=N,
                        methods=(S.MethodSpec("tf-rf"), S.MethodSpec("latent-5word-knn90-rf"),
                                 *S.imported_methods(imported, source="mine.csv")))
    sid = S.create_study(engine, documents=docs, categories=CATS[:4], provider=_provider, config=cfg)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(4)]
    given: dict[int, dict[tuple[str, str], int]] = {}  # judgement -> (word, question) -> value

    def answer(judge_id, task):
        out = {(p, q): _value(judge_id, task.article_id, w, q) for p, w in task.keywords for q in QUESTIONS}
        given[task.judgement_id] = {(w, q): out[(p, q)] for p, w in task.keywords for q in QUESTIONS}
        return out

    take_turns(engine, judges, answer)
    return engine, sid, given


def _direct(given, question, x, y):
    xs, ys = [], []
    for answers in given.values():
        for i in range(1, N + 1):
            a, b = answers[(f"{PREFIX[x]}{i}", question)], answers[(f"{PREFIX[y]}{i}", question)]
            if a > 0 and b > 0:
                xs.append(a)
                ys.append(b)
    return xs, ys


def _holm_by_hand(p):
    order = np.argsort(p)
    m = len(p)
    adjusted = np.empty(m)
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        adjusted[i] = running
    return adjusted


def test_three_methods_every_pair_with_holm_matches_scipy_directly(three):
    engine, sid, given = three
    result = analyze(engine, sid)
    assert result["pairs"] == [["A", "B"], ["A", "C"], ["B", "C"]]
    assert "Holm" in result["correction"]
    assert [m["label"] for m in result["study"]["methods"]] == ["A", "B", "C"]
    assert result["counts"]["judgements"] == 16 * 3 == len(given)
    rows = [r for r in result["significance"] if r["level"].startswith("answers")]
    for q in QUESTIONS:
        fam = [r for r in rows if r["question"] == q]
        assert [(r["method_x"], r["method_y"]) for r in fam] == list(combinations("ABC", 2))
        raw, sign_raw = [], []
        for r in fam:
            xs, ys = _direct(given, q, r["method_x"], r["method_y"])
            assert r["pairs"] == len(xs)
            w = stats.wilcoxon(xs, ys, zero_method="wilcox", correction=False, method="approx")
            d = np.subtract(xs, ys)
            bt = stats.binomtest(int((d > 0).sum()), int((d != 0).sum()), 0.5)
            assert r["wilcoxon_p_two_sided"] == pytest.approx(w.pvalue, rel=1e-12)
            assert r["sign_p_two_sided"] == pytest.approx(bt.pvalue, rel=1e-12)
            raw.append(w.pvalue)
            sign_raw.append(bt.pvalue)
        assert [r["p_holm"] for r in fam] == pytest.approx(list(_holm_by_hand(np.array(raw))), rel=1e-12)
        assert [r["sign_p_holm"] for r in fam] == pytest.approx(list(_holm_by_hand(np.array(sign_raw))), rel=1e-12)
    # the built-in bias shows: C (gamma) is rated higher than A on the category question
    ac = next(r for r in rows if r["question"] == "category" and (r["method_x"], r["method_y"]) == ("A", "C"))
    assert ac["direction"] == "C rated higher" and ac["p_holm"] < 0.05
    dist = {(r["method"], r["question"]) for r in result["distribution"]}
    assert dist == {(m, q) for m in "ABC" for q in QUESTIONS}
    assert {r["method"] for r in result["agreement"]} == {"A", "B", "C"}
    diff = next(r for r in result["differences"] if r["question"] == "category" and r["method_y"] == "C"
                and r["method_x"] == "A")
    assert diff["mean_difference"] < 0 and diff["ci_low"] <= diff["mean_difference"] <= diff["ci_high"] < 0
    report = format_report(result)
    assert "C = mine (unknown, imported)" in report and "p_holm=" in report and "Holm" in report


def test_export_has_provenance_columns_for_every_method(three):
    engine, sid, given = three
    frame = export_frame(engine, sid)
    for label in "abc":
        assert {f"in_{label}", f"rank_{label}", f"method_{label}", f"protocol_{label}"} <= set(frame.columns)
    assert set(frame["method_c"]) == {"mine"} and set(frame["protocol_c"]) == {"unknown"}
    gamma = frame[frame["keyword"].str.startswith("gamma")]
    assert gamma["in_c"].all() and not gamma["in_a"].any() and not gamma["in_b"].any()
    assert (gamma["keyword"].str[-1].astype(int) == gamma["rank_c"]).all()
    assert len(frame) == sum(len(a) for a in given.values())


def test_two_methods_keep_the_papers_output_uncorrected(engine):
    from .fakes import disjoint_provider

    cfg = S.StudyConfig(name="two", corpus="fake", articles_per_category=1, categories_per_batch=2,
                        judges_per_article=2, seed=1, keywords_per_method=2)
    sid = S.create_study(engine, documents=make_docs(CATS[:2]), categories=CATS[:2], provider=disjoint_provider,
                         config=cfg)
    judges = [S.invite_judge(engine, sid, name=f"j{i}")[0] for i in range(2)]
    take_turns(engine, judges, lambda j, t: {(p, q): 3 if w.startswith("alpha") else 1 for p, w in t.keywords
                                             for q in QUESTIONS})
    result = analyze(engine, sid)
    assert result["pairs"] == [["A", "B"]] and result["correction"].startswith("none")
    for r in result["significance"]:
        assert r["p_holm"] == r["wilcoxon_p_two_sided"] and r["sign_p_holm"] == r["sign_p_two_sided"]
    assert "p_holm" not in format_report(result)


def test_holm_matches_the_textbook_example_and_skips_missing_p_values():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, None, 0.01]) == pytest.approx([0.5, None, 0.02])
