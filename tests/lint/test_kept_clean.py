"""A lint answered from the evals it found clean before: only in the same state.

``lint`` keeps each eval it finds clean under what it read (its entry, its
package's files, the files its entry names, the tool's code); a later lint of
the eval in that state answers from there. Each test lints a clean tree once,
changes one thing the lint reads, and checks that the next lint sees it.
"""

import json
import subprocess
import sys

import pytest

from empty_migrate.lint import clean
from empty_migrate.registry.target import registry_of
from tests.demo import EVAL, PACKAGE, SCORER_PATH, shared_entry, shared_task
from tests.lint.test_lint import DEMO_TASK, WRAPPED, lint

SHARED_WRAPPED = """\
from inspect_ai.scorer import Scorer, match, scorer

from inspect_evals.utils.empty_response import route_empty_responses


def shared_scorer() -> Scorer:
    return route_empty_responses(match(), category="qa")
"""
"""``utils/shared.py`` as the migration leaves it: the helper's scorer routed."""

SHARED_UNWRAPPED = """\
from inspect_ai.scorer import Scorer, match, scorer


def shared_scorer() -> Scorer:
    return match()
"""

DEAD_CHECK = """\
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def second_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        if not state.output:
            return Score(value=0)
        return Score(value=1)

    return score
"""

HEAVY = ["libcst", "inspect_ai", "pydantic", "rich", "git", "yaml"]
"""What a lint that finds its answer kept loads none of."""

PROBE = """\
import json, sys
from empty_migrate.cli.main import main

code = main(sys.argv[1:])
loaded = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


@pytest.fixture
def tree(demo, monkeypatch, tmp_path):
    """The demo eval, migrated, and a clean eval scored by a shared helper."""
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    demo.add_demo_eval(scorer=WRAPPED)
    demo.write({f"{PACKAGE}/{EVAL}/{EVAL}.py": DEMO_TASK})
    demo.write({f"{PACKAGE}/utils/__init__.py": ""})
    demo.write({f"{PACKAGE}/utils/shared.py": SHARED_WRAPPED})  # SHARED_PATH
    demo.add_eval("sharer", {"sharer.py": shared_task("sharer")})
    demo.register("sharer", shared_entry("sharer", ["wrap_router"]))
    monkeypatch.chdir(demo.repo)
    return demo


SHARED_PATH = f"{PACKAGE}/utils/shared.py"


def kept(tree, kind: str) -> int:
    return len(list((tree.root / "cache" / kind).glob("*.kept")))


def lint_clean(tree, capsys) -> None:
    """Lint the demo's scorer and the shared helper (both evals): clean, kept."""
    assert lint(tree, SCORER_PATH, SHARED_PATH, capsys=capsys)[:2] == (0, [])


def test_a_clean_lint_is_kept_and_answers_the_next(tree, capsys):
    lint_clean(tree, capsys)
    assert (kept(tree, "lint-clean"), kept(tree, "lint-shared")) == (2, 1)
    assert lint(tree, capsys=capsys)[:2] == (0, [])
    assert lint(tree, "--format", "json", capsys=capsys)[:2] == (
        0,
        json.dumps(
            {
                "findings": [],
                "fixable": [],
                "unfixable": [],
                "not_fixed": {},
                "suggested_entries": {},
                "not_in_registry": [],
                "unreadable": [],
            },
            indent=2,
        ).splitlines(),
    )


def test_a_changed_scorer_is_linted_again(tree, capsys):
    lint_clean(tree, capsys)
    unwrapped = WRAPPED.replace('route_empty_responses(score, category="qa")', "score")
    tree.write({SCORER_PATH: unwrapped})
    code, lines, _ = lint(tree, SCORER_PATH, capsys=capsys)
    assert code == 1
    assert " EM002 scorer demo_scorer is registered with wrap_router" in lines[0]


