"""What the study pages add to ``dkw_core.study`` (no Streamlit): a study drawn from a corpus the
app loads (its slice, its keyword provider), a corpus's title for the judge. Everything else the
study pages call from ``dkw_core.study`` directly (``service`` for the study's API,
``providers.corpus_choices`` for the corpora a study can be drawn from, as the CLI offers them)."""
from __future__ import annotations

from dkw_core.corpora import dataset_info
from dkw_core.types import Progress


def create_study(engine, config, *, progress: Progress | None = None, cancel=None) -> int:
    """Load ``config.corpus`` (its first ``config.sample`` documents per category and split when
    set, as everywhere in the app) and its keyword provider, then draw and store a study; returns
    its id. ``cancel()`` true stops it at the next progress report (``Cancelled``, nothing stored)."""
    from dkw_core.study import providers, service

    docs, cats, provider = providers.source(config.corpus, progress=progress, cancel=cancel, sample=config.sample)
    return service.create_study(engine, documents=docs, categories=cats, provider=provider, config=config,
                                progress=progress, cancel=cancel)


def corpus_title(name: str) -> str:
    """A corpus's human title for the judge instructions (its registry title when it has one)."""
    try:
        info = dataset_info(name)
    except Exception:  # noqa: BLE001 - the demo corpus or an unknown name: the name itself
        return name
    return str(info.get("title") or info.get("description") or name) if isinstance(info, dict) else name

