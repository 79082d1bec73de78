"""Settings of a study (:class:`StudyConfig`) and of each compared method (:class:`MethodSpec`).

The defaults are the paper's (§4.6; docs/method.md §4) and are the ONE definition read by the
library, the CLI (``study create``) and the admin form (:meth:`StudyConfig.defaults`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import InputError
from ..types import DEFAULT_PROTOCOL, METHOD_SLOTS, PROTOCOLS, UNKNOWN_PROTOCOL  # noqa: F401  (re-exported)
from ..validation import check_name

#: The sample-size planner's simulated studies per design (:mod:`.planner`, ``study plan``, the
#: admin page): a power's Monte Carlo standard error is then at most 0.5 / sqrt(1000) = 1.6
#: points (<= 2 points needs >= 625).
PLAN_SIMULATIONS = 1000
#: ``(spec, doc_ids, top, protocol) -> {doc_id: [keyword, ...]}`` best first (dependency injection).
KeywordProvider = Callable[..., dict[str, list[str]]]


class DocumentLike(Protocol):
    """A labelled document as a study reads it (read-only, so frozen dataclasses such as
    ``dkw_core.corpora.Document`` match)."""

    @property
    def id(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def split(self) -> str: ...


@dataclass(frozen=True)
class MethodSpec:
    """One compared method.

    ``name``: a built-in spec (:mod:`.methods`: ``latent-5word-knn90-rf``, ``tf-rf``, ``yake``…)
    or, with ``keywords`` given, the name of an imported method. ``protocol``: the keyword
    protocol of dkw methods (:data:`~dkw_core.types.PROTOCOLS`); :data:`UNKNOWN_PROTOCOL` for
    imported keywords. ``top``: keywords shown for this method (None: the study's
    ``keywords_per_method``). ``keywords``: imported keywords, doc id -> ordered list.
    ``source``: the imported file's name (recorded; shown to the organiser only)."""

    name: str
    protocol: str = DEFAULT_PROTOCOL
    top: int | None = None
    keywords: Mapping[str, Sequence[str]] | None = field(default=None, compare=False, repr=False)
    source: str = ""

    @property
    def imported(self) -> bool:
        return self.keywords is not None


#: The exclusion rules in words, by field of :class:`ExclusionRules` (one definition: the
#: analysis, the admin page and the reports name them so).
RULE_NAMES = {"max_failed_checks": "failed attention checks",
              "min_seconds_per_article": "time per article below the floor",
              "max_same_answer_share": "the same answer for every keyword",
              "min_articles": "too few articles"}


