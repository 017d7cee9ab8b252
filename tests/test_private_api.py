"""inspect_ai's private names: in one adapter module, never shipped or generated.

Every module of ``src/empty_migrate`` is read with ``ast``: its imports at any
depth (inside functions too), ``importlib.import_module("...")`` and
``__import__("...")`` calls, dotted ``inspect_ai....`` attribute chains and
string constants that name an inspect_ai module. A path with a component that
starts with ``_`` is private. Only ``testing/inspect_internals.py`` may hold
one; ``runtime/``, which is copied into targets, imports none of it.

The same rule holds for the code the migration writes into a target: the
generated shared modules (the router and the policy tests' fixtures) as they
are generated today, and every golden case's expected output, which may name
no private path its input did not (the target's own code may).
"""

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import empty_migrate
from empty_migrate.codemods.emit_policy_tests.rewrite import (
    FIXTURES_MODULE,
    fixtures_text,
)
from empty_migrate.codemods.install_router.rewrite import router_text
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE
from tests.codemods.golden import GoldenCase, discover

PACKAGE = Path(empty_migrate.__file__).parent
ADAPTER = PACKAGE / "testing" / "inspect_internals.py"
RUNTIME = PACKAGE / "runtime"
IMPORTERS = {"import_module", "__import__"}
DOTTED = re.compile(r"inspect_ai(\.\w+)+")


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    """Dotted, ``__init__`` kept, so that a relative import resolves alike."""
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def named_paths(source: str, name: str) -> Iterator[tuple[int, str]]:
    """Every dotted module path (or path.name) the module `name` refers to."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, name)
            yield node.lineno, module
            yield from ((node.lineno, f"{module}.{a.name}") for a in node.names)
        elif isinstance(node, ast.Call) and _called(node) in IMPORTERS:
            if node.args and isinstance(node.args[0], ast.Constant):
                yield node.lineno, str(node.args[0].value)
        elif isinstance(node, ast.Attribute):
            yield node.lineno, _dotted(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for match in DOTTED.finditer(node.value):
                yield node.lineno, match.group()


def _absolute(node: ast.ImportFrom, name: str) -> str:
    if not node.level:
        return node.module or ""
    package = name.split(".")[: -node.level]
    return ".".join([*package, *([node.module] if node.module else [])])


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return getattr(node, "id", "?")


def is_private_inspect_ai(path: str) -> bool:
    parts = path.split(".")
    return parts[0] == "inspect_ai" and any(p.startswith("_") for p in parts[1:])


def private_paths(source: str, name: str) -> set[str]:
    """The private inspect_ai paths the module `name`, of text `source`, names."""
    return {p for _, p in named_paths(source, name) if is_private_inspect_ai(p)}


def gained_private_paths(before: str, after: str, path: str) -> set[str]:
    """The private inspect_ai paths a rewrite of the file at `path` introduced.

    `path` is from the target's root; the paths its old text named already
    (the target's own code may use private API) are not counted.
    """
    name = target_module_name(path)
    return private_paths(after, name) - private_paths(before, name)


def target_module_name(path: str) -> str:
    """The dotted module of a target file, from its path from the target's root."""
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[1:] if parts[0] == "src" else parts)


def private_uses(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    return [
        f"{path.relative_to(PACKAGE)}:{line}: {dotted}"
        for line, dotted in named_paths(source, module_name(path))
        if is_private_inspect_ai(dotted)
    ]


def test_no_private_inspect_ai_name_outside_the_adapter():
    found = [use for path in modules() if path != ADAPTER for use in private_uses(path)]
    assert found == []


def test_the_adapter_is_where_the_private_names_are():
    assert private_uses(ADAPTER)


@pytest.mark.parametrize("path", sorted(RUNTIME.rglob("*.py")), ids=lambda p: p.name)
def test_the_code_copied_into_targets_imports_nothing_else_of_ours(path):
    source = path.read_text(encoding="utf-8")
    ours = [
        dotted
        for _, dotted in named_paths(source, module_name(path))
        if dotted.split(".")[0] == "empty_migrate"
        and not dotted.startswith("empty_migrate.runtime")
    ]
    assert ours == []


@pytest.mark.parametrize(
    "source",
    [
        "from inspect_ai.model._model import _model_roles",
        "from inspect_ai.model import _model_roles",
        "import inspect_ai._util.registry",
        "def f():\n    from inspect_ai._util.constants import NO_CONTENT",
        "import importlib\nimportlib.import_module('inspect_ai.scorer._model')",
        "__import__('inspect_ai._util')",
        "import inspect_ai\ninspect_ai.model._model.get_model",
        "PREFIX = ('inspect_evals', 'inspect_ai.scorer._model')",
    ],
)
def test_each_way_of_naming_a_private_module_is_found(source):
    assert any(is_private_inspect_ai(p) for _, p in named_paths(source, "m"))


def test_public_api_is_not_private():
    source = (
        "from inspect_ai.model import get_model\n"
        "from inspect_ai.util import registry_info\n"
        "import inspect_ai.scorer\n"
        "SOURCE = 'model/_providers/bedrock.py:1451'\n"
    )
    assert not any(is_private_inspect_ai(p) for _, p in named_paths(source, "m"))


def test_a_relative_import_of_the_adapter_from_runtime_is_seen():
    source = "from ..testing import inspect_internals"
    name = "empty_migrate.runtime.probe"
    paths = {p for _, p in named_paths(source, name)}
    assert "empty_migrate.testing.inspect_internals" in paths


@pytest.mark.parametrize(
    ("name", "generate"),
    [(ROUTER_MODULE, router_text), (FIXTURES_MODULE, fixtures_text)],
    ids=["router", "fixtures"],
)
def test_the_generated_shared_modules_name_no_private_inspect_ai_path(name, generate):
    assert private_paths(generate(), name) == set()


def _python_outputs(case: GoldenCase) -> list[str]:
    return [path for path in case.after if path.endswith(".py")]


@pytest.mark.parametrize(
    "case", [c for c in discover() if _python_outputs(c)], ids=lambda c: c.id
)
def test_no_golden_output_gains_a_private_inspect_ai_path(case):
    gained = {
        path: gained_private_paths(case.before.get(path, ""), case.after[path], path)
        for path in _python_outputs(case)
    }
    assert {path: found for path, found in gained.items() if found} == {}


def test_a_rewrite_that_adds_a_private_import_is_caught():
    before = "from inspect_ai.model._model import _model_roles\n"
    after = before + "from inspect_ai.scorer._metric import Score\n"
    gained = gained_private_paths(before, after, "tests/demo/test_x.py")
    assert gained == {"inspect_ai.scorer._metric", "inspect_ai.scorer._metric.Score"}


def test_a_private_path_the_target_already_named_is_not_gained():
    text = "from inspect_ai.model._model import _model_roles\n"
    after = text + "x = 1\n"
    assert gained_private_paths(text, after, "src/inspect_evals/a.py") == set()


def test_a_target_path_is_named_as_its_module():
    assert target_module_name("src/inspect_evals/utils/empty_response.py") == (
        "inspect_evals.utils.empty_response"
    )
    assert target_module_name("tests/utils/empty_response.py") == FIXTURES_MODULE
