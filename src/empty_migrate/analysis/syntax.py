"""How the migration reads Python: one rule per question, over ``ast`` trees.

The registry scan, the judge analysis and the codemods ask the same few
questions of the code; each is answered here, once:

* **Decorators** (`decorator_kinds`, `decorated_kind`, `is_solver`, with
  `last_name`): a function is
  a scorer, solver or task when a decorator's last name is ``scorer``,
  ``solver`` or ``task``, called or not (``@solver``, ``@solver()``,
  ``@inspect_ai.solver.solver``). Where one kind is asked for, the first of
  those three wins.
* **The model's output** (`is_output_of_state`, `is_state_output`,
  `state_like`): ``.output`` on something whose last name is ``s`` or contains
  ``state`` (``state``, ``task_state``, ``self.state``). The rule is stated
  over names, so a LibCST rewrite asks it too.
* **Imports** (`imports_of`, `Imports`, `import_bindings`, `dotted_name`): an
  import binds a local name to a qualified one: ``from m import a as b`` binds
  ``b`` to ``m.a``, ``import a.b as c`` binds ``c`` to ``a.b``, ``import a.b``
  binds ``a`` to ``a``, and a relative import is resolved against the
  importing module's package when it is known. Every import anywhere in a
  module counts (a function-level one too: the codemods never move code
  between scopes), and a name imported twice under two aliases is bound by
  both. A dotted name stands for what its first part is bound to, followed by
  the rest (``er.route_empty_responses``), so a call through a module alias is
  a call of the function. Every reader of imports asks `imports_of`; only the
  code that edits import lines finds them itself (`imports_from`).
* **Bindings** (`scope_bindings`, `module_bindings`, `definition_names`): in
  one scope (a module or a function body, not the functions, classes, lambdas
  and comprehension targets inside it), a name is bound by a parameter, a
  ``def`` or ``class``, an import, a ``for``, ``with ... as``, ``except ...
  as``, ``:=`` or ``case`` target, and every name inside an assignment target.
  Only ``name = value`` (or ``name: T = value``) says what it holds; every
  other binding makes its value unknown. The rule errs towards binding (``a[i]
  = v`` rebinds ``a`` and ``i``), so a name's value is never wrongly known.
* **Docstrings** (`is_docstring`): a statement that is a lone string constant.
* **Positions** (`Positioned`, `has_position`, `first_line`, `end_of`): the
  nodes with a place in the source, those with a ``lineno``; a definition
  starts at its first decorator; ``ast.parse`` gives each node an end as well.
* **Definitions** (`qualified_definitions`, `outer_functions`, `defines`): a
  function or class is known by its qualified path, the names of the functions
  and classes around it and its own (``("Judge", "score")``), as Python's
  ``__qualname__`` without ``<locals>``; a rewrite in another tree library
  finds it by the same path. `outer_functions` are the functions a statement
  defines outside any other function, class bodies and compound statements
  included: the functions a codemod acts on by name.

* **Parsing** (`parse_python`): every reader of a target's Python parses it
  here. A text nested deeper than `MAX_DEPTH` levels (or deeper than ``ast``
  can build) does not parse, as a syntax error does (`NestedTooDeeply`, a
  ``SyntaxError``): the visitors here and LibCST's recurse once or more per
  level, and Python stops at 1,000 frames.

LibCST is used only to rewrite: codemods find with these rules and change the
text, or hand LibCST the chunks or expressions to change. ``codemods/README.md``
says which module owns each concern and how a codemod changes code.
"""

import ast
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeGuard

Function = ast.FunctionDef | ast.AsyncFunctionDef
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
QualifiedPath = tuple[str, ...]
KINDS = ("scorer", "solver", "task")
UNKNOWN = None
"""The value of a name bound otherwise than by ``name = value``."""
Bindings = dict[str, list[ast.expr | None]]
Positioned = (
    ast.stmt
    | ast.expr
    | ast.excepthandler
    | ast.arg
    | ast.keyword
    | ast.alias
    | ast.pattern
)
"""The ``ast`` nodes with a place in the source (3.12 adds type parameters)."""
MAX_DEPTH = 100
"""How deep a parsed tree may nest; the deepest file of inspect_evals 0.26.0 and
0.28.0 nests 44 levels, and LibCST's visitors fail from about 330."""


class NestedTooDeeply(SyntaxError):
    """A Python text nested deeper than the migration reads (`MAX_DEPTH`)."""