@dataclass(frozen=True)
class ExclusionRules:
    """Rules that exclude a judge's every judgement from the analysis, fixed before judging
    starts (stored with the study, locked once the first judgement is submitted). A rule set
    to None is off.

    * ``max_failed_checks``: excluded when more of her attention checks failed (an intruder
      keyword answered anything but "Irrelevant" on either question);
    * ``min_seconds_per_article``: excluded when her median time per article is below it;
    * ``max_same_answer_share``: excluded when in more than this share of her articles she
      gave one and the same answer to every keyword and question;
    * ``min_articles``: excluded when she submitted fewer articles."""

    max_failed_checks: int | None = 0
    min_seconds_per_article: float | None = None
    max_same_answer_share: float | None = None
    min_articles: int | None = None

    def validate(self) -> None:
        for key in ("max_failed_checks", "min_articles"):
            value = getattr(self, key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise InputError(f"exclusion rule {key.replace('_', ' ')} must be a whole number >= 0 or off, "
                                 f"got {value!r}")
        floor = self.min_seconds_per_article
        if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int | float)
                                  or not 0 <= floor <= 86_400):
            raise InputError(f"exclusion rule min seconds per article must be between 0 and 86400 or off, "
                             f"got {floor!r}")
        share = self.max_same_answer_share
        if share is not None and (isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1):
            raise InputError(f"exclusion rule max same answer share must be between 0 and 1 or off, got {share!r}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> ExclusionRules | None:
        if data is None:
            return None
        unknown = set(data) - set(RULE_NAMES)
        if unknown:
            raise InputError(f"unknown exclusion rule(s): {', '.join(sorted(map(str, unknown)))}; known: "
                             f"{', '.join(RULE_NAMES)}")
        rules = cls(**{k: data[k] for k in RULE_NAMES if k in data})
        rules.validate()
        return rules

    def describe(self) -> list[str]:
        """Each rule that is on, in words."""
        out = []
        if self.max_failed_checks is not None:
            out.append(f"{RULE_NAMES['max_failed_checks']}: more than {self.max_failed_checks}")
        if self.min_seconds_per_article is not None:
            out.append(f"{RULE_NAMES['min_seconds_per_article']}: median below {self.min_seconds_per_article:g} s")
        if self.max_same_answer_share is not None:
            out.append(f"{RULE_NAMES['max_same_answer_share']}: in more than {self.max_same_answer_share:.0%} "
                       f"of her articles")
        if self.min_articles is not None:
            out.append(f"{RULE_NAMES['min_articles']}: fewer than {self.min_articles}")
        return out


@dataclass(frozen=True)
class StudyConfig:
    """Settings of a study; defaults are the paper's (§4.6).

    ``methods``: the compared methods in label order (A, B, C…), 2 to 26 of them. Empty (the
    default) means the paper's pair ``method_a`` / ``method_b`` with ``protocol_a`` /
    ``protocol_b``."""

    name: str = "study"
    corpus: str = "20ng"
    method_a: str = "tf-rf"
    method_b: str = "latent-5word-knn90-rf"
    keywords_per_method: int = 5
    articles_per_category: int = 5
    categories_per_batch: int = 5
    judges_per_article: int = 3
    seed: int | None = None  # None: drawn at random and recorded
    split: str = "test"
    reservation_minutes: int = 180
    protocol_a: str = DEFAULT_PROTOCOL  # the paper's study: both methods label-aware
    protocol_b: str = DEFAULT_PROTOCOL
    methods: tuple[MethodSpec, ...] = ()
    sample: int | None = None  # draw from the first n documents per category and split (a slice)
    attention_share: float = 0.0  # share of articles with a planted intruder keyword (attention check)
    rules: ExclusionRules = ExclusionRules()  # fixed in advance, locked once judging starts

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """Field -> default value (the CLI's and the admin form's defaults)."""
        return {f.name: f.default for f in dataclasses.fields(cls)}

    def method_specs(self) -> tuple[MethodSpec, ...]:
        """The compared methods in label order (the paper's A/B pair when ``methods`` is empty)."""
        if self.methods:
            return tuple(self.methods)
        return (MethodSpec(self.method_a.strip(), self.protocol_a), MethodSpec(self.method_b.strip(), self.protocol_b))

    def validate(self) -> None:
        for key in ("keywords_per_method", "articles_per_category", "categories_per_batch",
                    "judges_per_article", "reservation_minutes"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"{key.replace('_', ' ')} must be a positive integer, got {value!r}")
        if self.sample is not None and (isinstance(self.sample, bool) or not isinstance(self.sample, int)
                                        or self.sample < 1):
            raise InputError(f"the slice size must be a positive integer, got {self.sample!r}")
        share = self.attention_share
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1:
            raise InputError(f"the share of articles with an attention check must be between 0 and 1, got {share!r}")
        self.rules.validate()
        if self.split not in ("train", "test", "all"):
            raise InputError(f"split must be train, test or all, got {self.split!r}")
        if not self.name.strip():
            raise InputError("the study needs a name")
        check_name("the study's name", self.name)
        specs = self.method_specs()
        if not self.methods:
            if not self.method_a.strip() or not self.method_b.strip():
                raise InputError("both keyword methods must be named")
            if self.method_a.strip() == self.method_b.strip():
                raise InputError(f"methods A and B must differ (both are {self.method_a!r})")
        if not 2 <= len(specs) <= len(METHOD_SLOTS):
            raise InputError(f"a study compares 2 to {len(METHOD_SLOTS)} methods, got {len(specs)}")
        seen: set[str] = set()
        for label, spec in zip(METHOD_SLOTS, specs, strict=False):
            name = spec.name.strip()
            if not name:
                raise InputError(f"method {label} needs a name")
            from .limits import check  # the study database's own limit, imported when needed (it loads the models)

            check("method name", name, f"of method {label}")
            check_name(f"method {label}'s name", name)
            if name in seen:
                raise InputError(f"two methods are named {name!r}; every method must differ")
            seen.add(name)
            allowed = PROTOCOLS + ((UNKNOWN_PROTOCOL,) if spec.imported else ())
            if spec.protocol not in allowed:
                raise InputError(f"protocol of method {label} must be one of {', '.join(allowed)}, "
                                 f"got {spec.protocol!r}")
            if spec.top is not None and (isinstance(spec.top, bool) or not isinstance(spec.top, int) or spec.top < 1):
                raise InputError(f"keywords shown for method {label} must be a positive integer, got {spec.top!r}")
