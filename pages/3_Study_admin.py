"""Study admin (password-protected): create a study, invite judges, monitor, export, and run
its life cycle (open / paused / closed, revoke and re-issue judge codes, the change log)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from dkw_app import corpora_models, jobs, keywords_door, study_setup, widgets
from dkw_app.study_ui import base_url, flash, require_admin, show_flash, study_engine
from dkw_app.untrusted import isolate, md
from dkw_app.widgets import progress_callback, show_error
from dkw_core.config import max_upload_mb
from dkw_core.errors import DkwError
from dkw_core.study import demo, exclusion, models, participants, planner, providers, service, settings, simulate
from dkw_core.study.export import export
from dkw_core.study.methods import method_kind
from dkw_core.study.tidy import tidy_export
from dkw_core.types import DEFAULT_PROTOCOL

st.set_page_config(page_title="Study admin", layout="wide")
st.title("Study admin")
require_admin("admin")

engine = study_engine()
if engine is None:
    st.stop()

CREATE_JOB = "create-study"
DEFAULTS = service.StudyConfig.defaults()


def act(call, done) -> None:
    """An organiser's action: ``call()``'s refusal shown as an error, else ``done(result)``
    confirmed at the top of the page's next run (:func:`flash`) and the page run again."""
    try:
        result = call()
    except DkwError as exc:
        show_error(exc)
    else:
        flash(done(result))
        st.rerun()


def rules_inputs(prefix: str, current, *, disabled: bool):
    """The four exclusion rules as inputs (empty = rule off); returns ``ExclusionRules``."""
    names = settings.RULE_NAMES
    c1, c2, c3, c4 = st.columns(4)
    fails = c1.number_input(f"{names['max_failed_checks'].capitalize()}: more than … excludes", 0, 1000,
                            current.max_failed_checks, key=f"{prefix}_rule_fails", disabled=disabled,
                            placeholder="off", help="A judge with more failed checks is excluded (empty: off).")
    floor = c2.number_input("Median seconds per article below … excludes", 0.0, 86_400.0,
                            None if current.min_seconds_per_article is None else float(current.min_seconds_per_article),
                            key=f"{prefix}_rule_seconds", disabled=disabled, placeholder="off",
                            help="A judge whose median time per article is below the floor is excluded (empty: off).")
    same = c3.number_input("Same answer everywhere in more than … of her articles", 0.0, 1.0,
                           None if current.max_same_answer_share is None else float(current.max_same_answer_share),
                           step=0.1, key=f"{prefix}_rule_same", disabled=disabled, placeholder="off",
                           help="Share of her articles answered with one value throughout (empty: off).")
    least = c4.number_input("Fewer articles than … excludes", 0, 100_000, current.min_articles,
                            key=f"{prefix}_rule_articles", disabled=disabled, placeholder="off",
                            help="A judge who submitted fewer articles is excluded (empty: off).")
    return settings.ExclusionRules(max_failed_checks=None if fails is None else int(fails),
                                   min_seconds_per_article=floor, max_same_answer_share=same,
                                   min_articles=None if least is None else int(least))


