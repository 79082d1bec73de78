"""Fill a study with simulated judges so the results page can be seen before real judges come.

Simulated judges go through the same service calls as real ones (``next_task`` / ``submit``),
taking turns, so the assignment rules are exercised too. Two behaviours:

* ``"random"``: every answer uniform over Do not know / Irrelevant / Partially / Relevant;
* ``"scripted"``: each keyword has a latent quality per question, judges report it with
  noise (20 % off by one, 5 % "Do not know"); a planted intruder (attention check) is always
  answered "Irrelevant". Keywords of method B are scripted to be
  better for the category question and keywords of method A for the topic question (the
  direction the paper reports), so the statistics show a known effect.

Simulated judges are named ``sim-<n>`` and marked ``simulated`` in the database: analysis,
export and the results page leave them out unless asked to include them.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..errors import InputError
from ..types import Progress
from .creation import study_settings
from .judges import invite_judge
from .models import QUESTIONS, StudyKeyword
from .submission import submit
from .tasks import JudgeTask, display_keyword_ids, next_task

MODES = ("random", "scripted")
#: ``(judge_id, task) -> {(display position, question): 0..3}``: how a judge answers an article.
AnswerFor = Callable[[int, JudgeTask], Mapping[tuple[int, str], int]]


def all_answers(value: int = 2) -> AnswerFor:
    """Every question of every keyword answered ``value``."""
    return lambda _judge, task: {(p, q): value for p, _w in task.keywords for q in QUESTIONS}


def take_turns(engine: Engine, judge_ids: Sequence[int], answer_for: AnswerFor | None = None, *,
               keep_waiting: bool = True, pause: float = 0.01, seconds_spent: Callable[[], float] | None = None,
               on_submit: Callable[[int, int], None] | None = None) -> list[int]:
    """The judges take turns, one article each per round, through the same calls as real judges
    (``next_task`` / ``submit``), until none has anything left. A judge told to wait stays in the
    game (sleeping ``pause`` seconds) when ``keep_waiting``, else she leaves it. Returns the
    submitted judgement ids in order; ``on_submit(judge_id, judgement_id)`` after each."""
    answer_for = answer_for or all_answers()
    done: list[int] = []
    active = list(judge_ids)
    while active:
        still = []
        for j in active:
            state = next_task(engine, j)
            if state.status == "wait" and keep_waiting:
                still.append(j)
                time.sleep(pause)
                continue
            if state.task is None:
                continue
            submit(engine, judge_id=j, judgement_id=state.task.judgement_id,
                   answers=answer_for(j, state.task), seconds_spent=seconds_spent() if seconds_spent else None)
            done.append(state.task.judgement_id)
            if on_submit:
                on_submit(j, state.task.judgement_id)
            still.append(j)
        active = still
    return done


def _scripted_quality(methods: set[str], question: str, rng: random.Random) -> int:
    favoured = "B" if question == "category" else "A"
    mean = 2.5 if favoured in methods else 1.6
    return max(1, min(3, round(rng.gauss(mean, 0.6))))


def simulate(engine: Engine, study_id: int, *, judges: int | None = None, mode: str = "scripted",
             seed: int = 0, progress: Progress | None = None,
             answer_fn: Callable[[int, int, str, random.Random], int] | None = None) -> dict[str, int]:
    """Invite ``judges`` simulated judges and let them judge until nothing is left.

    ``answer_fn(judge_index, keyword_id, question, rng) -> 0..3`` overrides ``mode`` (scripted
    judges in tests). Returns counts of judges and submitted judgements.
    """
    if mode not in MODES and answer_fn is None:
        raise InputError(f"simulation mode must be one of {', '.join(MODES)}, got {mode!r}")
    settings = study_settings(engine, study_id)
    n = judges if judges is not None else settings["judges_per_article"] + 2
    if n < 1:
        raise InputError("at least one simulated judge is needed")
    rng = random.Random(seed)
    report = progress or (lambda _f, _m: None)
    with Session(engine) as session:
        from sqlalchemy import select

        from .models import Article, KeywordSource

        rows = session.execute(select(StudyKeyword.id, KeywordSource.method).join(KeywordSource)
                               .join(Article).where(Article.study_id == study_id)).all()
        total = len(session.scalars(select(Article.id).where(Article.study_id == study_id)).all())
    methods: dict[int, set[str]] = {}
    for kw_id, m in rows:
        methods.setdefault(kw_id, set()).add(m)
    quality = {(k, q): _scripted_quality(ms, q, rng) for k, ms in sorted(methods.items()) for q in QUESTIONS}

    def answer(j: int, kw_id: int, q: str) -> int:
        if answer_fn is not None:
            return answer_fn(j, kw_id, q, rng)
        if mode == "random":
            return rng.randint(0, 3)
        if (kw_id, q) not in quality:  # a planted intruder (attention check): attentive judges see it
            return 1
        if rng.random() < 0.05:
            return 0
        v = quality[(kw_id, q)]
        if rng.random() < 0.2:
            v = max(1, min(3, v + rng.choice((-1, 1))))
        return v

    ids = [invite_judge(engine, study_id, name=f"sim-{i + 1}", simulated=True)[0] for i in range(n)]
    index = {jid: i for i, jid in enumerate(ids)}
    needed = max(1, total * settings["judges_per_article"])

    def answers(judge_id: int, task: JudgeTask) -> dict[tuple[int, str], int]:
        kw_ids = display_keyword_ids(engine, task.judgement_id)
        return {(pos, q): answer(index[judge_id], kw_ids[pos], q) for pos, _w in task.keywords for q in QUESTIONS}

    count = [0]

    def tick(_judge: int, _judgement: int) -> None:
        count[0] += 1
        report(min(1.0, count[0] / needed), f"{count[0]} judgements simulated")

    submitted = len(take_turns(engine, ids, answers, keep_waiting=False, on_submit=tick,
                               seconds_spent=lambda: float(rng.randint(30, 240))))
    report(1.0, f"{submitted} judgements by {n} simulated judges")
    return {"judges": n, "judgements": submitted}