def parse_python(text: str, filename: str = "<unknown>") -> ast.Module:
    """The ``ast`` tree of a target's Python text: the one rule for parsing it.

    Raises:
        SyntaxError: If the text does not parse (naming `filename`), or
            `NestedTooDeeply` if it nests deeper than `MAX_DEPTH` levels.
        ValueError: If the text holds a null byte.
    """
    try:
        tree = ast.parse(text, filename=filename)
    except RecursionError:  # deeper than ast builds: say it as for the rest
        raise _too_deep(filename, None) from None
    level: list[ast.AST] = [tree]
    for _ in range(MAX_DEPTH):
        level = [child for node in level for child in ast.iter_child_nodes(node)]
        if not level:
            return tree
    line = next((node.lineno for node in level if has_position(node)), None)
    raise _too_deep(filename, line)


def _too_deep(filename: str, line: int | None) -> NestedTooDeeply:
    message = (
        f"nested deeper than {MAX_DEPTH} levels, which empty-migrate does not read"
    )
    if line is None:
        error = NestedTooDeeply(message)
        error.filename = filename
        return error
    return NestedTooDeeply(message, (filename, line, 1, None))


def has_position(node: ast.AST) -> TypeGuard[Positioned]:
    """Whether a node has a place in the source: a ``lineno``, and the rest."""
    return hasattr(node, "lineno")


def first_line(node: Positioned) -> int:
    """The line a node starts on, its decorators' included."""
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def end_of(node: Positioned) -> tuple[int, int]:
    """Where a parsed node ends, line and column (``ast.parse`` sets both)."""
    if node.end_lineno is None or node.end_col_offset is None:
        raise ValueError(f"{type(node).__name__} has no end: it was not parsed")
    return node.end_lineno, node.end_col_offset


def last_name(node: ast.expr) -> str:
    """The last name of a (called) expression: ``solver`` for ``@solver()``."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def decorator_kinds(decorators: Iterable[ast.expr]) -> set[str]:
    """Which of ``scorer``, ``solver`` and ``task`` the decorators make a function."""
    return {last_name(decorator) for decorator in decorators} & set(KINDS)


def decorated_kind(decorators: Iterable[ast.expr]) -> str | None:
    """``scorer``, ``solver`` or ``task`` if a decorator makes one, else None."""
    kinds = decorator_kinds(decorators)
    return next((kind for kind in KINDS if kind in kinds), None)


def is_solver(node: ast.AST) -> TypeGuard[Function]:
    """Whether a node is a function decorated with ``@solver`` (called or not)."""
    return isinstance(node, Function) and "solver" in decorator_kinds(
        node.decorator_list
    )


def qualified_definitions(
    statements: Iterable[ast.stmt], outer: QualifiedPath = ()
) -> Iterator[tuple[QualifiedPath, Definition]]:
    """Every function and class in `statements`, nested ones too, with its path.

    Args:
        statements: A block, e.g. a module's body or some of its statements.
        outer: The path of the definition the block belongs to.
    """
    for statement in statements:
        if isinstance(statement, Definition):
            path = (*outer, statement.name)
            yield path, statement
            yield from qualified_definitions(statement.body, path)
        else:
            for block in blocks(statement):
                yield from qualified_definitions(block, outer)


def blocks(statement: ast.AST) -> list[list[ast.stmt]]:
    """The statement blocks directly inside a compound statement (or a module)."""
    found = [getattr(statement, name, []) for name in ("body", "orelse", "finalbody")]
    found += [handler.body for handler in getattr(statement, "handlers", [])]
    found += [case.body for case in getattr(statement, "cases", [])]
    return [block for block in found if isinstance(block, list)]


def outer_functions(statement: ast.stmt) -> list[Function]:
    """The functions a statement defines outside any other function."""
    if isinstance(statement, Function):
        return [statement]
    return [f for block in blocks(statement) for s in block for f in outer_functions(s)]


def defines(statement: ast.stmt, names: Iterable[str]) -> bool:
    """Whether a statement defines an outer function named in `names`."""
    names = set(names)
    return any(f.name in names for f in outer_functions(statement))


def state_like(name: str) -> bool:
    """Whether a name (its last part) reads like a task state: ``s``, ``*state*``."""
    return name == "s" or "state" in name


def is_output_of_state(attribute: str, owner: str) -> bool:
    """Whether ``<owner>.<attribute>`` is a task state's output.

    Args:
        attribute: The attribute's name.
        owner: The last name of what it is read from (``state`` of
            ``self.state``), "" if that is not a name.
    """
    return attribute == "output" and state_like(owner)


def is_state_output(node: ast.expr) -> bool:
    """``state.output``-like: ``.output`` on something named like a task state."""
    if not isinstance(node, ast.Attribute):
        return False
    owner = node.value
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return is_output_of_state(node.attr, name)


@dataclass(frozen=True)
class ImportBinding:
    """One local name an import binds, and what it binds it to.

    Attributes:
        local: The name bound in the importing module.
        module: The module imported (``a`` of ``import a.b``, ``a.b`` of
            ``import a.b as c``) or imported from (``m`` of ``from m import
            a``), relative ones resolved when the package is known.
        name: The name imported from `module`; None for ``import module``.
        top_level: Whether the import is outside every function and class.
    """

    local: str
    module: str
    name: str | None
    top_level: bool = True

    @property
    def qualified(self) -> str:
        """What the local name stands for: ``m.a`` of ``from m import a as b``."""
        return f"{self.module}.{self.name}" if self.name else self.module


def import_bindings(
    statement: ast.AST, package: str = "", top_level: bool = True
) -> list[ImportBinding]:
    """The names one statement binds by importing, in order (none if no import).

    ``from m import a as b`` binds ``b`` to ``m.a``; ``import a.b as c`` binds
    ``c`` to ``a.b``; ``import a.b`` binds ``a`` to ``a``; a ``*`` import binds
    no name this can know.

    Args:
        statement: Any node; only ``import`` and ``from ... import`` bind.
        package: The importing module's package (``inspect_evals.demo``),
            which a relative import is resolved against; "" if unknown, and a
            relative import's module then keeps its dots (``.utils``), which
            no absolute name matches.
        top_level: Whether the statement is outside every function and class.
    """
    if isinstance(statement, ast.Import):
        return [_module_binding(alias, top_level) for alias in statement.names]
    if not isinstance(statement, ast.ImportFrom):
        return []
    module = _absolute(statement.module or "", statement.level, package)
    return [
        ImportBinding(alias.asname or alias.name, module, alias.name, top_level)
        for alias in statement.names
        if alias.name != "*"
    ]


def _module_binding(alias: ast.alias, top_level: bool) -> ImportBinding:
    """What ``import a.b as c`` binds (``c``: ``a.b``), or ``import a.b`` (``a``)."""
    if alias.asname:
        return ImportBinding(alias.asname, alias.name, None, top_level)
    package = alias.name.split(".")[0]
    return ImportBinding(package, package, None, top_level)


def _absolute(module: str, level: int, package: str) -> str:
    """A ``from`` import's module, resolved against `package` when relative."""
    if not level:
        return module
    if not package:
        return "." * level + module
    parent = package.rsplit(".", level - 1)[0]
    return f"{parent}.{module}" if module else parent


