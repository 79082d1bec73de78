"""Tests for dkw_core/longtext.py: a long text cut at paragraph breaks, its phrases counted
piece by piece (the same bag as tagging it whole), and the DKW_MAX_TEXT_MB limit."""
from __future__ import annotations

from collections import Counter

import pytest

from dkw_core.cli import main
from dkw_core.errors import InputError
from dkw_core.longtext import _split, check_size, count_phrases, pieces


def test_pieces_keep_every_character_in_order_and_respect_the_limit():
    paragraphs = [f"Paragraph {i} about the rocket and the orbit of the planet. " * (1 + i % 7) for i in range(60)]
    text = "\n\n".join(paragraphs) + "\n" + "x" * 700 + " tail"
    parts = list(_split(text, 400))
    assert "".join(parts) == text
    assert all(len(p) <= 400 for p in parts)
    # cuts fall on paragraph breaks whenever a paragraph fits
    assert sum(p.endswith("\n\n") for p in parts) >= len(parts) // 2


def test_pieces_skip_blank_pieces_and_cut_unbroken_text():
    assert list(pieces("   \n\n  \n\n", 4)) == []
    assert list(pieces("a" * 10, 4)) == ["aaaa", "aaaa", "aa"]


def test_counts_equal_tagging_the_paragraphs_whole():
    from dkw_core.phrases import get_tagger

    paragraphs = ["The space shuttle reached the international space station.",
                  "The coach of the football team praised the young player.",
                  "A digitised clip of the film played at a slow frame rate."] * 5
    text = "\n\n".join(paragraphs)
    tagger = get_tagger()
    whole = Counter()
    for p in paragraphs:
        whole.update(tagger.tag(p).phrases())
    seen = []
    streamed = count_phrases(text, chunk_chars=130, batch_size=2, n_process=1,
                             progress=lambda f, m: seen.append(f))
    assert streamed == whole and whole
    assert seen[-1] == 1.0 and seen == sorted(seen)


def test_size_limit(monkeypatch):
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "0.001")
    check_size(1000)
    with pytest.raises(InputError, match=r"big.txt: 0.0 MB is above the limit of 0.001 MB .*DKW_MAX_TEXT_MB"):
        check_size(1001, "big.txt")
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "lots")
    with pytest.raises(InputError, match="DKW_MAX_TEXT_MB must be a positive number"):
        check_size(1)


def test_cli_refuses_an_oversized_text_before_loading_anything(tmp_path, monkeypatch, capsys):
    big = tmp_path / "big.txt"
    big.write_text("The rocket reached orbit. " * 200)
    monkeypatch.setenv("DKW_MAX_TEXT_MB", "0.001")
    # the corpus does not even exist: the size check comes first
    code = main(["keywords", "--dataset", str(tmp_path / "no-such-corpus"), "--text-file", str(big)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: {big}: 0.0 MB is above the limit of 0.001 MB")
