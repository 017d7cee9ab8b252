"""Follow the model's output through an eval package by data flow (``ast`` only).

The name rules of ``scan.py`` see ``state.output.completion`` or a name with
``completion`` in it. This module follows the value instead: from the task
state every ``@scorer`` function of the package receives (a parameter named
like a state, ``syntax.state_like``, or annotated ``TaskState``), through
assignments (``x = state.output.completion``, ``y = x.strip()``, tuples,
attribute and item reads, loops over messages), into the functions of the same
package it is passed to (nested, module-level, imported across modules,
methods, the implementations of a ``typing.Protocol`` it is called through)
and back out of what they return.

What a value is, as far as the output goes (its *kind*):

* `STATE`: a task state.
* `OUTPUT`: the ``ModelOutput`` object (``state.output``): always truthy.
* `TEXT`: the output's text, messages, a message or its content, and what
  only strips or re-cases them; also what a call the scan cannot follow
  returns when given the output (assumed to still be it).

Every negative check on such a value (``not x``, ``x == ""``, ``x in ["",
None]``, ``output.empty``) and every dead one (the truth of ``OUTPUT``,
``<message>.text is None``) is a `FlowCheck`, with the route the output took
to it. The places the output leaves what the scan can follow are listed too:
a function of another ``inspect_evals`` package, a call it cannot resolve,
``*args``/``**kwargs``, ``state.metadata``/``state.store``, an object of a
package class with no ``__init__``. Library calls (the standard library,
inspect_ai) are neither followed nor listed.
"""

import ast
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from empty_migrate.analysis.findings import Finding
from empty_migrate.analysis.package_index import (
    FunctionRef,
    ModuleRef,
    Outside,
    PackageIndex,
    parameters,
)
from empty_migrate.analysis.syntax import (
    Definition,
    Function,
    QualifiedPath,
    decorator_kinds,
    last_name,
    scope_bindings,
    state_like,
)
from empty_migrate.analysis.workspace import Workspace

STATE, OUTPUT, TEXT = "state", "output", "text"
Kind = str | None
Taint = frozenset[tuple[str, str]]
"""The names a function starts with that hold the output, with their kinds."""

TEXT_ATTRIBUTES = {"completion", "message", "messages", "text", "content", "choices"}
TEXT_METHODS = {"strip", "lstrip", "rstrip", "lower", "upper", "casefold"}
STORING_METHODS = {"set", "append", "extend", "update", "setdefault", "insert"}
NEVER_NONE = {"text", "completion"}
"""Attributes of a message or output that are always a string."""
PASS_THROUGH = {"list", "tuple", "reversed", "sorted"}
_MAX_TEXT = 100


@dataclass(frozen=True)
class FlowCheck:
    """An empty check on the model's output, and how the output reached it.

    Attributes:
        file: The file, relative to ``src/inspect_evals``.
        line: The line of the check.
        check: The condition, as written.
        function: The qualified name of the function holding it.
        route: The scorer, then each call the output went through, as
            ``name(parameter)``: ``("combined_scorer", "grade(messages)")``.
        kind: ``empty`` (hand-rolled) or ``dead`` (never fires).
        in_scorer: True inside a ``@scorer`` function (or one nested in it),
            False in a helper.
    """

    file: str
    line: int
    check: str
    function: str
    route: tuple[str, ...]
    kind: str
    in_scorer: bool

    def __str__(self) -> str:
        via = " -> ".join(self.route)
        return f"{self.file}:{self.line}: {self.function}: {self.check} (via {via})"


@dataclass
class FlowReport:
    """Where the output of one eval package's scorers goes."""

    checks: list[FlowCheck] = field(default_factory=list)
    unfollowed: list[Finding] = field(default_factory=list)

    @property
    def helpers(self) -> list[FlowCheck]:
        """The checks in plain functions, not in a ``@scorer``."""
        return [check for check in self.checks if not check.in_scorer]


