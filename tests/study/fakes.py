"""A tiny in-test corpus and fake keyword providers for the study tests, and for
benchmarks/bench_study_concurrency.py (``make_docs``, ``disjoint_provider``)."""
from __future__ import annotations

from dkw_core.study.demo import DemoDocument as Doc


def make_docs(categories: list[str], *, per_split: int = 4) -> list[Doc]:
    """``per_split`` one-line documents per category in each of the train and test splits
    (ids ``<split>/<category>/<i>``): for tests and benchmarks of the study machinery."""
    return [Doc(id=f"{split}/{cat}/{i}", text=f"Text of {cat} number {i}.", label=cat, split=split)
            for cat in categories for split in ("train", "test") for i in range(per_split)]


def disjoint_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """The fake keyword provider of tests and benchmarks: method ``tf-rf`` gives alpha1..alphaN,
    any other spec beta1..betaN, so a word tells its method and rank (blinding checks look for
    exactly these words where a judge could see them)."""
    prefix = "alpha" if spec == "tf-rf" else "beta"
    return {d: [f"{prefix}{i}" for i in range(1, top + 1)] for d in doc_ids}


def overlap_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """A: shared, a2, a3; B: b1, shared, b3 — 'shared' is A's rank 1 and B's rank 2."""
    words = ["shared", "a2", "a3"] if spec == "tf-rf" else ["b1", "shared", "b3"]
    return {d: words[:top] for d in doc_ids}


def case_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """A: NASA, Café, a3; B: b1, nasa, cafe + combining acute — A's rank 1 and 2 in another case
    and Unicode form (a judge reads each pair as one word), B's rank 2 and 3."""
    words = ["NASA", "Caf\u00e9", "a3"] if spec == "tf-rf" else ["b1", "nasa", "cafe\u0301"]
    return {d: words[:top] for d in doc_ids}


CATS = ["c1", "c2", "c3", "c4", "c5", "c6"]


def category_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """Like the disjoint provider, but each category has its own words (``alpha1_c3``): an
    intruder keyword from a distant category exists (attention checks)."""
    prefix = "alpha" if spec == "tf-rf" else "beta"
    return {d: [f"{prefix}{i}_{d.split('/')[1]}" for i in range(1, top + 1)] for d in doc_ids}