def create_tab() -> None:
    """The creation form: corpus (known, uploaded or a path) and its slice, two or more methods
    (built-in or imported from a file), the paper's drawing settings; creation runs in the
    background (dkw_app/jobs.py) and this tab shows its progress."""
    job = jobs.get(CREATE_JOB)
    if job is not None:
        creation_status()
        if job.running:
            return
    st.caption("The paper's study (§4.6) is the default: 20ng, A = tf-rf over the article's own words, "
               "B = latent-5word-knn90-rf (K = 90, rf), both label-aware, 5 keywords per method, 5 articles "
               "per category from the test split, 5 categories per batch, 3 judges per article.")
    if demo.fake_enabled():
        st.warning(f"{demo.FAKE_ENV} is set: corpus {demo.DEMO_CORPUS!r} uses fake keywords "
                   f"(tests and demos only).", icon=":material/science:")
    name = st.text_input("Study name", key="new_name", placeholder="<corpus> keyword study")
    st.markdown("**Corpus**")
    c1, c2 = st.columns([2, 1])
    where = c1.radio("Where the corpus is", ["A corpus dkw knows", "A folder or CSV file on the server"], horizontal=True,
                     key="new_where", label_visibility="collapsed")
    if where == "A corpus dkw knows":
        choices = providers.corpus_choices()
        if not choices:
            st.error("No corpus is available: put an archive into the archives folder, upload a corpus on "
                     "Home, or give a folder or CSV path.")
            return
        corpus = c1.selectbox("Corpus", choices, key="new_corpus",
                              index=choices.index(DEFAULTS["corpus"]) if DEFAULTS["corpus"] in choices else 0,
                              help="Built-in corpora whose archive is present or can be downloaded, then corpora "
                                   "uploaded on Home.")
    else:
        corpus = c1.text_input("Folder (<split>/<category>/<file>) or .csv (text,label[,split]) on the server",
                               key="new_path", placeholder="/data/my-corpus.csv").strip()
    slice_default = int(corpora_models.sample_per_category() or 0)
    sample = c2.number_input("Documents per category and split (0 = all)", 0, 100_000, slice_default,
                             key="new_sample",
                             help="Only this slice is loaded and prepared (default DKW_SAMPLE_PER_CATEGORY); "
                                  "the articles are drawn from it.")
    st.markdown("**Methods** (two or more; the judges never see which is which)")
    specs = st.multiselect(
        "Built-in methods", options=[r["spec"] for r in service.describe_methods() if r["kind"] != "imported"],
        default=[DEFAULTS["method_a"], DEFAULTS["method_b"]], accept_new_options=True, key="new_methods",
        help="\n".join(f"- `{r['spec']}`: {r['help']}" for r in service.describe_methods())
        + "\n\nType any other spec, e.g. latent-5word-knn30-tds, latent-5word-knn90-rf:csls-k10, tf-idf.")
    methods: list = []
    problems = []
    protocols = list(models.PROTOCOLS)
    for spec in specs:
        try:
            service.check_method_spec(spec)
        except DkwError as exc:
            problems.append(str(exc))
            continue
        kind = method_kind(spec)
        cols = st.columns([2, 3])
        cols[0].text(f"{spec} ({kind})")
        if kind in ("dkw", "baseline"):
            protocol = cols[1].selectbox(f"Protocol of {md(spec)}", protocols, key=f"new_protocol_{spec}",
                                         index=protocols.index(DEFAULT_PROTOCOL),
                                         help="\n".join(f"- {p}: {keywords_door.PROTOCOL_HELP[p]}" for p in protocols))
        else:
            protocol = "label-free"
            cols[1].caption("label-free: reads the article's text only")
        methods.append(service.MethodSpec(name=spec, protocol=protocol))  # shows "Keywords per method"
    limit = max_upload_mb()
    upload = st.file_uploader("Imported keywords (optional): CSV doc_id,method,keywords (separated by ; or |) "
                              "or JSONL {\"doc_id\", \"method\", \"keywords\": [...]}", type=["csv", "jsonl"],
                              key="new_import", max_upload_size=widgets.upload_limit(limit),
                              help=f"at most {limit:g} MB (DKW_MAX_UPLOAD_MB)")
    if upload is not None and upload.size > limit * 1e6:
        problems.append(f"{upload.name}: {upload.size / 1e6:.1f} MB is above the upload limit of {limit:g} MB "
                        "(DKW_MAX_UPLOAD_MB).")
    elif upload is not None:
        try:
            parsed = service.read_imported(upload.getvalue(), filename=upload.name)
        except DkwError as exc:
            problems.append(str(exc))
        else:
            # keyed by the upload: every new upload (the same file again too) starts with exactly
            # its own methods, all chosen, never the selection made for an earlier file
            chosen = st.multiselect("Imported methods to compare", list(parsed), default=list(parsed),
                                    key=f"new_import_methods_{upload.file_id}")
            st.caption(" · ".join(f"{md(m)}: {len(parsed[m])} documents" for m in parsed))  # imported names
            try:  # names and keywords the study database could not store: one line, before any work
                methods += service.imported_methods({m: parsed[m] for m in chosen}, source=upload.name)
            except DkwError as exc:
                problems.append(str(exc))
    for problem in problems:
        st.error(md(problem), icon=":material/error:")  # may quote a file name or a row of it
    st.markdown("**Articles and judges**")
    c3, c4, c5, c6 = st.columns(4)
    top = c3.number_input("Keywords per method", 1, 50, int(DEFAULTS["keywords_per_method"]), key="new_top")
    per_cat = c4.number_input("Articles per category", 1, 100, int(DEFAULTS["articles_per_category"]),
                              key="new_per_cat")
    per_batch = c5.number_input("Categories per batch", 1, 100, int(DEFAULTS["categories_per_batch"]),
                                key="new_per_batch")
    judges = c6.number_input("Judges per article", 1, 20, int(DEFAULTS["judges_per_article"]), key="new_judges")
    c7, c8 = st.columns(2)
    seed = c7.number_input("Seed (0 = draw one and record it)", 0, 2**31 - 1, int(DEFAULTS["seed"] or 0),
                           key="new_seed")
    splits = ["test", "train", "all"]
    split = c8.selectbox("Draw articles from split", splits, index=splits.index(DEFAULTS["split"]), key="new_split")
    st.markdown("**Attention checks and exclusion rules** (fixed now; they cannot change once the first "
                "judgement arrives)")
    attention = st.number_input("Share of articles with an attention check (a planted intruder keyword from a "
                                "distant category, expected 'Irrelevant')", 0.0, 1.0,
                                float(DEFAULTS["attention_share"]), step=0.05, key="new_attention")
    rules = rules_inputs("new", DEFAULTS["rules"], disabled=False)
    labels = ", ".join(f"{chr(65 + i)} = {md(m.name)}" for i, m in enumerate(methods))  # each name its own unit
    st.caption(f"{len(methods)} method(s): {labels}" if methods else "No method chosen yet.")
    if st.button("Create study", type="primary", key="create_go", disabled=bool(problems) or len(methods) < 2 or not corpus):
        name = name.strip() or f"{Path(corpus).name} keyword study"
        config = service.StudyConfig(name=name, corpus=corpus, keywords_per_method=int(top),
                                     articles_per_category=int(per_cat), categories_per_batch=int(per_batch),
                                     judges_per_article=int(judges), seed=int(seed) or None, split=split,
                                     methods=tuple(methods), sample=int(sample) or None,
                                     attention_share=float(attention), rules=rules)
        try:
            config.validate()
        except DkwError as exc:
            show_error(exc)
            return
        engine_ = engine
        slice_ = int(sample) or None
        title = f"Study {isolate(repr(name))} on {isolate(corpus)}"  # shown inside sentences: each value isolated
        jobs.start(CREATE_JOB, title + (f" (slice of {slice_} per category)" if slice_ else ""),
                   lambda progress: study_setup.create_study(engine_, config, progress=progress, cancel=jobs.stopping))
        st.rerun()
    if len(methods) < 2:
        st.caption("Choose at least two methods to create a study.")


