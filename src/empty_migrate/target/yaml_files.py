"""Reading YAML: the target's configuration files and this package's registry.

A target is a stranger's checkout, so its YAML is read as hostile: an alias
bomb ("billion laughs") would expand to billions of values, and an alias can
name the collection it is in. A file whose aliases repeat more than
`REPEATED_NODES_LIMIT` values, or refer to themselves, is refused like a file
that does not parse; so is one that cannot be read or is not UTF-8. PyYAML
converts a value as its tag says without checking it first, so a value that
is not what its tag says raises whatever the conversion hits (``!!bool maybe``
a KeyError, ``2024-02-30`` a ValueError): that too is a file that does not
parse.
"""

from pathlib import Path
from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it (about ten times faster; the same
marks), else PyYAML's."""

REPEATED_NODES_LIMIT = 10_000
"""How many values a file's aliases may repeat in all: far more than a real
configuration's anchors share, far less than a bomb's billions."""


def read_yaml(path: Path) -> Any:
    """The data of a YAML file, read safely.

    Raises:
        yaml.YAMLError: If the file cannot be read, is not UTF-8, or `load_yaml`
            refuses its text.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise yaml.YAMLError(f"{path}: cannot be read: {error}") from None
    return load_yaml(text)


def load_yaml(text: str) -> Any:
    """The data of a YAML text, read safely.

    Raises:
        yaml.YAMLError: If the text is not one YAML document, an alias refers
            to the collection it is in, aliases repeat more than
            `REPEATED_NODES_LIMIT` values, or a value is not what its tag says.
    """
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_aliases(node)
        return loader.construct_document(node)
    except yaml.YAMLError:
        raise
    except Exception as error:  # PyYAML converts a tagged value unchecked (see above)
        raise yaml.YAMLError(f"{type(error).__name__}: {error}") from None
    finally:
        loader.dispose()


def compose_yaml(text: str) -> yaml.Node | None:
    """The node tree of a YAML text (None if it is empty), each node with its line.

    Raises:
        yaml.YAMLError: If the text is not one YAML document.
    """
    try:
        return yaml.compose(text, Loader=LOADER)
    except RecursionError:  # PyYAML's own composer, on deep nesting
        raise yaml.YAMLError("nested too deep") from None


def yaml_problem(error: yaml.YAMLError) -> tuple[int, str]:
    """A YAML error's line (from 1; 1 if it names none) and its problem, in one line."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    # PyYAML's two halves: "expected a single document", "but found another one"
    halves = [getattr(error, "context", None), getattr(error, "problem", None)]
    problem = ", ".join(str(half) for half in halves if half) or str(error)
    return (mark.line + 1 if mark else 1), " ".join(problem.split())


def _check_aliases(root: yaml.Node) -> None:
    """Refuse a tree whose aliases refer to themselves or repeat too much.

    An alias is the node of its anchor met again, so the tree is a graph:
    each node's size once expanded is counted once, children first, without
    recursion (a tree may be as deep as libyaml allows).
    """
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_counted = stack.pop()
        if children_counted:
            open_nodes.discard(id(node))
            sizes[id(node)] = 1 + sum(sizes[id(child)] for child in _children(node))
            continue
        if id(node) in sizes:
            continue
        if id(node) in open_nodes:  # met again inside itself
            raise _refused(node, "an alias refers to the collection it is in")
        open_nodes.add(id(node))
        stack.append((node, True))
        stack += [(child, False) for child in _children(node)]
    if sizes[id(root)] - len(sizes) > REPEATED_NODES_LIMIT:
        raise _refused(
            root, f"its aliases repeat more than {REPEATED_NODES_LIMIT} values"
        )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _refused(node: yaml.Node, problem: str) -> yaml.MarkedYAMLError:
    return yaml.MarkedYAMLError(problem=problem, problem_mark=node.start_mark)