def follow_output(workspace: Workspace, eval_name: str) -> FlowReport:
    """Follow the output from every ``@scorer`` of a package; checks and leaks."""
    index = PackageIndex(workspace, eval_name)
    return _Analyzer(index).run(_entries(index))


def _text(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


Visit = tuple[FunctionRef, Taint, tuple[str, ...]]


def _entries(index: PackageIndex) -> list[Visit]:
    """Every ``@scorer`` function, and every function nested in it taking a state."""
    found: list[Visit] = []
    for file in index.files():
        if "scorer" not in index.text(file):
            continue
        module = index.module(file)
        if module is None:
            continue
        for path, node in module.definitions.items():
            scorer = _scorer_of(module.definitions, path)
            if scorer is not None and isinstance(node, Function):
                found.append((FunctionRef(file, path), _seeds(node), (scorer,)))
    return found


def _scorer_of(
    definitions: Mapping[QualifiedPath, Definition], path: QualifiedPath
) -> str | None:
    """The name of the ``@scorer`` function `path` is or is nested in."""
    for depth in range(1, len(path) + 1):
        node = definitions.get(path[:depth])
        if isinstance(node, Function) and "scorer" in decorator_kinds(
            node.decorator_list
        ):
            return node.name
    return None


def _seeds(function: Function) -> Taint:
    """The parameters holding a task state: named like one, or typed ``TaskState``."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return frozenset(
        (a.arg, STATE)
        for a in every
        if state_like(a.arg)
        or (a.annotation is not None and last_name(a.annotation) == "TaskState")
    )


@dataclass
class _Facts:
    """What one function does with the output it is given."""

    checks: list[tuple[ast.expr, str]] = field(default_factory=list)
    calls: list[tuple[FunctionRef, Taint, str]] = field(default_factory=list)
    unfollowed: list[tuple[ast.stmt | ast.expr, str]] = field(default_factory=list)
    returns: Kind = None


class _Analyzer:
    """Analyses each (function, taint) once; walks the calls breadth first."""

    def __init__(self, index: PackageIndex) -> None:
        self.index = index
        self.done: dict[tuple[FunctionRef, Taint], _Facts] = {}
        self.busy: set[tuple[FunctionRef, Taint]] = set()

    def facts(self, ref: FunctionRef, taint: Taint) -> _Facts:
        """The facts of a function started with `taint` (empty while recursing)."""
        key = (ref, taint)
        if key in self.done:
            return self.done[key]
        node = self.index.definition(ref)
        if key in self.busy or not isinstance(node, Function):
            return _Facts()
        self.busy.add(key)
        try:
            facts = _FunctionFlow(self, ref, node, dict(taint)).run()
        finally:
            self.busy.discard(key)
        self.done[key] = facts
        return facts

    def run(self, entries: list[Visit]) -> FlowReport:
        """Follow the output from the entries; the first route to a place wins."""
        report = FlowReport()
        seen: set[tuple[FunctionRef, Taint]] = set()
        # where a check was reported (file, line, column), and each place listed
        places: set[tuple[str, int, int] | Finding] = set()
        queue = deque(entries)
        while queue:
            ref, taint, route = queue.popleft()
            if (ref, taint) in seen:
                continue
            seen.add((ref, taint))
            facts = self.facts(ref, taint)
            for test, kind in facts.checks:
                if (ref.file, test.lineno, test.col_offset) not in places:
                    places.add((ref.file, test.lineno, test.col_offset))
                    report.checks.append(self._check(ref, test, kind, route))
            for node, reason in facts.unfollowed:
                place = Finding(ref.file, node.lineno, f"{_text(node)}: {reason}")
                if place not in places:
                    places.add(place)
                    report.unfollowed.append(place)
            queue.extend((c, t, (*route, label)) for c, t, label in facts.calls)
        report.checks.sort(key=lambda c: (c.file, c.line))
        report.unfollowed.sort(key=lambda f: (f.file, f.line))
        return report

    def _check(
        self, ref: FunctionRef, test: ast.expr, kind: str, route: tuple[str, ...]
    ) -> FlowCheck:
        module = self.index.module(ref.file)
        scorer = _scorer_of(module.definitions, ref.path) if module else None
        return FlowCheck(
            ref.file, test.lineno, _text(test), ref.name, route, kind, bool(scorer)
        )


@dataclass(frozen=True)
class _Call:
    """What a call resolves to: package functions, or why it is not followed."""

    functions: tuple[FunctionRef, ...] = ()
    bound: bool = False  # a method called on an object: ``self`` is not an argument
    reason: str | None = None  # not followed, and listed, for this reason


_LIBRARY = _Call()


def _own_nodes(function: Function) -> list[ast.AST]:
    """The nodes of a function's body, not those of the scopes nested in it."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, Function | ast.ClassDef | ast.Lambda):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return found


class _FunctionFlow:
    """The data flow of the output through one function's body."""

    def __init__(
        self,
        analyzer: _Analyzer,
        ref: FunctionRef,
        node: Function,
        env: dict[str, str],
    ) -> None:
        self.analyzer = analyzer
        self.index = analyzer.index
        self.ref = ref
        self.node = node
        self.env: dict[str, str] = env
        self.nodes = _own_nodes(node)
        self.resolved: dict[int, _Call] = {}

    def run(self) -> _Facts:
        """Bind names to kinds until nothing changes, then read the body."""
        self._bind()
        facts = _Facts()
        for node in self.nodes:
            for test in _tests(node):
                if kind := self.check_kind(test):
                    facts.checks.append((test, kind))
            if isinstance(node, ast.Call):
                self._call(node, facts)
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                self._store(node, facts)
            if isinstance(node, ast.Return) and node.value is not None:
                facts.returns = facts.returns or self.kind(node.value)
        return facts

    # -- binding names ---------------------------------------------------

    def _bind(self) -> None:
        bindings = list(_bindings(self.nodes))
        for _ in range(4):
            before = dict(self.env)
            for target, value, iterated in bindings:
                kind = self._element_kind(value) if iterated else self.kind(value)
                self._assign(target, value, kind, iterated)
            if self.env == before:
                return

    def _assign(
        self, target: ast.expr, value: ast.expr, kind: Kind, iterated: bool
    ) -> None:
        if isinstance(target, ast.Name):
            if kind is not None:
                self.env.setdefault(target.id, kind)
            return
        if not isinstance(target, ast.Tuple | ast.List):
            return
        if iterated and _call_name(value) == "enumerate" and len(target.elts) == 2:
            self._assign(target.elts[1], value, kind, False)
        elif not iterated and isinstance(value, ast.Tuple | ast.List):
            for item, part in zip(target.elts, value.elts, strict=False):
                self._assign(item, part, self.kind(part), False)
        else:
            for item in target.elts:
                self._assign(item, value, kind, iterated)

    def _element_kind(self, iterable: ast.expr) -> Kind:
        """The kind of what a loop over `iterable` binds."""
        passed_through = _call_name(iterable) in {"enumerate", *PASS_THROUGH}
        if passed_through and isinstance(iterable, ast.Call) and iterable.args:
            return self._element_kind(iterable.args[0])
        return TEXT if self.kind(iterable) == TEXT else None

    # -- the kind of an expression -----------------------------------------

    def kind(self, node: ast.expr) -> Kind:
        """`STATE`, `OUTPUT`, `TEXT` or None: what `node` holds of the output."""
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.Attribute):
            return _attribute_kind(self.kind(node.value), node.attr)
        if isinstance(node, ast.Subscript):
            return TEXT if self.kind(node.value) == TEXT else None
        if isinstance(node, ast.Call):
            return self._call_kind(node)
        if isinstance(node, ast.IfExp):
            return self.kind(node.body) or self.kind(node.orelse)
        if isinstance(node, ast.BoolOp):
            return next(filter(None, map(self.kind, node.values)), None)
        if isinstance(node, ast.Await | ast.NamedExpr):
            return self.kind(node.value)
        return None

    def _call_kind(self, call: ast.Call) -> Kind:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in TEXT_METHODS:
            return TEXT if self.kind(func.value) == TEXT else None
        if _call_name(call) in {"str", *PASS_THROUGH} and call.args:
            return TEXT if self.kind(call.args[0]) == TEXT else None
        given = [self.kind(a) for a in _arguments(call)]
        if not any(given):
            return None
        resolved = self.resolve(call)
        if resolved.reason is not None:
            return TEXT if TEXT in given or OUTPUT in given else None
        returns = [
            self.analyzer.facts(ref, taint).returns
            for ref, taint, _ in self._edges(call, resolved)
        ]
        return next(filter(None, returns), None)

    # -- checks ---------------------------------------------------------------

    def check_kind(self, test: ast.expr) -> str | None:
        """``empty`` or ``dead`` if `test` checks the output for emptiness."""
        if isinstance(test, ast.BoolOp):
            return next(filter(None, map(self.check_kind, test.values)), None)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            kind = self.kind(test.operand)
            return {OUTPUT: "dead", TEXT: "empty"}.get(kind or "")
        if isinstance(test, ast.Attribute) and test.attr == "empty":
            return "empty" if self.kind(test.value) == OUTPUT else None
        if isinstance(test, ast.Compare):
            return self._compare_kind(test)
        return "dead" if self.kind(test) == OUTPUT else None

    def _compare_kind(self, test: ast.Compare) -> str | None:
        sides = [test.left, *test.comparators]
        ops = {type(op) for op in test.ops}
        left = test.left
        if ops <= {ast.Is, ast.IsNot} and _is_constant(sides[-1], None):
            read = isinstance(left, ast.Attribute) and left.attr in NEVER_NONE
            return "dead" if read and self.kind(left) == TEXT else None
        if ops <= {ast.In, ast.NotIn} and self.kind(left) == TEXT:
            items = getattr(sides[-1], "elts", [])
            return "empty" if any(_is_constant(i, "") for i in items) else None
        if ops <= {ast.Eq, ast.NotEq} and any(_is_constant(s, "") for s in sides):
            return "empty" if any(self.kind(s) == TEXT for s in sides) else None
        return None

    # -- calls ------------------------------------------------------------------

    def _call(self, call: ast.Call, facts: _Facts) -> None:
        """Follow the output into a call, or list the call as not followed."""
        self._store_call(call, facts)
        if not any(self.kind(a) for a in _arguments(call)):
            return
        resolved = self.resolve(call)
        if resolved.reason is not None:
            facts.unfollowed.append((call, resolved.reason))
            return
        for reason in self._spread(call, resolved):
            facts.unfollowed.append((call, reason))
        facts.calls += self._edges(call, resolved)

    def _edges(
        self, call: ast.Call, resolved: _Call
    ) -> list[tuple[FunctionRef, Taint, str]]:
        """(function, taint, route label) for each package function called."""
        edges = []
        for ref in resolved.functions:
            node = self.index.definition(ref)
            if not isinstance(node, Function):
                continue
            bound = resolved.bound or ref.path[-1] == "__init__"
            taint = self._taint(call, node, bound)
            closure = self._closure(ref)
            if taint:
                names = ", ".join(name for name, _ in sorted(taint))
                label = f"{last_name(call.func) or _text(call.func)}({names})"
                edges.append((ref, frozenset(taint) | closure, label))
        return edges

    def _taint(
        self, call: ast.Call, node: Function, bound: bool
    ) -> set[tuple[str, str]]:
        """The callee's parameters that receive the output, with their kinds."""
        names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        names = names[1:] if bound and names else names
        taint = set()
        for name, argument in zip(names, call.args, strict=False):
            if not isinstance(argument, ast.Starred) and (kind := self.kind(argument)):
                taint.add((name, kind))
        known = set(names) | {a.arg for a in node.args.kwonlyargs}
        for keyword in call.keywords:
            if keyword.arg in known and (kind := self.kind(keyword.value)):
                taint.add((keyword.arg, kind))
        return taint

    def _spread(self, call: ast.Call, resolved: _Call) -> list[str]:
        """Why output given as ``*args``/``**kwargs`` is not followed, if it is."""
        reasons = []
        for ref in resolved.functions:
            node = self.index.definition(ref)
            if isinstance(node, ast.ClassDef):
                reasons.append(f"stored into an object of {node.name}, not followed")
            elif isinstance(node, Function) and self._into_spread(call, node, resolved):
                reasons.append(f"passed via *args/**kwargs into {ref.name}")
        return reasons

    def _into_spread(self, call: ast.Call, node: Function, resolved: _Call) -> bool:
        named = [*node.args.posonlyargs, *node.args.args]
        skip = 1 if resolved.bound or node.name == "__init__" else 0
        extra = call.args[len(named) - skip :]
        known = {a.arg for a in [*named, *node.args.kwonlyargs]}
        loose = [k.value for k in call.keywords if k.arg not in known]
        spread = [a for a in call.args if isinstance(a, ast.Starred)]
        return any(self.kind(getattr(v, "value", v)) for v in [*extra, *loose, *spread])

    def _closure(self, ref: FunctionRef) -> Taint:
        """The output the current function's names give a function nested in it."""
        if ref.file != self.ref.file or ref.path[:-1] != self.ref.path:
            return frozenset()
        return frozenset(self.env.items())

    def resolve(self, call: ast.Call) -> _Call:
        """What a call calls: package functions, a library, or a place not followed."""
        if id(call) not in self.resolved:
            self.resolved[id(call)] = self._resolve(call)
        return self.resolved[id(call)]

    def _resolve(self, call: ast.Call) -> _Call:
        func = call.func
        if isinstance(func, ast.Name):
            return self._resolve_name(func.id)
        if isinstance(func, ast.Attribute):
            return self._resolve_method(func)
        return _Call(reason="a call the scan cannot resolve")

    def _resolve_name(self, name: str) -> _Call:
        target = self.index.resolve(name, self.ref.file, self.ref.path)
        if isinstance(target, FunctionRef):
            return _Call((target,))
        if isinstance(target, Outside):
            return _Call(reason=f"passed to {target.dotted}, outside the package")
        module = self.index.module(self.ref.file)
        if module and name in module.imports:
            return _LIBRARY
        if self._binds(self.node, name) or self._enclosing_binds(name):
            return self._local_callable(name)
        return _LIBRARY

    def _enclosing_binds(self, name: str) -> bool:
        module = self.index.module(self.ref.file)
        for depth in range(len(self.ref.path) - 1, 0, -1):
            outer = module.definitions.get(self.ref.path[:depth]) if module else None
            if isinstance(outer, Function) and self._binds(outer, name):
                return True
        return False

    @staticmethod
    def _binds(function: Function, name: str) -> bool:
        return name in scope_bindings(function.body, function.args)

    def _local_callable(self, name: str) -> _Call:
        """A variable called as a function: a Protocol's implementations, if typed."""
        annotation = _annotation(self.node, name)
        if annotation is not None:
            implementations = self._protocol(annotation)
            if implementations:
                return _Call(tuple(implementations))
        return _Call(reason=f"a call the scan cannot resolve ({name} is a variable)")

    def _protocol(self, annotation: ast.expr) -> list[FunctionRef]:
        target = self.index.resolve(last_name(annotation), self.ref.file, ())
        if not isinstance(target, FunctionRef):
            return []
        node = self.index.definition(target)
        if not isinstance(node, ast.ClassDef):
            return []
        if "Protocol" not in {last_name(base) for base in node.bases}:
            return []
        call = next(
            (f for f in node.body if isinstance(f, Function) and f.name == "__call__"),
            None,
        )
        return self.index.functions_with_parameters(parameters(call)) if call else []

    def _resolve_method(self, func: ast.Attribute) -> _Call:
        owner, name = func.value, func.attr
        if self.kind(owner) is not None:
            return _LIBRARY
        if isinstance(owner, ast.Name):
            if owner.id in {"self", "cls"} and len(self.ref.path) > 1:
                method = FunctionRef(self.ref.file, (*self.ref.path[:-1], name))
                if self.index.definition(method) is not None:
                    return _Call((method,), bound=True)
            target = self.index.resolve(owner.id, self.ref.file, self.ref.path)
            if isinstance(target, ModuleRef):
                found = self.index.resolve(name, target.file, ())
                return _Call((found,)) if isinstance(found, FunctionRef) else _LIBRARY
            if isinstance(target, Outside):
                dotted = f"{target.dotted}.{name}"
                return _Call(reason=f"passed to {dotted}, outside the package")
        methods = self.index.methods(name)
        if len(methods) > 1:
            reason = f"a call the scan cannot resolve ({len(methods)} methods {name})"
            return _Call(reason=reason)
        return _Call(tuple(methods), bound=True) if methods else _LIBRARY

    # -- stores ------------------------------------------------------------------

    def _store(
        self, node: ast.Assign | ast.AugAssign | ast.AnnAssign, facts: _Facts
    ) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if node.value is None or not self._carries(node.value):
            return
        for target in targets:
            if where := self._storage(target):
                facts.unfollowed.append((node, f"stored into {where}"))

    def _store_call(self, call: ast.Call, facts: _Facts) -> None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in STORING_METHODS):
            return
        where = self._storage(func.value)
        if where and any(self._carries(a) for a in _arguments(call)):
            facts.unfollowed.append((call, f"stored into {where}"))

    def _storage(self, node: ast.expr) -> str | None:
        """``state.metadata``/``state.store`` if `node` is (inside) one of them."""
        while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
            if isinstance(node, ast.Call):
                if _call_name(node) in {"store", "store_as"}:
                    return "the sample store"
                node = node.func
                continue
            if isinstance(node, ast.Attribute) and node.attr in {"metadata", "store"}:
                if self.kind(node.value) == STATE:
                    return f"state.{node.attr}"
            node = node.value
        return None

    def _carries(self, node: ast.expr) -> bool:
        """Whether the output is anywhere inside an expression."""
        return any(
            self.kind(n) in {TEXT, OUTPUT}
            for n in ast.walk(node)
            if isinstance(n, ast.Name | ast.Attribute | ast.Subscript)
        )


