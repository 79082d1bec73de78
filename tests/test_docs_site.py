"""The documentation site: ``make lint``'s strict build fails on a dead link.

A tiny site is built with the project's own mkdocs.yml settings (``strict``, ``validation``,
``hooks``): a link that resolves only in the repository (``/README.md``), a link to a missing
page, and a link out of ``docs/`` to a file that is not on the site each fail the build; links
to the repository pages the site carries (``../ARCHITECTURE.md``) pass."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
_SETTINGS = ("strict", "validation", "hooks")


def _site(tmp_path: Path, index: str) -> subprocess.CompletedProcess:
    project = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config = {"site_name": "tiny", "docs_dir": "docs", **{key: project[key] for key in _SETTINGS}}
    config["hooks"] = [str(ROOT / hook) for hook in config["hooks"]]
    (tmp_path / "docs").mkdir()
    for name in ("README.md", "ARCHITECTURE.md", "BENCHMARKS.md"):
        (tmp_path / name).write_text(f"# {name}\n\n[Home](docs/index.md)\n", encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text(index, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(tmp_path / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=tmp_path)


def test_links_to_the_repository_pages_resolve(tmp_path):
    done = _site(tmp_path, "# Home\n\n[the layout](../ARCHITECTURE.md#architecturemd) and [README](../README.md)\n")
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="architecture/#architecturemd"' in html and 'href="readme/"' in html


def test_strict_build_fails_on_dead_links(tmp_path):
    done = _site(tmp_path, "# Home\n\n[absolute](/README.md), [missing](missing.md), [outside](../NOPE.md)\n")
    assert done.returncode != 0
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    for link in ("/README.md", "missing.md", "../NOPE.md"):
        assert any(f"'{link}'" in line for line in warnings), (link, done.stderr)


def test_every_table_is_readable_at_1280_px(tmp_path):
    """The project's site, built as `make lint` builds it, in Chromium at 1280 px: every table of the
    benchmark and reference-result pages fits the text column or scrolls inside it (docs/css/tables.css);
    none runs past the column to be cut off at the window's edge."""
    import functools
    import http.server
    import threading

    from tests.support.browser import browser_page, require_chromium

    require_chromium()
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                           cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    corpora = sorted(p.stem for p in (ROOT / "docs" / "results").glob("*.md") if p.stem not in ("README", "report"))
    pages = ["benchmarks/", "measurements/", "results/", "results/report/", *(f"results/{c}/" for c in corpora)]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # noqa: ANN002
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with browser_page((1280, 900)) as page:
            for name in pages:
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/{name}")
                cut = page.evaluate("""() => {
                    const column = document.querySelector('[role=main]').getBoundingClientRect();
                    return [...document.querySelectorAll('[role=main] table')].filter(t => {
                        const box = t.getBoundingClientRect();
                        const scrolls = ['auto', 'scroll'].includes(getComputedStyle(t).overflowX);
                        return box.right > column.right + 1 || (t.scrollWidth > t.clientWidth + 1 && !scrolls);
                    }).map(t => t.rows[0].innerText.slice(0, 60));
                }""")
                assert page.evaluate("document.querySelectorAll('[role=main] table').length") > 0, name
                assert cut == [], (name, cut)
    finally:
        server.shutdown()


def test_code_is_highlighted_at_build_time_with_no_script_from_a_cdn(tmp_path):
    """Offline the site must read the same: code coloured by Pygments when it is built
    (pymdownx.highlight), no highlight.js or any other script fetched from another host."""
    import re

    project = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config = {"site_name": "tiny", "docs_dir": "docs", "theme": project["theme"],
              "markdown_extensions": project["markdown_extensions"]}
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n```python\nimport dkw_core\n```\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(tmp_path / "mkdocs.yml"),
                           "--site-dir", str(tmp_path / "site")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<span class="kn">import</span>' in html  # coloured by Pygments, in the page itself
    remote = [*re.findall(r'<script[^>]+src="(?:https?:)?//[^"]*"', html),
              *re.findall(r'<link[^>]+href="(?:https?:)?//[^"]*\.css"', html)]
    assert remote == [] and "highlight.min.js" not in html
    assert "css/pygments.css" in project["extra_css"] and (ROOT / "docs" / "css" / "pygments.css").is_file()
