"""The house has one direction (``docs/architecture.md``, "Layers"): no two files of ``api/`` or
``scoring/`` import each other however indirectly, the areas stack games < matches <
tournaments < clubs, and the infrastructure (edge, server, shared, db, i18n) imports no area.

Read from the source (``ast``), not by importing it: an import inside a function counts as much
as one at the top; one under ``if TYPE_CHECKING:`` does not, since it never runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("api", "scoring")
AREAS = ("api.games", "api.matches", "api.tournaments", "api.clubs")
"""Lowest first: an area may import the ones before it, never one after it."""
INFRASTRUCTURE = ("api.db", "api.edge", "api.server", "api.shared", "api.i18n")
COMMAND_LINE = "api.server.cli"
"""The top of the house: it makes the app (and sweeps every area's unfinished imports), so it
is the one module of the infrastructure that imports areas."""

Imports = dict[str, set[str]]


def modules(root: Path) -> dict[str, Path]:
    """Every module of the packages under ``root``, by dotted name (a package by its own)."""
    found = {}
    for package in PACKAGES:
        for source in (root / package).rglob("*.py"):
            parts = source.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = source
    return found


def _never_run(tree: ast.Module) -> set[int]:
    """The lines of ``if TYPE_CHECKING:`` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(n.lineno for n in ast.walk(inner) if hasattr(n, "lineno"))
    return lines


def _named(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement may load (``from a import b``: ``a.b`` and ``a``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        anchor = package[: len(package) - node.level + 1]
        base = ".".join([*anchor, base] if base else anchor)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def imports(found: Mapping[str, Path]) -> Imports:
    """For each module, the modules of the packages it imports."""
    graph: Imports = {}
    for module, source in found.items():
        tree = ast.parse(source.read_text(), filename=str(source))
        skipped = _never_run(tree)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and node.lineno not in skipped:
                for name in _named(node, module, source.name == "__init__.py"):
                    while name and name not in found:  # ``from a.b import func``: module a.b
                        name = name.rpartition(".")[0]
                    if name and name != module:
                        targets.add(name)
        graph[module] = targets
    return graph


def circles(graph: Imports) -> list[list[str]]:
    """Groups of modules that reach each other through imports (Tarjan's strongly connected
    components of more than one module), iteratively: the house is deeper than the stack."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, pending = work[-1]
            target = next(pending, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def _within(module: str, packages: Iterable[str]) -> str | None:
    return next((p for p in packages if module == p or module.startswith(f"{p}.")), None)


def _against_the_stack(module: str, target: str) -> bool:
    if module.startswith("scoring"):
        return target.startswith("api")
    area, higher = _within(module, AREAS), _within(target, AREAS)
    if area is not None:
        return higher is not None and AREAS.index(higher) > AREAS.index(area)
    return (_within(module, INFRASTRUCTURE) is not None and module != COMMAND_LINE
            and (higher is not None or target in ("api.app", "api.openapi")))


def upward(graph: Imports) -> list[str]:
    """Every import that runs against the stack, as ``importer -> imported``."""
    return [f"{module} -> {target}" for module, targets in sorted(graph.items())
            for target in sorted(targets) if _against_the_stack(module, target)]


@pytest.fixture(scope="module")
def house() -> Imports:
    return imports(modules(ROOT))


def test_no_two_files_import_each_other_even_through_others(house: Imports) -> None:
    assert circles(house) == []


def test_a_lower_area_or_the_infrastructure_imports_nothing_higher(house: Imports) -> None:
    assert upward(house) == []


def test_the_house_is_read_whole(house: Imports) -> None:
    assert {"api.app", "api.matches.owners", "api.clubs.owner", "scoring.match"} <= set(house)
    assert "api.matches.owners" in house["api.app"]


def _write(root: Path, files: Mapping[str, str]) -> Imports:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return imports(modules(root))


def test_the_check_sees_a_circle_and_an_import_inside_a_function(tmp_path: Path) -> None:
    graph = _write(tmp_path, {
        "api/__init__.py": "", "scoring/__init__.py": "",
        "api/a.py": "from api import b\n",
        "api/b.py": "def late():\n    from api.c import thing\n",
        "api/c.py": "from .a import x\n",
    })
    assert circles(graph) == [["api.a", "api.b", "api.c"]]


def test_the_check_sees_every_import_against_the_stack(tmp_path: Path) -> None:
    graph = _write(tmp_path, {
        "api/__init__.py": "", "scoring/__init__.py": "",
        "api/matches/__init__.py": "", "api/clubs/__init__.py": "",
        "api/tournaments/__init__.py": "", "api/edge/__init__.py": "",
        "api/server/__init__.py": "",
        "api/matches/service.py": "def f():\n    from api.clubs import ledger\n",
        "api/clubs/ledger.py": "from api.matches import service\n",
        "api/edge/problems.py": "import api.tournaments\n",
        "api/server/cli.py": "from api.clubs import ledger\n",
        "scoring/match.py": "from api.edge import problems\n",
        "api/tournaments/hosts.py": ("from typing import TYPE_CHECKING\n"
                                     "if TYPE_CHECKING:\n    from api.clubs import ledger\n"),
    })
    assert upward(graph) == ["api.edge.problems -> api.tournaments",
                             "api.matches.service -> api.clubs",
                             "api.matches.service -> api.clubs.ledger",
                             "scoring.match -> api.edge",
                             "scoring.match -> api.edge.problems"]
