"""Read what a ``@metric`` or ``@score_reducer`` reads of a score (``ast`` only).

The function a reader's factory returns is walked with the kinds each name
holds (a list of sample scores, a score, its metadata, its value), into the
package's functions the scores are passed to. ``metrics.py`` says what is and
is not followed.
"""

import ast
from collections.abc import Iterable, Iterator

from empty_migrate.analysis.metric_model import (
    ANSWER,
    METADATA,
    SAMPLE_METADATA,
    VALUE,
    FieldRead,
    Key,
    Reader,
    read_order,
)
from empty_migrate.analysis.package_index import (
    FunctionRef,
    ModuleRef,
    PackageIndex,
    parameters,
)
from empty_migrate.analysis.syntax import (
    Function,
    decorator_kinds,
    last_name,
    scope_bindings,
)

FOLLOW_DEPTH = 4


"""How many calls deep a score is followed into the package's functions."""


_READER_DECORATORS = {"metric": "metric", "score_reducer": "reducer"}


_SAMPLE_SCORE, _SCORE, _META, _VALUE, _SAMPLE_META = (
    "sample_score",
    "score",
    "meta",
    "value",
    "sample_meta",
)


_LIST, _DICT = "[]", "{}"


_ANNOTATIONS = {"SampleScore": _SAMPLE_SCORE, "Score": _SCORE}


_PASS_THROUGH = {"list", "tuple", "sorted", "reversed", "dict", "copy", "deepcopy"}


def reader_kind(node: Function) -> str | None:
    """``metric`` or ``reducer`` for a ``@metric``/``@score_reducer`` factory."""
    names = {last_name(d) for d in node.decorator_list}
    return next((_READER_DECORATORS[n] for n in names if n in _READER_DECORATORS), None)


def read_reader(
    index: PackageIndex,
    ref: FunctionRef,
    factory: Function,
    kind: str,
    constants: dict[str, dict[str, frozenset[str]]],
) -> Reader:
    """Read the function a ``@metric``/``@score_reducer`` factory returns."""
    reading = _Reading(index, factory.name, constants)
    seed = _SAMPLE_SCORE + _LIST if kind == "metric" else _SCORE + _LIST
    for returned in map(_uncast, own_returns(factory)):
        if isinstance(returned, ast.Lambda):
            _Evaluator(reading, ref, {}, 0).lambda_kinds(returned, [seed])
        elif isinstance(returned, ast.Name):
            target = index.resolve(returned.id, ref.file, ref.path)
            if isinstance(target, FunctionRef):
                reading.follow(target, {0: frozenset({seed})}, {}, 0)
        elif isinstance(returned, ast.Call):
            _Evaluator(reading, ref, {}, 0).kinds(returned)
            _read_built(reading, ref, returned, seed)
    functions = {ref, *(visited for visited, _ in reading.done)}
    return Reader(
        factory.name,
        ref.file,
        factory.lineno,
        kind,
        tuple(sorted(reading.reads, key=read_order)),
        frozenset((f.file, f.name) for f in functions),
        frozenset(_readers_named(index, functions) - {(ref.file, factory.name)}),
    )


def _read_built(
    reading: "_Reading", ref: FunctionRef, call: ast.Call, seed: str
) -> None:
    """A factory that returns a helper's call (``return reliability_at(k=5)``).

    What the helper returns is read as the factory's own return would be.
    """
    name = call.func.id if isinstance(call.func, ast.Name) else None
    target = reading.index.resolve(name, ref.file, ref.path) if name else None
    helper = (
        reading.index.definition(target) if isinstance(target, FunctionRef) else None
    )
    if not isinstance(helper, Function) or decorator_kinds(helper.decorator_list):
        return
    assert isinstance(target, FunctionRef)  # for mypy: helper says so
    for returned in map(_uncast, own_returns(helper)):
        if isinstance(returned, ast.Name):
            inner = reading.index.resolve(returned.id, target.file, target.path)
            if isinstance(inner, FunctionRef):
                reading.follow(inner, {0: frozenset({seed})}, {}, 0)


