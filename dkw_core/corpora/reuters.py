"""Reuters-21578 (``reuters21578.tar.gz``), ModApte split, single-label: R52 and R8.

``LEWISSPLIT`` TRAIN/TEST with ``TOPICS="YES"``, documents with exactly one topic, topics having
at least one train and one test document: 52 classes, 6,532 / 2,568 (R52); restricted to acq,
crude, earn, grain, interest, money-fx, ship, trade: 5,485 / 2,189 (R8). Text = TITLE + BODY
(entities unescaped; documents without TITLE/BODY use their whole ``<TEXT>`` with tags removed).
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from ..errors import CorpusError
from ..types import Progress, report
from ._archive import member_bytes, tar_members
from .html import CONTROL_RE
from .model import _SPLIT_RANK, Document

R8_TOPICS = ("acq", "crude", "earn", "grain", "interest", "money-fx", "ship", "trade")
_REUTERS_RE = re.compile(r"<REUTERS([^>]*)>(.*?)</REUTERS>", re.S)
_ATTR_RE = re.compile(r'(\w+)="([^"]*)"')


def _reuters_field(body: str, tag: str) -> str | None:
    m = re.search(rf"<{tag}(?:\s[^>]*)?>(.*?)</{tag}>", body, re.S)  # <TEXT TYPE="UNPROC"> has attributes
    return m.group(1) if m else None


def _reuters_text(body: str) -> str:
    title = _reuters_field(body, "TITLE")
    text_body = _reuters_field(body, "BODY")
    if title is None and text_body is None:  # TYPE="UNPROC": raw text without sub-tags
        raw = _reuters_field(body, "TEXT") or ""
        text = re.sub(r"<[^>]+>", " ", raw)
    else:
        text = "\n".join(p.strip() for p in (title or "", text_body or "") if p.strip())
    text = CONTROL_RE.sub("", html.unescape(text))
    return text.strip()


def parse_reuters(path: Path, name: str, progress: Progress | None) -> list[Document]:
    records: list[tuple[str, str, str, str]] = []  # newid, split, topic, text
    sgm_seen = 0
    for tar, member in tar_members(path):
        if not re.search(r"(?:^|/)reut2-\d+\.sgm$", member.name):
            continue
        sgm_seen += 1
        content = member_bytes(tar, member).decode("latin-1")
        for m in _REUTERS_RE.finditer(content):
            attrs = dict(_ATTR_RE.findall(m.group(1)))
            split = attrs.get("LEWISSPLIT", "").lower()
            if attrs.get("TOPICS") != "YES" or split not in _SPLIT_RANK:
                continue
            topics = re.findall(r"<D>(.*?)</D>", _reuters_field(m.group(2), "TOPICS") or "")
            if len(topics) != 1:
                continue
            records.append((attrs["NEWID"], split, topics[0], _reuters_text(m.group(2))))
        report(progress, sgm_seen / 22 * 0.95, f"{name}: {member.name} parsed")
    if not sgm_seen:
        raise CorpusError(f"{name}: no reut2-*.sgm files in {path}; is it the Reuters-21578 archive?")
    in_train = {t for _, s, t, _ in records if s == "train"}
    in_test = {t for _, s, t, _ in records if s == "test"}
    keep = in_train & in_test
    if name == "r8":
        keep &= set(R8_TOPICS)
    return [Document(f"{name}/{split}/{topic}/{newid}", text, topic, split)
            for newid, split, topic, text in records if topic in keep]

