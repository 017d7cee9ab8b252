"""Where the score metadata a scorer builds comes from (``ast`` only).

For each ``Score(metadata=...)`` or ``x.metadata = ...`` of a function: the
keys copied from the sample's metadata (``state.metadata`` whole, or
``{"k": state.metadata["k"]}``) and those the scorer computes.
"""

import ast
from collections.abc import Iterator

from empty_migrate.analysis.metric_model import MetadataSource
from empty_migrate.analysis.syntax import (
    Function,
    QualifiedPath,
    last_name,
    scope_bindings,
    state_like,
)


def metadata_sources(
    file: str, path: QualifiedPath, node: Function
) -> list[MetadataSource]:
    """Each key of score metadata a function builds, and where it comes from."""
    bindings: dict[str, list[ast.expr | None]] | None = None
    name = ".".join(path)
    found: list[MetadataSource] = []
    for item in _own_nodes(node):
        built: ast.expr | None = None
        if isinstance(item, ast.Call) and last_name(item.func) in {"Score", "unscored"}:
            built = next((k.value for k in item.keywords if k.arg == "metadata"), None)
        elif isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Attribute) and t.attr == "metadata" for t in item.targets
        ):
            built = item.value
        if built is not None and isinstance(item, ast.Call | ast.Assign):
            if bindings is None:
                bindings = scope_bindings(node.body, node.args)
            for key, sample_key in _sources(built, bindings, node, set()):
                found.append(MetadataSource(file, item.lineno, name, key, sample_key))
    return found


def _own_nodes(function: Function) -> Iterator[ast.AST]:
    """Every node of a function's body, nested functions and classes left out."""
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, Function | ast.ClassDef):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


Source = tuple[str | None, str | None]


def _sources(
    node: ast.expr,
    bindings: dict[str, list[ast.expr | None]],
    function: Function,
    seen: set[str],
) -> list[Source]:
    """``(key, sample key)`` for each key an expression builds into score metadata."""
    if _is_sample_metadata(node, bindings):
        return [(None, None)]
    if isinstance(node, ast.Dict):
        found: list[Source] = []
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                found += _sources(value, bindings, function, seen)
            elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                found.append((key.value, _sample_key(value, bindings)))
        return found
    if isinstance(node, ast.BoolOp):
        return [s for v in node.values for s in _sources(v, bindings, function, seen)]
    if isinstance(node, ast.IfExp):
        return [
            *_sources(node.body, bindings, function, seen),
            *_sources(node.orelse, bindings, function, seen),
        ]
    if isinstance(node, ast.Call) and last_name(node.func) in {"dict", "copy"}:
        inner = node.args[0] if node.args else getattr(node.func, "value", None)
        found = _sources(inner, bindings, function, seen) if inner else []
        for keyword in node.keywords:
            if keyword.arg:
                found.append((keyword.arg, _sample_key(keyword.value, bindings)))
        return found
    if isinstance(node, ast.Name) and node.id not in seen:
        seen.add(node.id)
        found = []
        for bound in bindings.get(node.id, []):
            if bound is not None:
                found += _sources(bound, bindings, function, seen)
        return found + _stored(node.id, bindings, function)
    return []


def _stored(
    name: str, bindings: dict[str, list[ast.expr | None]], function: Function
) -> list[Source]:
    """Keys set on a metadata dict after it is built: ``name["k"] = v``, ``update``."""
    found: list[Source] = []
    for item in _own_nodes(function):
        if isinstance(item, ast.Assign):
            for target in item.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == name
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                ):
                    found.append(
                        (target.slice.value, _sample_key(item.value, bindings))
                    )
        if (
            isinstance(item, ast.Call)
            and isinstance(item.func, ast.Attribute)
            and item.func.attr == "update"
            and isinstance(item.func.value, ast.Name)
            and item.func.value.id == name
            and item.args
        ):
            found += _sources(item.args[0], bindings, function, {name})
    return found


def _is_sample_metadata(
    node: ast.expr, bindings: dict[str, list[ast.expr | None]], hops: int = 0
) -> bool:
    """``state.metadata`` (or a name bound only to it, or a copy of it)."""
    if isinstance(node, ast.Attribute) and node.attr == "metadata":
        return state_like(last_name(node.value))
    if isinstance(node, ast.Call) and last_name(node.func) in {"dict", "copy"}:
        inner = node.args[0] if node.args else getattr(node.func, "value", None)
        return inner is not None and _is_sample_metadata(inner, bindings, hops)
    if isinstance(node, ast.Name) and hops < 3:
        values = bindings.get(node.id, [])
        return bool(values) and all(
            v is not None and _is_sample_metadata(v, bindings, hops + 1) for v in values
        )
    return False


def _sample_key(
    node: ast.expr, bindings: dict[str, list[ast.expr | None]], hops: int = 0
) -> str | None:
    """The sample metadata key a value is read from, if it is one."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        if _is_sample_metadata(node.value, bindings):
            return str(node.slice.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and _is_sample_metadata(node.func.value, bindings)
    ):
        return str(node.args[0].value)
    if isinstance(node, ast.Attribute) and _is_typed_metadata(node.value, bindings):
        return node.attr
    if isinstance(node, ast.Name) and hops < 3:
        values = [v for v in bindings.get(node.id, []) if v is not None]
        keys = {_sample_key(v, bindings, hops + 1) for v in values}
        if len(keys) == 1 and len(values) == len(bindings.get(node.id, [])):
            return keys.pop()
    return None


def _is_typed_metadata(
    node: ast.expr, bindings: dict[str, list[ast.expr | None]], hops: int = 0
) -> bool:
    """``state.metadata_as(Model)``, or a name bound only to it."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "metadata_as" and state_like(
            last_name(node.func.value)
        )
    if isinstance(node, ast.Name) and hops < 3:
        values = bindings.get(node.id, [])
        return bool(values) and all(
            v is not None and _is_typed_metadata(v, bindings, hops + 1) for v in values
        )
    return False
