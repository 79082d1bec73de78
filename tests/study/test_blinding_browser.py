"""Blinding, as an adversarial judge would check it: a real browser (Debian Chromium) judges
four articles while the test records the judge page's whole DOM (every attribute of every
element, every text) and every websocket frame in both directions. Then:

* no method name, slot letter marker, protocol or provenance word appears anywhere;
* no database row id (article, keyword, keyword source, judgement) reaches the browser: the
  ids are pushed to six-digit ranges first so that a leak cannot hide among small numbers;
* every identifier and number attached to a keyword in the DOM (its container's subtree) is a
  non-decreasing function of the keyword's *display position*: sorting the keywords by any of
  them gives back the display order, a per-judge shuffle, so no identifier orders the
  keywords by method or rank; in the frames, every number of a widget id is the position;
* over the four articles, the display order is not "method A's words first";
* two of the four articles carry a planted intruder keyword (an attention check): its box has
  the same attributes as every other keyword's, and nothing names it.
"""
from __future__ import annotations

import re
from collections import defaultdict

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import Article, Judge, Judgement, KeywordSource, Study, StudyKeyword, init_db
from tests.support.browser import browser_page, choose, streamlit_server, wait_idle

from .fakes import make_docs

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

METHOD_A, METHOD_B = "tf-rf", "latent-5word-knn90-rf"
#: Each category's own words (an attention check's intruder comes from another category's).
WORDS_A = {"c1": ["apple", "pear", "plum"], "c2": ["lemon", "grape", "melon"], "c3": ["mango", "guava", "kiwi"],
           "c4": ["olive", "fig", "date"]}
WORDS_B = {"c1": ["cedar", "maple", "birch"], "c2": ["aspen", "larch", "alder"], "c3": ["hazel", "rowan", "yew"],
           "c4": ["elm", "ash", "oak"]}
FORBIDDEN = [METHOD_A, METHOD_B, "latent", "knn90", "label-aware", "label-free", "provenance", "method_a",
             "method_b", "rank_a", "rank_b", "in_a", "in_b", "keyword_id", "judgement_id", "article_id",
             "intruder", "attention"]
BASE = {"article": 300_000, "keyword": 700_000, "source": 900_000, "judgement": 500_000}
N_ARTICLES = 4

DOM_JS = """() => {
  const attrs = [], texts = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) attrs.push(a.name + '=' + a.value);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
  const keywords = [];
  for (const box of document.querySelectorAll('[class*="st-key-kw-"]')) {
    const sub = [];
    for (const el of [box, ...box.querySelectorAll('*')]) {
      for (const a of el.attributes) sub.push(a.name + '=' + a.value);
    }
    const word = box.querySelector('[data-testid="stText"]').innerText.trim();
    keywords.push({word: word, attrs: sub});
  }
  return {attrs: attrs, texts: texts, keywords: keywords, html: document.documentElement.outerHTML};
}"""

NUMBER = re.compile(r"(?<![0-9A-Za-z])\d+(?![0-9A-Za-z])")
HEX = re.compile(r"[0-9a-f]{32}")


def _provider(spec, doc_ids, top, protocol="label-aware"):
    words = WORDS_A if spec == METHOD_A else WORDS_B
    return {d: words[d.split("/")[1]][:top] for d in doc_ids}


def _push_ids(engine) -> None:
    """A padding study whose rows sit just below the six-digit bases: later ids are above them."""
    with Session(engine) as s:
        st = Study(name="padding", corpus="x", split="test", method_a="p", method_b="q", keywords_per_method=1,
                   articles_per_category=1, categories_per_batch=1, judges_per_article=1, seed=0, categories=["x"])
        s.add(st)
        s.flush()
        art = Article(id=BASE["article"], study_id=st.id, doc_id="pad", category="x", batch=0, position=0, text="")
        s.add(art)
        s.flush()
        kw = StudyKeyword(id=BASE["keyword"], article_id=art.id, word="pad")
        s.add(kw)
        s.flush()
        s.add(KeywordSource(id=BASE["source"], keyword_id=kw.id, method="A", rank=1))
        judge = Judge(study_id=st.id, name="pad", code_hash="0" * 64, order_seed=0)
        s.add(judge)
        s.flush()
        s.add(Judgement(id=BASE["judgement"], article_id=art.id, judge_id=judge.id, slot=1))
        s.commit()