@st.fragment(run_every=1.0)
def creation_status() -> None:
    """Progress of the background creation (updated every second), then its outcome."""
    job = jobs.get(CREATE_JOB)
    if job is None:
        return
    if job.running:
        st.info(f"{md(job.title)}: being prepared in the background ({job.seconds():.0f} s). You can leave this "
                "page; the study appears here and under Judges when it is ready.", icon=":material/hourglass_top:")
        st.progress(job.fraction, text=md(job.message or "working…"))
        return
    if job.state == "done":
        flash(f"Study {job.result} is ready ({job.title}, {job.seconds():.0f} s): invite its judges under Judges.")
        st.session_state["admin_study"] = job.result
    else:
        flash(f"{job.title} was not created: {isolate(job.error)}", kind="error")
    jobs.forget(CREATE_JOB)
    st.rerun(scope="app")


studies = service.list_studies(engine)
with st.container():  # always there, so that the tabs below keep their place (and the chosen tab)
    show_flash()
tab_create, tab_judges, tab_monitor, tab_quality, tab_export, tab_life = st.tabs(
    ["Create", "Judges", "Monitor", "Rules & quality", "Export", "Life cycle"], key="admin_tab", on_change="rerun")

with tab_create:
    create_tab()

if not studies:
    for tab in (tab_judges, tab_monitor, tab_quality, tab_export, tab_life):
        with tab:
            st.info("No study yet: create one first.")
    st.stop()

by_id = {s["id"]: s for s in studies}
ids = list(by_id)
if st.session_state.get("admin_study") not in ids:
    st.session_state["admin_study"] = ids[-1]
study_id = st.sidebar.selectbox(  # option labels are plain text, never markdown
    "Study", ids, key="admin_study",
    format_func=lambda i: f"{i}: {isolate(by_id[i]['name'])} ({isolate(by_id[i]['corpus'])}, {by_id[i]['articles']} articles, "
                          f"{by_id[i]['status']})")
