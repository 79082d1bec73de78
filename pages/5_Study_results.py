"""Study results (password-protected, so judges cannot learn which method is which): the
verdict first (which method the judges rated higher per question, by how much with CIs, the
Holm-adjusted tests, the agreement, the judgements excluded), then answer distributions
(Fig. 11), inter-rater agreement (Fig. 12), significance tests (Table 7,
the paper's layout, with direction and two-sided p, Holm-corrected for more than two methods;
robustness rows over article means) and a chart of the differences with their CIs.
Simulated judgements are left out unless switched on, and then a banner says so."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import study_charts
from dkw_app.study_ui import require_admin, study_engine
from dkw_app.untrusted import isolate
from dkw_app.widgets import or_stop
from dkw_core.study import analysis, service
from dkw_core.study.verdict import Verdict

st.set_page_config(page_title="Study results", layout="wide")
st.title("Study results")
require_admin("results")

engine = study_engine()
if engine is None:
    st.stop()
studies = service.list_studies(engine)
if not studies:
    st.info("No study yet. Create one on the Study admin page (or `python -m dkw_core study create`), "
            "then judge it or fill it with `study simulate`.")
    st.stop()
by_id = {s["id"]: s for s in studies}
study_id = st.selectbox("Study", list(by_id), index=len(by_id) - 1, key="results_study",
                        format_func=lambda i: f"{i}: {isolate(by_id[i]['name'])} ({isolate(by_id[i]['corpus'])})")
with_sim = st.toggle("Include simulated judgements", value=False, key="results_simulated",
                     help="Simulated judges (study simulate) are not human data; they are left out by default.")

result = or_stop(lambda: analysis.analyze(engine, study_id, include_simulated=with_sim))

if result["includes_simulated"]:
    st.warning(f"These figures include {result['simulated_judgements']} SIMULATED judgement(s) "
               f"(study simulate): not human data — never publish them.", icon=":material/warning:")
elif result["simulated_judgements"]:
    st.caption(f"{result['simulated_judgements']} simulated judgement(s) left out (switch above to include them).")

s, c = result["study"], result["counts"]
method_line = ", ".join(f"{m['label']} = {isolate(m['name'])} ({m['protocol']} protocol)" for m in s["methods"])
st.text(f"Study {isolate(s['name'])} ({s['status']}): corpus {isolate(s['corpus'])} ({s['split']} split, seed {s['seed']}), "
        f"{s['keywords_shown']}, {s['judges_per_article']} judges per article. "
        f"{c['judgements']} submitted judgements by {c['judges']} judges, {c['answers']} answers "
        f"({c['do_not_know']} 'Do not know').")  # plain text: stored names as stored, each isolated
st.text("Methods: " + method_line)
found = Verdict(result["verdict"], name=isolate)  # `study analyze`'s lines, each method name isolated
if not result["counts"]["answers"]:
    if result["exclusions"]["removed"]["judgements"]:  # judged, but the rules left nothing: say so, not "none yet"
        st.info(f"No answers left to analyse: {found.excluded_line()}. The Study admin page's Rules & quality "
                "tab shows each judge against the rules.")
    else:
        st.info("No submitted answers yet" + (" from real judges." if result["simulated_judgements"] and not with_sim
                                              else "."))
    st.stop()
st.subheader("Verdict")  # the answer first: which method, by how much, how sure, who was left out
for item in found.questions:
    with st.container(border=True, key=f"verdict_{item['question']}"):
        st.markdown(f"**{item['question_text']}**")
        for line in found.question_lines(item):
            st.text(line)  # plain text: method names are stored (possibly imported) names
st.text(found.excluded_line())
st.caption(found.note)
ex = result["exclusions"]
if ex["rules"] is not None:
    removed = ex["removed"]
    st.text("Exclusion rules, fixed before judging: " + ("; ".join(ex["described"]) or "every rule off")
            + f". {ex['attention_checks']} judgement(s) carried an attention check.")
    st.table(pd.DataFrame([{"rule": r["rule"], "judges": r["judges"], "judgements removed": r["judgements"]}
                           for r in removed["by_rule"].values()]
                          + [{"rule": "in all", "judges": removed["judges"],
                              "judgements removed": removed["judgements"]}]), hide_index=True)
    with st.expander("Verdict without the exclusion rules"):
        for line in Verdict(result["verdict_without_rules"], name=isolate).pair_sentences():
            st.text(line)


st.plotly_chart(study_charts.distribution_figure(result), key="fig_distribution")
st.dataframe(pd.DataFrame(result["distribution"]), hide_index=True, key="tbl_distribution")

st.subheader("Inter-rater agreement")
st.caption(result["agreement_note"])
st.plotly_chart(study_charts.agreement_figure(result), key="fig_agreement")
st.dataframe(pd.DataFrame(result["agreement"]), hide_index=True, key="tbl_agreement")

sig = pd.DataFrame(result["significance"])
pairs = len(result.get("pairs") or [["A", "B"]])
st.subheader("Significance between the methods (Table 7, the paper's layout)")
st.text(method_line)
st.caption(result["pairing"])
st.caption("Left out: " + result["left_out_note"])
st.caption("Wilcoxon: " + result["wilcoxon_note"])
st.caption("Sign test: " + result["sign_note"])
if result.get("correction"):
    st.caption("Multiple comparisons: " + result["correction"])
st.plotly_chart(study_charts.difference_figure(result), key="fig_difference")

#: The columns that fit the page (the others under "All columns"), with short headers.
COLUMNS = {"question": "question", "method_x": "x", "method_y": "y", "pairs": "pairs",
           "answers_paired": "answers in pairs", "answers": "answers", "n_plus": "n+",
           "n_minus": "n−", "direction": "direction", "wilcoxon_z_signed": "z (signed)",
           "wilcoxon_p_two_sided": "Wilcoxon p", "p_holm": "Wilcoxon p (Holm)", "sign_M": "sign M",
           "sign_p_one_sided": "sign p1", "sign_p_two_sided": "sign p2", "sign_p_holm": "sign p2 (Holm)", "note": "note"}
if pairs < 2:
    COLUMNS = {k: v for k, v in COLUMNS.items() if "holm" not in k}


def fmt(value) -> str:
    """Four significant digits (as ``study analyze`` prints), blank for a missing value."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def compact(rows: pd.DataFrame, key: str) -> None:
    """Table 7 rows in the columns that fit the page (a static table whose cells wrap); every
    column, unrounded, in an expander below."""
    shown = rows[[c for c in COLUMNS if c in rows.columns]]
    with st.container(key=key):
        st.table(shown.apply(lambda col: col.map(fmt)).rename(columns=COLUMNS), hide_index=True)
    with st.expander("All columns"):
        st.dataframe(rows.drop(columns="level"), hide_index=True, key=f"{key}_all")


levels = list(dict.fromkeys(sig["level"]))
compact(sig[sig["level"] == levels[0]], "tbl_significance")
st.subheader("Robustness: article means, tested over articles")
st.caption(result["article_pairing"])
compact(sig[sig["level"] == levels[-1]], "tbl_robustness")
