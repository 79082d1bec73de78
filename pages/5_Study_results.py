"""Study results (password-protected, so judges cannot learn which method is which):
answer distributions (Fig. 11), inter-rater agreement (Fig. 12), significance tests (Table 7)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dkw_app.study_ui import require_admin, study_engine
from dkw_core.errors import DkwError
from dkw_core.study import analysis, charts, service

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
labels = {s["id"]: f"{s['id']}: {s['name']} ({s['corpus']})" for s in studies}
study_id = st.selectbox("Study", list(labels), format_func=labels.get, index=len(labels) - 1, key="results_study")

try:
    result = analysis.analyze(engine, study_id)
except DkwError as exc:
    st.error(str(exc))
    st.stop()

s, c = result["study"], result["counts"]
st.caption(f"Corpus {s['corpus']} ({s['split']} split, seed {s['seed']}), A = {s['method_a']}, "
           f"B = {s['method_b']}, {s['keywords_per_method']} keywords per method, "
           f"{s['judges_per_article']} judges per article. {c['judgements']} submitted judgements by "
           f"{c['judges']} judges, {c['answers']} answers ({c['do_not_know']} 'Do not know').")
if not c["answers"]:
    st.info("No submitted answers yet.")
    st.stop()

st.plotly_chart(charts.distribution_figure(result), key="fig_distribution")
st.dataframe(pd.DataFrame(result["distribution"]), hide_index=True, key="tbl_distribution")

st.subheader("Inter-rater agreement")
st.caption(result["agreement_note"])
st.plotly_chart(charts.agreement_figure(result), key="fig_agreement")
st.dataframe(pd.DataFrame(result["agreement"]), hide_index=True, key="tbl_agreement")

st.subheader(f"Significance: A ({s['method_a']}) against B ({s['method_b']})")
st.caption(result["pairing"])
st.caption("Wilcoxon: " + result["wilcoxon_note"])
st.caption("Sign test: " + result["sign_note"])
st.dataframe(pd.DataFrame(result["significance"]), hide_index=True, key="tbl_significance")
