"""MkDocs hook (``hooks:`` in mkdocs.yml): the repository's README.md, ARCHITECTURE.md and
BENCHMARKS.md are pages of the site too, so no link of the site leaves it.

The three files stay at the repository root (code, scripts and GitHub read them there) and are
added to the site as ``readme.md``, ``architecture.md`` and ``benchmarks.md``. Links are written
as they resolve in the repository (``../ARCHITECTURE.md`` from ``docs/index.md``,
``docs/method.md`` from ``README.md``); every link that leaves ``docs/`` is rewritten here to the
page it names on the site. A link to anything else outside ``docs/`` is left as it is, and the
strict build (``validation:`` in mkdocs.yml) fails on it.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

# repository path → site path (relative to docs/)
REPOSITORY_PAGES = {"README.md": "readme.md", "ARCHITECTURE.md": "architecture.md",
                    "BENCHMARKS.md": "benchmarks.md"}
_LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")


def _root(config) -> Path:  # noqa: ANN001
    return Path(config.config_file_path).resolve().parent


def on_files(files, config):  # noqa: ANN001, ANN201
    root = _root(config)
    for repo_path, site_path in REPOSITORY_PAGES.items():
        files.append(File.generated(config, site_path, content=(root / repo_path).read_text(encoding="utf-8")))
    return files


def _repository_path(src_uri: str) -> str:
    """Where the page's Markdown lives in the repository."""
    by_site = {site: repo for repo, site in REPOSITORY_PAGES.items()}
    return by_site.get(src_uri, f"docs/{src_uri}")


def site_link(target: str, src_uri: str, root: Path) -> str:
    """``target`` as written in the page at ``src_uri`` → the link that resolves on the site."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^[#/]", target, re.I):  # a URL, an anchor, an absolute path
        return target
    path, hash_, fragment = target.partition("#")
    in_repository = posixpath.normpath(posixpath.join(posixpath.dirname(_repository_path(src_uri)), path))
    if in_repository.startswith("docs/"):
        site = in_repository.removeprefix("docs/")
        if (root / in_repository).is_dir():
            site = posixpath.join(site, "README.md")
    elif in_repository in REPOSITORY_PAGES:
        site = REPOSITORY_PAGES[in_repository]
    else:
        return target
    link = posixpath.relpath(site, posixpath.dirname(src_uri) or ".")
    return link + hash_ + fragment


def on_page_markdown(markdown, page, config, files):  # noqa: ANN001, ANN201
    root = _root(config)
    return _LINK.sub(lambda m: m[1] + site_link(m[2], page.file.src_uri, root) + m[3], markdown)


_SPHINX_ROLE = re.compile(r":(?:class|mod|func|meth|data|attr|exc|obj):<code>~?")


def on_page_content(html, page, config, files):  # noqa: ANN001, ANN201
    """The docstrings cite names Sphinx-style (``:class:`~dkw_core.vectors.Vectors```); on the
    API page they read as plain code."""
    return _SPHINX_ROLE.sub("<code>", html)
