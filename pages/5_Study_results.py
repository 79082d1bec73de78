"""Study results (password-protected, so judges cannot learn which method is which):
answer distributions (Fig. 11), inter-rater agreement (Fig. 12), significance tests (Table 7,
the paper's layout, with direction and two-sided p; robustness rows over article means).
Simulated judgements are left out unless switched on, and then a banner says so."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app import backend
from dkw_app.study_ui import require_admin, show_error, study_engine
from dkw_core.errors import DkwError

st.set_page_config(page_title="Study results", layout="wide")
st.title("Study results")
require_admin("results")

engine = study_engine()
if engine is None:
    st.stop()
studies = backend.list_studies(engine)
if not studies:
    st.info("No study yet. Create one on the Study admin page (or `python -m dkw_core study create`), "
            "then judge it or fill it with `study simulate`.")
    st.stop()
by_id = {s["id"]: s for s in studies}
study_id = st.selectbox("Study", list(by_id), index=len(by_id) - 1, key="results_study",
                        format_func=lambda i: f"{i}: {by_id[i]['name']} ({by_id[i]['corpus']})")
with_sim = st.toggle("Include simulated judgements", value=False, key="results_simulated",
                     help="Simulated judges (study simulate) are not human data; they are left out by default.")

try:
    result = backend.analyze_study(engine, study_id, include_simulated=with_sim)
except DkwError as exc:
    show_error(exc)
    st.stop()

if result["includes_simulated"]:
    st.warning(f"These figures include {result['simulated_judgements']} SIMULATED judgement(s) "
               f"(study simulate): not human data — never publish them.", icon=":material/warning:")
elif result["simulated_judgements"]:
    st.caption(f"{result['simulated_judgements']} simulated judgement(s) left out (switch above to include them).")

s, c = result["study"], result["counts"]
methods = (f"A = {s['method_a']} ({s['protocol_a']} protocol), B = {s['method_b']} ({s['protocol_b']} "
           f"protocol)")
st.text(f"Study {s['name']} ({s['status']}): corpus {s['corpus']} ({s['split']} split, seed {s['seed']}), "
        f"{methods}, {s['keywords_per_method']} keywords per method, {s['judges_per_article']} judges per "
        f"article. {c['judgements']} submitted judgements by {c['judges']} judges, {c['answers']} answers "
        f"({c['do_not_know']} 'Do not know').")  # plain text: stored names exactly as stored
if not c["answers"]:
    st.info("No submitted answers yet" + (" from real judges." if result["simulated_judgements"] else "."))
    st.stop()

st.plotly_chart(backend.study_distribution_figure(result), key="fig_distribution")
st.dataframe(pd.DataFrame(result["distribution"]), hide_index=True, key="tbl_distribution")

st.subheader("Inter-rater agreement")
st.caption(result["agreement_note"])
st.plotly_chart(backend.study_agreement_figure(result), key="fig_agreement")
st.dataframe(pd.DataFrame(result["agreement"]), hide_index=True, key="tbl_agreement")

sig = pd.DataFrame(result["significance"])
st.subheader("Significance: A against B (Table 7, the paper's layout)")
st.text(methods)
st.caption(result["pairing"])
st.caption("Wilcoxon: " + result["wilcoxon_note"])
st.caption("Sign test: " + result["sign_note"])
levels = list(dict.fromkeys(sig["level"]))
st.dataframe(sig[sig["level"] == levels[0]].drop(columns="level"), hide_index=True, key="tbl_significance")
st.subheader("Robustness: article means, tested over articles")
st.caption(result["article_pairing"])
st.dataframe(sig[sig["level"] == levels[-1]].drop(columns="level"), hide_index=True, key="tbl_robustness")
