"""The blinded human-judging study of the paper's §4.6 (docs/method.md §4).

``models``    SQLAlchemy 2.0 ORM schema (studies, articles in batches, keywords with method
              provenance, judges, judgements, answers, the change log) and ``init_db``;
``schema``    Alembic migrations (``migrations/``) applied under a lock;
``access``    admin password rules, growing delay after failed attempts, one-time token;
``service``   study creation, judges (invite, revoke, re-issue), life cycle (open / paused /
              closed), atomic assignment and validated submission;
``analysis``  answer distributions (Fig. 11), Spearman / Krippendorff agreement (Fig. 12),
              Wilcoxon signed-rank and sign tests (Table 7);
``simulate``  random or scripted judges that fill a study;
``export``    all answers with method provenance as CSV / JSON;
``charts``    plotly figures of the analysis (Fig. 11, Fig. 12);
``providers`` corpus + keyword provider for a corpus name (real core, or the demo behind a switch);
``demo``      a tiny built-in corpus and a fake keyword provider (tests and demos only).

The command line is :mod:`dkw_core.cli.study` (``python -m dkw_core study ...``; the life-cycle
commands in :mod:`dkw_core.cli.study_admin`).

Method names are stored in the database but never handed to the judge view. The sub-modules are
imported on use (``from dkw_core.study.service import create_study``), so that importing the
package loads neither SQLAlchemy nor plotly.
"""

__all__ = ["access", "analysis", "charts", "demo", "export", "models", "providers", "schema", "service", "simulate"]
