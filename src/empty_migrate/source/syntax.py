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
* **Imports** (`local_name`, `imports_from`, `imported_names`,
  `imported_locals`): an import binds the name after ``as``, else the first
  part of the module (``os`` for ``import os.path``); a name is imported from a
  module by ``from module import name [as local]``, absolute and not ``*``,
  anywhere in the module (a function-level import counts: the codemods never
  move code between scopes).
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

LibCST is used only to rewrite: codemods find with these rules and change the
text, or hand LibCST the chunks or expressions to change. ``codemods/README.md``
says which module owns each concern and how a codemod changes code.
"""

import ast
from collections import deque
from collections.abc import Iterable, Iterator
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


def blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The statement blocks directly inside a compound statement."""
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


def local_name(alias: ast.alias) -> str:
    """The name an import binds: ``y`` for ``import x as y``, ``os`` for ``os.path``."""
    return alias.asname or alias.name.split(".")[0]


def imports_from(statement: ast.AST, source: str) -> TypeGuard[ast.ImportFrom]:
    """Whether a statement is ``from source import ...`` (absolute, not ``*``)."""
    return (
        isinstance(statement, ast.ImportFrom)
        and statement.level == 0
        and statement.module == source
        and all(alias.name != "*" for alias in statement.names)
    )


def imported_names(tree: ast.AST, source: str) -> dict[str, str]:
    """Names imported ``from source`` anywhere in `tree`: name -> local.

    A name imported twice maps to its last local name.
    """
    return dict(_imports(tree, source))


def imported_locals(tree: ast.AST, source: str, name: str) -> set[str]:
    """Every local name `name` is imported ``from source`` as, anywhere in `tree`."""
    return {local for imported, local in _imports(tree, source) if imported == name}


def _imports(tree: ast.AST, source: str) -> list[tuple[str, str]]:
    return [
        (alias.name, local_name(alias))
        for node in _statements(tree)
        if imports_from(node, source)
        for alias in node.names
    ]


_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)
"""What a statement can be nested in: an expression holds none (a lambda's body
is an expression)."""


def _statements(tree: ast.AST) -> Iterator[ast.AST]:
    """`tree` and every statement in it, in `ast.walk`'s order, expressions unread."""
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        todo.extend(
            child
            for child in ast.iter_child_nodes(node)
            if isinstance(child, _HOLDS_STATEMENTS)
        )
        yield node


def imported_modules(tree: ast.AST, package: str) -> set[str]:
    """Every module the imports in `tree` could name, relative ones resolved.

    `package` is the importing module's package. ``from a.b import c`` could
    import the module ``a.b.c`` or the name ``c`` of ``a.b``: both are returned.
    """
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0]
                base = f"{parent}.{base}" if base else parent
            modules.add(base)
            modules.update(f"{base}.{alias.name}" for alias in node.names)
    return modules


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
        return [(local_name(a), UNKNOWN) for a in node.names if a.name != "*"]
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
    names = set(scope_bindings(tree.body))
    names.update(
        local_name(alias)
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
        if alias.name != "*"
    )
    return names
