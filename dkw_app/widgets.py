"""Shared Streamlit widgets: plain-text documents, CSV downloads, progress, errors."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from dkw_core import config
from dkw_core.config import max_upload_mb
from dkw_core.corpora.download import DOWNLOADABLE
from dkw_core.csvsafe import frame_to_csv
from dkw_core.errors import DkwError
from dkw_core.types import Progress, describe_time_left

from . import corpora_models
from .untrusted import isolate, md

ROOT = Path(__file__).resolve().parent.parent
#: (file, link label, icon, sidebar title, URL path; "" = the default page) of every page.
#: Icons are Streamlit's Material icons (a font shipped with Streamlit), never emoji, which
#: show as empty boxes where no emoji font is installed.
PAGES = (
    ("pages/0_Home.py", "Home", ":material/home:", "Home", ""),
    ("pages/1_Documents.py", "Documents: keywords per metric", ":material/description:", "Documents", "Documents"),
    ("pages/6_Categories.py", "Categories: each category's own words", ":material/sell:", "Categories", "Categories"),
    ("pages/2_Metrics.py", "Metrics: F1 charts", ":material/bar_chart:", "Metrics", "Metrics"),
    ("pages/3_Study_admin.py", "Study admin", ":material/admin_panel_settings:", "Study admin", "Study_admin"),
    ("pages/4_Judge.py", "Judge keywords", ":material/rate_review:", "Judge", "Judge"),
    ("pages/5_Study_results.py", "Study results", ":material/insights:", "Study results", "Study_results"),
)


def show_document(text: str, *, height: int | None = 480) -> None:
    """Untrusted document text, shown verbatim: never markdown, never HTML. ``st.code`` drops one
    leading and one trailing line break: the ones added here, never the document's own."""
    st.code(f"\n{text}\n", language=None, wrap_lines=True, height=height)


def csv_download(frame: pd.DataFrame, *, label: str, file_name: str, key: str) -> None:
    """A download button handing out ``frame`` as CSV (the data behind a chart or table)."""
    st.download_button(label, data=frame_to_csv(frame).encode("utf-8"), file_name=file_name,
                       mime="text/csv", key=key, disabled=frame.empty)


def chart(fig: Any, *, key: str, file_name: str) -> None:
    """A Plotly chart with its PNG download in the mode bar (the CSV button sits under it)."""
    st.plotly_chart(fig, key=key, config={"toImageButtonOptions": {"format": "png", "filename": file_name,
                                                                   "scale": 2}, "displaylogo": False})


def plain_table(frame: pd.DataFrame) -> None:
    """A small table for reading (plain column names, values already text): a static table whose
    cells wrap, so nothing is cut off at any width."""
    st.table(frame, hide_index=True)


def progress_callback(bar: Any) -> Progress:
    """Adapt an ``st.progress`` bar to the library's ``progress(fraction, message)``."""
    def update(fraction: float, message: str = "") -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=md(message))  # may name a corpus or file
    return update


def show_error(exc: BaseException) -> None:
    """A user-facing error: the ``DkwError`` message, never a traceback (the message may quote a
    file name, an id or a database's words: shown as text, never as markdown)."""
    st.error(md(exc))


def guarded(fn: Callable[[], Any], *, default: Any = None) -> Any:
    """Run ``fn``; show a ``DkwError`` as a message and return ``default`` instead."""
    try:
        return fn()
    except DkwError as exc:
        show_error(exc)
        return default


def or_stop(fn: Callable[[], Any], *, show: Callable[[DkwError], None] | None = None) -> Any:
    """Run ``fn``; a ``DkwError`` is shown as a message (by ``show``, default :func:`show_error`)
    and stops the page."""
    try:
        return fn()
    except DkwError as exc:
        (show or show_error)(exc)
        st.stop()


def select(label: str, options: Sequence[Any], *, key: str, default: Any = None, **kwargs: Any) -> Any:
    """A selectbox whose remembered value is reset when it is no longer an option."""
    options = list(options)
    if options and st.session_state.get(key) not in options:
        st.session_state[key] = default if default in options else options[0]
    return st.selectbox(label, options, key=key, **kwargs)


def sample_note() -> int | None:
    """The ``DKW_SAMPLE_PER_CATEGORY`` slice size, announced on the page when set."""
    sample = guarded(corpora_models.sample_per_category)
    if sample:
        st.caption(f"Working on a slice: the first {sample} documents per category and split "
                   f"(DKW_SAMPLE_PER_CATEGORY={sample}).")
    return sample


def archives_note() -> None:
    """Names the folder searched for corpus archives."""
    folder = guarded(config.archives_dir, default=None)
    if folder:
        st.caption("Corpus archives are read from this folder (DKW_ARCHIVES):")
        st.code(str(folder), language=None)