current = by_id[study_id]
st.sidebar.text(f"Status: {current['status']}\n" + "\n".join(  # plain text: stored names as stored
    f"{m['label']} = {isolate(m['name'])} ({m['protocol']})" for m in current["methods"]))


def invite() -> None:
    """Invite button's callback: invites, confirms, and empties the name field (so that the
    next invite does not repeat the last name)."""
    name = st.session_state.get("invite_name", "")
    try:
        jid, code = service.invite_judge(engine, study_id, name=name)
    except DkwError as exc:
        flash(str(exc), kind="error")
        return
    st.session_state.setdefault("invited", []).append(
        {"judge_id": jid, "name": name.strip(), "code": code, "link": f"{base_url()}/Judge?code={code}"})
    st.session_state["invite_name"] = ""
    flash(f"Judge {isolate(repr(name.strip()))} invited (judge {jid}): send her the link below.")


with tab_judges:
    if current["status"] == "closed":
        st.info("This study is closed: no judge can be invited or given a new code. Re-open it under "
                "'Life cycle' to continue.")
    st.text_input("Judge name or pseudonym", key="invite_name")
    st.button("Invite judge", key="invite_go", disabled=current["status"] == "closed", on_click=invite)
    judges = service.monitoring(engine, study_id)["judges"]
    if judges:
        st.subheader("Access")
        labels = {j["judge_id"]: f"{j['judge_id']}: {isolate(j['name'])}"
                  + (f" [{isolate(j['platform_id'])}]" if j["platform_id"] else "")
                  + f" ({j['access']})" for j in judges}  # plain text; a participant's platform id for the organiser
        pick = st.selectbox("Judge", list(labels), format_func=labels.get, key="access_judge")
        c1, c2 = st.columns(2)
        if c1.button("Revoke access (answers are kept)", key="revoke_go"):
            act(lambda: service.revoke_judge(engine, study_id, pick),
                lambda released: f"Judge {pick}'s code is revoked; {released} open reservation(s) released (the "
                                 "judge is told that her article was given back).")
        if c2.button("Issue a new code", key="reissue_go", disabled=current["status"] == "closed"):
            def reissued(code: str) -> str:
                st.session_state.setdefault("invited", []).append(
                    {"judge_id": pick, "name": next(j["name"] for j in judges if j["judge_id"] == pick),
                     "code": code, "link": f"{base_url()}/Judge?code={code}"})
                return f"Judge {pick} has a new code: send her the link below (the old one no longer works)."

            act(lambda: service.reissue_code(engine, study_id, pick), reissued)
    st.subheader("Participants from a platform (Prolific, MTurk, a university pool)")
    plat = participants.platform(engine, study_id)
    p1, p2, p3, p4 = st.columns(4)
    param = p1.text_input("URL parameter with the participant id", plat.participant_param or "",
                          placeholder="PROLIFIC_PID", key="plat_param")
    completion_code = p2.text_input("Completion code", plat.completion_code or "", key="plat_code")
    completion_url = p3.text_input("Completion URL (http or https, optional)", plat.completion_url or "",
                                   key="plat_url")
    per = p4.number_input("Articles per participant (empty: all she can)", 1, 100_000,
                          plat.articles_per_participant, key="plat_articles", placeholder="all")
    failed_code = st.text_input("Completion code for a failed attention check (optional)",
                                plat.completion_code_failed or "", key="plat_code_failed",
                                help="Shown instead of the completion code to a participant whom the rule 'failed "
                                     "attention checks' excludes when she finishes (Prolific takes several codes).")
    wanted = participants.PlatformSettings(param.strip() or None, completion_code.strip() or None,
                                           completion_url.strip() or None, None if per is None else int(per),
                                           failed_code.strip() or None)
    if st.button("Save platform settings", key="plat_go", disabled=wanted == plat):
        act(lambda: participants.set_platform(engine, study_id, wanted), lambda _: "Platform settings saved.")
    if plat.participant_param:
        st.text("Study link for the platform (it fills in the participant id):")
        st.code(f"{base_url() or '<app address>'}/Judge?study={study_id}&{plat.participant_param}="
                f"{{{{%{plat.participant_param}%}}}}", language=None)
        st.caption("On Prolific the link's id part reads PROLIFIC_PID={{%PROLIFIC_PID%}}; on MTurk (workerId) the "
                   "platform appends it. Each id gets one judge identity; platform ids are kept apart and left out "
                   "of exports unless asked for.")
    invited = list(st.session_state.get("invited", []))
    if invited:
        st.text(f"Link for {isolate(invited[-1]['name'])}:")
        st.code(invited[-1]["link"], language=None)
        st.caption("Access codes are shown only now (the database keeps their hash). Send each judge her link.")
        st.dataframe(pd.DataFrame(invited), hide_index=True, key="invited_table")

