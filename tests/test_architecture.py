"""The package's import graph: no cycle between modules, none between folders.

Every module under ``src/empty_migrate/`` is parsed with `ast` (nothing is
imported). An import counts wherever it stands: at the top, inside a
function, under ``if TYPE_CHECKING:``, in a ``try``. Relative imports are
resolved against the importing module's package, and ``from pkg import name``
counts as importing the submodule ``pkg.name`` when there is one, else ``pkg``.
An import names one module: ``import a.b.c`` is an edge to ``a.b.c`` (Python
also runs the ``__init__`` of ``a`` and ``a.b`` on the way, but an edge to
every parent package would make each package's ``__init__`` look like it
imports its children's importers). Imports through a string
(``importlib.import_module(f"...{name}...")``) are not seen.

Modules belong to the folder they sit in (a package's ``__init__.py`` to its
own folder). The folder graph must be acyclic too, so the folders form
levels: a folder's level is the longest path from it to a folder that imports
no other, and no folder imports one at its own level or above.
``empty_migrate/__main__.py`` is the entry point: it may import anything, so
its imports are left out of the folder graph (they still count for module
cycles). The package root's ``__init__.py`` imports nothing of the package,
so importing any part of it never loads the rest.
"""

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = "empty_migrate"
SOURCE = Path(__file__).parents[1] / "src" / PACKAGE
ENTRY_POINT = f"{PACKAGE}.__main__"


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    root: Path

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"

    @property
    def folder(self) -> str:
        """The folder it sits in, from the package root ("" for the root)."""
        return self.path.parent.relative_to(self.root).as_posix().removeprefix(".")


def discover(root: Path = SOURCE) -> dict[str, Module]:
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = Module(".".join(parts), path, root)
    return modules


def imported(module: Module, modules: dict[str, Module]) -> Iterator[tuple[str, int]]:
    """(module name, line) of each package module that `module` imports."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found = _known(alias.name, modules)
                if found:
                    yield found, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                found = _known(f"{base}.{alias.name}", modules) or _known(base, modules)
                if found:
                    yield found, node.lineno


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    if node.level - 1 >= len(parts):
        raise ValueError(f"relative import beyond the top package in {package}")
    base = ".".join(parts[: len(parts) - (node.level - 1)])
    return f"{base}.{node.module}" if node.module else base


def _known(name: str, modules: dict[str, Module]) -> str | None:
    """The longest prefix of `name` that is a module of the package, if any."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def module_graph(modules: dict[str, Module]) -> dict[str, dict[str, int]]:
    """Module -> {imported module: first line importing it}, self-imports left out."""
    graph: dict[str, dict[str, int]] = {}
    for name, module in modules.items():
        edges: dict[str, int] = {}
        for target, line in imported(module, modules):
            if target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def folder_graph(
    modules: dict[str, Module], graph: dict[str, dict[str, int]]
) -> dict[str, dict[str, str]]:
    """Folder -> {imported folder: one import that makes the edge, as text}."""
    folders: dict[str, dict[str, str]] = {}
    for name, edges in graph.items():
        if name == ENTRY_POINT:
            continue  # the entry point may import anything
        source = modules[name].folder
        folders.setdefault(source, {})
        for target, line in edges.items():
            folder = modules[target].folder
            if folder != source:
                folders[source].setdefault(folder, f"{name}:{line} imports {target}")
    for module in modules.values():
        folders.setdefault(module.folder, {})
    return folders


