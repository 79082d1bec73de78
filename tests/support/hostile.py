"""A hostile corpus: ids, category names, text and imported keywords that carry links,
images, HTML, LaTeX, Material-icon codes, right-to-left and zero-width characters and a
10,000-character word — what anyone may upload in explorer mode. Shared by the AppTests of
the pages and the Chromium test (tests/app/test_hostile_browser.py)."""
from __future__ import annotations

import csv
import io

EVIL = "evil.example"
LONG_WORD = "w" * 10_000
#: Category names (each becomes part of its documents' ids too).
CATEGORIES = [
    '<a href="http://evil.example/p">clickme</a>',
    "http://evil.example/a www.evil.example [x](http://evil.example/c) me@evil.example",
    "$$\\LaTeX$$ **bold** :material/home: <img src=http://evil.example/c.png> \u202eevil\u202c zero\u200bwidth",
]
#: Document ids (the part after ``<corpus>/<split>/<category>/``); no ``/``, which an id part
#: stores as ``%2F``.
IDS = [
    "$$\\LaTeX$$ **bold** :material/home:",
    "www.evil.example <b>b</b>",
    "![i](https:evil.example/i.png)",  # the first test document's
    "me@evil.example \u202eRTL\u200b",
]
#: Text of every document: on-topic words (so that keywords exist) around the payload; the
#: third document (the first test document) also holds :data:`LONG_WORD`.
PAYLOAD = ("<script>window.__pwned=1</script> [a link](http://evil.example/t) ![img](http://evil.example/t.png) "
           "$x^2$ **bold** www.evil.example :material/home: \u202eevil\u202c zero\u200bwidth")
TOPICS = ["The team won the game after the coach praised the player and the league.",
          "The rocket reached orbit around the planet on a mission to the moon.",
          "The player kicked the ball and the team scored a goal this season."]
#: Keywords a study imports for a method, and that method's name.
KEYWORDS = ["http://evil.example/k", "![k](https:evil.example/k.png)", "$$k$$", ":material/home:",
            "<b>k</b>", LONG_WORD[:200]]
METHOD = "[m](http://evil.example/m) <b>m</b> $m$"


def rows() -> list[dict[str, str]]:
    """``text,label,split,id`` rows: every category has two training and two test documents."""
    out = []
    for c, category in enumerate(CATEGORIES):
        for s, split in enumerate(("train", "train", "test", "test")):
            n = c * 4 + s
            text = f"{TOPICS[n % len(TOPICS)]} {PAYLOAD}" + (f" {LONG_WORD}" if n == 2 else "")
            out.append({"text": text, "label": category, "split": split,
                        "id": f"{IDS[n % len(IDS)]} {n}"})
    return out


def csv_bytes() -> bytes:
    """The corpus as the CSV a visitor uploads."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["text", "label", "split", "id"])
    writer.writeheader()
    writer.writerows(rows())
    return buffer.getvalue().encode("utf-8")
