"""A small in-memory stand-in for the loaders of ``dkw_app.corpora_models``, ``keywords_door`` and
``stored_runs``: AppTest tests of
the pages run in a second without vectors, spaCy or corpus archives."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from dkw_app import corpora_models, keywords_door, stored_runs
from dkw_core import config
from dkw_core.corpora import Corpus, Document
from dkw_core.keywords import BaselineModel, KeywordModel, newtexts

UNTRUSTED = ("Hello <script>alert('x')</script> see [a link](http://evil.example) "
             "and ![an image](http://evil.example/i.png) **bold** <b>html</b>")


@dataclass
class FakeProvenance:
    phrase: str
    similarity: float
    count: int


class FakeKeywordList(list):
    """What ``keyword_list`` (``extract_keywords``) returns: the keywords and how they were obtained."""

    weighting = None
    fit = None
    about = 1.0
    category_words: list = []


@dataclass
class FakeKeyword:
    word: str
    score: float
    tf: int
    provenance: list = field(default_factory=list)


def make_corpus() -> Corpus:
    docs = [
        Document("20ng/train/comp.graphics/1", "video playback resolution frames graphics card", "comp.graphics", "train"),
        Document("20ng/train/sci.space/2", "orbit shuttle launch space station", "sci.space", "train"),
        Document("20ng/test/comp.graphics/38758", "video playback speed at different resolution modes window frames",
                 "comp.graphics", "test"),
        Document("20ng/test/comp.graphics/38759", UNTRUSTED, "comp.graphics", "test"),
        Document("20ng/test/sci.space/3", "moon lander rocket fuel engine", "sci.space", "test"),
    ]
    return Corpus("20ng", docs)


def hostile_corpus(name: str = "20ng") -> Corpus:
    """tests/support/hostile.py's corpus as the CSV reader names its documents:
    ``<name>/<split>/<category>/<id>``."""
    from dkw_core.corpora.user import id_part
    from tests.support import hostile

    return Corpus(name, [Document(f"{name}/{r['split']}/{id_part(r['label'])}/{id_part(r['id'])}", r["text"],
                                  r["label"], r["split"]) for r in hostile.rows()])


class FakeModel:
    """Keywords = the document's distinct words, ordered differently per metric, so the
    expected table can be computed here independently of the app."""

    def __init__(self, corpus: Corpus, neighbours: str = "cosine") -> None:
        self.corpus = corpus
        self.neighbours = neighbours

    @staticmethod
    def expected(text: str, metric: str, top: int) -> list[str]:
        words = sorted(set(re.findall(r"[a-z]+", text.lower())))
        if metric.startswith("tf-"):
            words = words[::-1]
        if "rf" in metric:
            words = sorted(words, key=len, reverse=True)
        return words[:top]

    def keywords(self, doc_id, *, metric, k, top, protocol, about=None):
        words = self.expected(self.corpus.get(doc_id).text, metric, top)
        return [FakeKeyword(w, float(len(words) - i), 1, [FakeProvenance(w, 0.9, 2)])
                for i, w in enumerate(words)]

    # -- new texts: keywords of the text's own words (the phrase behind each is the word itself),
    # prefixed with the category they are weighted with; "unsure" in a text makes the posterior hesitate
    categories = ["comp.graphics", "sci.space"]
    text_calls: list = []

    @staticmethod
    def posterior(text):
        return np.array([0.41, 0.38] if "unsure" in text else [0.93, 0.07])

    def text_words(self, text, *, metric, top, protocol="label-free-top1", label=None):
        FakeModel.text_calls.append({"protocol": protocol, "label": label})
        cat = label or (self.categories[int(self.posterior(text).argmax())] if protocol == "label-free-top1" else None)
        prefix = f"{cat.split('.')[-1]}-" if cat else ""
        words = self.expected(text, metric, top)
        return [FakeKeyword(prefix + w, float(len(words) - i), 1, [FakeProvenance(w, 0.9, 1)])
                for i, w in enumerate(words)]

    def category_keywords(self, category, *, metric, k, top, phrases=5):
        from dkw_core.keywords.categories import CategoryWord

        docs = [d for d in self.corpus.documents if d.split == "train" and d.label == category]
        words = self.expected(" ".join(d.text for d in docs), metric, top)
        return [CategoryWord(w, float(len(words) - i), 1, 1.0, 0.0, ((f"{w} phrase", 1),)) for i, w in enumerate(words)]


def fake_text_keywords(model, items, *, metrics, top, protocol="label-free-top1", about=None, alternatives=False,
                       **_):
    """The one path of new texts (``dkw_core.keywords.newtexts.text_keywords``) over a
    :class:`FakeModel`: its words per metric, the category words beside them below about 1, and
    an unsure text's words under its two likeliest categories."""
    from dkw_core.keywords.newtexts import TextKeywords
    from dkw_core.keywords.posterior import weighting_of
    from dkw_core.types import DEFAULT_ABOUT, PROTOCOL_INFO

    for name, text in items:
        a = DEFAULT_ABOUT if about is None else about
        if not text.strip():
            yield TextKeywords(name, text, {m: [] for m in metrics}, a, problem="the document is empty")
            continue
        found = TextKeywords(name, text, {m: model.text_words(text, metric=m, top=top, protocol=protocol)
                                          for m in metrics}, a, posterior=model.posterior(text))
        if a < 1.0:
            found.category_words = dict(found.keywords)
        w = weighting_of(found.posterior, model.categories)
        if alternatives and PROTOCOL_INFO[protocol].posterior and w.unsure and w.runner_up is not None:
            found.by_category = {cat: {m: model.text_words(text, metric=m, top=top, protocol=protocol, label=cat)
                                       for m in metrics} for cat in (w.category, w.runner_up)}
        yield found


