"""The study's service API in one namespace (compatibility facade).

Each job lives in its own module: :mod:`.settings` (``StudyConfig``, ``MethodSpec``),
:mod:`.store` (the write lock), :mod:`.creation` (drawing and storing a study),
:mod:`.methods` (built-in and third-party keyword methods), :mod:`.imports` (keyword
files), :mod:`.judges` (access
codes), :mod:`.lifecycle` (open / paused / closed, the log), :mod:`.assignment` (the batch rule
as a pure chooser), :mod:`.tasks` (a judge's next article, drafts restored, notices),
:mod:`.submission` (drafts and validated submission) and :mod:`.monitoring`. This module
re-exports their public names so that ``from dkw_core.study import service as S`` keeps working.
"""
from __future__ import annotations

from ..types import Progress
from .assignment import ArticleState, Choice, choose, order_key
from .creation import (
    create_study,
    draw_articles,
    keyword_union,
    list_studies,
    study_settings,
)
from .errors import AccessError, Cancelled, StudyError, SubmissionError
from .imports import imported_methods, read_imported
from .judges import (
    acknowledge_instructions,
    authenticate,
    invite_judge,
    judge_info,
    reissue_code,
    revoke_judge,
)
from .lifecycle import set_status, study_events
from .methods import check_method_spec, describe_methods, register_extractor
from .monitoring import monitoring
from .settings import DocumentLike, KeywordProvider, MethodSpec, StudyConfig
from .store import write_session
from .submission import (
    DraftResult,
    SubmitResult,
    owner_revoked,
    save_draft,
    submit,
)
from .tasks import (
    JudgeNotice,
    JudgeProgress,
    JudgeState,
    JudgeTask,
    dismiss_notice,
    display_keyword_ids,
    judge_progress,
    next_task,
)

__all__ = [
    "AccessError", "ArticleState", "Cancelled", "Choice", "DocumentLike", "DraftResult", "JudgeNotice",
    "JudgeProgress", "JudgeState", "JudgeTask", "KeywordProvider", "MethodSpec", "Progress", "StudyConfig",
    "StudyError", "SubmissionError", "SubmitResult", "acknowledge_instructions", "authenticate",
    "check_method_spec", "choose", "create_study", "describe_methods", "dismiss_notice", "display_keyword_ids",
    "draw_articles", "imported_methods", "invite_judge", "judge_info", "judge_progress",
    "keyword_union", "list_studies", "monitoring", "next_task", "order_key", "owner_revoked",
    "read_imported", "register_extractor", "reissue_code", "revoke_judge", "save_draft", "set_status",
    "study_events", "study_settings", "submit", "write_session",
]
