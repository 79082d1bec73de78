"""A hostile corpus in a real browser (Debian Chromium): a corpus uploaded in explorer mode
(tests/support/hostile.py: ids, category names and text carrying links, images, HTML, LaTeX,
Material-icon codes, right-to-left and zero-width characters, a 10,000-character word), a study
of it whose imported method names and keywords are as hostile, visited on every page — Home,
Documents (through a shared ``?doc=`` link), Categories, Metrics, Study admin (with an import
file of hostile method names), Study results and Judge. On no page does the payload create a
link or image (``href``/``src`` to evil.example, in HTML or a chart's SVG), a script, rendered
KaTeX or a Material icon, and the raw id, category, method name and keyword read as typed.
The Categories page is also seen under a peer method, its scatter labelled with the corpus's
own words. A tiny vector model keeps the preparation to seconds."""
from __future__ import annotations

import urllib.parse
from pathlib import Path

import numpy as np
import pytest

from dkw_core.corpora import Corpus, Document
from dkw_core.corpora.user import id_part
from dkw_core.db import make_engine
from dkw_core.study import service as S
from dkw_core.study.models import init_db
from dkw_core.study.settings import UNKNOWN_PROTOCOL
from tests.support import hostile
from tests.support.browser import appears, browser_page, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NAME = "hostile"
PASSWORD = "hostile-password-1"
SECOND_METHOD = "<b>second</b> www.evil.example $$m$$"
WORDS = ["team", "game", "player", "coach", "league", "ball", "goal", "season",
         "rocket", "orbit", "planet", "moon", "mission", "launch", "star", "earth"]
#: Characters the app adds to keep text inert (word joiner, bidi isolates): invisible.
INVISIBLE = dict.fromkeys(map(ord, "\u2060\u2068\u2069"))

FIND_PAYLOAD_MARKUP = """() => {
  const bad = [];
  const XLINK = 'http://www.w3.org/1999/xlink';
  for (const el of document.querySelectorAll('*')) {
    for (const name of ['href', 'src', 'srcset', 'action', 'poster', 'data']) {
      const v = el.getAttribute(name);
      if (v && v.includes('evil')) bad.push(`${el.tagName} ${name}=${v}`);
    }
    const x = el.getAttributeNS(XLINK, 'href');
    if (x && x.includes('evil')) bad.push(`${el.tagName} xlink:href=${x}`);
    if (el.tagName === 'SCRIPT' && el.textContent.includes('__pwned')) bad.push('script from the payload');
  }
  if (window.__pwned !== undefined) bad.push('the payload script ran');
  for (const k of document.querySelectorAll('.katex')) bad.push(`KaTeX ${k.textContent}`);
  for (const icon of document.querySelectorAll('[data-testid="stMain"] [data-testid="stIconMaterial"]')) {
    const around = icon.closest('[data-testid="stMarkdownContainer"], [data-testid="stHeading"]');
    if (around && /evil|LaTeX|bold/.test(around.textContent)) bad.push(`icon in ${around.textContent.slice(0, 80)}`);
  }
  return bad;
}"""


def _no_payload_markup(page, where: str) -> None:
    assert page.evaluate(FIND_PAYLOAD_MARKUP) == [], where


def _shown(text: str) -> str:
    return text.translate(INVISIBLE)


