"""Small structural tests of LibCST nodes.

The codemods test a handful of node shapes. ``libcst.matchers`` could express
them, but importing it costs a quarter of a second, more than a whole
migration's worth of matching; these plain functions do the same checks.
"""

from typing import Generic, TypeGuard, TypeVar

import libcst as cst

from empty_migrate.analysis.syntax import Imports

Node = TypeVar("Node", bound=cst.CSTNode)


def is_name(node: cst.CSTNode | None, value: str) -> TypeGuard[cst.Name]:
    """Whether `node` is the name `value`."""
    return isinstance(node, cst.Name) and node.value == value


def is_attribute(node: cst.CSTNode | None, attr: str) -> TypeGuard[cst.Attribute]:
    """Whether `node` is ``<anything>.attr``."""
    return isinstance(node, cst.Attribute) and node.attr.value == attr


def is_empty_string(node: cst.CSTNode | None) -> TypeGuard[cst.SimpleString]:
    """Whether `node` is the literal ``""`` or ``''``."""
    return isinstance(node, cst.SimpleString) and node.value in ('""', "''")


def refers_to(node: cst.CSTNode | None, imports: Imports, qualified: str) -> bool:
    """Whether a name or dotted attribute stands for `qualified` by `imports`.

    ``classify`` and ``er.classify`` both stand for
    ``inspect_evals.utils.empty_response.classify`` when imported so.
    """
    dotted = _dotted(node)
    return dotted is not None and qualified in imports.meanings(dotted)


def is_call_of(
    node: cst.CSTNode | None, imports: Imports, qualified: str
) -> TypeGuard[cst.Call]:
    """Whether `node` calls `qualified`, by any name `imports` binds to it."""
    return isinstance(node, cst.Call) and refers_to(node.func, imports, qualified)


def _dotted(node: cst.CSTNode | None) -> str | None:
    """``a.b.c`` for a name or a chain of attributes on one (as `dotted_name`)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        owner = _dotted(node.value)
        return f"{owner}.{node.attr.value}" if owner else None
    return None


class _Collect(cst.CSTVisitor, Generic[Node]):
    def __init__(self, kind: type[Node]) -> None:
        self.kind = kind
        self.found: list[Node] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, self.kind):
            self.found.append(node)
        return True


def find_all(tree: cst.CSTNode, kind: type[Node]) -> list[Node]:
    """Every node of type `kind` in `tree` (itself included), in source order."""
    collect = _Collect(kind)
    tree.visit(collect)
    return collect.found
