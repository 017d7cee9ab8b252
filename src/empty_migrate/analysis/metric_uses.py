"""Which scorers and tasks list a package's metrics and reducers (``ast`` only).

``@scorer(metrics=...)``, ``Task(metrics=..., epochs=...)`` and
``Task(scorer=...)``, through local names, ``list.append`` and helpers that
return them, `_HOPS` deep.
"""

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from empty_migrate.analysis.metric_model import (
    VALUE,
    FieldRead,
    Key,
    MetricReport,
    Reader,
)
from empty_migrate.analysis.metric_reads import own_returns
from empty_migrate.analysis.package_index import (
    FunctionRef,
    ModuleRef,
    PackageIndex,
    Target,
)
from empty_migrate.analysis.syntax import (
    Function,
    QualifiedPath,
    decorator_kinds,
    last_name,
    scope_bindings,
)

Scope = tuple[str, QualifiedPath]


"""A scope of the package: ``(file, path of the function)``, ``()`` for a module."""


_HOPS = 4


"""How many bindings and helper calls a metrics, epochs or scorer expression
is followed through: mask's ``metrics.append({"*": submetrics})``,
zerobench's ``epochs=repeated_metrics``, bound to a helper's ``Epochs(k,
pass_at_evals + reliability_at_evals)`` of registered reducer names."""


@dataclass
class Search:
    """What one package's search for uses keeps between modules."""

    seen: set[tuple[str, QualifiedPath, str]] = field(default_factory=set)
    """Names and helpers already followed in one query: each once."""
    bindings: dict[Scope, dict[str, list[ast.expr]]] = field(default_factory=dict)
    """Each scope's bindings, once worked out."""
    resolved: dict[tuple[str, QualifiedPath, str], Target] = field(default_factory=dict)
    """What each name means where it is used."""