with tab_monitor:
    mon = service.monitoring(engine, study_id)
    st.subheader("Batches")
    st.dataframe(pd.DataFrame(mon["batches"]), hide_index=True)
    st.subheader("Judges")
    st.dataframe(pd.DataFrame(mon["judges"]), hide_index=True)
    st.subheader("Articles")
    st.dataframe(pd.DataFrame(mon["articles"]), hide_index=True)
    with st.expander("Simulated judges (preview the results page before real judges arrive)"):
        st.warning("Simulated judges are stored in this study, marked as simulated: analysis, export and "
                   "results leave them out unless you switch them on. Prefer a separate study for them.")
        n_sim = st.number_input("Simulated judges", 1, 50, 5, key="sim_n")
        mode = st.selectbox("Behaviour", ["scripted", "random"], key="sim_mode")
        if st.button("Run simulation", key="sim_go", disabled=current["status"] != "open"):
            bar = st.progress(0.0)
            try:
                out = simulate.simulate(engine, study_id, judges=int(n_sim), mode=mode,
                                        progress=progress_callback(bar))
            except DkwError as exc:
                show_error(exc)
            else:
                st.success(f"{out['judgements']} judgements by {out['judges']} simulated judges.")

with tab_quality:
    stored = exclusion.study_rules(engine, study_id)
    locked = exclusion.rules_locked(engine, study_id)
    if stored is None:
        st.info("This study was made before exclusion rules existed: it has none.")
    else:
        st.text("Exclusion rules: " + ("; ".join(stored.describe()) or "every rule off"))
        if locked is not None:
            st.caption(f"Locked since the first judgement ({locked:%Y-%m-%d %H:%M:%S} UTC): rules are fixed in "
                       "advance, so the analysis cannot be tuned to its data.")
        else:
            st.caption("The rules may change until the first judgement arrives; then they are locked.")
            changed = rules_inputs("edit", stored, disabled=False)
            if st.button("Save the rules", key="rules_go", disabled=changed == stored):
                act(lambda: exclusion.set_rules(engine, study_id, changed),
                    lambda _: "Exclusion rules saved: " + ("; ".join(changed.describe()) or "every rule off") + ".")
    st.subheader("Each judge against the rules")
    quality = exclusion.judge_quality(engine, study_id)
    if quality:
        table = pd.DataFrame(quality)[["judge", "platform_id", "excluded_by", "articles", "attention_checks",
                                       "failed_checks", "median_seconds", "same_answer_share", "simulated"]]
        table["platform_id"] = table["platform_id"].fillna("")  # a platform participant's id, for the organiser
        table["median_seconds"] = table["median_seconds"].map(lambda s: "" if pd.isna(s) else f"{s:.0f} s")
        table["same_answer_share"] = table["same_answer_share"].map("{:.0%}".format)
        table["simulated"] = table["simulated"].map({True: "yes", False: ""})
        table = table.rename(columns=lambda c: c.replace("_", " "))  # plain headers wrap: nine columns fit
        with st.container(key="quality_table", height=600 if len(table) > 12 else "content"):
            widgets.plain_table(table.map(md))  # cells wrap: every rule that excludes her, never cut
        st.caption("attention checks: articles with a planted intruder keyword she judged; failed checks: those "
                   "whose intruder she did not answer 'Irrelevant' on both questions; same answer share: her "
                   "articles answered with one value throughout; excluded by: the rules that leave all her "
                   "judgements out of the analysis.")
    else:
        st.caption("No submitted judgement yet.")
    st.subheader("Sample size (planner)")
    fixed = int(current["judges_per_article"])
    st.caption("From the answers this study's analysis keeps (its judgements, or its simulated judges before any; "
               "the exclusion rules applied): how many articles detect a chosen rating difference at 80 % power "
               f"under the paper's tests, at this study's {fixed} judges per article.")
    q1, q2, q3, q4 = st.columns(4)
    diff = q1.number_input("Rating difference to detect (points)", 0.01, 2.0, 0.2, step=0.05, key="plan_diff")
    arts = q2.text_input("Articles", "25,50,100,200", key="plan_articles")
    jdg = q3.text_input("Judges per article", str(fixed), key="plan_judges",
                        help=f"This study gives each article to {fixed} judges; type others (e.g. 1,3,5) to compare "
                             "designs a new study could use.")
    sims = q4.number_input("Simulated studies per design", 10, 100_000, settings.PLAN_SIMULATIONS, step=100,
                           key="plan_sims", help="More studies, a smaller Monte Carlo error (± in the table).")
    if st.button("Plan", key="plan_go"):
        try:
            with st.spinner("Simulating studies…"):
                planned = planner.plan_study(engine, study_id, difference=float(diff),
                                             articles=planner.counts(arts), judges=planner.counts(jdg),
                                             simulations=int(sims))
        except DkwError as exc:
            show_error(exc)
        else:
            best = planned["smallest"]
            (st.success if best else st.warning)(md(planner.smallest_text(planned)))
            st.markdown(md(planner.power_text(planned)))
            widgets.plain_table(planner.plan_table(planned))
            st.caption(md(planner.pilot_text(planned)))
            st.caption(md(planned["note"]))

