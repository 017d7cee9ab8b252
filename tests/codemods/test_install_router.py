"""install_router: the installed router is the package's own source, and stays so.

The golden cases hold no copy of the router (see ``golden.GENERATED``): they
compare what the codemod writes with ``router_text()``, so editing
``empty_migrate.runtime.router`` changes no golden file.
"""

import ast
from pathlib import Path

import pytest

import empty_migrate.runtime.router
from empty_migrate.analysis.scan import EvalScan
from empty_migrate.codemods import eval_target, implementation
from empty_migrate.codemods.install_router.rewrite import DOCSTRING, router_text
from empty_migrate.registry.loader import load_entry
from tests.codemods.golden import GOLDEN

CODEMOD = implementation("install_router")
ROUTER = "src/inspect_evals/utils/empty_response.py"
SCORERS = "src/inspect_evals/utils/scorers.py"
CASE = GOLDEN / "install_router" / "already_installed"


@pytest.fixture
def target(tmp_path):
    entry, problems = load_entry(CASE / "registry.yaml")
    assert not problems, problems
    return eval_target("demo", entry, EvalScan("demo"), tmp_path)


def test_router_text_is_the_package_source_with_the_policy_inlined():
    text = router_text()
    assert text.startswith(DOCSTRING)
    imported = [
        node.module
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom)
    ]
    assert not [name for name in imported if name.startswith("empty_migrate")]
    installed: dict = {}
    exec(compile(text, "empty_response.py", "exec"), installed)
    assert installed["POLICY"] == empty_migrate.runtime.router.POLICY
    exported = set(empty_migrate.runtime.router.__all__)
    assert exported <= set(installed), exported - set(installed)
    router = Path(empty_migrate.runtime.router.__file__).read_text(encoding="utf-8")
    for line in router.splitlines():
        if line.startswith(("def ", "class ")):
            assert line in text, line


def test_installed_router_is_left_alone(target):
    assert CODEMOD.transform(router_text(), ROUTER, target) == router_text()
