"""A tiny built-in corpus and a fake keyword provider — for tests and demos only.

Selected in the app and CLI by the environment switch ``DKW_STUDY_FAKE_KEYWORDS=1`` (corpus
name :data:`DEMO_CORPUS`): it lets a study be created in a second without preparing a real
corpus. Its keywords are NOT the paper's methods: "method A" is the article's most frequent
non-stopword words, "method B" its longest words. Never publish a study made with it.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

DEMO_CORPUS = "demo-tiny"
FAKE_ENV = "DKW_STUDY_FAKE_KEYWORDS"

_STOP = set("""a an and are as at be but by for from has have he her his i in is it its of on or our
she that the their them they this to was we were will with you your not can all one more about
""".split())

_TEXTS = {
    "space": [
        "The shuttle launch was delayed because of a fuel leak. NASA engineers inspected the orbiter "
        "and the launch pad before the new launch window opened.",
        "A telescope in orbit observed a distant galaxy. Astronomers measured the redshift of the "
        "galaxy and estimated its distance from the orbiting telescope.",
        "The lunar lander carried instruments for measuring moon dust. The mission controllers "
        "planned the landing sequence for the lander carefully.",
    ],
    "hockey": [
        "The goalie stopped forty shots and the team won the playoff game. Fans cheered the goalie "
        "after the final whistle of the playoff series.",
        "Our defenceman scored twice on the power play. The coach praised the power play unit and "
        "the defenceman after the hockey game.",
        "The trade sent a young winger to the rival team. The winger had scored many goals for the "
        "club in the hockey season.",
    ],
    "medicine": [
        "The patient reported headaches after taking the medication. The doctor reduced the dosage "
        "and the headaches stopped within a week.",
        "A new vaccine trial enrolled volunteers. Researchers monitored antibody levels in the "
        "volunteers for six months after the vaccine.",
        "Chronic fatigue can follow a viral infection. Physicians recommend rest and gradual "
        "exercise for patients with chronic fatigue.",
    ],
    "graphics": [
        "The renderer draws polygons with shading. Texture mapping makes rendered polygons look "
        "realistic in the graphics pipeline.",
        "Convert the bitmap image to a compressed format. The image converter supports many "
        "bitmap formats and graphics files.",
        "Ray tracing computes reflections of light. A ray tracer is slow but produces realistic "
        "images with reflections and shadows.",
    ],
}


@dataclass(frozen=True)
class DemoDocument:
    id: str
    text: str
    label: str
    split: str


@dataclass(frozen=True)
class DemoCorpus:
    name: str
    documents: list[DemoDocument]
    categories: list[str]

    def get(self, doc_id: str) -> DemoDocument:
        for d in self.documents:
            if d.id == doc_id:
                return d
        raise KeyError(doc_id)


def demo_corpus() -> DemoCorpus:
    """4 categories x 3 test documents (plain English sentences)."""
    docs = [DemoDocument(id=f"{cat}/{i}", text=text, label=cat, split="test")
            for cat, texts in _TEXTS.items() for i, text in enumerate(texts)]
    return DemoCorpus(name=DEMO_CORPUS, documents=docs, categories=list(_TEXTS))


def fake_enabled() -> bool:
    from ..config import study_fake_keywords

    return study_fake_keywords()


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP and len(w) > 2]


def fake_provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware", *,
                  corpus: DemoCorpus | None = None) -> dict[str, list[str]]:
    """Deterministic stand-in for ``keywords_by_method``: the first method name given to a
    study gets frequent words, any other spec the longest words (so the union overlaps); the
    protocol is accepted and ignored (the demo has no categories to weigh with)."""
    corpus = corpus or demo_corpus()
    out: dict[str, list[str]] = {}
    for doc_id in doc_ids:
        words = _words(corpus.get(doc_id).text)
        if spec.startswith("tf"):
            ranked = [w for w, _ in Counter(words).most_common()]
        else:
            ranked = sorted(dict.fromkeys(words), key=lambda w: (-len(w), w))
        out[doc_id] = ranked[:top]
    return out

