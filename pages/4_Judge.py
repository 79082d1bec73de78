"""Judge page of the blinded study (paper §4.6): opened with ``?code=...``, by typing the code,
or from a crowd platform with the study link ``?study=<id>&<param>=<participant id>`` (one
judge identity per participant id, a completion code when she is done).

Shows instructions first, then one article at a time: the text as plain text, all categories
with the article's own highlighted, and the shuffled union of both methods' keywords with two
required questions each. Method names, protocols, ranks and database ids never reach this
page: the judge calls of ``dkw_core.study.service`` do not return them. Every stored string (text,
keyword, category, judge name, corpus) is shown exactly as stored, never as markdown or HTML.
"""
from __future__ import annotations

import streamlit as st

from dkw_app import study_setup, widgets
from dkw_app.study_ui import FOCUS_CSS, judge_error, scroll_to_top, study_engine
from dkw_app.untrusted import isolate, md
from dkw_app.widgets import show_document
from dkw_core.errors import DkwError
from dkw_core.study import participants, service

st.set_page_config(page_title="Judge", layout="wide")
st.title("Keyword judging")

INSTRUCTIONS = """
You will read articles of the corpus named above. For each article you see its text, the list of
all categories (the article's own category is marked) and a list of keywords in random order.

For **every keyword** answer two questions:

1. **Can it decide article topic?** — does the word tell what this particular article is about?
2. **Can it decide article category?** — does the word tell which category the article belongs to?

Answer *Relevant*, *Partially*, *Irrelevant*, or *Do not know* when you cannot tell.
The Submit button becomes active once every question is answered. You can leave at any time:
each answer is saved as soon as you give it, and you continue where you stopped.
Keyboard: Tab moves between the questions, the arrow keys choose an answer.
"""

#: Answer options in the instructions' order: Relevant, Partially, Irrelevant, Do not know.
ANSWER_ORDER = [3, 2, 1, 0]

st.html(FOCUS_CSS)
engine = study_engine()
if engine is None:
    st.stop()


def ask_code() -> None:
    """Code input for judges who got a code rather than a link; stops the page."""
    typed = st.text_input("Your access code", type="password", key="judge_code_input")
    if st.button("Open", key="judge_open"):
        st.session_state["judge_code"] = typed.strip()
        st.rerun()
    st.stop()


def or_stop(call):
    """``call()``; its refusal is the judge's one error line, and the page stops."""
    return widgets.or_stop(call, show=judge_error)


def participant_judge() -> int:
    """A study link from a crowd platform (``?study=<id>&<param>=<participant id>``): the
    participant's one judge identity, made on her first visit; a bad link stops with one line."""
    try:
        sid = int(st.query_params.get("study", ""))
    except ValueError:
        judge_error("This study link is not valid: its study number is missing or not a number.")
        st.stop()
    param = or_stop(lambda: participants.platform(engine, sid).participant_param)
    return or_stop(lambda: participants.join(engine, sid, st.query_params.get(param) if param else None))


def code_judge() -> int:
    """A judge invited with an access code (link ``?code=`` or typed)."""
    code = st.query_params.get("code") or st.session_state.get("judge_code")
    if not code:
        ask_code()
    try:
        return service.authenticate(engine, code)
    except service.AccessError as exc:
        st.session_state.pop("judge_code", None)
        judge_error("Unknown access code. Check the link or code you were given." if str(exc) == "unknown access code"
                    else exc)
        if "code" not in st.query_params:
            ask_code()
        st.stop()
    except DkwError as exc:
        judge_error(exc)
        st.stop()


from_platform = "study" in st.query_params and "code" not in st.query_params
judge_id = participant_judge() if from_platform else code_judge()

info = or_stop(lambda: service.judge_info(engine, judge_id))
st.text(f"Judge: {info['name']}")


#: Refusals after which the article on the page is no longer hers to answer: submitted from
#: another device or window (the same participant link open twice), or given back. The page says
#: so and shows her next article only on her click, never silently in its place.
GONE = ("submitted", "released")