class Uses:
    """Find ``@scorer(metrics=...)`` and ``Task(...)`` in one module."""

    def __init__(
        self,
        index: PackageIndex,
        file: str,
        report: MetricReport,
        search: "Search",
    ) -> None:
        self.index = index
        self.file = file
        self.report = report
        self.search = search
        self.seen = search.seen
        self.bindings = search.bindings

    def _resolve(self, name: str, scope: QualifiedPath) -> Target:
        """`PackageIndex.resolve`, kept: a package names the same few things often."""
        key = (self.file, scope, name)
        if key not in self.search.resolved:
            self.search.resolved[key] = self.index.resolve(name, self.file, scope)
        return self.search.resolved[key]

    def _first_time(self, scope: QualifiedPath, name: str) -> bool:
        """Whether a name (or helper) is followed for the first time in a search."""
        key = (self.file, scope, name)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def _other(self, file: str) -> "Uses":
        """The same search, in another module of the package."""
        return Uses(self.index, file, self.report, self.search)

    def find(self, tree: ast.Module, text: str) -> None:
        """Record the uses in a module (of `text`) in the report."""
        if "metrics" in text or "Task(" in text:
            self._in(tree.body, (), None)
        for statement in tree.body if "scorer" in text else []:
            if isinstance(statement, Function) and "scorer" not in decorator_kinds(
                statement.decorator_list
            ):
                self.seen.clear()
                called: set[Key] = set()
                for name in _called_or_returned(statement):
                    # a name it calls or returns, not followed further
                    called |= self._scorer_factories(name, (statement.name,), _HOPS)
                if called:
                    key = (self.file, statement.name)
                    self.report.function_scorers[key] = called

    def _in(self, body: list[ast.stmt], scope: QualifiedPath, task: str | None) -> None:
        for statement in body:
            if isinstance(statement, Function):
                path = (*scope, statement.name)
                kinds = decorator_kinds(statement.decorator_list)
                self._decorators(statement, path)
                inner = statement.name if "task" in kinds and not scope else task
                self._in(statement.body, path, inner)
                continue
            if isinstance(statement, ast.ClassDef):
                self._in(statement.body, (*scope, statement.name), task)
                continue
            for node in _expressions(statement):
                if isinstance(node, ast.Call) and last_name(node.func) == "Task":
                    self._task(node, scope, task)
            for name in ("body", "orelse", "finalbody"):
                block = getattr(statement, name, None)
                if isinstance(block, list):
                    self._in(block, scope, task)
            for handler in getattr(statement, "handlers", []):
                self._in(handler.body, scope, task)

    def _decorators(self, node: Function, path: QualifiedPath) -> None:
        for decorator in node.decorator_list:
            if not (
                isinstance(decorator, ast.Call) and last_name(decorator) == "scorer"
            ):
                continue
            for keyword in decorator.keywords:
                if keyword.arg == "metrics":
                    self.seen.clear()
                    key = (self.file, ".".join(path))
                    found = self._readers(keyword.value, path[:-1])
                    found |= self._dict_metrics(keyword.value, node.name, path[:-1])
                    self.report.scorer_readers.setdefault(key, set()).update(found)

    def _task(self, node: ast.Call, scope: QualifiedPath, task: str | None) -> None:
        found: set[Key] = set()
        for keyword in node.keywords:
            self.seen.clear()
            if keyword.arg in {"metrics", "epochs"}:
                found |= self._readers(keyword.value, scope)
            if keyword.arg == "metrics":
                found |= self._dict_metrics(keyword.value, task or "Task", scope)
            if keyword.arg == "scorer":
                scorers = self.report.task_scorers.setdefault(task, set())
                scorers |= self._scorer_factories(keyword.value, scope)
        self.report.task_readers.setdefault(task, set()).update(found)

    def _readers(self, node: ast.expr, scope: QualifiedPath, hops: int = 0) -> set[Key]:
        """The package's readers an expression names, through bindings and calls."""
        found: set[Key] = set()
        registered = self._registered_reducer_names()
        for item in ast.walk(node):
            if isinstance(item, ast.Constant) and item.value in registered:
                found.add(registered[item.value])
            elif isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name):
                module = self._resolve(item.value.id, scope)
                if isinstance(module, ModuleRef):
                    key = (module.file, item.attr)
                    found |= {key} & set(self.report.readers)
            elif isinstance(item, ast.Name):
                found |= self._named(item.id, scope, hops)
        return found

    def _named(self, name: str, scope: QualifiedPath, hops: int) -> set[Key]:
        """The readers a name is, or holds, or a helper it names returns."""
        target = self._resolve(name, scope)
        if isinstance(target, FunctionRef) and len(target.path) == 1:
            key = (target.file, target.path[0])
            if key in self.report.readers:
                return {key}
            if hops < _HOPS and self._first_time(target.path, ""):
                return self._readers_returned(target, hops)
            return set()
        found: set[Key] = set()
        if target is None and hops < _HOPS and self._first_time(scope, name):
            for value in self._bound_values(name, scope):
                found |= self._readers(value, scope, hops + 1)
        return found

    def _readers_returned(self, ref: FunctionRef, hops: int) -> set[Key]:
        """Readers a helper the expression calls returns (``default_metrics()``)."""
        node = self.index.definition(ref)
        if not isinstance(node, Function) or decorator_kinds(node.decorator_list):
            return set()
        inner = self._other(ref.file)
        found: set[Key] = set()
        for value in own_returns(node):
            found |= inner._readers(value, ref.path, hops + 1)
        return found

    def _bound_values(self, name: str, scope: QualifiedPath) -> list[ast.expr]:
        """What a name is bound to in the module and the functions around `scope`.

        What is appended to it counts too (``metrics.append(core_summary())``).
        """
        module = self.index.module(self.file)
        if module is None:
            return []
        values = list(self._bindings(self.file, ()).get(name, []))
        for depth in range(1, len(scope) + 1):
            if isinstance(module.definitions.get(scope[:depth]), Function):
                values += self._bindings(self.file, scope[:depth]).get(name, [])
        return values

    def _bindings(self, file: str, scope: QualifiedPath) -> dict[str, list[ast.expr]]:
        """Each name's known values in one scope, appended ones too (kept)."""
        key = (file, scope)
        if key not in self.bindings:
            module = self.index.module(file)
            node = module.definitions.get(scope) if module and scope else None
            body = node.body if isinstance(node, Function) else []
            if module is not None and not scope:
                body = module.tree.body
            found = {
                name: [v for v in values if v is not None]
                for name, values in scope_bindings(body).items()
            }
            for name, value in _appended(body):
                found.setdefault(name, []).append(value)
            self.bindings[key] = found
        return self.bindings[key]

    def _registered_reducer_names(self) -> dict[str, Key]:
        """``@score_reducer(name="5_of_5_reliability")``: the names epochs may give."""
        found = {}
        for key, reader in self.report.readers.items():
            if reader.kind != "reducer":
                continue
            found[reader.name] = key
            node = self.index.definition(FunctionRef(reader.file, (reader.name,)))
            for decorator in node.decorator_list if isinstance(node, Function) else []:
                for keyword in getattr(decorator, "keywords", []):
                    if keyword.arg == "name" and isinstance(
                        keyword.value, ast.Constant
                    ):
                        found[str(keyword.value.value)] = key
        return found

    def _dict_metrics(
        self, node: ast.expr, owner: str, scope: QualifiedPath
    ) -> set[Key]:
        """Dict-form metrics read their keys of a dict value: a reader of their own."""
        dicts = [d for d in ast.walk(node) if isinstance(d, ast.Dict)]
        if isinstance(node, ast.Name):
            bound = self._bound_values(node.id, scope)
            dicts += [d for d in bound if isinstance(d, ast.Dict)]
        keys = sorted(
            {
                (k.value, k.lineno)
                for d in dicts
                for k in d.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
                if "*" not in k.value
            }
        )
        if not keys:
            return set()
        name = f"{owner} metrics={{...}}"
        reads = tuple(FieldRead(name, self.file, line, VALUE, k) for k, line in keys)
        reader = Reader(name, self.file, keys[0][1], "metrics", reads)
        self.report.readers[(self.file, name)] = reader
        return {(self.file, name)}

    def _scorer_factories(
        self, node: ast.AST, scope: QualifiedPath, hops: int = 0
    ) -> set[Key]:
        """The package's ``@scorer`` factories an expression (or function) names.

        Through a local name bound to a helper's call, and what that helper
        returns (mask's ``build_accuracy_and_honesty_scorer``), `_HOPS` deep.
        """
        found: set[Key] = set()
        for item in ast.walk(node):
            if not isinstance(item, ast.Name):
                continue
            target = self._resolve(item.id, scope)
            definition = (
                self.index.definition(target)
                if isinstance(target, FunctionRef)
                else None
            )
            if isinstance(definition, Function):
                assert isinstance(target, FunctionRef)  # for mypy: definition says so
                if "scorer" in decorator_kinds(definition.decorator_list):
                    found.add((target.file, ".".join(target.path)))
                elif (
                    hops < _HOPS
                    and not decorator_kinds(definition.decorator_list)
                    and self._other(target.file)._first_time(target.path, "")
                ):
                    inner = self._other(target.file)
                    for value in own_returns(definition):
                        found |= inner._scorer_factories(value, target.path, hops + 1)
            elif target is None and hops < _HOPS and self._first_time(scope, item.id):
                for value in self._bound_values(item.id, scope):
                    found |= self._scorer_factories(value, scope, hops + 1)
        return found


def _called_or_returned(function: Function) -> list[ast.Name]:
    """The names a function calls or returns: where it could name a scorer."""
    found = [
        node.func
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    found += [node for node in own_returns(function) if isinstance(node, ast.Name)]
    return found


def _appended(body: list[ast.stmt]) -> Iterator[tuple[str, ast.expr]]:
    """``(name, x)`` for each ``name.append(x)`` or ``name.extend(x)`` in a block."""
    for statement in body:
        for node in ast.walk(statement):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"append", "extend"}
                and isinstance(node.func.value, ast.Name)
            ):
                for argument in node.args:
                    yield node.func.value.id, argument


def _expressions(statement: ast.stmt) -> Iterator[ast.AST]:
    """Every node of a simple statement's own expressions (no nested blocks)."""
    for name, value in ast.iter_fields(statement):
        if name in {"body", "orelse", "finalbody", "handlers", "cases"}:
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, ast.AST):
                yield from ast.walk(item)
