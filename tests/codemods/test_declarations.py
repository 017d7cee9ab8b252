"""Everything that knows the codemods derives from their declarations.

A throwaway declaration added to `DECLARATIONS` must reach every place that
names codemods: the README table, the registry's check of codemod names, the
changelog's lead sentence, the version bump, the router's installation, the
drift report and the implementation lookup.
"""

import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from empty_migrate import codemods
from empty_migrate.analysis.scan import EvalScan, Finding
from empty_migrate.codemods import (
    DECLARATIONS,
    eval_target,
    implementation,
    readme_table,
)
from empty_migrate.codemods.bump_task_version.rewrite import scores_changed
from empty_migrate.codemods.changelog import text as words
from empty_migrate.codemods.kit.base import Codemod, EvalTarget
from empty_migrate.codemods.kit.declaration import Declaration
from empty_migrate.entries.schema import validate_entry
from empty_migrate.registry.drift import eval_drift
from empty_migrate.registry.loader import Registry, check_entry
from tests.codemods.golden import GOLDEN
from tests.demo import DEMO_ENTRY

README = Path(__file__).parents[2] / "docs/codemods.md"
THROWAWAY = Declaration(
    name="throwaway",
    description="A codemod that exists only in this test.",
    documentation="Rewrites nothing",
    changes_scores=True,
    changelog_clause="a throwaway clause for {scorers} and `{router}`",
    imports_router=True,
    finds="dead_checks",
)


@pytest.fixture
def throwaway(monkeypatch):
    """The declarations with THROWAWAY added, and its module importable."""
    declarations = (*DECLARATIONS, THROWAWAY)
    monkeypatch.setattr(codemods, "DECLARATIONS", declarations)
    implementation.cache_clear()
    module = ModuleType("empty_migrate.codemods.throwaway.rewrite")
    module.Throwaway = type("Throwaway", (Codemod,), {"__module__": module.__name__})
    monkeypatch.setitem(sys.modules, module.__name__, module)
    yield THROWAWAY
    implementation.cache_clear()


def _target(listed: list[str], changed_by: tuple[str, ...] = ()) -> EvalTarget:
    entry = validate_entry(yaml.safe_load(DEMO_ENTRY) | {"codemods": listed})
    return eval_target("demo", entry, EvalScan("demo"), Path("."), "", changed_by)


def test_readme_table_is_the_declarations(request):
    readme = README.read_text()
    start = readme.index(readme_table().partition("\n")[0])
    end = readme.index("\n\n", start)
    if request.config.getoption("--update-golden"):
        README.write_text(readme[:start] + readme_table() + readme[end:])
        return
    assert readme[start:end] == readme_table(), "expected:\n" + readme_table()


def test_the_readme_table_shows_a_new_declaration(throwaway):
    assert "| `throwaway` | unsafe | Rewrites nothing |" in readme_table()


def test_the_registry_accepts_a_new_codemod_and_names_unknown_ones(throwaway):
    assert not list(check_entry(_target(["throwaway"]).entry))
    problems = list(check_entry(_target(["throwaway", "throwawy"]).entry))
    assert problems == [
        (("codemods", 1), "unknown codemod 'throwawy'; did you mean 'throwaway'?")
    ]


def test_the_changelog_says_what_a_new_codemod_did(throwaway):
    lead = words.lead(_target(["throwaway"], changed_by=("throwaway",)))
    expected = "a throwaway clause for the scorer is and `route_empty_responses`"
    assert expected in lead.lower()


def test_a_new_score_changing_codemod_bumps_the_version(throwaway):
    assert scores_changed(_target(["throwaway"], changed_by=("throwaway",)))
    assert not scores_changed(_target(["throwaway"]))


def test_a_new_codemod_importing_the_router_installs_it(throwaway):
    install = implementation("install_router")
    assert install.files(_target(["throwaway"]))
    assert not install.files(_target(["bump_task_version"]))


def test_drift_names_findings_a_new_codemod_would_rewrite(throwaway, tmp_path):
    scan = EvalScan("demo", dead_checks=[Finding("demo/scorer.py", 3, "x")])
    (tmp_path / "demo.yaml").write_text(
        DEMO_ENTRY.replace("[wrap_router,", "[replace_dead_check, wrap_router,")
    )
    registry = Registry(tmp_path)
    kinds = [d.kind for d in eval_drift(registry, "demo", scan, Path("."))]
    assert "not covered by throwaway" in kinds
    assert "not covered by replace_dead_check" not in kinds


def test_a_new_declaration_finds_its_implementation(throwaway):
    codemod = implementation(throwaway.name)
    assert type(codemod).__name__ == "Throwaway"
    assert (codemod.name, codemod.changes_scores) == ("throwaway", True)


def test_each_declaration_is_its_rewrites_declaration():
    assert all(implementation(d.name).declaration is d for d in DECLARATIONS)


def test_every_codemod_has_one_golden_folder():
    folders = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
    assert folders == sorted(d.name for d in DECLARATIONS)


def test_findings_name_what_the_scan_records():
    fields = EvalScan.__dataclass_fields__
    assert all(d.finds in fields for d in DECLARATIONS if d.finds)
