"""How the migration reads Python: one rule per question, over ``ast`` trees.

The registry scan, the judge analysis and the codemods ask the same few
questions of the code; each is answered here, once:

* **Decorators** (`last_name`, `decorated_kind`, `is_solver`): a function is
  a scorer, solver or task when a decorator's last name is ``scorer``,
  ``solver`` or ``task``, called or not (``@solver``, ``@solver()``,
  ``@inspect_ai.solver.solver``). The first of those three kinds wins.
* **The model's output** (`state_like`, `is_state_output`): ``.output`` on
  something whose last name is ``s`` or contains ``state`` (``state``,
  ``task_state``, ``self.state``).
* **Imports** (`imports_from`, `imported_names`, `imported_locals`): a name
  is imported from a module by ``from module import name [as local]``,
  absolute and not ``*``, anywhere in the module (a function-level import
  counts: the codemods never move code between scopes).
* **Bindings** (`bound_names`, `module_bindings`): what a top-level statement
  defines (a function, a class, or the names an assignment writes), and every
  name bound at module level, imports included.
* **Definitions** (`outer_functions`, `defines`): the functions a statement
  defines outside any other function, class bodies and compound statements
  included: the functions a codemod acts on by name.

LibCST is used only to rewrite: codemods find with these rules and hand
LibCST the chunks to change (see ``empty_migrate.codemods._chunks``).
"""

import ast
from collections.abc import Iterable

Function = ast.FunctionDef | ast.AsyncFunctionDef
KINDS = ("scorer", "solver", "task")


def last_name(node: ast.expr) -> str:
    """The last name of a (called) expression: ``solver`` for ``@solver()``."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def decorated_kind(decorators: Iterable[ast.expr]) -> str | None:
    """``scorer``, ``solver`` or ``task`` if a decorator makes one, else None."""
    names = {last_name(decorator) for decorator in decorators}
    return next((kind for kind in KINDS if kind in names), None)


def is_solver(node: ast.AST) -> bool:
    """Whether a node is a function decorated with ``@solver`` (called or not)."""
    return isinstance(node, Function) and any(
        last_name(decorator) == "solver" for decorator in node.decorator_list
    )


def solver_paths(tree: ast.Module) -> set[tuple[str, ...]]:
    """Where the module's solvers are: the names of the functions around each.

    A rewrite in another tree library finds them by the same path (``("f",
    "g")`` is ``g`` defined in ``f``), so `is_solver` stays the only rule.
    """
    found = set()
    stack: list[tuple[ast.AST, tuple[str, ...]]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        for child in ast.iter_child_nodes(node):
            inner = (*path, child.name) if isinstance(child, Function) else path
            if is_solver(child):
                found.add(inner)
            stack.append((child, inner))
    return found


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


def is_state_output(node: ast.expr) -> bool:
    """``state.output``-like: ``.output`` on something named like a task state."""
    if not (isinstance(node, ast.Attribute) and node.attr == "output"):
        return False
    owner = node.value
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return state_like(name)


def imports_from(statement: ast.AST, source: str) -> bool:
    """Whether a statement is ``from source import ...`` (absolute, not ``*``)."""
    return (
        isinstance(statement, ast.ImportFrom)
        and statement.level == 0
        and statement.module == source
        and all(alias.name != "*" for alias in statement.names)
    )


def imported_names(tree: ast.Module, source: str) -> dict[str, str]:
    """Names imported ``from source`` anywhere in the module: name -> local.

    A name imported twice maps to its last local name.
    """
    return dict(_imports(tree, source))


def imported_locals(tree: ast.Module, source: str, name: str) -> set[str]:
    """Every local name `name` is imported ``from source`` as."""
    return {local for imported, local in _imports(tree, source) if imported == name}


def _imports(tree: ast.Module, source: str) -> list[tuple[str, str]]:
    return [
        (alias.name, alias.asname or alias.name)
        for node in ast.walk(tree)
        if imports_from(node, source)
        for alias in node.names
    ]


def bound_names(statement: ast.stmt) -> list[str]:
    """The names a top-level statement defines: its function, class or targets."""
    if isinstance(statement, Function | ast.ClassDef):
        return [statement.name]
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
        targets = [statement.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def module_bindings(tree: ast.Module) -> set[str]:
    """Names bound at module level: imports anywhere, top-level definitions."""
    names = {
        alias.asname or alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
        if alias.name != "*"
    }
    for statement in tree.body:
        names.update(bound_names(statement))
    return names
