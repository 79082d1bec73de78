"""The blinded human-judging study of the paper's §4.6 (docs/method.md §4, docs/study.md).

``settings``   :class:`StudyConfig` (the paper's defaults, one definition) and :class:`MethodSpec`;
``models``     SQLAlchemy 2.0 ORM schema (studies, methods, articles in batches, keywords with
               method provenance, judges, judgements, drafts, answers, notices, the change log);
``schema``     Alembic migrations (``migrations/``) applied under a lock;
``store``      the write lock every change takes;
``limits``     what the study database stores (the models' column widths, no NUL), checked
               before any work, the same on SQLite and PostgreSQL;
``creation``   drawing articles, every method's keywords, storing a study (cancellable);
``methods``    dkw, baseline and third-party extractors (YAKE) as study methods;
``imports``    keywords imported from CSV / JSONL files, checked line by line;
``judges``     access codes: invite, revoke, re-issue, authenticate;
``lifecycle``  open / paused / closed and the change log;
``assignment`` the batch rule as a pure chooser;
``tasks``      a judge's next article (drafts restored, notices), reserved atomically;
``submission`` drafts and validated submission;
``monitoring`` progress tables for the organiser;
``service``    all of the above in one namespace (compatibility);
``access``     admin password rules, growing delay after failed attempts (per browser session),
               one-time token;
``answers``    the stored answers as one table (method provenance per row), judges' platform ids;
``verdict``    the answer first: per question the method rated higher, by how much (CIs), how sure;
``analysis``   answer distributions (Fig. 11), Spearman / Krippendorff agreement (Fig. 12), the
               report; ``comparison`` Wilcoxon signed-rank and sign tests (Table 7) for every
               pair of methods (Holm), differences with bootstrap CIs;
``attention``  attention checks: a planted intruder keyword from a distant category;
``exclusion``  exclusion rules fixed in advance (locked at the first judgement), judges' figures;
``participants`` crowd-platform participants: one judge per platform id, completion codes;
``planner``    sample size: power of articles x judges designs, simulated from a pilot;
``tidy``       the tidy export (one row per answer and method, CSV / Parquet, its codebook);
``simulate``   random or scripted judges that fill a study, and the ``take_turns`` loop;
``export``     all answers with method provenance as CSV / JSON;
``providers``  corpus + keyword provider for a corpus name (real core, or the demo behind a switch);
``demo``       a tiny built-in corpus and fake keyword providers (tests, benchmarks, demos only).

The command line is ``python -m dkw_core study ...`` (:mod:`dkw_core.cli.study`); figures are
app side (``dkw_app/study_charts.py``). Method names are stored in the database but never
handed to the judge view.
"""
__all__ = ["access", "analysis", "answers", "assignment", "attention", "comparison", "creation", "demo", "exclusion", "export",
           "imports", "judges", "lifecycle", "limits", "methods", "models", "monitoring", "participants", "planner",
           "providers", "schema", "service", "settings", "simulate", "store", "submission", "tasks", "tidy", "verdict"]