def _vectors(path: Path) -> Path:
    """A tiny word2vec text file: sport words on one axis, space words on another, and 200
    frequent English words around them (the pages' K goes up to 90 nearest words)."""
    from wordfreq import top_n_list

    rng = np.random.default_rng(3)
    others = [w for w in top_n_list("en", 400)[100:] if w.isalpha() and w not in WORDS][:200]
    lines = [f"{len(WORDS) + len(others)} 8"]
    for i, word in enumerate(WORDS):
        v = np.zeros(8)
        v[i // 8], v[2 + i % 6] = 3.0, 1.0 + 0.1 * i
        v += rng.normal(0, 0.01, 8)
        lines.append(word + " " + " ".join(f"{x:.5f}" for x in v))
    lines += [word + " " + " ".join(f"{x:.5f}" for x in rng.normal(0, 1, 8)) for word in others]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _study(url: str, corpus: Corpus) -> str:
    """A study of the hostile corpus with two imported methods; an invited judge's code."""
    engine = make_engine(url, default_file="unused.sqlite")
    init_db(engine)
    docs = [d for d in corpus.documents if d.split == "test"]
    first = {d.id: hostile.KEYWORDS[:3] for d in docs}
    second = {d.id: hostile.KEYWORDS[3:] for d in docs}
    methods = (S.MethodSpec(hostile.METHOD, UNKNOWN_PROTOCOL, keywords=first, source="evil.csv"),
               S.MethodSpec(SECOND_METHOD, UNKNOWN_PROTOCOL, keywords=second, source="evil.csv"))
    sid = S.create_study(engine, documents=docs, categories=sorted({d.label for d in docs}),
                         provider=lambda *a, **k: {},
                         config=S.StudyConfig(name="[study](http://evil.example/s)", corpus=NAME,
                                              keywords_per_method=3, articles_per_category=1,
                                              categories_per_batch=3, judges_per_article=3, seed=1,
                                              methods=methods))
    _jid, code = S.invite_judge(engine, sid, name="![j](https:evil.example/j.png)")
    from dkw_core.study.simulate import simulate

    simulate(engine, sid, judges=2, seed=1)  # answers, so that the results page draws its charts
    engine.dispose()
    return code


def _login(page) -> None:
    box = page.get_by_label("Admin password or token")
    if appears(box):
        box.fill(PASSWORD)
        page.keyboard.press("Enter")
        wait_idle(page)


def test_a_hostile_corpus_plants_no_link_image_script_or_math_on_any_page(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "archives").mkdir()  # no built-in corpus: the hostile one is the only choice
    (tmp_path / "reference").mkdir()  # no shipped reference results: the Metrics page on this corpus only
    monkeypatch.setenv("DKW_DATA_DIR", str(data))
    from dkw_core.corpora import uploads

    uploads.import_corpus(NAME, hostile.csv_bytes(), "evil.csv")  # what the Home page's upload calls
    corpus = Corpus(NAME, [Document(f"{NAME}/{r['split']}/{id_part(r['label'])}/{id_part(r['id'])}", r["text"],
                                    r["label"], r["split"]) for r in hostile.rows()])
    study_db = f"sqlite:///{tmp_path / 'study.sqlite'}"
    code = _study(study_db, corpus)
    env = {"DKW_DATA_DIR": str(data), "DKW_ARCHIVES": str(tmp_path / "archives"),
           "DKW_VECTORS": str(_vectors(tmp_path / "tiny.txt")), "DKW_STUDY_DB": study_db,
           "DKW_ADMIN_PASSWORD": PASSWORD, "DKW_N_PROCESS": "1",
           "DKW_REFERENCE_DIR": str(tmp_path / "reference")}
    with streamlit_server("app.py", env=env) as base, browser_page() as page:
        # Home: the uploaded corpus, prepared with its button
        page.goto(base)
        wait_idle(page, timeout=120_000)
        page.get_by_role("button", name=f"Prepare {NAME}").click()
        wait_idle(page, timeout=120_000)
        _no_payload_markup(page, "Home")

        # Documents, opened through a shared link to a hostile id
        doc = next(d for d in corpus.documents if d.text.endswith(hostile.LONG_WORD))  # id: ![i](https:evil…
        page.goto(f"{base}/Documents?doc={urllib.parse.quote(doc.id, safe='')}")
        wait_idle(page, timeout=120_000)
        header = page.locator("[data-testid='stMain'] [data-testid='stHeading']").filter(has_text=NAME).first
        assert _shown(header.inner_text()) == doc.id
        body = page.locator("[data-testid='stMain'] [data-testid='stCode'], [data-testid='stMain'] pre.dkw-document")
        shown_text = body.first.inner_text()  # the escaped text, its keyphrases marked or not (or plain)
        assert "<script>window.__pwned=1</script>" in shown_text and hostile.LONG_WORD in shown_text
        _no_payload_markup(page, "Documents")

        # Categories: the bars' title names the category as typed (Vega-Lite draws it as SVG text), and
        # a bar's tooltip (HTML, escaped by vega-tooltip) shows its word and phrases as text
        page.goto(f"{base}/Categories")
        wait_idle(page, timeout=120_000)
        bars = page.locator("[data-testid='stVegaLiteChart']").first
        title = bars.locator(".role-title-text text").first
        title.wait_for()
        lines = title.locator("tspan").all_text_contents() or [title.text_content()]  # a title in lines
        assert any(_shown(" ".join(lines)).startswith(f"{c}: top") for c in hostile.CATEGORIES)
        bar = bars.locator(".role-mark path").first
        bar.scroll_into_view_if_needed()
        bar.hover()
        tip = page.locator("#vg-tooltip-element.visible")
        tip.wait_for()
        assert "word" in tip.inner_text() and not tip.locator("a, img, script, b, i").count()
        _no_payload_markup(page, "Categories")
        # why the words are there, under a peer: a scatter of the category's own words (the payload's
        # text among them), its title naming the category as typed, its points labelled
        method = page.locator("[data-testid='stSelectbox'] input[aria-label='Method']")
        method.click()
        method.fill("Fightin")  # the list is long (every metric, then the peers): filter it as a reader would
        page.get_by_role("option", name="Fightin' Words (own words)").click()
        wait_idle(page, timeout=120_000)
        page.get_by_role("tab", name="Why these words").click()  # a lazy tab: drawn once opened
        wait_idle(page, timeout=120_000)
        page.locator(".annotation-text").first.wait_for()
        titles = [_shown(t) for t in page.locator(".gtitle").all_text_contents()]
        assert any(t == f"{c}: why these words" for c in hostile.CATEGORIES for t in titles), titles
        labels = page.locator(".annotation-text").all_text_contents()
        assert labels and all(label.isalpha() for label in labels), labels  # own words, shown as text
        _no_payload_markup(page, "Categories, Fightin' Words")

        page.goto(f"{base}/Metrics")
        wait_idle(page, timeout=120_000)
        _no_payload_markup(page, "Metrics")
        for tab in ("Per metric", "Against N", "Significance", "Leak check", "Hubness", "Your runs"):  # lazy tabs
            page.get_by_role("tab", name=tab).click()
            wait_idle(page, timeout=120_000)
            _no_payload_markup(page, f"Metrics, {tab}")

        # Study admin: an import file of hostile method names, named in the form's captions
        page.goto(f"{base}/Study_admin")
        wait_idle(page)
        _login(page)
        imported = tmp_path / "evil-methods.csv"
        imported.write_text("doc_id,method,keywords\n" + "".join(
            f'"{d.id}","{hostile.METHOD.replace(chr(34), chr(34) * 2)}","{";".join(hostile.KEYWORDS[:2])}"\n'
            for d in corpus.documents if d.split == "test"), encoding="utf-8")
        page.locator("[data-testid='stFileUploader'] input[type='file']").last.set_input_files(str(imported))
        wait_idle(page)
        # the upload's rerun can start after wait_idle saw the page idle (under load): read until it is drawn
        for _ in range(60):
            captions = _shown(page.inner_text("[data-testid='stMain']"))
            if f"{hostile.METHOD}: 6 documents" in captions:
                break
            page.wait_for_timeout(500)
        assert f"{hostile.METHOD}: 6 documents" in captions
        _no_payload_markup(page, "Study admin, Create")
        for tab in ("Judges", "Monitor", "Life cycle"):
            page.get_by_role("tab", name=tab).click()
            wait_idle(page)
            _no_payload_markup(page, f"Study admin, {tab}")

        page.goto(f"{base}/Study_results")
        wait_idle(page)
        _login(page)
        page.get_by_text("Include simulated judgements").click()
        wait_idle(page)
        page.locator(".legendtext").first.wait_for()
        legend = [_shown(t) for t in page.locator(".legendtext").all_text_contents()]
        assert f"A: {hostile.METHOD}" in legend
        _no_payload_markup(page, "Study results")

        # Judge: instructions, then an article's keywords as stored
        page.goto(f"{base}/Judge?code={code}")
        wait_idle(page)
        _no_payload_markup(page, "Judge, instructions")
        page.get_by_role("button", name="I have read the instructions — start").click()
        wait_idle(page)
        # the article comes in the run after the click: wait for its first keyword, then for that run's end
        page.locator("[class*='st-key-kw-'] [data-testid='stText']").first.wait_for(timeout=120_000)
        wait_idle(page)
        shown = page.locator("[class*='st-key-kw-'] [data-testid='stText']").all_inner_texts()
        assert sorted(shown) == sorted(hostile.KEYWORDS)
        _no_payload_markup(page, "Judge")
