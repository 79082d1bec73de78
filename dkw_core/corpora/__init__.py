"""Corpora: the paper's evaluation corpora (§5) and user corpora, one reader module per format.

============================  ===============================================================
:mod:`.model`                 :class:`Document`, :class:`Corpus` (stable order, content keys)
:mod:`.specs`                 one :class:`CorpusSpec` per built-in corpus (:data:`CORPORA`): archive,
                              sources, checksum, expected counts, reader
:mod:`.registry`              built-in and user corpora by name, the parsed-corpus cache,
                              :func:`load_corpus`
:mod:`.newsgroups`            20 Newsgroups bydate
:mod:`.reuters`               Reuters-21578 ModApte: R52, R8
:mod:`.webkb`                 WebKB (7 and 4 classes), 7 Sectors, the hash-stratified split
:mod:`.html`                  crawled pages as plain text
:mod:`.user`                  a folder ``<split>/<category>/<file>`` or a ``text,label,split`` CSV
:mod:`.uploads`               user corpora uploaded in the app, validated, stored under ``DKW_DATA_DIR``
:mod:`.download`              archives downloaded on first use (checksum or structure validated)
============================  ===============================================================
"""
from .html import html_page_to_text
from .model import SPLITS, Corpus, Document, content_key
from .registry import available, corpus_key, dataset_info, list_corpora, list_datasets, load_corpus
from .reuters import R8_TOPICS
from .specs import CORPORA, ArchiveSpec, CorpusSpec, Source
from .webkb import TEST_FRACTION, WEBKB4_CLASSES, hash_split, load_7sectors

__all__ = [
    "Document", "Corpus", "SPLITS", "content_key", "list_datasets", "list_corpora", "dataset_info", "load_corpus", "available",
    "corpus_key", "hash_split", "load_7sectors", "html_page_to_text", "TEST_FRACTION", "R8_TOPICS",
    "WEBKB4_CLASSES", "CORPORA", "CorpusSpec", "ArchiveSpec", "Source",
]