with tab_export:
    st.caption(f"Every submitted answer with method provenance (in_a/rank_a, in_b/rank_b), method names and "
               f"protocols (A: {current['protocol_a']}, B: {current['protocol_b']}).")
    with_sim = st.toggle("Include simulated judges' answers", value=False, key="export_simulated")
    if with_sim:
        st.warning("The export includes SIMULATED judgements (marked in its 'simulated' column): not human data.")
    exported = widgets.guarded(lambda: [export(engine, study_id, f, include_simulated=with_sim) for f in ("csv", "json")])
    if exported:
        csv_text, json_text = exported
        st.download_button("Download CSV", csv_text.encode("utf-8"), file_name=f"study-{study_id}.csv",
                           mime="text/csv", key="dl_csv")
        st.download_button("Download JSON", json_text.encode("utf-8"), file_name=f"study-{study_id}.json",
                           mime="application/json", key="dl_json")
    st.caption("Tidy: one row per answer and method, with the intruder and exclusion flags, typed as the codebook "
               "in docs/study.md says (Parquet keeps every type).")
    tidy = widgets.guarded(lambda: [tidy_export(engine, study_id, f, include_simulated=with_sim)
                                    for f in ("csv", "parquet")])
    if tidy:
        tidy_csv, tidy_parquet = tidy
        st.download_button("Download tidy CSV", tidy_csv, file_name=f"study-{study_id}-tidy.csv", mime="text/csv",
                           key="dl_tidy_csv")
        st.download_button("Download Parquet", tidy_parquet, file_name=f"study-{study_id}.parquet",
                           mime="application/vnd.apache.parquet", key="dl_parquet")
    st.caption("Participants from a platform: one row per platform id with her judge, articles, whether she "
               "finished, each exclusion rule's flag and the completion code she was shown — the list to approve "
               "or reject on the platform.")
    participants_csv = widgets.guarded(lambda: participants.participants_csv(engine, study_id))
    if participants_csv is not None:
        st.download_button("Download participants (CSV)", participants_csv.encode("utf-8"),
                           file_name=f"study-{study_id}-participants.csv", mime="text/csv", key="dl_participants")

with tab_life:
    st.markdown(f"Status: **{current['status']}**")
    st.caption("open: judges get articles · paused: no new article is given out (a judge may submit the one she "
               "holds; judges may be invited) · closed: nothing is given out or accepted, no judge is invited")
    new_status = st.selectbox("New status", list(models.STATUSES), key="new_status",
                              index=list(models.STATUSES).index(current["status"]))
    if st.button("Apply", key="status_go", disabled=new_status == current["status"]):
        act(lambda: service.set_status(engine, study_id, new_status),
            lambda before: f"Study {study_id}: {before} → {new_status}.")
    st.subheader("Change log (UTC)")
    st.dataframe(pd.DataFrame(service.study_events(engine, study_id), columns=["at", "action", "detail"]),
                 hide_index=True, key="event_log")