class Imports:
    """What the imports of one module bind, wherever they stand in it.

    A function-level import counts (the codemods never move code between
    scopes); a name bound twice, under two aliases or to two things, keeps
    every binding.

    Args:
        tree: The module.
        package: Its package, for relative imports (see `import_bindings`).
    """

    def __init__(self, tree: ast.AST, package: str = "") -> None:
        self.bindings = list(_module_imports(tree, package))
        self._meanings: dict[str, set[str]] = {}
        for binding in self.bindings:
            self._meanings.setdefault(binding.local, set()).add(binding.qualified)

    @property
    def locals(self) -> set[str]:
        """Every name an import binds."""
        return set(self._meanings)

    def locals_of(self, qualified: str) -> list[str]:
        """Every local name bound to `qualified`, in source order."""
        found = [b.local for b in self.bindings if b.qualified == qualified]
        return list(dict.fromkeys(found))

    def local_for(self, qualified: str) -> str | None:
        """The local name to write for `qualified`; None if no import binds one.

        A top-level import's name comes before a function's, and the name
        itself (``classify``) before an alias.
        """
        candidates = [b for b in self.bindings if b.qualified == qualified]
        candidates.sort(key=lambda b: (not b.top_level, b.local != b.name))
        return candidates[0].local if candidates else None

    def meanings(self, dotted: str) -> set[str]:
        """What a dotted local name can stand for through the imports.

        ``er.route_empty_responses`` with ``import
        inspect_evals.utils.empty_response as er`` stands for
        ``inspect_evals.utils.empty_response.route_empty_responses``; a name no
        import binds stands for nothing.
        """
        root, dot, rest = dotted.partition(".")
        return {meaning + dot + rest for meaning in self._meanings.get(root, ())}

    def meanings_of(self, node: ast.expr) -> set[str]:
        """What a name or dotted attribute can stand for (see `meanings`)."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        # most names are bound by no import: answer those without a string
        if not isinstance(root, ast.Name) or root.id not in self._meanings:
            return set()
        return self.meanings(dotted_name(node) or "")

    def refers_to(self, node: ast.expr, qualified: str) -> bool:
        """Whether a name or dotted attribute stands for `qualified`."""
        return qualified in self.meanings_of(node)

    def calls(self, node: ast.AST, qualified: str) -> TypeGuard[ast.Call]:
        """Whether a node is a call of `qualified`, by any local or module path."""
        return isinstance(node, ast.Call) and self.refers_to(node.func, qualified)


_READ: "weakref.WeakKeyDictionary[ast.AST, dict[str, Imports]]"
_READ = weakref.WeakKeyDictionary()


def imports_of(tree: ast.AST, package: str = "") -> Imports:
    """The `Imports` of a module, read once per tree and package.

    The scan, the judge index and the codemods share parsed trees (see
    ``Workspace.parse``), so they share what the trees import too; a tree is
    never changed once parsed.
    """
    read = _READ.setdefault(tree, {})
    if package not in read:
        read[package] = Imports(tree, package)
    return read[package]


def _module_imports(tree: ast.AST, package: str) -> Iterator[ImportBinding]:
    """Every import binding of a module, its statements walked in source order."""
    stack: list[tuple[ast.AST, bool]] = [(tree, True)]
    while stack:
        node, top_level = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield from import_bindings(node, package, top_level)
        elif hasattr(node, "body"):  # a module or compound statement: go in
            inner = top_level and not isinstance(node, Definition)
            found = [s for block in blocks(node) for s in block]
            stack.extend((statement, inner) for statement in reversed(found))


def dotted_name(node: ast.expr) -> str | None:
    """``a.b.c`` for a name or a chain of attributes on one; None otherwise."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def imports_from(statement: ast.AST, source: str) -> TypeGuard[ast.ImportFrom]:
    """Whether a statement is ``from source import ...`` (absolute, not ``*``).

    What writes imports looks for the statement to edit with this; what reads
    them asks `Imports`.
    """
    return (
        isinstance(statement, ast.ImportFrom)
        and statement.level == 0
        and statement.module == source
        and all(alias.name != "*" for alias in statement.names)
    )


