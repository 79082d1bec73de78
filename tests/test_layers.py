"""No import circle and no import up a layer, over the whole product (``dkw_core``, ``dkw_app``,
``pages``). Imports are read from the source with ``ast``: lazy ones inside functions count (they
are dependencies all the same), and so do ``if TYPE_CHECKING:`` ones (mypy reads them, and a circle
through them comes back the day one is needed at run time).

The layers, lowest first (ARCHITECTURE.md "Layers" gives the same order). A module imports only
modules of its own layer or of a layer below; a circle inside a layer is caught by the cycle test.
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dkw_core", "dkw_app", "pages")

#: Lowest first. A module belongs to the layer of its longest listed prefix.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("dkw_core.errors", "dkw_core.types", "dkw_core.config", "dkw_core.terminal", "dkw_core.cache",
                "dkw_core.lazy", "dkw_core.version", "dkw_core.csvsafe", "dkw_core.db", "dkw_core.validation",
                "dkw_core.expected_warnings")),
    ("method steps", ("dkw_core.corpora", "dkw_core.phrases", "dkw_core.fasttagger", "dkw_core.vectors", "dkw_core.neighbours",
                      "dkw_core.metrics", "dkw_core.peers", "dkw_core.hubness", "dkw_core.longtext")),
    ("list quality", ("dkw_core.quality",)),
    ("keywords", ("dkw_core.keywords",)),
    ("cluster", ("dkw_core.cluster",)),
    ("evaluation", ("dkw_core.evaluation",)),
    ("study", ("dkw_core.study",)),
    ("command line and the package's door", ("dkw_core.cli", "dkw_core.__main__", "dkw_core")),
    ("app", ("dkw_app",)),
    ("pages", ("pages",)),
)


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
            # "from . import study" names dkw_core.study; "from .analysis import x" names ...analysis.x,
            # which the graph resolves to ...analysis
            found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return found


def _modules() -> dict[str, Path]:
    return {_module(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _graph(modules: dict[str, Path]) -> nx.DiGraph:
    """Module -> the product modules it imports (the most specific existing module of each name:
    ``from .analysis import x`` is an edge to ``...analysis``; ``from dkw_core import __version__``
    to the package ``dkw_core``), each edge with the lines of its imports."""
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        for line, name in _imports(path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                if graph.has_edge(module, name):
                    graph.edges[module, name]["lines"].add(line)
                else:
                    graph.add_edge(module, name, lines={line})
    return graph


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer holding ``module`` (its longest listed prefix)."""
    best = (-1, -1)
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best[0]:
                best = (len(prefix), index)
    if best[1] < 0:
        raise KeyError(f"{module} is in no layer: add it to LAYERS (and ARCHITECTURE.md)")
    return best[1]


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """Every set of modules that import each other (strongly connected components of two or more)."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def upward(graph: nx.DiGraph) -> list[str]:
    """Every import of a module from a higher layer than the importer's."""
    return [f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]}) "
            f"on line {', '.join(map(str, sorted(graph.edges[a, b]['lines'])))}"
            for a, b in sorted(graph.edges) if layer_of(b) > layer_of(a)]


def test_every_module_has_a_layer():
    assert [m for m in _modules() if not any(m == p or m.startswith(p + ".") for _n, ps in LAYERS for p in ps)] == []


def test_no_import_circle_anywhere():
    found = cycles(_graph(_modules()))
    assert found == [], found


def test_no_import_runs_up_a_layer():
    found = upward(_graph(_modules()))
    assert found == [], "\n".join(found)


def test_the_import_reader_sees_relative_and_lazy_imports():
    graph = _graph(_modules())
    assert graph.has_edge("dkw_core.cli.study_db", "dkw_core.study.schema")
    assert set(graph.successors("dkw_core.study.schema")) >= {"dkw_core.errors", "dkw_core.db"}
    assert graph.has_edge("dkw_core.study.settings", "dkw_core.study.limits")  # a lazy import inside validate()
    assert graph.has_edge("dkw_app.widgets", "dkw_app.resources")  # "from . import resources" in a function


def test_the_checks_catch_a_circle_and_an_upward_import():
    graph = nx.DiGraph()
    graph.add_edge("dkw_core.validation", "dkw_core.neighbours", lines={1})  # ground -> method steps
    graph.add_edge("dkw_core.neighbours", "dkw_core.validation", lines={2})
    graph.add_edge("dkw_core.study.models", "dkw_core.study.settings", lines={3})  # same package: allowed
    assert cycles(graph) == [["dkw_core.neighbours", "dkw_core.validation"]]
    assert upward(graph) == ["dkw_core.validation (ground) imports dkw_core.neighbours (method steps) on line 1"]
    assert layer_of("dkw_core") > layer_of("dkw_core.keywords.shipped")  # the package's door is not ground
    assert layer_of("pages.0_Home") > layer_of("dkw_app.corpora_models") > layer_of("dkw_core.cli.study")


def test_the_app_calls_dkw_core_names_as_dkw_core_names_them():
    """The app had one door that renamed on the way (``submit`` became ``submit_answers``, which
    grep could not find) and reached into a private ``_limit_bytes``: every ``dkw_core`` name a page
    or an app module imports keeps its own name, and none is private."""
    found = []
    for module, path in _modules().items():
        if not module.startswith(("pages", "dkw_app")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dkw_core"):
                found += [f"{module}:{node.lineno} {node.module}.{a.name}" + (f" as {a.asname}" if a.asname else "")
                          for a in node.names if a.asname or (a.name.startswith("_") and not a.name.startswith("__"))]
            elif isinstance(node, ast.Import):
                found += [f"{module}:{node.lineno} {a.name} as {a.asname}" for a in node.names
                          if a.name.startswith("dkw_core") and a.asname]
    assert found == [], "\n".join(found)
