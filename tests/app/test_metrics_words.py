"""The Metrics page's Words tab (docs/method.md §10): the quality of every method's category words on the
chosen corpus, answer first, from the shipped ``docs/results/quality/quality.json``."""
from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from dkw_core.evaluation.wordlists import quality_path
from dkw_core.types import DEFAULT_METRIC
from tests.app.conftest import page


def _words_tab(dataset: str) -> AppTest:
    at = AppTest.from_file(page("pages/2_Metrics.py"), default_timeout=60)
    at.session_state["m_dataset"] = dataset
    at.run()
    assert not [c for c in at.get("plotly_chart") if "exclusivity against coherence" in c.proto.spec]  # lazy
    at.session_state["m_tab"] = "Words"
    return at.run()


def _signed(x: float) -> str:
    return f"{x:+.3f}".replace("-", "\u2212")


def test_the_words_tab_answers_with_the_shipped_figures_of_the_chosen_corpus():
    every = json.loads(quality_path().read_text(encoding="utf-8"))["corpora"]["r8"]["methods"]
    shipped = [m for m in every if m["words"] in ("latent", "own words")]  # the methods with category lists
    at = _words_tab("r8")
    assert not at.exception
    answer = next(m.value for m in at.markdown if "the most coherent category words" in m.value)
    plain = re.sub(r"\\(.)", r"\1", answer)  # md() escapes every markdown character
    by_id = {("own:" if m["words"] == "own words" else "") + m["metric"]: m for m in shipped}
    best_npmi = max(m["npmi"] for m in shipped if m["npmi"] is not None)
    best_excl = max(m["exclusivity"] for m in shipped)
    default, peer = by_id[DEFAULT_METRIC], by_id["own:fw"]
    assert plain.startswith("**On r8, ")
    assert f"(NPMI {_signed(best_npmi)})" in plain and f"(exclusivity {best_excl:.3f})" in plain
    assert (f"the default, {DEFAULT_METRIC} (latent, K 90), reaches NPMI {_signed(default['npmi'])} "
            f"({100 * default['absent_share']:.1f} % of its words absent from the test split), exclusivity "
            f"{default['exclusivity']:.3f} and micro-F1 {default['micro_f1']:.2f} %") in plain
    assert (f"Fightin' Words (own words): NPMI {_signed(peer['npmi'])}, exclusivity {peer['exclusivity']:.3f}, "
            f"micro-F1 {peer['micro_f1']:.2f} %") in plain
    how = next(h for h in (re.sub(r"\\(.)", r"\1", c.value) for c in at.caption) if "gensim c_npmi" in h)
    assert "K = 90" in how and "window of 10 words" in how and "label-free-top1" in how
    chart = next(json.loads(c.proto.spec) for c in at.get("plotly_chart")
                 if "exclusivity against coherence" in c.proto.spec)
    assert "Category words on r8" in chart["layout"]["title"]["text"]
    table = next(d.value for d in at.dataframe if "NPMI" in d.value.columns)
    assert len(table) == len(shipped) and "Fightin' Words (own words)" in set(table["method"])
    # the document keywords first: the front sentence, the chart of topic against category, every measured method
    front = next(m.value for m in at.markdown if "no other beats on both topic" in m.value)
    assert re.sub(r"\\(.)", r"\1", front).startswith("**On r8, ")
    assert any("about the document (right) or its category (up)" in c.proto.spec for c in at.get("plotly_chart"))
    docs = next(d.value for d in at.dataframe if "topic MRR" in d.value.columns)
    assert {"YAKE! (extractor)", "TextRank (extractor)", "lo-own"} <= set(docs["method"])


def test_a_corpus_without_a_quality_measurement_says_so(tmp_path, monkeypatch):
    shipped = quality_path().parent.parent
    (tmp_path / "r8.json").symlink_to(shipped / "r8.json")  # the page offers r8 ...
    data = json.loads(quality_path().read_text(encoding="utf-8"))
    data["corpora"] = {"20ng": data["corpora"]["20ng"]}  # ... whose words were not measured
    (tmp_path / "quality").mkdir()
    (tmp_path / "quality" / "quality.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("DKW_REFERENCE_DIR", str(tmp_path))
    at = _words_tab("r8")
    assert not at.exception
    assert any("was not measured on r8 (measured: 20ng)" in i.value.replace("\\", "") for i in at.info)
    assert not [m for m in at.markdown if "the most coherent category words" in m.value]


def test_an_unreadable_quality_table_is_one_line_on_the_tab(tmp_path, monkeypatch):
    (tmp_path / "r8.json").symlink_to(quality_path().parent.parent / "r8.json")
    (tmp_path / "quality").mkdir()
    (tmp_path / "quality" / "quality.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("DKW_REFERENCE_DIR", str(tmp_path))
    at = _words_tab("r8")
    assert not at.exception
    assert [e.value for e in at.error if "not a readable quality table" in e.value]
    assert not at.get("plotly_chart") or not [c for c in at.get("plotly_chart") if "Category words" in c.proto.spec]
