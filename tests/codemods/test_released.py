"""The digests of every text the package generated: today's is among them.

``--add-released`` adds today's (the documented step, `released.ADD_COMMAND`).
"""

import ast
import json
import re

import pytest

from empty_migrate.codemods.emit_policy_tests.rewrite import FIXTURES_PATH
from empty_migrate.codemods.kit import released
from empty_migrate.codemods.kit.released import (
    ADD_COMMAND,
    edited_by_maintainers,
    is_released,
    text_digest,
    with_released,
)
from tests.codemods.golden import PLACEHOLDERS, ROUTER

OUTSIDE_THE_TARGET = re.compile(r"empty.migrate|MIGRATION\.md|POLICY-SPEC|§")
"""What a generated text must not name: this package, its documents."""
NOT_DEFINITIONS = {"inspect_ai", "reason", "stop_reason", "stop_details", "max_tokens"}
"""Names a generated docstring quotes that are not the module's: a package, fields."""


def generated() -> dict[str, str]:
    return {path: generate() for path, (_, generate) in PLACEHOLDERS.items()}


def test_todays_generated_texts_are_released(request):
    texts = generated()
    if request.config.getoption("--add-released"):
        data = with_released(texts)
        released.RELEASED_FILE.write_text(json.dumps(data, indent=2) + "\n")
        released.released.cache_clear()
    missing = [p for p, t in texts.items() if not is_released(p, t)]
    assert not missing, (
        f"the text generated today for {', '.join(missing)} is not in "
        f"{released.RELEASED_FILE.name}: run `{ADD_COMMAND}` to add its digest"
    )


def test_the_released_files_are_the_generated_files():
    assert set(released.released()) == set(PLACEHOLDERS) == {ROUTER, FIXTURES_PATH}


def test_the_digest_is_of_the_text_as_the_tool_works_on_it():
    lf = "a\nb\n"
    assert text_digest("a\r\nb\r\n") == text_digest("\ufeffa\nb\n") == text_digest(lf)
    assert text_digest("a\nb \n") != text_digest(lf)


def test_only_a_text_never_generated_is_the_maintainers():
    today = generated()[ROUTER]
    assert not edited_by_maintainers(ROUTER, today)
    assert not edited_by_maintainers(ROUTER, today.replace("\n", "\r\n"))
    assert not edited_by_maintainers(ROUTER, "")  # not installed yet
    assert edited_by_maintainers(ROUTER, today + "# fixed by a maintainer\n")
    assert not edited_by_maintainers("src/inspect_evals/utils/scorers.py", "x = 1\n")


@pytest.mark.parametrize("path", sorted(PLACEHOLDERS))
def test_a_generated_text_names_nothing_outside_the_target(path):
    text = generated()[path]
    assert OUTSIDE_THE_TARGET.findall(text) == []


def module_names(tree: ast.Module) -> set[str]:
    """The names a module's top level defines, assigns or imports."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


@pytest.mark.parametrize("path", sorted(PLACEHOLDERS))
def test_a_generated_docstring_names_what_the_module_defines(path):
    """The names the docstring tells a maintainer to edit or call exist."""
    tree = ast.parse(generated()[path])
    named = set(re.findall(r"``([A-Za-z_]\w*)``", ast.get_docstring(tree) or ""))
    assert named - module_names(tree) - NOT_DEFINITIONS == set()