def refused(exc: DkwError, token: str, *, doing: str) -> None:
    """A callback's refusal, kept for the run it triggers: an article gone (:data:`GONE`) stops the
    page on its message and drops the article's answers from this session; any other refusal is
    shown above the same article."""
    if isinstance(exc, service.SubmissionError) and exc.reason in GONE:
        st.session_state["judge_gone"] = str(exc)
        for key in [k for k in st.session_state if str(k).startswith(f"ans-{token}-")]:
            del st.session_state[key]
    else:  # a SubmissionError says "Not saved: …" itself
        st.session_state["judge_error"] = (str(exc) if isinstance(exc, service.SubmissionError)
                                           else f"{doing} was not saved: {exc}")


def save_draft(judgement_id: int, token: str, pos: int, question: str, key: str) -> None:
    """The radio's on_change: store the one answer just given (or cleared) as a draft."""
    value = st.session_state.get(key)
    try:
        service.save_draft(engine, judge_id=judge_id, judgement_id=judgement_id, token=token,
                           answers={(pos, question): value})
    except DkwError as exc:
        refused(exc, token, doing="Your last answer")


def submit(judgement_id: int, token: str, keys: dict[tuple[int, str], str]) -> None:
    """The Submit button's on_click: runs before the page asks for her next article, so it submits
    the article this page showed, and a refusal is seen (:func:`refused`) instead of the next one."""
    try:
        result = service.submit(engine, judge_id=judge_id, judgement_id=judgement_id, token=token,
                                        answers={ident: st.session_state.get(k) for ident, k in keys.items()})
    except DkwError as exc:
        refused(exc, token, doing="Your submission")
        return
    for k in keys.values():
        st.session_state.pop(k, None)
    st.session_state["judge_flash"] = (result.message, result.saved and result.study_status == "open")
    st.session_state["judge_scroll_top"] = True


def dismiss_notice(notice_id: int) -> None:
    try:
        service.dismiss_notice(engine, judge_id=judge_id, notice_id=notice_id)
    except DkwError as exc:
        st.session_state["judge_error"] = str(exc)


corpus_line = f"Corpus: {study_setup.corpus_title(info['corpus'])}"

if not info["instructions_seen"]:
    st.subheader("Instructions")
    st.text(corpus_line)
    st.markdown(INSTRUCTIONS)
    if st.button("I have read the instructions — start", type="primary", key="judge_start"):
        or_stop(lambda: service.acknowledge_instructions(engine, judge_id))
        st.rerun()
    st.stop()

with st.expander("Instructions"):
    st.text(corpus_line)
    st.markdown(INSTRUCTIONS)

gone = st.session_state.get("judge_gone")
if gone:  # her answers to an article that is no longer hers: say so, go on only when she asks
    judge_error(gone)
    if st.button("Continue to the next article", type="primary", key="judge_continue"):
        del st.session_state["judge_gone"]
        st.rerun()
    st.stop()

flash_box = st.empty()  # "Saved." after a submission: filled once the next state is known
flash = st.session_state.pop("judge_flash", None)
if st.session_state.pop("judge_scroll_top", False):
    scroll_to_top()

state = or_stop(lambda: service.next_task(engine, judge_id))

error = st.session_state.pop("judge_error", None)  # a refusal of the last run's callback
if error and state.status != "task":
    judge_error(error)
if flash:
    message, saved_open = flash
    flash_box.success(md(message) + (" Here is your next article." if saved_open and state.status == "task" else ""),
                      icon=":material/check_circle:")

for i, notice in enumerate(state.notices):  # e.g. the article in hand was given back: say so
    with st.container(border=True, key=f"notice-{i}"):
        st.warning(md(notice.message), icon=":material/info:")
        st.button("Got it", key=f"notice-ok-{i}", on_click=dismiss_notice, args=(notice.id,))

