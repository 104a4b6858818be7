"""The layout shows the architecture: dependencies point one way (docs/architecture.md).

interfaces -> lab / agents / solvers -> games -> core. A game never imports another game, and
agents know no game by name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "meeple"

# For each layer, the meeple packages its modules may import (besides themselves).
ALLOWED = {
    "core": {"core"},
    "games": {"core"},
    "agents": {"core"},
    "solvers": {"core", "games"},
    "store": {"core"},
    "lab": {"core", "games", "agents", "solvers", "store"},
    "interfaces": {"core", "games", "agents", "solvers", "store", "lab"},
    # Adapters to research frameworks: an interface, at its own import path (meeple.envs).
    "envs": {"core", "agents"},
}


def meeple_imports(path: Path) -> set[str]:
    """Dotted names of the meeple modules a file imports (TYPE_CHECKING imports included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("meeple"))
        elif isinstance(node, ast.ImportFrom):
            module = _imported_from(node, path)
            if not module.startswith("meeple"):
                continue
            names.update(
                f"{module}.{a.name}" if module in ("meeple", "meeple.games") else module
                for a in node.names
            )
    return names


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_from(node: ast.ImportFrom, path: Path) -> str:
    """The absolute name of the module a ``from ... import`` names: a relative import
    (``from ..erd import rules``) is resolved against the file's own package, so it is held
    to the same layers as an absolute one."""
    if not node.level:
        return node.module or ""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


MODULES = sorted(p for p in SRC.rglob("*.py") if p.parent != SRC)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_dependencies_point_one_way(path):
    parts = path.relative_to(SRC).parts
    layer = parts[0]
    if layer == "games" and len(parts) == 2:
        return  # games/__init__.py registers every game
    allowed = ALLOWED[layer]
    own_game = parts[1] if layer == "games" else None
    for name in meeple_imports(path):
        target = name.split(".")
        if len(target) < 2:
            pytest.fail(f"{path.relative_to(SRC)} imports the top-level meeple package")
        other = target[1]
        if other == layer and layer != "games":
            continue
        if layer == "games" and other == "games":
            assert len(target) > 2 and target[2] == own_game, (
                f"{path.relative_to(SRC)} imports another game: {name}"
            )
            continue
        assert other in allowed, f"{path.relative_to(SRC)} ({layer}) may not import {name}"


def test_the_check_sees_imports():
    """Guard against a vacuous architecture test: known imports are found."""
    found = meeple_imports(SRC / "games" / "edges" / "rules.py")
    assert "meeple.core.game" in found and "meeple.games.edges.board" in found


def test_the_check_sees_relative_imports(tmp_path, monkeypatch):
    """A relative import is held to the layers too: ``from ..erd import rules`` in Edges is
    an import of another game, ``from .board import x`` one of Edges' own modules."""
    edges = tmp_path / "meeple" / "games" / "edges"
    edges.mkdir(parents=True)
    module = edges / "scratch.py"
    module.write_text("from ..erd import rules\nfrom .board import board\nfrom ... import core\n")
    monkeypatch.setattr(f"{__name__}.SRC", tmp_path / "meeple")
    assert meeple_imports(module) == {
        "meeple.games.erd",
        "meeple.games.edges.board",
        "meeple.core",
    }


def test_the_game_server_knows_no_game():
    """The server talks to games only through the core API (docs/server.md)."""
    web = SRC / "interfaces" / "web"
    modules = sorted(web.rglob("*.py"))
    assert modules
    for path in modules:
        for name in meeple_imports(path):
            assert not name.startswith(("meeple.games", "meeple.solvers")), (
                f"{path.relative_to(SRC)} imports {name}"
            )


def runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The meeple modules a file imports when it runs: at the top or inside a function,
    not under ``if TYPE_CHECKING:`` (annotations only). ``from package import name`` counts
    as importing ``package.name`` where that is a module, else ``package``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and (module := _imported_from(node, path)) in modules:
            for a in node.names:
                child = f"{module}.{a.name}"
                found.add(child if child in modules else module)
    return found


def test_no_module_imports_itself_back():
    """No import cycles, lazy imports included: a cycle hidden in a function (a game's rules
    importing the agents that import the rules) still ties the modules into one, and breaks
    the moment someone moves the import to the top."""
    paths = {_module_name(p): p for p in SRC.rglob("*.py")}
    graph = {name: runtime_imports(path, set(paths)) - {name} for name, path in paths.items()}
    assert "meeple.games.edges.board" in graph["meeple.games.edges.rules"]
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            cycle = [*trail[trail.index(name) :], name]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def _undocumented(tree: ast.Module) -> list[str]:
    """The public functions, classes and methods of a module without a docstring (a property's
    setter shares its getter's)."""
    missing = [] if ast.get_docstring(tree) else ["<module>"]
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if node.name.startswith("_"):
            continue
        if not ast.get_docstring(node):
            missing.append(node.name)
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if (
                    isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef)
                    and not member.name.startswith("_")
                    and not ast.get_docstring(member)
                    and not any(
                        isinstance(d, ast.Attribute) and d.attr == "setter"
                        for d in member.decorator_list
                    )
                ):
                    missing.append(f"{node.name}.{member.name}")
    return missing


def test_every_public_name_has_a_docstring():
    missing = {
        str(path.relative_to(SRC)): names
        for path in sorted(SRC.rglob("*.py"))
        if (names := _undocumented(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not missing, missing


MOST_LINES = 850
"""About 800 lines a module, with some slack: past it, a module is split where its own parts
divide it (a game's where the rulebook does)."""


def test_no_module_is_much_past_800_lines():
    long = {
        str(path.relative_to(SRC)): lines
        for pattern in ("*.py", "*.js")
        for path in sorted(SRC.rglob(pattern))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"split these where their own parts divide them: {long}"
