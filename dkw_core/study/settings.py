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
from ..types import DEFAULT_PROTOCOL, PROTOCOLS, UNKNOWN_PROTOCOL  # noqa: F401  (re-exported)
from ..validation import check_name

#: Method labels in order; a study uses the first 2..26.
METHOD_SLOTS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
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
            from .limits import check  # the study database's own limit (its models import this module)

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
