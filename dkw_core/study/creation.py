"""Creating a study: draw the articles, get every method's keywords, store it in one transaction.

Paper §4.6 / docs/method.md §4: articles are drawn per category (default 5 from the **test**
split, seeded), categories are grouped into batches in the corpus' fixed category order, and
each article shows the shuffled union of the methods' keywords. A study compares two or more
methods (labels A, B, C…); the paper's A/B pair is the default.

**Cancellation.** ``cancel()`` is polled at every progress report (the corpus's preparation
reports through the same callback); when it returns true :class:`~.errors.Cancelled` is
raised. Nothing is written before the last step, which is one transaction: a cancelled or
killed creation leaves no partial study.

**Stored-field limits.** Every value the study stores from outside (names, document ids,
categories, texts, imported keywords) is checked against the study database's columns right
after the draw, before any keyword is computed (:mod:`.limits`); a computed keyword that
cannot be stored is left out, the method's next word shown instead, and the log says so.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..errors import InputError
from ..types import Progress
from .attention import plant_intruders
from .errors import cancellable
from .imports import same_keyword
from .limits import check_study, preview, source_of, unstorable
from .methods import effective_protocol, method_keywords, method_kind
from .models import METHOD_SLOTS, Article, KeywordSource, Study, StudyKeyword, StudyMethod, init_db
from .settings import DocumentLike, KeywordProvider, StudyConfig
from .store import get_study, log_event, write_session

#: Keyword rows are inserted in a random order so that their ids carry no method or rank.
_ROW_ORDER = random.SystemRandom()


def draw_articles(documents: Iterable[DocumentLike], categories: Sequence[str], *, per_category: int,
                  seed: int, split: str = "test") -> list[DocumentLike]:
    """``per_category`` documents of each category from ``split``, sampled with ``seed``.

    Categories keep the given (corpus) order; within a category the sample order is the
    draw order. Too few documents in a category raises :class:`InputError`.
    """
    by_cat: dict[str, list[DocumentLike]] = {c: [] for c in categories}
    for doc in documents:
        if (split == "all" or doc.split == split) and doc.label in by_cat:
            by_cat[doc.label].append(doc)
    rng = random.Random(seed)
    chosen: list[DocumentLike] = []
    for cat in categories:
        pool = sorted(by_cat[cat], key=lambda d: d.id)
        if len(pool) < per_category:
            raise InputError(f"category {cat!r} has only {len(pool)} documents in the {split} split, "
                             f"{per_category} needed")
        chosen.extend(rng.sample(pool, per_category))
    return chosen


def keyword_union(lists: dict[str, list[str]]) -> list[tuple[str, dict[str, int]]]:
    """Union of ranked keyword lists by method label: word -> {label: 1-based rank}, first-seen
    order (labels in order). A word several methods produced appears once and counts for each —
    also when they spell it in another case or Unicode form (``NASA`` from an imported list, ``nasa`` from
    dkw: :func:`~.imports.same_keyword`, the rule imported lists are checked by), which a judge
    would read as one word. It is shown as the first method (in label order) spelt it."""
    merged: dict[str, tuple[str, dict[str, int]]] = {}
    for label in sorted(lists):
        rank = 0
        for word in lists[label]:
            word = str(word).strip()
            if not word:
                continue
            rank += 1
            merged.setdefault(same_keyword(word), (word, {}))[1].setdefault(label, rank)
    return list(merged.values())


#: The default study settings (frozen, so one shared instance is safe as a default argument).
_DEFAULT_CONFIG = StudyConfig()


def create_study(engine: Engine, *, documents: Iterable[DocumentLike], categories: Sequence[str],
                 provider: KeywordProvider, config: StudyConfig = _DEFAULT_CONFIG,
                 progress: Progress | None = None, cancel: Callable[[], bool] | None = None) -> int:
    """Draw the articles, fetch every method's keywords and store the study; returns its id.

    ``provider(spec, doc_ids, top, protocol)`` gives the dkw and baseline methods' keywords —
    in the app :func:`dkw_core.keywords.keywords_by_method`, in tests a fake; extractors run
    here, imported keywords are given in the :class:`MethodSpec`. Every drawn article needs
    keywords from every method, else :class:`InputError` names the article.
    """
    config.validate()
    specs = config.method_specs()
    kinds = [method_kind(s) for s in specs]  # unknown built-in specs fail here, before any work
    categories = list(categories)
    if not categories:
        raise InputError("the corpus has no categories")
    seed = config.seed if config.seed is not None else secrets.randbelow(2**31)
    report = cancellable(progress, cancel)
    report(0.0, f"drawing {config.articles_per_category} articles per category from the {config.split} split")
    docs = draw_articles(documents, categories, per_category=config.articles_per_category, seed=seed,
                         split=config.split)
    check_study(config, docs)  # every value stored fits both databases, before any keyword is computed
    by_id = {d.id: d for d in docs}
    labels = METHOD_SLOTS[: len(specs)]
    left_out: dict[str, dict[str, list[str]]] = {}
    kws: dict[str, dict[str, list[str]]] = {}
    share = 0.85 / len(specs)
    for i, (label, spec, kind) in enumerate(zip(labels, specs, kinds, strict=True)):
        top = spec.top or config.keywords_per_method
        report(0.05 + share * i, f"keywords of method {label} ({kind})")

        def method_progress(message: str, i: int = i) -> None:
            report(0.05 + share * i, message)

        result = method_keywords(spec, documents=by_id, top=top, provider=provider, progress=method_progress,
                                 left_out=left_out.setdefault(label, {}))
        missing = [d for d in by_id if not result.get(d)]
        if missing:
            what = "has no keywords" if spec.imported else "gave no keywords"
            raise InputError(f"method {label} ({spec.name}) {what} for {len(missing)} of the {len(by_id)} drawn "
                             f"article(s), e.g. {missing[0]!r}")
        kws[label] = result
    intruders = plant_intruders([(d.id, d.label, d.text) for d in docs],
                                {d.id: [w for label in labels for w in kws[label][d.id]] for d in docs},
                                categories, share=config.attention_share, seed=seed)
    report(0.9, "storing the study")
    init_db(engine)
    batch_of = {c: i // config.categories_per_batch for i, c in enumerate(categories)}
    first, second = specs[0], specs[1]
    tops = [spec.top or config.keywords_per_method for spec in specs]
    with write_session(engine) as session:
        study = Study(name=config.name.strip(), corpus=config.corpus, split=config.split,
                      method_a=first.name.strip(), method_b=second.name.strip(),
                      keywords_per_method=max(tops),  # each method's own count is its StudyMethod.top
                      articles_per_category=config.articles_per_category,
                      categories_per_batch=config.categories_per_batch,
                      judges_per_article=config.judges_per_article, seed=seed, categories=categories,
                      reservation_minutes=config.reservation_minutes, protocol_a=effective_protocol(first)[:32],
                      protocol_b=effective_protocol(second)[:32], status="open", sample=config.sample,
                      attention_share=float(config.attention_share), rules=config.rules.to_dict())
        study.methods = [StudyMethod(label=label, name=spec.name.strip(), protocol=effective_protocol(spec)[:32],
                                     kind=kind, top=top, source=source_of(spec))
                         for label, spec, kind, top in zip(labels, specs, kinds, tops, strict=True)]
        session.add(study)
        for pos, doc in enumerate(docs):
            art = Article(doc_id=doc.id, category=doc.label, batch=batch_of[doc.label], position=pos,
                          text=doc.text)
            union = keyword_union({label: kws[label][doc.id] for label in labels})
            if doc.id in intruders:  # an attention check: one more keyword, produced by no method
                union.append((intruders[doc.id], {}))
            _ROW_ORDER.shuffle(union)  # row ids must not follow method, rank or intruder (blinding)
            for word, ranks in union:
                kw = StudyKeyword(word=word, intruder=not ranks)
                kw.sources = [KeywordSource(method=m, rank=r) for m, r in sorted(ranks.items())]
                art.keywords.append(kw)
            study.articles.append(art)
        session.flush()
        study_id = study.id
        described = ", ".join(f"{m.label} = {m.name} ({m.protocol})" for m in study.methods)
        log_event(session, study_id, "created",
                  f"{len(docs)} articles of {config.corpus}"
                  + (f" (slice: first {config.sample} documents per category and split)" if config.sample else "")
                  + f" ({config.split} split, seed {seed}); {described}; "
                  f"{keywords_shown(method_rows(study))}, {config.judges_per_article} judges per article; "
                  f"{len(intruders)} attention check(s); exclusion rules: "
                  + ("; ".join(config.rules.describe()) or "none"))
        for label, docs_left in left_out.items():
            for doc_id, words in docs_left.items():
                log_event(session, study_id, "keywords left out",
                          f"method {label}, document {preview(doc_id)}: " + ", ".join(map(unstorable, words))
                          + " (the study database cannot store them; the method's next words are shown)")
    if progress is not None:
        progress(1.0, f"study {study_id} created with {len(docs)} articles")
    return study_id


def keywords_shown(methods: Sequence[dict[str, Any]]) -> str:
    """How many keywords each method shows, in words: ``5 keywords per method`` when all show
    the same number, else ``keywords per method: A 2, B 5``. ``methods``: :func:`method_rows`."""
    tops = [int(m["top"]) for m in methods]
    if tops and len(set(tops)) == 1:
        return f"{tops[0]} keywords per method"
    return "keywords per method: " + ", ".join(f"{m['label']} {m['top']}" for m in methods)


def method_rows(study: Study) -> list[dict[str, Any]]:
    """The study's methods for the organiser: label, name, protocol, kind, keywords shown, source."""
    return [{"label": m.label, "name": m.name, "protocol": m.protocol, "kind": m.kind, "top": m.top,
             "source": m.source} for m in study.methods]


def list_studies(engine: Engine) -> list[dict[str, Any]]:
    init_db(engine)
    with Session(engine) as session:
        rows = []
        for st in session.scalars(select(Study).order_by(Study.id)):
            n_art = session.scalar(select(func.count(Article.id)).where(Article.study_id == st.id))
            rows.append({"id": st.id, "name": st.name, "status": st.status, "corpus": st.corpus,
                         "split": st.split, "method_a": st.method_a, "protocol_a": st.protocol_a,
                         "method_b": st.method_b, "protocol_b": st.protocol_b, "methods": method_rows(st),
                         "articles": n_art, "judges_per_article": st.judges_per_article, "seed": st.seed,
                         "created_at": st.created_at})
        return rows


def study_settings(engine: Engine, study_id: int) -> dict[str, Any]:
    """Every stored setting of a study plus ``methods`` (:func:`method_rows`)."""
    with Session(engine) as session:
        st = get_study(session, study_id)
        out = {c.name: getattr(st, c.name) for c in Study.__table__.columns}
        out["methods"] = method_rows(st)
        return out
