"""A tiny in-test corpus and fake keyword providers for the study tests."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Doc:
    id: str
    text: str
    label: str
    split: str


def make_docs(categories: list[str], *, per_split: int = 4) -> list[Doc]:
    docs = []
    for cat in categories:
        for split in ("train", "test"):
            for i in range(per_split):
                docs.append(Doc(id=f"{split}/{cat}/{i}", text=f"Text of {cat} number {i}.", label=cat, split=split))
    return docs


def disjoint_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """Method A gives alpha1..alphaN, method B beta1..betaN: word tells method and rank."""
    prefix = "alpha" if spec == "tf-rf" else "beta"
    return {d: [f"{prefix}{i}" for i in range(1, top + 1)] for d in doc_ids}


def overlap_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
    """A: shared, a2, a3; B: b1, shared, b3 — 'shared' is A's rank 1 and B's rank 2."""
    words = ["shared", "a2", "a3"] if spec == "tf-rf" else ["b1", "shared", "b3"]
    return {d: words[:top] for d in doc_ids}


CATS = ["c1", "c2", "c3", "c4", "c5", "c6"]
