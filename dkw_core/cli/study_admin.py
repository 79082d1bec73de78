"""Life-cycle sub-commands of ``python -m dkw_core study``: ``status``, ``judges``, ``revoke``,
``reissue``, ``log``. Every change is written to the study's log with its time (UTC)."""
from __future__ import annotations

from ..terminal import escape
from .options import positive
from .study_db import engine_for


def _status(args) -> int:
    from ..study.service import list_studies, set_status

    engine = engine_for(args.db)
    if args.set:
        before = set_status(engine, args.study, args.set)
        print(f"study {args.study}: {before} -> {args.set}")
    else:
        row = next((s for s in list_studies(engine) if s["id"] == args.study), None)
        if row is None:
            from ..study.service import StudyError

            raise StudyError(f"no study with id {args.study}")
        print(f"study {args.study}: {row['status']}")
    return 0


def _judges(args) -> int:
    from ..study.service import monitoring

    print("judge_id\tname\taccess\tsimulated\tsubmitted\topen\tdraft_answers")
    for j in monitoring(engine_for(args.db), args.study)["judges"]:
        print(f"{j['judge_id']}\t{escape(j['name'])}\t{j['access']}\t{'yes' if j['simulated'] else 'no'}\t"
              f"{j['submitted']}\t{j['open']}\t{j['draft_answers']}")
    return 0


def _revoke(args) -> int:
    from ..study.service import revoke_judge

    released = revoke_judge(engine_for(args.db), args.study, args.judge)
    print(f"judge {args.judge}: access revoked, answers kept, {released} open reservation(s) released")
    return 0


def _reissue(args) -> int:
    from ..study.service import reissue_code

    code = reissue_code(engine_for(args.db), args.study, args.judge)
    base = (args.base_url or "").rstrip("/")
    print("judge_id\tcode\tlink")
    print(f"{args.judge}\t{code}\t{escape(base + '/Judge?code=' + code) if base else ''}")
    return 0


def _log(args) -> int:
    from ..study.service import study_events

    for e in study_events(engine_for(args.db), args.study):
        print(f"{e['at']:%Y-%m-%d %H:%M:%S} UTC\t{escape(e['action'])}\t{escape(e['detail'])}")
    return 0


def register(add) -> None:
    """Add the sub-commands through ``add(name, handler, help)`` of :mod:`.cli`."""
    from ..study.models import STATUSES

    s = add("status", _status, "show or set a study's status (open: judges get articles; paused: none "
                               "given out; closed: nothing accepted)")
    s.add_argument("--set", choices=STATUSES, help="new status")
    add("judges", _judges, "list a study's judges (access, simulated, progress, unsent draft answers)")
    r = add("revoke", _revoke, "revoke a judge's access code (answers are kept)")
    r.add_argument("--judge", type=positive, required=True, help="judge id")
    i = add("reissue", _reissue, "give a judge a new access code (answers kept; revocation lifted)")
    i.add_argument("--judge", type=positive, required=True, help="judge id")
    i.add_argument("--base-url", help="app URL, e.g. http://host:8501, to print the judge link")
    add("log", _log, "the study's change log with times (UTC)")