def missing_corpus(info: dict[str, Any], box: Any = None) -> None:
    """A missing archive: the folder searched, and a Download button with a progress bar."""
    box = box or st.container()
    name, archive = str(info.get("name")), str(info.get("archive"))
    folder = guarded(config.archives_dir, default="DKW_ARCHIVES") or "DKW_ARCHIVES"
    box.warning(f"{md(name)}: archive {md(archive)} not found in {md(folder)} (DKW\\_ARCHIVES).")
    if name not in DOWNLOADABLE:
        box.caption(f"{md(name)} is not downloadable: put {md(archive)} into {md(folder)}.")
        return
    if box.button(f"Download {md(name)}", key=f"download_{name}",
                  help=f"Fetches {md(archive)}, checks it and saves it in the archives folder."):
        bar = box.progress(0.0, text=f"Downloading {md(archive)}…")
        try:
            corpora_models.download_archive(name, progress=progress_callback(bar))
        except DkwError as exc:
            bar.empty()
            show_error(exc)
        else:
            bar.progress(1.0, text=f"{md(archive)} downloaded.")
            from . import resources

            resources.dataset_infos.clear()
            st.rerun()


#: Key prefix of the preparation jobs (dkw_app/jobs.py): one job per corpus, slice, K and neighbours.
PREPARE_JOB = "prepare"
#: What a reader is told about the cost of a preparation (BENCHMARKS.md: full 20ng, two cores).
PREPARE_COST = ("It takes minutes on a whole corpus (20ng: about 5 on two cores) and runs on the server: "
                "you can leave the page, and an interrupted preparation resumes from the documents already tagged.")


def prepare_job_key(name: str, sample: int | None, k_max: int, neighbours: str = "cosine") -> str:
    return f"{PREPARE_JOB}|{name}|{sample or 0}|{k_max}|{neighbours}"


def start_preparation(name: str, sample: int | None, k_max: int, neighbours: str = "cosine") -> None:
    """Prepare a corpus in the server's background jobs: it goes on when the visitor leaves the
    page or closes the tab, and every page shows it (:func:`preparation_jobs`)."""
    from . import jobs, resources

    what = isolate(name) + (f" (slice: {sample} documents per category and split)" if sample else "")
    what += "" if neighbours == "cosine" else f", nearest words by {neighbours}"

    def work(progress: Progress) -> Any:
        progress(0.0, "loading the corpus, the word vectors and the tagger")
        return resources.model(name, sample, k_max, progress=progress, neighbours=neighbours)

    try:
        jobs.start(prepare_job_key(name, sample, k_max, neighbours), f"Preparing {what}", work)
    except DkwError as exc:
        show_error(exc)


def _prepare_jobs() -> list[Any]:
    from . import jobs

    return [j for j in jobs.all_jobs() if j.key.startswith(PREPARE_JOB + "|")]


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def preparation_jobs() -> None:
    """Every preparation the server is running, on every page that calls it: progress, time
    remaining and a Cancel button (updated every second); a stopped one says why, once per job
    until dismissed. When one finishes, the page is run again to show the prepared corpus."""
    stopped = [j for j in _prepare_jobs() if j.state in ("cancelled", "failed")]
    for job in stopped:
        box = st.container(border=True)
        box.warning(f"{md(job.title)} stopped after {_duration(job.seconds())}: {md(job.error)}. "
                    "The documents tagged so far are kept: Prepare resumes from them.",
                    icon=":material/pause_circle:")
        if box.button("Dismiss", key=f"dismiss_{job.key}"):
            from . import jobs

            jobs.forget(job.key)
            st.rerun()
    if any(j.running for j in _prepare_jobs()) or st.session_state.get("prepare_seen"):
        _preparation_progress()


@st.fragment(run_every=1.0)
def _preparation_progress() -> None:
    from . import jobs

    seen: set[str] = st.session_state.setdefault("prepare_seen", set())  # running when this session last looked
    ended = False
    for job in _prepare_jobs():
        if not job.running:
            if job.key in seen:
                seen.discard(job.key)
                ended = True
            continue
        seen.add(job.key)
        box = st.container(border=True)
        box.text(f"{job.title}: running on the server for {_duration(job.seconds())}. "
                 "You can leave this page; it goes on.")
        left = describe_time_left(job.remaining())
        message = "cancelling…" if job.cancel_requested else ", ".join(p for p in (job.message, left) if p)
        box.progress(job.fraction, text=md(message or "starting…"))
        if box.button("Cancel", key=f"cancel_{job.key}", disabled=job.cancel_requested,
                      help="Stops at the next step; the documents tagged so far are kept."):
            jobs.cancel(job.key)
    if ended:
        st.rerun(scope="app")  # a preparation ended: show its outcome and the prepared corpus


