"""No import runs back up a layer: the study (``dkw_core/study``) stands on the ground layer
(``db``, ``config``, ``errors``, ...) and is used only by the layers above it (the command line,
the app). Imports are read from the source with ``ast``, lazy ones inside functions included."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "dkw_core"
#: Parts of dkw_core above the study, allowed to import it.
ABOVE_STUDY = ("dkw_core.study", "dkw_core.cli", "dkw_core.__main__")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in ``path``."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - (node.level - 1)] if node.level else []
            name = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, name))
            found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]  # from . import study
    return found


def test_no_module_below_the_study_imports_it():
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        module = _module(path)
        if module.startswith(ABOVE_STUDY):
            continue
        offenders += [f"{path.relative_to(ROOT)}:{line} imports {name}" for line, name in _imports(path)
                      if name == "dkw_core.study" or name.startswith("dkw_core.study.")]
    assert not offenders, offenders


def test_the_import_reader_sees_relative_and_lazy_imports():
    assert "dkw_core.study.schema" in {n for _l, n in _imports(CORE / "cli" / "study_db.py")}
    assert {n for _l, n in _imports(CORE / "study" / "schema.py")} >= {"dkw_core.errors", "dkw_core.db"}


def _evaluation_cycle() -> list[str]:
    """One import cycle among the ``dkw_core.evaluation`` modules (lazy imports included), or []."""
    package = CORE / "evaluation"
    modules = {_module(p): p for p in sorted(package.glob("*.py")) if p.name != "__init__.py"}
    # "from .paired import x" names dkw_core.evaluation.paired and ...paired.x; "from . import report" ...report
    graph = {m: sorted({t for _l, n in _imports(p) for t in (n, n.rpartition(".")[0]) if t in modules and t != m})
             for m, p in modules.items()}
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        path.append(m)
        for n in graph[m]:
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (cycle := visit(n)):
                return cycle
        path.pop()
        state[m] = 2
        return []

    for m in graph:
        if m not in state and (cycle := visit(m)):
            return cycle
    return []


def test_no_import_cycle_among_the_evaluation_modules():
    assert _evaluation_cycle() == [], " -> ".join(_evaluation_cycle())
