"""Errors a user can act on. The CLI prints ``str(err)`` on one line and exits non-zero."""


class DkwError(Exception):
    """Base class: a problem with the user's input or environment, not a bug."""


class CorpusError(DkwError):
    """A corpus archive is missing or malformed, or a document id is unknown."""


class VectorError(DkwError):
    """A vector model file is missing or malformed."""


class InputError(DkwError, ValueError):
    """A document, phrase or parameter cannot be processed (empty, binary, no nouns, no known
    word, an out-of-range value). A ``ValueError``, as scikit-learn expects of bad parameters."""


class StoreError(DkwError):
    """A database is locked, corrupted or unreachable."""


class MissingExtraError(DkwError):
    """An optional part of dkw needs a package its pip extra brings (``pip install 'dkw[extractors]'``)."""