def _frame_strings(frames: list) -> list[str]:
    out = []
    for payload in frames:
        data = payload.encode("latin-1", "replace") if isinstance(payload, str) else bytes(payload)
        out += [m.decode("ascii") for m in re.findall(rb"[\x20-\x7e]{2,}", data)]
    return out


def _numbers(strings) -> set[int]:
    return {int(n) for s in strings for n in NUMBER.findall(HEX.sub("", s))}


def _shapes(items: list[str], token: str) -> dict[str, list[int]]:
    """identifier shape (token, hashes and digits masked) -> the numbers in it, in order."""
    out: dict[str, list[int]] = {}
    for item in items:
        norm = HEX.sub("H", item.replace(token, "T"))
        shape = NUMBER.sub("#", norm)
        nums = [int(n) for n in NUMBER.findall(norm)]
        if nums:
            out.setdefault(shape, []).extend(nums)
    return out


def _non_decreasing_in_position(per_position: list[dict[str, list[int]]]) -> list[str]:
    """Shapes present for every keyword whose numbers do not follow display position."""
    bad = []
    common = set.intersection(*(set(d) for d in per_position))
    for shape in sorted(common):
        vectors = [tuple(d[shape]) for d in per_position]
        if any(len(v) != len(vectors[0]) for v in vectors):
            bad.append(shape)
            continue
        for i in range(len(vectors[0])):
            column = [v[i] for v in vectors]
            if column != sorted(column):
                bad.append(f"{shape} (component {i}: {column})")
    return bad


