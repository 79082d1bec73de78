"""Keywords: steps 4–6 of the method (docs/method.md) for a prepared corpus or a new text.

==================  =========================================================================
:mod:`.index`       phrases → unique phrase vectors → their k_max nearest words, cached
:mod:`.base`        counts, training-split statistics, metric scores and ranking (shared)
:mod:`.model`       :class:`KeywordModel`: keywords in word-vector space, with provenance
:mod:`.baseline`    :class:`BaselineModel`: the same metrics over a document's own words
:mod:`.ranking`     :func:`top_n`, :class:`Keyword`, :class:`Provenance`, document vectors
:mod:`.units`       one document or new text at a time, with provenance
:mod:`.methods`     method specs (``latent-5word-knn90-rf``, ``tf-rf``) for the human study
:mod:`.registry`    the one registry of keyword methods: dkw, own-words baselines, extractors, imported
:mod:`.extractors`  third-party extractors (YAKE!, TextRank), :func:`register_extractor`, their cache
:mod:`.imports`     keywords computed elsewhere, read from a CSV or JSONL file
==================  =========================================================================
"""
from ..types import DEFAULT_PROTOCOL, PROTOCOLS, check_protocol
from .baseline import BaselineModel
from .extractors import KeywordExtractor, extract_cached, extractor_for, register_extractor
from .methods import keywords_by_method, model_for, parse_method
from .model import KeywordModel
from .ranking import Keyword, Provenance, document_vectors, top_n
from .registry import check_method_spec, describe_methods, method_kind
from .units import DocUnits

__all__ = [
    "KeywordModel", "BaselineModel", "Keyword", "Provenance", "DocUnits", "top_n", "document_vectors",
    "parse_method", "model_for", "keywords_by_method", "PROTOCOLS", "DEFAULT_PROTOCOL", "check_protocol",
    "KeywordExtractor", "register_extractor", "extractor_for", "extract_cached", "method_kind", "check_method_spec",
    "describe_methods",
]