def _readers_named(index: PackageIndex, functions: Iterable[FunctionRef]) -> set[Key]:
    """The readers of the package that functions call (a metric built of metrics)."""
    found = set()
    for ref in functions:
        node = index.definition(ref)
        for item in ast.walk(node) if node else []:
            if not (isinstance(item, ast.Call) and isinstance(item.func, ast.Name)):
                continue
            target = index.resolve(item.func.id, ref.file, ref.path)
            if isinstance(target, FunctionRef) and len(target.path) == 1:
                definition = index.definition(target)
                if isinstance(definition, Function) and reader_kind(definition):
                    found.add((target.file, target.path[0]))
    return found


def _uncast(node: ast.expr) -> ast.expr:
    """``x`` of ``cast(T, x)``; any other expression as it is."""
    if isinstance(node, ast.Call) and last_name(node.func) == "cast":
        if len(node.args) == 2:
            return node.args[1]
    return node


def own_returns(function: Function) -> list[ast.expr]:
    """The values a function's own ``return`` statements give (nested defs left out)."""
    found = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            found.append(node.value)
        elif not isinstance(node, Function | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return found


Seeds = frozenset[tuple[str, frozenset[str]]]


class _Reading:
    """The reads of one reader, over every function its scores reach."""

    def __init__(
        self,
        index: PackageIndex,
        reader: str,
        constants: dict[str, dict[str, frozenset[str]]],
    ) -> None:
        self.index = index
        self.reader = reader
        self.reads: set[FieldRead] = set()
        self.done: dict[tuple[FunctionRef, Seeds], frozenset[str]] = {}
        self.constants = constants
        """Each module's string constants, kept for the package's readers."""

    def follow(
        self,
        ref: FunctionRef,
        by_position: dict[int, frozenset[str]],
        by_name: dict[str, frozenset[str]],
        depth: int,
    ) -> frozenset[str]:
        """Read a package function given what its arguments hold; what it returns."""
        node = self.index.definition(ref)
        if not isinstance(node, Function) or depth > FOLLOW_DEPTH:
            return frozenset()
        names = parameters(node)
        seeds = dict(_annotated(node))
        for position, kinds in by_position.items():
            if position < len(names):
                seeds[names[position]] = seeds.get(names[position], frozenset()) | kinds
        for name, kinds in by_name.items():
            if name in names:
                seeds[name] = seeds.get(name, frozenset()) | kinds
        key = (ref, frozenset(seeds.items()))
        if key in self.done:
            return self.done[key]
        self.done[key] = frozenset()  # a recursive call returns nothing known
        returned = _Evaluator(self, ref, seeds, depth).run(node)
        self.done[key] = returned
        return returned

    def record(
        self, file: str, node: ast.AST, kind: str, key: str | None, form: str
    ) -> None:
        fields = {_META: METADATA, _VALUE: VALUE, _SAMPLE_META: SAMPLE_METADATA}
        line = getattr(node, "lineno", 0)
        self.reads.add(FieldRead(self.reader, file, line, fields[kind], key, form))

    def record_answer(self, file: str, node: ast.AST) -> None:
        line = getattr(node, "lineno", 0)
        self.reads.add(FieldRead(self.reader, file, line, ANSWER, None))

    def module_constants(self, file: str) -> dict[str, frozenset[str]]:
        """A module's names bound to a string or a list of strings, imports too."""
        if file not in self.constants:
            self.constants[file] = {}
            module = self.index.module(file)
            if module is not None:
                found = _constants(scope_bindings(module.tree.body))
                for name, (source, imported) in module.imports.items():
                    target = self.index.imported(source, None)
                    if imported and isinstance(target, ModuleRef):
                        other = self.module_constants(target.file)
                        if imported in other:
                            found[name] = other[imported]
                self.constants[file] = found
        return self.constants[file]


def _inside(kinds: frozenset[str], container: str) -> frozenset[str]:
    """What a list (``[]``) or dict (``{}``) of each kind holds, as kinds."""
    return frozenset(k + container for k in kinds)


def _outside(kinds: frozenset[str], container: str) -> frozenset[str]:
    """What an item of each kind that is a list (or dict) of something is."""
    return frozenset(k[: -len(container)] for k in kinds if k.endswith(container))


def _is_method(node: ast.expr, name: str) -> bool:
    """Whether a node calls a method `name` (``x.items()``)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    )


def _annotated(node: Function) -> Iterator[tuple[str, frozenset[str]]]:
    """Parameters annotated as a score or sample score, or a list of them."""
    arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    for argument in arguments:
        kind = _annotation_kind(argument.annotation)
        if kind:
            yield argument.arg, frozenset({kind})


def _annotation_kind(annotation: ast.expr | None) -> str | None:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    if annotation is None:
        return None
    if isinstance(annotation, ast.Subscript):
        inner = _annotation_kind(annotation.slice)
        return inner + _LIST if inner and not inner.endswith(_LIST) else None
    return _ANNOTATIONS.get(last_name(annotation))


def _constants(bindings: dict[str, list[ast.expr | None]]) -> dict[str, frozenset[str]]:
    found = {}
    for name, values in bindings.items():
        strings = [_strings(v) for v in values]
        if values and all(s is not None for s in strings):
            found[name] = frozenset(k for s in strings if s for k in s)
    return found


def _strings(node: ast.expr | None) -> frozenset[str] | None:
    """A string constant, or a list/tuple/set of them, as its strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return frozenset({node.value})
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
        parts = [_strings(e) for e in node.elts]
        if all(p is not None and len(p) == 1 for p in parts):
            return frozenset(k for p in parts if p for k in p)
    return None


class _Evaluator:
    """What each name of one function holds (kinds), recording reads on the way.

    A kind is ``sample_score``, ``score``, ``meta`` (a score's metadata),
    ``value`` or ``sample_meta``, with ``[]`` for each level of list. The
    body is walked twice in source order, so a name bound late in a loop is
    known on the second walk; reads are a set, so seeing one twice is one.
    """

    def __init__(
        self,
        reading: _Reading,
        ref: FunctionRef,
        seeds: dict[str, frozenset[str]],
        depth: int,
    ) -> None:
        self.reading = reading
        self.ref = ref
        self.depth = depth
        self.env: dict[str, frozenset[str]] = dict(seeds)
        self.keys: dict[str, frozenset[str]] = self._enclosing_constants()
        self.returned: set[str] = set()

    def _enclosing_constants(self) -> dict[str, frozenset[str]]:
        found = dict(self.reading.module_constants(self.ref.file))
        index = self.reading.index
        for depth in range(1, len(self.ref.path)):
            outer = index.definition(FunctionRef(self.ref.file, self.ref.path[:depth]))
            if isinstance(outer, Function):
                found |= _constants(scope_bindings(outer.body))
        return found

    def run(self, node: Function) -> frozenset[str]:
        for _ in range(2):
            self.block(node.body)
        return frozenset(self.returned)

    def lambda_kinds(self, node: ast.Lambda, seeds: list[str]) -> frozenset[str]:
        names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        for name, kind in zip(names, seeds, strict=False):
            self.env[name] = frozenset({kind})
        return self.kinds(node.body)

    # statements

    def block(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, Function | ast.ClassDef):
            return
        if isinstance(node, ast.Assign):
            held = self.kinds(node.value)
            for target in node.targets:
                self.bind(target, node.value, held)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.bind(node.target, node.value, self.kinds(node.value))
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.bind_loop(node.target, node.iter)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.returned |= self.kinds(node.value)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.kinds(child)
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                self.block([s for s in block if isinstance(s, ast.stmt)])
        for handler in getattr(node, "handlers", []):
            self.block(handler.body)
        for case in getattr(node, "cases", []):
            self.block(case.body)

    def bind(self, target: ast.expr, value: ast.expr, held: frozenset[str]) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = self.env.get(target.id, frozenset()) | held
            strings = _strings(value)
            if strings is not None:
                self.keys[target.id] = strings
        elif isinstance(target, ast.Tuple | ast.List) and isinstance(
            value, ast.Tuple | ast.List
        ):
            for one, part in zip(target.elts, value.elts, strict=False):
                self.bind(one, part, self.kinds(part))
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self.kinds(target.slice)
            self.add(target.value.id, _inside(held, _DICT))
        else:
            self.kinds(target)

    def add(self, name: str, held: frozenset[str]) -> None:
        """A name holds `held` too (a container something was put in)."""
        self.env[name] = self.env.get(name, frozenset()) | held

    def bind_loop(self, target: ast.expr, iterable: ast.expr) -> None:
        """Bind a ``for`` (or comprehension) target to what iterating gives."""
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
            name, args = iterable.func.id, iterable.args
            if name == "enumerate" and args and isinstance(target, ast.Tuple):
                if len(target.elts) == 2:
                    self.bind_loop(target.elts[1], args[0])
                    return
            if name == "zip" and isinstance(target, ast.Tuple):
                for one, part in zip(target.elts, args, strict=False):
                    self.bind_loop(one, part)
                return
        if _is_method(iterable, "items") and isinstance(target, ast.Tuple):
            assert isinstance(iterable, ast.Call)  # for mypy: _is_method says so
            assert isinstance(iterable.func, ast.Attribute)
            if len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
                values = _outside(self.kinds(iterable.func.value), _DICT)
                self.add(target.elts[1].id, values)
            return
        held = self.kinds(iterable)
        items = _outside(held, _LIST)
        if _is_method(iterable, "values"):
            assert isinstance(iterable, ast.Call) and isinstance(
                iterable.func, ast.Attribute
            )
            items = _outside(_outside(self.kinds(iterable.func.value), _DICT), _LIST)
        if isinstance(target, ast.Name):
            self.env[target.id] = self.env.get(target.id, frozenset()) | items
            strings = self._key_strings(iterable)
            if strings:
                self.keys[target.id] = strings

    def _key_strings(self, node: ast.expr) -> frozenset[str] | None:
        if isinstance(node, ast.Name):
            return self.keys.get(node.id)
        return _strings(node)

    # expressions

    def kinds(self, node: ast.expr) -> frozenset[str]:
        """What an expression holds, recording every read in it."""
        if isinstance(node, ast.Name):
            return self.env.get(node.id, frozenset())
        if isinstance(node, ast.Attribute):
            return self.attribute(node, self.kinds(node.value))
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BoolOp):
            return frozenset().union(*(self.kinds(v) for v in node.values))
        if isinstance(node, ast.IfExp):
            self.kinds(node.test)
            return self.kinds(node.body) | self.kinds(node.orelse)
        if isinstance(node, ast.NamedExpr):
            held = self.kinds(node.value)
            self.bind(node.target, node.value, held)
            return held
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            self.generators(node.generators)
            return _inside(self.kinds(node.elt), _LIST)
        if isinstance(node, ast.DictComp):
            self.generators(node.generators)
            self.kinds(node.key)
            return _inside(self.kinds(node.value), _DICT)
        if isinstance(node, ast.Compare):
            self.membership(node)
        if isinstance(node, ast.Starred):
            return self.kinds(node.value)
        if isinstance(node, ast.Lambda):
            return frozenset()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.kinds(child)
        return frozenset()

    def generators(self, generators: list[ast.comprehension]) -> None:
        for generator in generators:
            self.bind_loop(generator.target, generator.iter)
            for condition in generator.ifs:
                self.kinds(condition)

    def attribute(self, node: ast.Attribute, owner: frozenset[str]) -> frozenset[str]:
        found: set[str] = set()
        if _SAMPLE_SCORE in owner:
            found |= {
                "score": {_SCORE},
                "sample_metadata": {_SAMPLE_META},
            }.get(node.attr, set())
        if _SCORE in owner:
            found |= {"metadata": {_META}, "value": {_VALUE}}.get(node.attr, set())
            if node.attr == "answer":
                self.reading.record_answer(self.ref.file, node)
        return frozenset(found)

    def subscript(self, node: ast.Subscript) -> frozenset[str]:
        owner = self.kinds(node.value)
        self.kinds(node.slice)
        if isinstance(node.slice, ast.Slice):
            found = frozenset(k for k in owner if k.endswith(_LIST))
        else:
            found = _outside(owner, _LIST) | _outside(owner, _DICT)
        self.read_keys(owner, node.slice, node, "subscript")
        return found

    def read_keys(
        self, owner: frozenset[str], key: ast.expr, node: ast.AST, form: str
    ) -> None:
        for kind in owner & {_META, _VALUE, _SAMPLE_META}:
            names = self._key_strings(key)
            if isinstance(key, ast.Constant) and not isinstance(key.value, str):
                continue  # a list index into a value, not a key
            for name in sorted(names) if names else [None]:
                self.reading.record(self.ref.file, node, kind, name, form)

    def membership(self, node: ast.Compare) -> None:
        if len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
            owner = self.kinds(node.comparators[0])
            self.read_keys(owner, node.left, node, "in")

    def call(self, node: ast.Call) -> frozenset[str]:
        arguments = [self.kinds(a) for a in node.args]
        keywords = {k.arg: self.kinds(k.value) for k in node.keywords if k.arg}
        function = node.func
        if isinstance(function, ast.Attribute):
            owner = self.kinds(function.value)
            return self.method(node, function, owner, arguments)
        if not isinstance(function, ast.Name):
            self.kinds(function)
            return frozenset()
        name = function.id
        if name == "cast" and len(arguments) == 2:
            return arguments[1]
        if name == "getattr" and len(node.args) >= 2:
            attribute = node.args[1]
            if isinstance(attribute, ast.Constant) and isinstance(attribute.value, str):
                fake = ast.Attribute(node.args[0], attribute.value, ast.Load())
                ast.copy_location(fake, node)
                return self.attribute(fake, arguments[0])
        if name in _PASS_THROUGH and arguments:
            return arguments[0]
        if not any(arguments) and not any(keywords.values()):
            return frozenset()
        target = self.reading.index.resolve(name, self.ref.file, self.ref.path)
        if isinstance(target, FunctionRef):
            by_position = {i: k for i, k in enumerate(arguments) if k}
            by_name = {n: k for n, k in keywords.items() if k and n}
            return self.reading.follow(target, by_position, by_name, self.depth + 1)
        return frozenset()

    def method(
        self,
        node: ast.Call,
        function: ast.Attribute,
        owner: frozenset[str],
        arguments: list[frozenset[str]],
    ) -> frozenset[str]:
        name = function.attr
        if name == "get" and node.args:
            self.read_keys(owner, node.args[0], node, "get")
            return _outside(owner, _DICT)
        if name == "as_dict" and _SCORE in owner:
            return frozenset({_VALUE})
        if name == "copy":
            return owner
        if name in {"append", "add", "extend"} and arguments:
            held = arguments[0] if name == "extend" else _inside(arguments[0], _LIST)
            container = function.value
            if isinstance(container, ast.Name):
                self.add(container.id, held)
            elif isinstance(container, ast.Subscript) and isinstance(
                container.value, ast.Name
            ):
                self.add(container.value.id, _inside(held, _DICT))
            return frozenset()
        module = function.value
        if isinstance(module, ast.Name) and any(arguments):
            target = self.reading.index.resolve(module.id, self.ref.file, self.ref.path)
            if isinstance(target, ModuleRef):
                ref = FunctionRef(target.file, (name,))
                by_position = {i: k for i, k in enumerate(arguments) if k}
                return self.reading.follow(ref, by_position, {}, self.depth + 1)
        return frozenset()
