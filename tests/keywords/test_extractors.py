"""Third-party keyword extractors (dkw_core/keywords/extractors.py) and the method registry."""
import sys

import pytest

from dkw_core.errors import DkwError, MissingExtraError


@pytest.mark.parametrize("spec,module", [("yake", "yake"), ("textrank", "pytextrank")])
def test_a_missing_extra_is_one_line_naming_the_extra(monkeypatch, spec, module):
    from dkw_core.keywords import extractor_for

    monkeypatch.setitem(sys.modules, module, None)  # as if the package were not installed
    with pytest.raises(MissingExtraError) as err:
        extractor_for(spec).extract("The rocket reached orbit around the planet.", 3)
    message = str(err.value)
    assert isinstance(err.value, DkwError) and "\n" not in message
    assert f"'{module}'" in message and "pip install 'dkw[extractors]'" in message


def test_listing_the_methods_needs_no_extra_and_extracting_says_which(monkeypatch, tmp_path, capsys):
    from dkw_core.cli import main

    monkeypatch.setitem(sys.modules, "yake", None)
    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    text = tmp_path / "t.txt"
    text.write_text("The rocket reached orbit around the planet.")
    from dkw_core.keywords.extractors import extract_cached

    with pytest.raises(MissingExtraError):
        extract_cached("yake", [text.read_text()])
    assert main(["study", "methods"]) == 0  # listing the methods needs no extra
    assert "textrank" in capsys.readouterr().out


def test_textrank_gives_lower_case_noun_phrases_of_the_text_best_first():
    from dkw_core.keywords import extractor_for

    text = ("The space agency launched a new rocket. The rocket carried a weather satellite into a low orbit. "
            "The weather satellite will watch the storms of the planet.")
    words = extractor_for("textrank").extract(text, 4)
    assert 1 <= len(words) <= 4 and words == [w.lower() for w in words] and len(set(words)) == len(words)
    assert "weather satellite" in words and all(w in text.lower() for w in words)


def test_extracted_keywords_are_cached_per_document(monkeypatch, tmp_path):
    from dkw_core.keywords import register_extractor
    from dkw_core.keywords.extractors import extract_cached, unregister_extractor

    calls = []

    class Counting:
        reads_labels = False

        def extract(self, text, top):
            calls.append(text)
            return text.lower().split()[:top]

    monkeypatch.setenv("DKW_DATA_DIR", str(tmp_path))
    register_extractor(r"counting", lambda _m: Counting())
    try:
        first = extract_cached("counting", ["Alpha beta gamma", "Delta epsilon"], top=2)
        again = extract_cached("counting", ["Delta epsilon", "Alpha beta gamma", "Zeta eta"], top=2)
    finally:
        unregister_extractor(r"counting")
    assert first == [["alpha", "beta"], ["delta", "epsilon"]] and again[:2] == first[::-1]
    assert calls == ["Alpha beta gamma", "Delta epsilon", "Zeta eta"]  # each text extracted once


def test_the_registry_names_every_kind_and_what_each_reads():
    from dkw_core.keywords.registry import describe_methods, method_kind, reads_labels

    assert {r["kind"] for r in describe_methods()} == {"dkw", "baseline", "extractor", "imported"}
    assert {r["spec"] for r in describe_methods() if r["kind"] == "extractor"} >= {"yake", "textrank"}
    assert [method_kind(s) for s in ("latent-5word-knn90-ig", "tf-rf", "textrank")] == ["dkw", "baseline", "extractor"]
    assert reads_labels("extractor", "textrank") is False and reads_labels("imported") is None
    assert reads_labels("dkw", "latent-5word-knn90-ig", "label-free-top1") is False
    assert reads_labels("dkw", "latent-5word-knn90-ig", "label-aware") is True


def test_textrank_prints_nothing_on_stdout(capsys):
    from dkw_core.keywords.extractors import TextRankExtractor

    assert TextRankExtractor().extract("The rocket reached a low orbit around the planet.", 2)
    assert capsys.readouterr().out == ""  # pytextrank's import prints a git message; --json stays JSON
