"""The batch rule as a pure chooser: from the article counts and a judge's seed to an article
slot, or ``wait``, or ``done``. No database here (tests/study/test_assignment.py checks its
properties with Hypothesis); :mod:`.tasks` gathers the counts under the write lock and stores
the choice.

Paper §4.6 / docs/method.md §4. **Batch rule, operational form.** The paper opens the next
batch for a judge "when she has judged every article of the current one or no article in it
still lacks judges". Here a batch is closed for a judge as soon as it holds no article she may
still take: every article is either judged (or reserved) by her, or has all its slots taken.
Both conditions of the paper close it; in addition a judge is never stuck on a batch whose
only open article she has already judged. A slot counts as taken when submitted or reserved
by a live (not expired) reservation.

Within the first batch that has an article she may take, she gets the article first in her
personal random order (:func:`order_key` of her secret seed), in its lowest free slot. With
nothing to take she waits while another judge still holds a reservation she could inherit
(it may expire), and is done otherwise.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ArticleState:
    """What the chooser needs to know of one article, seen by one judge."""

    article_id: int
    batch: int  # 0-based, fixed order
    used_slots: frozenset[int]  # slots submitted or reserved by a live reservation
    mine: bool  # this judge judged it or holds it
    has_open: bool  # some reservation of it is not submitted yet


@dataclass(frozen=True)
class Choice:
    """``status`` ``"task"`` with the article and slot to reserve, ``"wait"`` or ``"done"``."""

    status: str
    article_id: int | None = None
    slot: int | None = None


WAIT = Choice("wait")
DONE = Choice("done")


def order_key(seed: int, article_id: int) -> str:
    """The judge's personal random order of articles (stable, unpredictable without her seed)."""
    return hashlib.sha256(f"{seed}:{article_id}".encode()).hexdigest()


def choose(articles: Iterable[ArticleState], *, judges_per_article: int, seed: int) -> Choice:
    """The next article slot for a judge with ``seed``, or :data:`WAIT` / :data:`DONE`."""
    items = list(articles)
    available = [(a.batch, order_key(seed, a.article_id), a.article_id, a) for a in items
                 if not a.mine and len(a.used_slots) < judges_per_article]
    if not available:
        waiting = any(not a.mine and a.has_open for a in items)
        return WAIT if waiting else DONE
    *_key, art = min(available)
    slot = min(s for s in range(1, judges_per_article + 1) if s not in art.used_slots)
    return Choice("task", art.article_id, slot)
