"""Life-cycle sub-commands of ``python -m dkw_core study``: ``status``, ``judges``, ``revoke``,
``reissue``, ``log``, ``rules`` (whose exclusion-rule options ``study create`` shares). Every change
is written to the study's log with its time (UTC)."""
from __future__ import annotations

import argparse

from ..terminal import escape
from .options import positive
from .study_db import engine_for

#: ``--<flag>``: the :class:`~dkw_core.study.settings.ExclusionRules` field it sets, its type.
RULE_FLAGS = {"max-failed-checks": ("max_failed_checks", int), "min-seconds": ("min_seconds_per_article", float),
              "max-same-answer-share": ("max_same_answer_share", float), "min-articles": ("min_articles", int)}


def _rule_value(kind):
    def parse(text: str):
        if text.strip().lower() == "off":
            return "off"
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number or 'off', got {text!r}") from None

    parse.__name__ = kind.__name__
    return parse


def add_rule_options(p) -> None:
    """The exclusion rules' options (docs/study.md "Attention checks and exclusion rules")."""
    from ..study.settings import RULE_NAMES

    for flag, (field, kind) in RULE_FLAGS.items():
        p.add_argument(f"--{flag}", dest=f"rule_{field}", type=_rule_value(kind), metavar="N|off",
                       help=f"exclusion rule: {RULE_NAMES[field]} ('off' turns it off)")


def rules_from_args(args, base):
    """``base`` (:class:`ExclusionRules`) with the rule options given on the command line."""
    import dataclasses

    changes = {field: (None if getattr(args, f"rule_{field}") == "off" else getattr(args, f"rule_{field}"))
               for field, _kind in RULE_FLAGS.values() if getattr(args, f"rule_{field}", None) is not None}
    rules = dataclasses.replace(base, **changes)
    rules.validate()
    return rules


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

    print("judge_id\tname\tplatform_id\taccess\tsimulated\tsubmitted\topen\tdraft_answers")
    for j in monitoring(engine_for(args.db), args.study)["judges"]:
        print(f"{j['judge_id']}\t{escape(j['name'])}\t{escape(j['platform_id'] or '')}\t{j['access']}\t"
              f"{'yes' if j['simulated'] else 'no'}\t"
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


def _rules(args) -> int:
    from ..study.exclusion import rules_locked, set_rules, study_rules
    from ..study.settings import ExclusionRules

    engine = engine_for(args.db)
    if any(getattr(args, f"rule_{field}", None) is not None for field, _k in RULE_FLAGS.values()):
        set_rules(engine, args.study, rules_from_args(args, study_rules(engine, args.study) or ExclusionRules()))
    rules = study_rules(engine, args.study)
    locked = rules_locked(engine, args.study)
    state = f"locked since {locked:%Y-%m-%d %H:%M:%S} UTC" if locked else "may change until the first judgement"
    print(f"study {args.study} exclusion rules ({state}): "
          + ("none stored" if rules is None else "; ".join(rules.describe()) or "every rule off"))
    return 0


def _platform(args) -> int:
    from ..study.participants import PlatformSettings, platform, set_platform

    engine = engine_for(args.db)
    if any(v is not None for v in (args.param, args.completion_code, args.completion_url, args.articles,
                                   args.completion_code_failed)):
        old = platform(engine, args.study)
        set_platform(engine, args.study, PlatformSettings(
            participant_param=args.param if args.param is not None else old.participant_param,
            completion_code=args.completion_code if args.completion_code is not None else old.completion_code,
            completion_url=(args.completion_url or None) if args.completion_url is not None else old.completion_url,
            articles_per_participant=args.articles if args.articles is not None else old.articles_per_participant,
            completion_code_failed=((args.completion_code_failed or None) if args.completion_code_failed is not None
                                    else old.completion_code_failed)))
    now = platform(engine, args.study)
    if now.participant_param is None:
        print(f"study {args.study} takes no participants from a platform")
        return 0
    base = (args.base_url or "").rstrip("/")
    print(f"study {args.study}: participant id parameter {now.participant_param}, "
          f"{now.articles_per_participant or 'all available'} article(s) each, completion code "
          f"{now.completion_code}, completion URL {now.completion_url or 'none'}, code for a failed attention "
          f"check {now.completion_code_failed or 'none (everyone gets the completion code)'}")
    print(f"study link: {base or '<app URL>'}/Judge?study={args.study}&{now.participant_param}=<participant id>")
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
    rules = add("rules", _rules, "show or set the exclusion rules (fixed before the first judgement, then locked)")
    add_rule_options(rules)
    p = add("platform", _platform, "show or set how the study takes participants from a crowd platform "
                                   "(Prolific, MTurk): URL parameter, completion code and URL, articles each")
    p.add_argument("--param", help="URL parameter carrying the participant id, e.g. PROLIFIC_PID or workerId")
    p.add_argument("--completion-code", help="code shown to a participant who finished")
    p.add_argument("--completion-url", help="http(s) address offered to a participant who finished ('' for none)")
    p.add_argument("--completion-code-failed", metavar="CODE",
                   help="code shown instead to a participant the rule 'failed attention checks' excludes when she "
                        "finishes ('' for none; Prolific takes several codes)")
    p.add_argument("--articles", type=positive, help="articles each participant judges")
    p.add_argument("--base-url", help="app URL, e.g. https://host, to print the study link")