def not_distributed(infos: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The corpora of ``infos`` without their archive that cannot be downloaded either (not
    distributed, such as 7 Sectors): never counted among the corpora "not downloaded yet"."""
    return [i for i in infos if not i.get("available")
            and str(i.get("name")) not in DOWNLOADABLE]


def not_distributed_note(infos: Sequence[dict[str, Any]], box: Any = None) -> None:
    """One caption naming each corpus that is not distributed and where its archive goes."""
    if infos:
        folder = guarded(config.archives_dir, default="DKW_ARCHIVES") or "DKW_ARCHIVES"
        (box or st).caption("Not distributed, so not downloadable: " + ", ".join(
            f"{md(i.get('name'))} (put {md(i.get('archive'))} into {md(folder)})" for i in infos) + ".")


def prepare_panel(name: str, sample: int | None, k_max: int, *, key: str, box: Any = None,
                  neighbours: str = "cosine", compact: bool = False, button_box: Any = None) -> bool:
    """The one preparation panel (Home, Documents, Categories): ``True`` when ``name`` is
    prepared (under the ``neighbours`` spec); otherwise shows the state and a Prepare button that
    starts the preparation in the server's background jobs, and returns ``False``. ``compact``:
    a short caption instead of a box, the cost being said once above (Home lists every corpus);
    ``button_box``: where the button goes (default ``box``)."""
    from dkw_app import jobs, resources

    box = box or st.container()
    try:
        with st.spinner(f"Checking {md(name)}…"):
            prepared = resources.is_prepared(name, sample, k_max, neighbours)
    except DkwError as exc:
        show_error(exc)
        return False
    if prepared:
        for note in resources.notices(name, sample, k_max, neighbours):  # e.g. a read-only data folder
            box.warning(md(note))
        return True
    say = box.caption if compact else box.info
    job = jobs.get(prepare_job_key(name, sample, k_max, neighbours))
    if job is not None and job.running:
        say("Being prepared on the server (progress above)." if compact else
            f"{md(name)} is being prepared on the server (progress at the top of the page).")
        return False
    how = "" if neighbours == "cosine" else f", found by {neighbours}"
    kept = guarded(lambda: corpora_models.interrupted_tagging(name), default=0) or 0
    # a preparation was stopped (cancelled, killed, server stopped): say what is left of it
    left = (f" An earlier preparation stopped: its {kept:,} tagged documents are kept, and Prepare resumes from "
            "them (nothing starts by itself after a server restart).") if kept else ""
    say(md("Not prepared yet." + left) if compact else
        f"{md(name)} is not prepared yet: " + md(f"every document tagged, then the K={k_max} nearest words "
                        f"of every phrase{how}.{left} ") + PREPARE_COST)
    if (button_box or box).button(f"Prepare {md(name)}", key=key):
        start_preparation(name, sample, k_max, neighbours)
        st.rerun()  # show the job's progress
    return False


def split_download(name: str, sample: int | None, k_max: int, *, split: str, metrics: Sequence[str], k: int,
                   top: int, protocol: str) -> None:
    """The keywords of every document of the split as a JSONL or CSV download (computed on a click)."""
    from . import resources

    with st.expander(f"Keywords of every document of the {split} split"):
        fmt = st.radio("Format", ("csv", "jsonl"), horizontal=True, key="split_fmt")
        chosen = (name, sample, k_max, split, tuple(metrics), k, top, protocol, fmt)
        if st.button("Compute for the whole split", key="split_compute"):
            st.session_state["split_chosen"] = chosen
        if st.session_state.get("split_chosen") != chosen:
            st.caption(f"Same metrics, K={k}, N={top} and {protocol} protocol as above; one row per document.")
            return
        try:
            data = resources.split_keywords(*chosen)
        except DkwError as exc:
            show_error(exc)
            return
        sample_tag = f"-head{sample}" if sample else ""
        st.download_button(f"Download {split} keywords ({fmt.upper()})", data=data,
                           file_name=f"keywords-{name}{sample_tag}-{split}-{protocol}-K{k}-N{top}.{fmt}",
                           mime="text/csv" if fmt == "csv" else "application/jsonl", key="split_download")


def upload_limit(megabytes: float) -> int:
    """A file uploader's own limit (whole MB, as Streamlit takes it) for a dkw limit in MB; the
    server's cap (``server.maxUploadSize``, set by :mod:`dkw_app.serve`) is the largest of them,
    and dkw checks the exact limit with a one-line error."""
    return max(1, math.ceil(megabytes))


def upload_corpus() -> None:
    """Upload a CSV (text,label[,split]) or a zip of <split>/<category>/<file>; validated and
    stored by the library, then listed with the built-in corpora on every page."""
    from . import resources

    limit = guarded(max_upload_mb, default=None)
    if limit is None:
        return
    st.caption(f"A CSV with columns text,label and optionally split (train/test) and id, or a zip of "
               f"<split>/<category>/<file> (or <category>/<file>) UTF-8 text files; at most {limit:g} MB "
               "(DKW_MAX_UPLOAD_MB). Without a split, a third of every category becomes the test split.")
    with st.form("upload_corpus", clear_on_submit=False):
        name = st.text_input("Name", key="upload_name", placeholder="e.g. my-news",
                             help="lower-case letters, digits, - and _")
        upload = st.file_uploader("CSV or zip", type=["csv", "zip"], key="upload_file",
                                  max_upload_size=upload_limit(limit))
        submitted = st.form_submit_button("Import corpus")
    if not submitted:
        return
    if upload is None:
        st.error("Choose a CSV or zip file first.")
        return
    data = upload.getvalue()
    if len(data) > limit * 1e6:  # checked again by the library
        st.error(f"{md(upload.name)}: {len(data) / 1e6:.1f} MB is above the upload limit of {limit:g} MB "
                 "(DKW_MAX_UPLOAD_MB).")
        return
    try:
        report = corpora_models.import_corpus(name, data, upload.name)
    except DkwError as exc:
        show_error(exc)
        return
    resources.dataset_infos.clear()
    st.session_state["upload_report"] = report
    st.rerun()


def upload_report() -> None:
    """The last import's outcome, once, as plain text."""
    report = st.session_state.pop("upload_report", None)
    if report:
        st.success(f"Imported {md(report['name'])}: {report['documents']:,} documents ({report['train']:,} train / "
                   f"{report['test']:,} test), {report['categories']} categories; {md(report['split'])}.")
        if report.get("skipped"):
            st.warning(f"Left out {len(report['skipped'])} zip entries whose path leads outside the folder: "
                       + ", ".join(md(entry) for entry in report["skipped"][:10]))


def verdict_block(runs: pd.DataFrame, *, dataset: str, protocol: str, selection: str | None,
                  classifier: str | None) -> dict[str, Any] | None:
    """The verdict of one corpus and protocol (``dkw_core.evaluation.verdict``), first on the
    Metrics page: the best metric (the parameter choice's, never a test score) with its F1 and
    95 % CI, its difference to the runner-up and to the tf-idf + LinearSVC classifier with CI and
    Holm p, and whether the protocol reads the gold label. Returns the verdict shown (or None)."""
    from . import resources

    found = guarded(lambda: resources.verdict(runs, dataset, protocol, selection, classifier))
    with st.container(border=True, key="verdict"):
        if not found:
            st.caption(f"No verdict for {md(dataset)} under {md(protocol)}: " + md(
                "no run here chose over all setups with stored test predictions "
                "(python scripts/bench_eval.py --dataset … --cv --full-search)."))
            return None
        st.markdown("**Verdict** — " + md(found["headline"]))
        st.caption(md(found["details"]))
    return found


def hubness_reference(dataset: str) -> bool:
    """The hubness of step 3 stored in the reference results for ``dataset`` (shown without a
    prepared corpus); False when they hold none."""
    from . import resources

    hubs = guarded(resources.reference_hubness)
    if hubs is None or hubs.empty or dataset not in set(hubs["dataset"]):
        return False
    r = hubs[hubs["dataset"] == dataset].iloc[0]
    st.markdown("**Reference results**")
    hubness_figures(r, lead=f"{md(r['source'])} · {md(dataset)}", key=f"hubs_reference_{dataset}")
    return True


def hubness_figures(r: Any, *, lead: str, key: str | None = None) -> pd.DataFrame:
    """The hubness of step 3 (``dkw_core.hubness``, measured here or stored in the reference
    results): three figures, the setup after ``lead`` (markdown), the biggest hubs; returns the
    hubs' table (for its CSV download)."""
    m1, m2, m3 = st.columns(3)
    m1.metric("k-occurrence skewness", f"{r['skewness']:.2f}")
    m2.metric("Neighbour slots held by the top 1 % of words", f"{100 * r['top1_share']:.1f} %")
    m3.metric("Words nobody's neighbour", f"{100 * r['never_share']:.1f} %")
    st.caption(f"{lead} · vectors {md(r['vectors'])} · nearest words by {isolate(r['neighbours'])} · "
               f"K={int(r['k'])} · {int(r['queries']):,} unique phrase vectors · {int(r['vocabulary']):,} words")
    hubs = pd.DataFrame([{"word": h["word"], "k-occurrence": h["k_occurrence"],
                          "share of phrase vectors (%)": round(100 * h["query_share"], 1)} for h in r["hubs"] or []])
    st.dataframe(hubs, hide_index=True, key=key)
    return hubs