def _attribute_kind(owner: Kind, attribute: str) -> Kind:
    if owner == STATE:
        return {"output": OUTPUT, "messages": TEXT}.get(attribute)
    if owner in {OUTPUT, TEXT} and attribute in TEXT_ATTRIBUTES:
        return TEXT
    return None


def _call_name(node: ast.expr) -> str:
    return last_name(node.func) if isinstance(node, ast.Call) else ""


def _arguments(call: ast.Call) -> list[ast.expr]:
    values = [a.value if isinstance(a, ast.Starred) else a for a in call.args]
    return values + [k.value for k in call.keywords]


def _is_constant(node: ast.expr, value: object) -> bool:
    return (
        isinstance(node, ast.Constant)
        and node.value == value
        and (type(node.value) is type(value))
    )


def _tests(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.If | ast.IfExp | ast.While):
        return [node.test]
    if isinstance(node, ast.comprehension):
        return list(node.ifs)
    return []


def _bindings(nodes: list[ast.AST]) -> Iterator[tuple[ast.expr, ast.expr, bool]]:
    """(target, value, iterated) for every binding with a value among `nodes`."""
    for node in nodes:
        if isinstance(node, ast.Assign):
            yield from ((t, node.value, False) for t in node.targets)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value:
            yield node.target, node.value, False
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            yield node.target, node.iter, True


def _annotation(function: Function, name: str) -> ast.expr | None:
    """The annotation `name` is given in a function: parameter or ``name: T = ...``."""
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if argument.arg == name and argument.annotation is not None:
            return argument.annotation
    for node in ast.walk(function):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == name:
                return node.annotation
    return None
