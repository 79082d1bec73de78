"""What the study pages add to ``dkw_core.study`` (no Streamlit): a study drawn from a corpus the
app loads (its slice, its keyword provider), the corpora a study can be drawn from, a corpus's
title for the judge. Everything else the study pages call from ``dkw_core.study`` directly
(``service`` for the study's API)."""
from __future__ import annotations

from dkw_core.corpora import dataset_info, list_corpora
from dkw_core.types import Progress


def create_study(engine, *, corpus: str, config, sample: int | None = None, progress: Progress | None = None,
                 cancel=None) -> int:
    """Load ``corpus`` (its first ``sample`` documents per category and split when given, as
    everywhere in the app) and its keyword provider, then draw and store a study; returns its
    id. ``cancel()`` true stops it at the next progress report (``Cancelled``, nothing stored)."""
    from dkw_core.study import providers, service

    docs, cats, provider = providers.source(corpus, progress=progress, cancel=cancel,
                                            sample=sample or getattr(config, "sample", None))
    return service.create_study(engine, documents=docs, categories=cats, provider=provider, config=config,
                                progress=progress, cancel=cancel)


def corpus_title(name: str) -> str:
    """A corpus's human title for the judge instructions (its registry title when it has one)."""
    try:
        info = dataset_info(name)
    except Exception:  # noqa: BLE001 - the demo corpus or an unknown name: the name itself
        return name
    return str(info.get("title") or info.get("description") or name) if isinstance(info, dict) else name


def study_corpora() -> list[str]:
    """Corpora a study can be drawn from: the demo corpus (with the fake switch), built-in
    corpora whose archive is present, then the corpora uploaded on Home. (A folder or CSV path
    is typed on the admin page.)"""
    from dkw_core.study.demo import DEMO_CORPUS, fake_enabled

    names = [DEMO_CORPUS] if fake_enabled() else []
    for name in list_corpora():
        try:
            available = bool(dataset_info(name).get("available", True))
        except Exception:  # noqa: BLE001 - an unreadable entry is simply not offered
            available = False
        if available:
            names.append(name)
    return names