def is_docstring(statement: ast.stmt) -> TypeGuard[ast.Expr]:
    """Whether a statement is a docstring: a lone string constant."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def scope_bindings(
    body: Iterable[ast.stmt], parameters: ast.arguments | None = None
) -> Bindings:
    """Every name one scope binds, with the values it is given, in source order.

    Args:
        body: The scope's statements (a module's, or a function's body).
        parameters: The function's parameters, bound before its body.

    Returns:
        Name -> the value of each binding: the expression of ``name = value``
        or ``name: T = value``, `UNKNOWN` for any other binding.
    """
    found: Bindings = {}
    for name in _parameter_names(parameters) if parameters else []:
        found.setdefault(name, []).append(UNKNOWN)
    stack: list[ast.AST] = list(reversed(list(body)))
    while stack:
        node = stack.pop()
        for name, value in _binds(node):
            found.setdefault(name, []).append(value)
        children = [] if isinstance(node, _NEW_SCOPES) else _scope_children(node)
        stack.extend(reversed(children))
    return found


_NEW_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _scope_children(node: ast.AST) -> list[ast.AST]:
    """The child nodes still in the same scope (not a comprehension's target)."""
    if isinstance(node, ast.comprehension):
        return [node.iter, *node.ifs]
    return list(ast.iter_child_nodes(node))


def _binds(node: ast.AST) -> list[tuple[str, ast.expr | None]]:
    """The names one node binds in its scope, with the value if it is known."""
    if isinstance(node, Definition):
        return [(node.name, UNKNOWN)]
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        if isinstance(node.targets[0], ast.Name):
            return [(node.targets[0].id, node.value)]
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        if isinstance(node.target, ast.Name):
            return [(node.target.id, node.value)]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(binding.local, UNKNOWN) for binding in import_bindings(node)]
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return [(node.name, UNKNOWN)] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [(node.rest, UNKNOWN)] if node.rest else []
    return [(name, UNKNOWN) for target in _targets(node) for name in _names(target)]


def _targets(node: ast.AST) -> list[ast.expr]:
    """The expressions a node assigns to, other than a lone ``name = value``."""
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
        return [node.target]
    if isinstance(node, ast.For | ast.AsyncFor):
        return [node.target]
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return [node.optional_vars]
    return []


def _names(target: ast.expr) -> list[str]:
    return [node.id for node in ast.walk(target) if isinstance(node, ast.Name)]


def _parameter_names(parameters: ast.arguments) -> list[str]:
    every = [*parameters.posonlyargs, *parameters.args, *parameters.kwonlyargs]
    every += [p for p in (parameters.vararg, parameters.kwarg) if p is not None]
    return [p.arg for p in every]


def definition_names(statement: ast.AST) -> list[str]:
    """The names a definition binds: a function, class or assignment statement's.

    Other nodes (imports, loops, expressions) define nothing by name.
    """
    assignment = ast.Assign | ast.AnnAssign | ast.AugAssign
    if not isinstance(statement, Definition | assignment):
        return []
    return list(dict.fromkeys(name for name, _ in _binds(statement)))


def module_bindings(tree: ast.Module) -> set[str]:
    """Names bound at module level, and every name imported anywhere."""
    return set(scope_bindings(tree.body)) | imports_of(tree).locals
