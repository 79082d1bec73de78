"""Tests for dkw_core/corpora/user.py (folder corpora) and the one helper every reader of file
names shares (:func:`dkw_core.corpora.model.name_text`): a name that is not UTF-8 (docs/bad-inputs.md)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from dkw_core import corpora
from dkw_core.corpora.model import name_text
from dkw_core.corpora.user import load_folder
from dkw_core.keywords.batch import file_id
from dkw_core.terminal import escape

RAW = b"bad\x9b[2Jname\xff"  # 0x9b is the C1 form of ESC [, 0xff no character at all
ESCAPED = "bad\\x9b[2Jname\\xff"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_name_text_is_the_one_escaped_form_of_a_name_that_is_not_utf8():
    name = os.fsdecode(RAW + b".txt")  # lone surrogates, as os.listdir gives the name
    assert name_text(name) == name_text(RAW + b".txt") == escape(name) == ESCAPED + ".txt"
    assert file_id(Path("sub") / name) == "sub/" + ESCAPED + ".txt"  # keywords --texts ids: the same helper
    assert name_text("caf\u00e9 \u6587.txt") == "caf\u00e9 \u6587.txt"  # valid names unchanged


def test_a_folder_corpus_with_category_and_file_names_that_are_not_utf8(tmp_path):
    root = tmp_path / "odd"
    bad = os.fsdecode(RAW)
    for split in ("train", "test"):
        _write(root / split / bad / (bad + ".txt"), f"The rocket reached the moon ({split}).")
        _write(root / split / "sport" / (bad + ".txt"), f"The team won the game ({split}).")
    corpus = load_folder(root)
    # before: ids and labels held lone surrogates, which no UTF-8 file can hold (UnicodeEncodeError)
    assert sorted((d.id, d.label) for d in corpus) == [
        (f"odd/test/{ESCAPED}/{ESCAPED}.txt", ESCAPED), (f"odd/test/sport/{ESCAPED}.txt", "sport"),
        (f"odd/train/{ESCAPED}/{ESCAPED}.txt", ESCAPED), (f"odd/train/sport/{ESCAPED}.txt", "sport")]
    assert corpus.categories == sorted([ESCAPED, "sport"])
    json.dumps([(d.id, d.label) for d in corpus], ensure_ascii=False).encode("utf-8")  # writable as is
    assert corpus.key.startswith("odd-") and corpus.key == load_folder(root).key  # a stable cache key
    assert corpus.get(f"odd/test/{ESCAPED}/{ESCAPED}.txt").text == "The rocket reached the moon (test)."


def test_a_7sectors_folder_with_a_name_that_is_not_utf8(tmp_path):
    root = tmp_path / "7sectors"
    bad = os.fsdecode(RAW)
    for sector in ("energy.sector", bad):
        for i in range(3):
            _write(root / sector / "some.industry" / f"{bad}{i}", f"<html><body>page {i}</body></html>")
    corpus = corpora.load_7sectors(root)
    assert corpus.categories == sorted([ESCAPED, "energy.sector"])
    assert f"7sectors/all/{ESCAPED}/some.industry/{ESCAPED}0" in {d.id for d in corpus}
    assert not any("\udc9b" in d.id + d.label for d in corpus)