def test_a_changed_module_the_entry_does_not_name_is_linted_again(tree, capsys):
    lint_clean(tree, capsys)
    task = f"{PACKAGE}/{EVAL}/{EVAL}.py"
    tree.write({task: DEMO_TASK + "\n\n@task\ndef extra():\n    return demo()\n"})
    code, lines, _ = lint(tree, task, capsys=capsys)
    assert code == 1
    assert any(" EM007 new task: @task extra" in line for line in lines)


def test_a_module_added_to_the_package_is_linted(tree, capsys):
    lint_clean(tree, capsys)
    tree.write({f"{PACKAGE}/{EVAL}/second.py": DEAD_CHECK})
    code, lines, _ = lint(tree, SCORER_PATH, capsys=capsys)
    assert code == 1
    assert any(" EM007 new scorer: @scorer second_scorer" in line for line in lines)


def test_a_changed_entry_is_read_again(tree, capsys):
    lint_clean(tree, capsys)
    entry = tree.registry / f"{EVAL}.yaml"
    entry.write_text(entry.read_text().replace("tasks:\n", "tasks:\n  gone: {}\n"))
    for paths in [[], [SCORER_PATH]]:
        code, lines, _ = lint(tree, *paths, capsys=capsys)
        assert code == 1, paths
        assert any(" EM007 task vanished: @task gone" in line for line in lines)


def test_an_entry_naming_a_file_anew_brings_its_eval_to_a_lint_of_it(tree, capsys):
    other = f"{PACKAGE}/utils/other.py"
    tree.write({other: SHARED_UNWRAPPED})
    lint_clean(tree, capsys)
    assert lint(tree, other, capsys=capsys)[:2] == (0, [])  # no entry names it
    entry = tree.registry / "sharer.yaml"
    entry.write_text(entry.read_text().replace("utils/shared.py", "utils/other.py"))
    code, lines, _ = lint(tree, other, capsys=capsys)
    assert code == 1
    assert " EM002 scorer shared_scorer is registered with wrap_router" in lines[0]


def test_a_changed_shared_helper_is_linted_again_for_its_evals(tree, capsys):
    lint_clean(tree, capsys)
    tree.write({SHARED_PATH: SHARED_UNWRAPPED})
    for paths in [[], [SHARED_PATH], [f"{PACKAGE}/sharer"]]:
        code, lines, _ = lint(tree, *paths, capsys=capsys)
        assert code == 1, paths
        assert (
            " EM002 scorer shared_scorer is registered with wrap_router" in (lines[0])
        )


def test_a_lint_answered_from_the_kept_clean_evals_loads_nothing_heavy(tree):
    args = ["lint", f"{PACKAGE}/{EVAL}/{EVAL}.py", "--registry", str(tree.registry)]
    runs = [
        subprocess.run(
            [sys.executable, "-c", PROBE, *args], capture_output=True, text=True
        )
        for _ in range(2)
    ]
    first, second = (json.loads(run.stderr.splitlines()[-1]) for run in runs)
    assert (first["code"], second["code"]) == (0, 0)
    # the first lint reads and checks the entries; the second reads no entry
    assert set(first["loaded"]) & {"libcst", "inspect_ai", "rich", "git"} == set()
    assert set(second["loaded"]) & set(HEAVY) == set()
    assert "empty_migrate" in second["loaded"]


def test_an_eval_changed_while_it_was_linted_is_not_kept(tree):
    registry = registry_of(tree.repo, tree.registry)
    before = clean.snapshot(tree.repo, registry, [EVAL, "sharer"])
    tree.write({SCORER_PATH: WRAPPED + "\n"})  # after the lint read it
    clean.keep_clean(tree.repo, registry, before, with_findings=[])
    assert kept(tree, "lint-clean") == 1  # sharer alone
    assert not clean.is_clean(tree.repo, EVAL, registry.files[EVAL])
    assert clean.is_clean(tree.repo, "sharer", registry.files["sharer"])