#: The fake peers and their labels; a peer ranks the category's own words alphabetically backwards.
PEERS = {"fightin-words": "Fightin' Words (own words)", "c-tf-idf": "c-TF-IDF (own words)"}


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def fake_category_terms(model, category, *, method, k, top):
    """The category's words ranked as :meth:`FakeModel.expected` ranks them (a peer: backwards),
    scored N, N-1, …, with their occurrences in the category's and the other training documents;
    the category's other words follow as background."""
    from collections import Counter

    from dkw_core.keywords.category_methods import CategoryTerms, TermPoint

    train = [d for d in model.corpus.documents if d.split == "train"]
    inside = Counter(w for d in train if d.label == category for w in tokens(d.text))
    outside = Counter(w for d in train if d.label != category for w in tokens(d.text))
    if method in PEERS:
        words = sorted(inside, reverse=True)[:top]
    else:
        words = FakeModel.expected(" ".join(d.text for d in train if d.label == category), method, top)
    points = [TermPoint(w, float(len(words) - i), inside[w], outside[w], i + 1) for i, w in enumerate(words)]
    points += [TermPoint(w, 0.0, inside[w], outside[w], 0) for w in sorted(inside) if w not in words]
    return CategoryTerms(category, method, "occurrences" if method in PEERS else "documents",
                         float(sum(inside.values())), float(sum(outside.values())), tuple(points))


def fake_category_quality(corpus_key, category, words, texts):
    """dkw_core.quality on the fake corpus's tokens (test split: reference; training split: exclusivity)."""
    from dkw_core.quality import list_quality

    docs = texts().documents
    train = [d for d in docs if d.split == "train"]
    return list_quality({category: list(words)}, [tokens(d.text) for d in docs if d.split == "test"],
                        [tokens(d.text) for d in train], [d.label for d in train])