def test_nothing_in_the_judge_pages_dom_or_frames_carries_method_information(tmp_path):
    url = f"sqlite:///{tmp_path / 'blind.sqlite'}"
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    _push_ids(engine)
    cats = ["c1", "c2", "c3", "c4"]
    sid = S.create_study(engine, documents=make_docs(cats), categories=cats, provider=_provider,
                         config=S.StudyConfig(name="blind", corpus="fake", method_a=METHOD_A, method_b=METHOD_B,
                                              keywords_per_method=3, articles_per_category=1,
                                              categories_per_batch=2, judges_per_article=1, seed=5,
                                              attention_share=0.5))
    jid, code = S.invite_judge(engine, sid, name="ann")
    S.acknowledge_instructions(engine, jid)
    with Session(engine) as s:
        secret_ids = set(s.scalars(select(Article.id).where(Article.study_id == sid)))
        secret_ids |= set(s.scalars(select(StudyKeyword.id).join(Article).where(Article.study_id == sid)))
        secret_ids |= set(s.scalars(select(KeywordSource.id).join(StudyKeyword).join(Article)
                                    .where(Article.study_id == sid)))
    assert min(secret_ids) > min(BASE.values())

    env = {"DKW_DATA_DIR": str(tmp_path), "DKW_STUDY_DB": url, "DKW_ADMIN_PASSWORD": "correct-horse-42"}
    frames: list = []
    seen = []  # per article: (judgement id, token, words in display order, provenance, dom, frames)
    with browser_page() as page, streamlit_server("app.py", env=env) as base:
        def record(payload) -> None:
            frames.append(payload)

        page.on("websocket", lambda ws: (ws.on("framereceived", record), ws.on("framesent", record)))
        page.goto(f"{base}/Judge?code={code}")
        wait_idle(page)
        for article in range(N_ARTICLES):
            with Session(engine) as s:
                open_j = s.scalars(select(Judgement).where(Judgement.judge_id == jid,
                                                           Judgement.submitted_at.is_(None))).one()
                j_id = open_j.id
                prov = {kw.word: {src.method: src.rank for src in kw.sources} for kw in open_j.article.keywords}
                planted = [kw.word for kw in open_j.article.keywords if kw.intruder]
            secret_ids.add(j_id)
            boxes = page.locator("[class*='st-key-kw-']")
            for _ in range(150):
                if boxes.count() == len(prov) and page.locator("[data-testid='stRadio']").count() == 2 * len(prov):
                    break
                page.wait_for_timeout(200)
            wait_idle(page)
            start = len(frames)
            dom = page.evaluate(DOM_JS)
            # answer everything, submit: the frames of this article include the answers sent
            radios = page.locator("[data-testid='stRadio']")
            for i in range(radios.count()):
                choose(page, radios.nth(i), "Partially")
            page.get_by_role("button", name="Submit", exact=True).click()
            wait_idle(page)
            token = re.search(r"st-key-kw-([0-9a-f]{16})-0", " ".join(dom["attrs"])).group(1)
            seen.append({"judgement": j_id, "token": token, "dom": dom, "prov": prov, "planted": planted,
                         "frames": _frame_strings(frames[: len(frames)] if article else frames),
                         "new_frames": _frame_strings(frames[start:])})
            if article < N_ARTICLES - 1:
                page.get_by_text("Saved. Here is your next article.").wait_for()
        page.get_by_text("nothing left for you to judge").wait_for()
    all_frames = _frame_strings(frames)
    engine.dispose()

    assert len(seen) == N_ARTICLES and len({a["judgement"] for a in seen}) == N_ARTICLES
    everything = [a["dom"]["html"] for a in seen] + [t for a in seen for t in a["dom"]["texts"]] + all_frames
    blob = "\n".join(everything)
    for word in FORBIDDEN:  # names, protocols and provenance words: nowhere
        assert word not in blob, word
    assert not re.search(r"(?i)method[ _-]?[ab]\b", blob)
    # row ids: none of the study's database ids is any number of the DOM or the frames
    numbers = _numbers(everything) | _numbers(a for d in seen for a in d["dom"]["attrs"])
    assert not (numbers & secret_ids), sorted(numbers & secret_ids)[:10]
    assert len(numbers) > 5  # the collection saw numbers at all (positions, progress, React ids)

    a_first = 0
    identifiers = 0
    for art in seen:
        dom_kw = art["dom"]["keywords"]
        words = [k["word"] for k in dom_kw]
        assert sorted(words) == sorted(art["prov"]) and len(words) == 6 + len(art["planted"])
        # DOM: every identifier/number inside each keyword's container, by display position
        per_pos = [_shapes(k["attrs"], art["token"]) for k in dom_kw]
        assert not _non_decreasing_in_position(per_pos)
        # frames: every string naming this judgement's token (widget ids, keys, values)
        tokened = [f for f in all_frames if art["token"] in f]
        assert tokened  # the widget keys did travel through the frames
        per_pos_frames: list[dict[str, list[int]]] = [defaultdict(list) for _ in words]
        for item in tokened:
            for m in re.finditer(re.escape(art["token"]) + r"-(\d+)", item):
                pos = int(m.group(1))
                assert 0 <= pos < len(words), item
                for shape, nums in _shapes([item], art["token"]).items():
                    per_pos_frames[pos][shape].extend(nums)
                identifiers += 1
        # the widget ids name positions only: apart from the opaque token and the widget-id hash
        # (computed by Streamlit from key, label and options), every number in them is the
        # keyword's display position
        for pos, d in enumerate(per_pos_frames):
            for shape, nums in d.items():
                assert set(nums) <= {pos}, (shape, nums)
        if art["planted"]:  # the intruder's box has exactly the attributes of every other box, but for position
            shapes = [set(_shapes(k["attrs"], art["token"])) for k in dom_kw]
            assert all(sh == shapes[0] for sh in shapes)
        methods_in_order = ["A" if "A" in art["prov"][w] else "B" for w in words if art["prov"][w]]
        a_first += methods_in_order == sorted(methods_in_order)
    assert identifiers >= N_ARTICLES * 12
    assert sum(bool(a["planted"]) for a in seen) == 2  # attention checks were among the articles judged
    assert a_first < N_ARTICLES  # (1/20)^4 chance of a false alarm for a fair shuffle
    print(f"blinding: {N_ARTICLES} articles, {sum(len(a['dom']['attrs']) for a in seen)} DOM attributes, "
          f"{sum(len(a['dom']['texts']) for a in seen)} text nodes, {len(frames)} websocket frames "
          f"({len(all_frames)} strings), {len(numbers)} distinct numbers, {identifiers} keyword widget ids in frames, "
          f"{sum(len(k['attrs']) for a in seen for k in a['dom']['keywords'])} attributes inside keyword boxes, "
          f"{len(secret_ids)} database ids checked")
