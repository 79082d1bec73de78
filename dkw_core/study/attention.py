"""Attention checks: a share of a study's articles carries one planted intruder keyword from a
distant category, expected "Irrelevant" on both questions (docs/study.md "Attention checks").

Pure: from the drawn articles and every method's keywords to the intruder word of each chosen
article. **Distant category**: the categories' keyword vocabularies (the union of every method's
keywords of their drawn articles) are compared by Jaccard overlap; the intruder comes from the
category sharing the fewest keywords with the article's own (ties: the one farthest in the
corpus' category order, then the first). **Word**: drawn (seeded) from that category's
keywords, never a keyword of the article (in any case or Unicode form) and never a word of its
text. The planted word is stored as one more keyword of the article, shuffled into its row
order like the others and flagged ``intruder`` (no producing method): the judge page and its
frames carry only display positions and words, so it looks like any keyword.
"""
from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

from ..errors import InputError
from .imports import same_keyword

_WORD = re.compile(r"\w+", re.UNICODE)


def _text_words(text: str) -> set[str]:
    return {same_keyword(w) for w in _WORD.findall(text)}


def chosen_articles(doc_ids: Sequence[str], share: float, seed: int) -> list[str]:
    """The articles that get an attention check: ``round(share * n)`` of them (at least one when
    ``share`` > 0), drawn with the study's seed."""
    if share <= 0 or not doc_ids:
        return []
    k = min(len(doc_ids), max(1, round(share * len(doc_ids))))
    return sorted(random.Random(f"{seed}:attention").sample(sorted(doc_ids), k))


def plant_intruders(articles: Sequence[tuple[str, str, str]], keywords: Mapping[str, Sequence[str]],
                    categories: Sequence[str], *, share: float, seed: int) -> dict[str, str]:
    """``doc_id -> intruder word`` for the chosen share of ``articles`` (``(doc_id, category,
    text)``), ``keywords``: every keyword shown with each article. Refused in one line when a
    chosen article can get no intruder (a single category, or no distant keyword unknown to it)."""
    chosen = chosen_articles([a[0] for a in articles], share, seed)
    if not chosen:
        return {}
    present = [c for c in categories if any(a[1] == c for a in articles)]
    if len(present) < 2:
        raise InputError("attention checks need articles of at least two categories (the intruder comes from "
                         "a distant one)")
    vocab: dict[str, set[str]] = {c: set() for c in present}
    for doc_id, cat, _text in articles:
        vocab[cat].update(same_keyword(w) for w in keywords[doc_id])
    spelled: dict[str, dict[str, str]] = {c: {} for c in present}
    for doc_id, cat, _text in articles:
        for w in keywords[doc_id]:
            spelled[cat].setdefault(same_keyword(w), w)
    order = {c: i for i, c in enumerate(categories)}
    rng = random.Random(f"{seed}:intruders")
    by_id = {a[0]: a for a in articles}
    out = {}
    for doc_id in chosen:
        _id, cat, text = by_id[doc_id]
        own = {same_keyword(w) for w in keywords[doc_id]} | _text_words(text)

        def distance(other: str, cat: str = cat) -> tuple[float, int, int]:
            a, b = vocab[cat], vocab[other]
            jaccard = len(a & b) / len(a | b) if a | b else 0.0
            return (jaccard, -abs(order[other] - order[cat]), order[other])

        for other in sorted((c for c in present if c != cat), key=distance):
            pool = sorted(k for k in vocab[other] if k not in own)
            if pool:
                out[doc_id] = spelled[other][rng.choice(pool)]
                break
        else:
            raise InputError(f"no intruder keyword for article {doc_id!r}: every keyword of the other categories "
                             f"is one of its keywords or in its text")
    return out