class FakeBackend:
    """Installs itself over the app's loaders (``dkw_app.corpora_models``, ``keywords_door``,
    ``stored_runs``) with ``monkeypatch``."""

    def __init__(self, monkeypatch, *, prepared: bool = True, runs: pd.DataFrame | None = None,
                 reference: pd.DataFrame | None = None, leaks: pd.DataFrame | None = None,
                 hubness: pd.DataFrame | None = None) -> None:
        self.prepared = prepared
        self.prepare_calls = 0
        self.opened: list[str] = []  # "corpus" / "vectors", each time one is loaded
        self.prepared_checks: list[tuple] = []  # arguments of every is_prepared call
        self.downloads: list[str] = []  # corpora whose archive the app asked to download
        self.split_calls: list[tuple] = []  # arguments of every whole-split keyword file
        self.available = {"20ng"}
        self.shipped: set[str] = set()  # corpora whose new texts are answered from shipped statistics
        self.shipped_loads: list[str] = []
        self.taggers: list[str | None] = []  # the kind of every tagger the app loaded (None: new texts')
        self.download_error: str | None = None
        self.neighbours_checked: list[str] = []  # the neighbours spec of every is_prepared call
        self.prepared_neighbours: list[str] = []  # the neighbours spec of every prepare call
        self.corpus = make_corpus()
        self.runs = runs if runs is not None else pd.DataFrame(columns=stored_runs.RUN_COLUMNS)
        self.reference = reference if reference is not None else pd.DataFrame(columns=[*stored_runs.RUN_COLUMNS, "source"])
        self.leaks = leaks if leaks is not None else pd.DataFrame(columns=["dataset", "metric", "k", "top"])
        self.leak_calls: list[dict] = []
        self.reference_hub = hubness if hubness is not None else pd.DataFrame(columns=["dataset"])
        self.instant_texts: list[str] = []  # texts given to the keywords-at-once box of Home
        self.instant_abouts: list[float | None] = []  # and the about each was asked with (None: the default rule)
        self.instant_refusal: str | None = None  # why that box cannot answer at once (other vectors)
        self.prepare_gate = None  # a threading.Event that holds the fake preparation until it is set
        self.interrupted: dict[str, int] = {}  # documents an interrupted preparation left tagged, per corpus
        patches = {
            (corpora_models, "list_corpora"): lambda: ["20ng", "r8"],
            (corpora_models, "dataset_info"): lambda name: {"name": name, "train": 2, "test": 3, "categories": 2,
                                                            "available": name in self.available,
                                                            "archive": f"{name}.tar.gz"},
            (config, "archives_dir"): lambda: Path("/fake/archives"),
            (corpora_models, "download_archive"): self._download_archive,
            (keywords_door, "split_keywords"): self._split_keywords,
            (corpora_models, "corpus_key"): lambda name, sample=None: f"{name}-head{sample}" if sample else name,
            (corpora_models, "open_corpus"): self._open_corpus,
            (corpora_models, "load_vectors"): self._open_vectors,
            (corpora_models, "vectors_name"): lambda: "fake-vectors",
            (KeywordModel, "is_prepared"): staticmethod(self._is_prepared),
            (KeywordModel, "prepare"): staticmethod(self._prepare),
            (corpora_models, "tagger_description"): lambda: "fake tagger",
            (corpora_models, "get_tagger"): lambda kind=None: self.taggers.append(kind) or "fake tagger object",
            (stored_runs, "load_runs"): lambda *, dataset=None: self.runs,
            (stored_runs, "reference_runs"): lambda: self.reference,
            (stored_runs, "load_reference_leakchecks"): lambda: self.leaks,
            (stored_runs, "load_reference_hubness"): lambda: self.reference_hub,
            (stored_runs, "leak_check"): self._leak_check,
            (corpora_models, "hubness"): self._hubness,
            (keywords_door, "shipped_answers"): lambda name, **_: name in self.shipped,
            (keywords_door, "load_shipped"): lambda name, **_: self._shipped_model(name),
            (keywords_door, "keyword_list"): self._instant_keywords,
            (newtexts, "text_keywords"): fake_text_keywords,  # the one path of new texts, over a FakeModel
            (keywords_door, "instant_refusal"): lambda request: self.instant_refusal,
            (stored_runs, "disk_cached"): lambda kind, parts, compute: compute(),  # no disk: every test computes its own
            (corpora_models, "interrupted_tagging"): lambda name: self.interrupted.get(name, 0),
            (keywords_door, "method_names"): lambda: ["rf", "tds", "ig", "lo-own", "tf-idf", "tf-rf", *PEERS],
            (keywords_door, "method_label"): lambda method: PEERS.get(method, method),
            (keywords_door, "is_peer"): lambda method: method in PEERS,
            (BaselineModel, "prepare"): staticmethod(lambda corpus, **_: FakeModel(corpus, "own words")),
            (keywords_door, "category_terms"): fake_category_terms,
            (keywords_door, "quality_texts"): lambda own: own.corpus,
            (keywords_door, "list_quality_of"): fake_category_quality,
        }
        for (module, name), fn in patches.items():
            monkeypatch.setattr(module, name, fn)

    def _shipped_model(self, name):
        self.shipped_loads.append(name)
        model = FakeModel(self.corpus)
        model.source = "shipped statistics"
        return model

    def _open_corpus(self, name, *, sample=None):
        self.opened.append("corpus")
        return self.corpus

    def _download_archive(self, name, *, progress=None):
        from dkw_core.errors import CorpusError

        self.downloads.append(name)
        if progress:
            progress(0.5, f"{name}: 1.0 of 2.0 MB")
        if self.download_error:
            raise CorpusError(self.download_error)
        self.available.add(name)
        if progress:
            progress(1.0, f"{name}: downloaded")
        return f"/fake/archives/{name}.tar.gz"

    def _split_keywords(self, model, split, *, metrics, k, top, protocol, fmt):
        import json

        self.split_calls.append((split, tuple(metrics), k, top, protocol, fmt))
        docs = [d for d in self.corpus.documents if d.split == split]
        rows = [{"id": d.id, "keywords": {m: FakeModel.expected(d.text, m, top) for m in metrics}} for d in docs]
        if fmt == "jsonl":
            return "".join(json.dumps(r) + "\n" for r in rows).encode()
        return ("id," + ",".join(metrics) + "\n" + "".join(
            r["id"] + "," + ",".join(" ".join(r["keywords"][m]) for m in metrics) + "\n" for r in rows)).encode()

    def _open_vectors(self):
        self.opened.append("vectors")
        return type("V", (), {"name": "fake-vectors", "dim": 3})()

    def _is_prepared(self, corpus, vectors, *, k_max=90, neighbours="cosine"):
        self.prepared_checks.append((corpus, vectors, k_max))
        self.neighbours_checked.append(neighbours)
        if isinstance(self.prepared, (set, frozenset)):  # prepared: only the corpora named
            return corpus in self.prepared
        return self.prepared

    def _prepare(self, corpus, vectors, *, k_max=90, progress=None, neighbours="cosine"):
        self.prepare_calls += 1
        self.prepared_neighbours.append(neighbours)
        if not self.prepared and progress:
            progress(0.5, "tagging")
            if self.prepare_gate is not None:  # a long preparation: goes on when the test says so
                self.prepare_gate.wait(30)
                progress(0.6, "nearest words")
            progress(1.0, "done")
        self.prepared = True
        return FakeModel(corpus, neighbours)

    def _instant_keywords(self, request):
        """The request's text's distinct words, longest first (no corpus, no preparation)."""
        text, about = request.text, request.about
        self.instant_texts.append(text)
        self.instant_abouts.append(about)
        words = sorted(set(re.findall(r"[a-z<>/]+", text.lower())), key=lambda w: (-len(w), w))[:10]
        found = FakeKeywordList([FakeKeyword(w, float(len(w)), 1) for w in words])
        if "volcano" in text:  # a text from outside the corpus: the default rule gives its own phrases (about 0)
            found.fit = SimpleNamespace(out_of_corpus=True, nearest="sci.space", distance=0.33, p=0.45)
            found.about = 0.0 if about is None else about
        return found

    def _hubness(self, model, *, k):
        words = ["same", "making", "<b>only</b>"]  # one untrusted-looking word: rendered as text
        return {"k": k, "queries": 100, "vocabulary": 50, "skewness": 4.25, "top1_share": 0.123,
                "never_share": 0.4, "max_k_occurrence": 80, "dataset": "20ng", "vectors": "fake-vectors",
                "neighbours": getattr(model, "neighbours", "cosine"),
                "hubs": [{"word": w, "k_occurrence": 80 - i, "query_share": (80 - i) / 100} for i, w in enumerate(words)]}

    def _leak_check(self, model, *, dataset, sample, metric, k, top):
        self.leak_calls.append({"dataset": dataset, "metric": metric, "k": k, "top": top})
        return {"dataset": dataset, "metric": metric, "k": k, "top": top, "follow_wrong_label_aware": 91.5,
                "follow_wrong_label_free": 4.25, "chance": 5.0, "label": f"{dataset} <b>leak</b> check"}
