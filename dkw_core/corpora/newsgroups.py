"""20 Newsgroups "bydate" (``20news-bydate.tar.gz``): 11,314 train / 7,532 test, 20 groups.

Text = latin-1 decode of the whole file including headers (as scikit-learn's ``load_files``).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..types import Progress, report
from ._archive import member_bytes, tar_members
from .model import Document, safe_id_part

_20NG_RE = re.compile(r"(?:^|/)20news-bydate-(train|test)/([^/]+)/([^/]+)$")


def parse_20ng(path: Path, progress: Progress | None) -> list[Document]:
    docs = []
    expected = 18846
    for tar, member in tar_members(path):
        m = _20NG_RE.search(member.name)
        if not m:
            continue
        split, group, file_id = m.groups()
        data = member_bytes(tar, member)
        docs.append(Document(f"20ng/{split}/{group}/{safe_id_part(file_id)}", data.decode("latin-1"), group, split))
        if len(docs) % 500 == 0:
            report(progress, len(docs) / expected * 0.95, f"20ng: {len(docs)} files read")
    return docs