prog = state.progress
if prog.total_articles:
    st.progress(min(1.0, prog.judged / prog.total_articles),
                text=f"{prog.judged} article(s) judged" + (
                    f" · batch {prog.batch + 1} of {prog.batches}: {prog.judged_in_batch} of "
                    f"{prog.articles_in_batch} judged" if prog.batch is not None else ""))

if state.status == "done":
    done = participants.completion(engine, judge_id) if from_platform else None
    if done is not None and done["code"]:
        st.success(f"Thank you! You have judged {done['articles']} article(s) and finished this study. Your "
                   "completion code:", icon=":material/task_alt:")
        with st.container(key="completion_code"):
            st.code(done["code"], language=None)
        if done["url"]:
            st.link_button("Return to the platform to complete", done["url"], type="primary")
    elif done is not None:
        st.info("There is nothing left to judge in this study right now, so there is no completion code for you. "
                "Please return the study on your platform.")
    else:
        st.success("Thank you! There is nothing left for you to judge in this study.")
    st.stop()
if state.status == "paused":
    st.info("The study is paused by its organisers: no new article is given out for now. Your answers so far "
            "are saved; please come back later.")
    st.button("Check again", key="judge_again")
    st.stop()
if state.status == "closed":
    st.info("This study is closed and accepts no more answers. Thank you for your help!")
    st.stop()
if state.status == "wait":
    st.info("The remaining articles are being judged by others right now. Please come back later.")
    st.button("Check again", key="judge_again")
    st.stop()

task = state.task
left, right = st.columns([3, 2])
with left:
    st.subheader("Article")
    show_document(task.text, height=520 if task.text.count("\n") > 25 or len(task.text) > 2500 else None)
with right:
    st.subheader("Categories")
    for cat in task.categories:  # plain text: a category name is never markdown
        if cat == task.category:
            with st.container(border=True, key="own_category"):
                st.text(f"▶ {isolate(cat)}  ← this article")
        else:
            st.text(f"  {cat}")

st.subheader("Keywords")
# Widget keys (which reach the browser) hold only the display position and an opaque
# per-judgement token: nothing in them depends on method, rank or database row.
keys = {(pos, qkey): f"ans-{task.token}-{pos}-{qkey}" for pos, _w in task.keywords for qkey in task.questions}
for ident, key in keys.items():  # answers saved as drafts come back after a reload or reconnect
    if key not in st.session_state and ident in task.draft:
        st.session_state[key] = task.draft[ident]
given = {ident: st.session_state.get(key) for ident, key in keys.items()}
answered = sum(v is not None for v in given.values())
if error:  # above her answers
    judge_error(error)
with st.container(key="judge_answers"):
    for pos, word in task.keywords:
        with st.container(border=True, key=f"kw-{task.token}-{pos}"):
            st.text(word)  # plain text: exactly as stored, never markdown or HTML
            cols = st.columns(len(task.questions))
            for col, (qkey, qtext) in zip(cols, task.questions.items()):
                with col:
                    st.radio(qtext, options=ANSWER_ORDER, format_func=task.answers.get, index=None,
                             horizontal=True, key=keys[(pos, qkey)], on_change=save_draft,
                             args=(task.judgement_id, task.token, pos, qkey, keys[(pos, qkey)]))
                    if answered and given[(pos, qkey)] is None:
                        st.markdown(":orange-badge[:material/priority_high: Not answered yet]")

missing = [(pos, q) for (pos, q), v in given.items() if v is None]
complete = not missing
words = dict(task.keywords)
st.caption(f"{answered} of {len(keys)} answers given"
           + ("" if complete else " — answer every question to submit. Still open:"))
if not complete:  # keywords as plain text: markdown would turn a URL inside one into a link, escaped or not
    st.text("; ".join(f"{isolate(words[pos])} ({'topic' if q == 'topic' else 'category'})" for pos, q in missing[:6])
            + (f"; and {len(missing) - 6} more" if len(missing) > 6 else ""))
st.caption("Your answers are saved as you give them: you can reload or come back later.")
st.button("Submit", type="primary", disabled=not complete, key="judge_submit", on_click=submit,
          args=(task.judgement_id, task.token, keys))
