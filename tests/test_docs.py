"""The public API matches the docs: every Python import in the code blocks of README.md and
docs/*.md, and every dotted ``dkw_core.…`` / ``dkw_app.…`` name the prose puts in backticks,
is importable from the path the docs give."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"```(?:python|py)\n(.*?)```", re.S)
_DOTTED = re.compile(r"`((?:dkw_core|dkw_app)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")


def _imports(text: str) -> list[tuple[str, str | None]]:
    """(module, name) of every import statement in the file's Python code blocks."""
    found = []
    for block in _BLOCK.findall(text):
        lines = [line for line in block.splitlines() if re.match(r"\s*(from|import)\s", line)]
        for node in ast.walk(ast.parse("\n".join(line.strip() for line in lines))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found += [(node.module, alias.name) for alias in node.names]
            elif isinstance(node, ast.Import):
                found += [(alias.name, None) for alias in node.names]
    return found


def _dotted(text: str) -> list[tuple[str, str | None]]:
    """``dkw_core.evaluation.DiscriminativeKeywordVectorizer`` → (module, name); a dotted
    module path → (module, None)."""
    found = []
    for dotted in _DOTTED.findall(text):
        parts = dotted.split(".")
        if parts[-1][:1].isupper() or parts[-1].isupper():
            found.append((".".join(parts[:-1]), parts[-1]))
        else:
            found.append((dotted, None))
    return found


CASES = sorted({(doc.relative_to(ROOT).as_posix(), module, name)
                for doc in DOCS for module, name in _imports(doc.read_text(encoding="utf-8"))
                + _dotted(doc.read_text(encoding="utf-8"))
                if module.split(".")[0] in ("dkw_core", "dkw_app")})


def test_the_docs_name_the_api():
    names = {(m, n) for _, m, n in CASES}
    assert ("dkw_core.corpora", "load_corpus") in names and ("dkw_core.keywords", "KeywordModel") in names
    assert ("dkw_core.evaluation", "DiscriminativeKeywordVectorizer") in names


@pytest.mark.parametrize(("doc", "module", "name"), CASES)
def test_documented_name_is_importable(doc, module, name):
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        # ``dkw_core.cli.evaluation.BOTH``-style: the last lower-case part may be an attribute
        parent, _, attr = module.rpartition(".")
        mod, name = importlib.import_module(parent), attr if name is None else name
        assert hasattr(mod, attr), f"{doc}: {module} is neither a module nor an attribute"
        mod = getattr(mod, attr) if name != attr else mod
    if name is not None:
        assert hasattr(mod, name), f"{doc} names {module}.{name}, which does not exist"
        if hasattr(mod, "__all__") and not name.startswith("_"):
            assert name in mod.__all__ or module.count(".") >= 2, f"{doc}: {module}.{name} is not in __all__"


@pytest.mark.parametrize("package", ["dkw_core", "dkw_core.corpora", "dkw_core.keywords", "dkw_core.evaluation",
                                     "dkw_core.study", "dkw_core.cluster", "dkw_core.cli", "dkw_app"])
def test_every_package_declares_its_api(package):
    mod = importlib.import_module(package)
    assert mod.__all__, package
    for name in mod.__all__:
        assert hasattr(mod, name) or importlib.import_module(f"{package}.{name}"), f"{package}.{name}"


_EXECUTED = re.compile(r"<!-- executed by tests/test_docs\.py[^>]*-->\n```python\n(.*?)```", re.S)


def test_getting_started_has_an_executed_pipeline_example():
    blocks = _EXECUTED.findall((ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8"))
    assert any("GridSearchCV" in block and "Pipeline" in block for block in blocks)


@pytest.mark.parametrize("block", _EXECUTED.findall((ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")))
def test_marked_examples_run(block, tmp_path, monkeypatch, capsys):
    """The marked example runs as printed, on a tiny vector model (``DKW_VECTORS``) that knows
    every word of its texts (random directions: the example's output is not what is tested)."""
    import numpy as np

    from tests.conftest import make_kv

    words = sorted({w.lower() for node in ast.walk(ast.parse(block))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    for w in re.findall(r"[A-Za-z]+", node.value)})
    rng = np.random.default_rng(0)
    path = tmp_path / "tiny.kv"
    make_kv({w: rng.normal(size=8) for w in words}).save(str(path))
    monkeypatch.setenv("DKW_VECTORS", str(path))
    namespace: dict = {}
    exec(compile(block, "docs/getting-started.md", "exec"), namespace)  # noqa: S102
    assert capsys.readouterr().out.strip()
    grid = namespace.get("grid")
    if grid is not None:
        assert set(grid.best_params_) == {"dkw__metric", "dkw__top"}
        assert grid.best_estimator_.named_steps["dkw"].model_.vectors.dim == 8


def test_the_readme_states_the_defaults_of_extract_keywords_as_the_code_has_them():
    """The library example's comment lists what every ``None`` becomes: the one default of
    dkw_core.types, not a metric of an earlier version."""
    from dkw_core.types import DEFAULT_CORPUS, DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP, NEW_TEXT_PROTOCOL

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = re.findall(r'# corpus="([^"]+)", metric="([^"]+)", k=(\d+), top=(\d+), protocol="([^"]+)"', readme)
    assert stated == [(DEFAULT_CORPUS, DEFAULT_METRIC, str(DEFAULT_K), str(DEFAULT_TOP), NEW_TEXT_PROTOCOL)]


@pytest.mark.parametrize("doc", ["README.md", "docs/getting-started.md"])
def test_a_walk_through_creates_every_file_it_reads_before_reading_it(doc):
    """A newcomer copies the commands in order: a ``--text-file F`` in a shell block of a
    walk-through must come after a command in the page that writes ``F``."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    commands = [line for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, re.S)
                for line in block.splitlines()]
    for i, line in enumerate(commands):
        for name in re.findall(r"--text-file\s+(\S+)", line):
            assert any(re.search(rf"(>|tee)\s*{re.escape(name)}\b", before) for before in commands[:i]), (doc, line)


def test_the_readme_says_a_preparation_resumes_only_when_asked_again():
    """After a server restart nothing resumes until Prepare is clicked: the README must not
    promise more."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "resumes from them when Prepare is clicked again: after a server restart nothing starts by itself" in readme
