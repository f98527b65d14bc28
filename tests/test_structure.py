"""The house's structure, held (docs/architecture.md): no import circle, the table knowing only what is below it.

Every ``import`` of ``services``, ``gateway`` and ``tools`` counts, those under ``TYPE_CHECKING``
and inside functions too.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("services", "gateway", "tools", "cli")
MAX_LINES = 500


def _module(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


@cache
def _sources() -> dict[str, Path]:
    return {_module(p): p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts}


def _imported(module: str, path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)


@cache
def imports() -> dict[str, set[str]]:
    """Each module of the house and the modules of the house it imports."""
    sources = _sources()
    out: dict[str, set[str]] = {}
    for module, path in sources.items():
        found = set()
        for name in _imported(module, path):
            while name and name not in sources:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
        out[module] = found
    return out


def _grouped(depth: int) -> dict[str, set[str]]:
    """The import graph between packages ``depth`` names deep (0: between modules)."""
    def group(m: str) -> str:
        return ".".join(m.split(".")[:depth]) if depth else m
    graph: dict[str, set[str]] = defaultdict(set)
    for a, targets in imports().items():
        graph[group(a)] |= {group(b) for b in targets if group(b) != group(a)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm, iteratively).

    >>> circles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.append(top)
                        if top == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


@pytest.mark.parametrize("depth", [0, 1, 2, 3], ids=["modules", "top", "packages", "subpackages"])
def test_no_import_circle(depth: int) -> None:
    assert circles(_grouped(depth)) == []


def test_the_table_imports_nothing_above_it() -> None:
    above = ("services.accounts", "services.disputes", "services.readmodels", "services.record", "gateway", "tools")
    reached = {b for a, targets in imports().items() if a.startswith("services.table") for b in targets}
    assert sorted(b for b in reached if b.startswith(above)) == []


def test_no_production_package_imports_the_tools() -> None:
    reached = {(a, b) for a, targets in imports().items() if not a.startswith(("tools", "cli"))
               for b in targets if b.startswith("tools")}
    assert sorted(reached) == []


def test_no_file_of_the_services_or_the_gateway_is_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for m, p in _sources().items() if m.startswith(("services", "gateway"))
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}
