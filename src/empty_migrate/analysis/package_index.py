"""The functions of one eval package and what a name in it calls (``ast`` only).

The data-flow scan (``flow.py``) asks one question of the code here: what does
this called name mean? A name resolves, innermost scope first, to a function
of the package (a nested ``def``, a module-level one, a class's ``__init__``,
or one imported from another module of the package), to a module of the
package, to a name imported from another ``inspect_evals`` package (the scan
cannot follow it there), or to a library (the standard library, inspect_ai and
every other distribution, which the scan never follows). Modules are parsed
on first use and kept.
"""

import ast
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from empty_migrate.analysis.syntax import (
    Definition,
    Function,
    QualifiedPath,
    imports_of,
    outer_functions,
    qualified_definitions,
)
from empty_migrate.analysis.workspace import Workspace
from empty_migrate.target.text_files import NotUtf8

ROOT = "src/inspect_evals"


@dataclass(frozen=True)
class FunctionRef:
    """A function of the package, by file and qualified path.

    ``file`` is relative to ``src/inspect_evals``; ``path`` is as
    `syntax.qualified_definitions` gives it (``("RefusalJudge", "check")``).
    """

    file: str
    path: QualifiedPath

    @property
    def name(self) -> str:
        """The qualified name, ``RefusalJudge.check``."""
        return ".".join(self.path)


@dataclass(frozen=True)
class Outside:
    """A name imported from another ``inspect_evals`` package: ``module.name``."""

    dotted: str


@dataclass(frozen=True)
class ModuleRef:
    """A module of the package, by its file."""

    file: str


Target = FunctionRef | Outside | ModuleRef | None
"""What a name means; None for a library name or one bound otherwise."""


@dataclass
class Module:
    """One parsed module of the package."""

    file: str
    dotted: str
    tree: ast.Module
    definitions: dict[QualifiedPath, Definition] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.definitions = dict(qualified_definitions(self.tree.body))
        for binding in imports_of(self.tree, package_of(self.file)).bindings:
            self.imports[binding.local] = (binding.module, binding.name)


def package_of(file: str) -> str:
    """The package of a module of inspect_evals, by its file.

    Args:
        file: Relative to ``src/inspect_evals``: ``demo/scorer.py`` (and
            ``demo/__init__.py``) are of ``inspect_evals.demo``.
    """
    return ".".join(["inspect_evals", *PurePosixPath(file).parent.parts])


class PackageIndex:
    """The modules of one eval package, parsed on demand.

    Args:
        workspace: The tree, as the run sees it.
        eval_name: The package's folder under ``src/inspect_evals``.
    """

    def __init__(self, workspace: Workspace, eval_name: str) -> None:
        self.workspace = workspace
        self.dotted = f"inspect_evals.{eval_name}"
        self.folder = f"{ROOT}/{eval_name}"
        self._modules: dict[str, Module | None] = {}

    def files(self) -> list[str]:
        """Every ``.py`` file of the package, relative to ``src/inspect_evals``."""
        prefix = f"{ROOT}/"
        return [
            p.removeprefix(prefix) for p in self.workspace.python_files(self.folder)
        ]

    def module(self, file: str) -> Module | None:
        """The parsed module of a file of the package; None if it does not parse."""
        if file not in self._modules:
            self._modules[file] = self._parse(file)
        return self._modules[file]

    def text(self, file: str) -> str:
        """A file of the package's text; "" if it is not UTF-8 (the scan says so)."""
        try:
            return self.workspace.read(f"{ROOT}/{file}")
        except NotUtf8:
            return ""

    def _parse(self, file: str) -> Module | None:
        text = self.text(file)
        if not text:
            return None
        try:
            tree = self.workspace.parse(text, file)
        except (SyntaxError, ValueError):
            return None
        dotted = "inspect_evals." + file.removesuffix(".py").replace("/", ".")
        return Module(file, dotted.removesuffix(".__init__"), tree)

    def definition(self, ref: FunctionRef) -> Definition | None:
        """The node of a function (or class) of the package."""
        module = self.module(ref.file)
        return module.definitions.get(ref.path) if module else None

    def resolve(self, name: str, file: str, scope: QualifiedPath) -> Target:
        """What `name`, used in `scope` of `file`, means (innermost scope first)."""
        module = self.module(file)
        if module is None:
            return None
        for depth in range(len(scope), 0, -1):
            outer = module.definitions.get(scope[:depth])
            if isinstance(outer, Function) and _nested_def(outer, name):
                return _callable(module, (*scope[:depth], name))
        if (name,) in module.definitions:
            return _callable(module, (name,))
        if name in module.imports:
            return self.imported(*module.imports[name])
        return None

    def imported(self, source: str, name: str | None, hops: int = 0) -> Target:
        """What ``from source import name`` (or ``import source``) binds."""
        if not source.startswith(self.dotted + ".") and source != self.dotted:
            inside = source.startswith("inspect_evals.")
            return Outside(f"{source}.{name}" if name else source) if inside else None
        file = self._file_of(f"{source}.{name}" if name else source)
        if file is not None:
            return ModuleRef(file)
        module_file = self._file_of(source)
        module = self.module(module_file) if module_file else None
        if module is None or name is None:
            return None
        if (name,) in module.definitions:
            return _callable(module, (name,))
        if name in module.imports and hops < 3:
            return self.imported(*module.imports[name], hops=hops + 1)
        return None

    def _file_of(self, dotted: str) -> str | None:
        relative = PurePosixPath(*dotted.split(".")[1:])
        files = set(self.files())  # the package's: the one listing of the tree
        for candidate in (f"{relative}.py", f"{relative}/__init__.py"):
            if candidate in files:
                return candidate
        return None

    def methods(self, name: str) -> list[FunctionRef]:
        """Every method called `name` of the package's classes, in file order."""
        found = []
        for file in self.files():
            if f"def {name}(" not in self.text(file):
                continue
            module = self.module(file)
            if module is None:
                continue
            for path in module.definitions:
                outer = module.definitions.get(path[:-1]) if len(path) > 1 else None
                if path[-1] == name and isinstance(outer, ast.ClassDef):
                    found.append(FunctionRef(file, path))
        return found

    def functions_with_parameters(self, names: list[str]) -> list[FunctionRef]:
        """Every module-level function of the package with exactly these parameters.

        A ``typing.Protocol``'s ``__call__`` names what its implementations take.
        """
        found = []
        for file in self.files():
            module = self.module(file)
            for statement in module.tree.body if module else []:
                if isinstance(statement, Function) and parameters(statement) == names:
                    found.append(FunctionRef(file, (statement.name,)))
        return found


def _nested_def(function: Function, name: str) -> bool:
    """Whether a function's body defines `name` (a nested function or class)."""
    nested = [f for statement in function.body for f in outer_functions(statement)]
    classes = [s for s in function.body if isinstance(s, ast.ClassDef)]
    return any(definition.name == name for definition in [*nested, *classes])


def _callable(module: Module, path: QualifiedPath) -> FunctionRef:
    """A function, or for a class its ``__init__`` (the class itself if none)."""
    if isinstance(module.definitions.get(path), ast.ClassDef):
        if (*path, "__init__") in module.definitions:
            return FunctionRef(module.file, (*path, "__init__"))
    return FunctionRef(module.file, path)


def parameters(function: Function) -> list[str]:
    """A function's named parameters in order, without ``self`` or ``cls``."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return [a.arg for a in every if a.arg not in {"self", "cls"}]