def cycles(graph: dict[str, dict]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def one_cycle(graph: dict[str, dict], component: list[str]) -> list[str]:
    """A closed path through the component, starting at its first member."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:  # breadth first: the shortest way back to the start
        node = queue.pop(0)
        for target in sorted(graph.get(node, {})):
            if target == start:
                return [*paths[node], start]
            if target in members and target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"no cycle through {start}")


def levels(graph: dict[str, dict]) -> dict[str, int]:
    """Each node's longest path to a leaf, over the graph of its components."""
    component_of = {node: node for node in graph}
    for component in cycles(graph):
        for node in component:
            component_of[node] = component[0]
    memo: dict[str, int] = {}

    def level(node: str, seen: frozenset[str]) -> int:
        key = component_of[node]
        if key in memo:
            return memo[key]
        members = [n for n in graph if component_of[n] == key]
        below = [
            component_of[target]
            for member in members
            for target in graph[member]
            if component_of[target] != key and component_of[target] not in seen
        ]
        memo[key] = 1 + max((level(t, seen | {key}) for t in below), default=-1)
        return memo[key]

    return {node: level(node, frozenset()) for node in graph}


def describe_cycle(graph: dict[str, dict], component: list[str]) -> str:
    path = one_cycle(graph, component)
    pairs = zip(path[:-1], path[1:], strict=True)
    steps = [f"  {a} -> {b}  ({graph[a][b]})" for a, b in pairs]
    return f"cycle through {', '.join(component)}:\n" + "\n".join(steps)


def describe_levels(graph: dict[str, dict]) -> str:
    by_level = levels(graph)
    rows = sorted(by_level.items(), key=lambda item: (-item[1], item[0]))
    return "\n".join(f"  level {level}: {folder or '(root)'}" for folder, level in rows)


@pytest.fixture(scope="module")
def package() -> tuple[dict[str, Module], dict[str, dict[str, int]]]:
    """The package's modules and their import graph (parsed when first asked)."""
    modules = discover()
    return modules, module_graph(modules)


def test_no_import_cycle_between_modules(package):
    _, graph = package
    lines = {name: {t: f"line {n}" for t, n in e.items()} for name, e in graph.items()}
    found = cycles(lines)
    assert not found, "\n\n".join(describe_cycle(lines, c) for c in found)


def test_no_import_cycle_between_folders(package):
    folders = folder_graph(*package)
    found = cycles(folders)
    message = "\n\n".join(describe_cycle(folders, c) for c in found)
    assert not found, f"{message}\n\nfolder levels:\n{describe_levels(folders)}"


def test_the_package_root_imports_nothing_of_the_package(package):
    modules, _ = package
    assert list(imported(modules[PACKAGE], modules)) == []


def test_the_entry_point_imports_the_command_line_only_when_run(package):
    # the one module the folder graph leaves out still imports the CLI lazily
    modules, graph = package
    tree = ast.parse(modules[ENTRY_POINT].path.read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert all(
        not (isinstance(n, ast.ImportFrom) and (n.module or "").startswith(PACKAGE))
        for n in top_level
    )
    assert graph[ENTRY_POINT], "the entry point imports the command line"


# the graph builder itself, on a small package written here


@pytest.fixture
def toy(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/a/__init__.py": "from . import b\n",
        "pkg/a/b.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from ..c import d\n"
        ),
        "pkg/c/__init__.py": "",
        "pkg/c/d.py": "def f():\n    from pkg.a import b\n    import pkg.c.e as e\n",
        "pkg/c/e.py": "from pkg.c import missing_name\nfrom pkg import a\n",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return discover(tmp_path / "pkg")


def test_imports_are_found_at_any_depth_and_resolved(toy):
    assert module_graph(toy) == {
        "pkg": {},
        "pkg.a": {"pkg.a.b": 1},
        "pkg.a.b": {"pkg.c.d": 3},
        "pkg.c": {},
        "pkg.c.d": {"pkg.a.b": 2, "pkg.c.e": 3},
        "pkg.c.e": {"pkg.c": 1, "pkg.a": 2},
    }


def test_cycles_and_levels_on_a_small_graph(toy):
    graph = module_graph(toy)
    assert cycles(graph) == [["pkg.a", "pkg.a.b", "pkg.c.d", "pkg.c.e"]]
    dag = {"top": {"mid": ""}, "mid": {"leaf": ""}, "side": {"leaf": ""}, "leaf": {}}
    assert cycles(dag) == []
    assert levels(dag) == {"top": 2, "mid": 1, "side": 1, "leaf": 0}
