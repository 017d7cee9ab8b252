"""The policy tests the migration writes into inspect_evals 0.26.0, run there.

Every migrated eval gets ``tests/<eval>/test_empty_response_policy.py``; all of
them pass in the target's environment on the migrated tree, and none skips:
every routed scorer construct is built offline. And they pin what they test:

- reverting an eval (restoring its scorer files from the pristine tree, the
  shared router kept) fails its test: one tree with every eval reverted, one
  run over all emitted tests, since reverting eval A changes only A's tests;
- flipping any routing cell a test reaches fails it (an outcome the eval
  overrides reads no cell): the installed router's
  ``POLICY`` with every cell flipped at once, since a test scores one outcome
  class and so reads one cell; the flips add no verdict route, so no cell's
  flip breaks building another's scorer (`FLIPPED`). The after-trajectory
  rule is flipped in that run too, and removed in a run of its own.
"""

import shutil
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from empty_migrate.codemods.emit_policy_tests.rewrite import (
    FIXTURES_PATH,
    policy_test_path,
)
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE
from empty_migrate.entries.schema import resolve
from empty_migrate.registry.loader import load_registry
from empty_migrate.target.own_tests import CaseOutcome, run_tests

pytestmark = pytest.mark.corpus

ROUTER_PATH = Path("src", *ROUTER_MODULE.split(".")).with_suffix(".py")

FLIPPED = """

# every cell flipped (tests/corpus/test_emitted_policy_tests.py)
_FLIPPED = {
    Route.SCORE: Route.SCORE_TAGGED,
    Route.SCORE_TAGGED: Route.SCORE,
    Route.NO_ANSWER: Route.UNSCORED,
    Route.REFUSAL_VERDICT: Route.UNSCORED,
    Route.UNSCORED: Route.RAISE,
    Route.RAISE: Route.UNSCORED,
}
POLICY = {
    category: {
        outcome: Route.UNSCORED if outcome == Outcome.ANSWERED else _FLIPPED[route]
        for outcome, route in column.items()
    }
    for category, column in POLICY.items()
}
AFTER_AGENT_TRAJECTORY = {o: _FLIPPED[r] for o, r in AFTER_AGENT_TRAJECTORY.items()}
"""
"""Appended to the installed router: each cell to a route its test tells apart.

An answer, whose ``score_tagged`` is its ``score``, goes unscored.
"""

NO_TRAJECTORY_RULE = """

# no after-trajectory rule (tests/corpus/test_emitted_policy_tests.py)
AFTER_AGENT_TRAJECTORY = {}
"""

AFTER_TOOLS = "after_tools"
"""The id part of a test scored after an agent trajectory."""


def migrated_evals(report: dict) -> list[str]:
    return [e["eval"] for e in report["evals"] if e["status"] == "rewritten"]


def emitted_paths(report: dict) -> list[str]:
    return [policy_test_path(name) for name in migrated_evals(report)]


@pytest.fixture(scope="module")
def passing(target_env, migrated_tree) -> dict[str, CaseOutcome]:
    """Every emitted test's outcome on the migrated tree."""
    migrated, report = migrated_tree
    skips: dict[str, str] = {}
    outcomes = run_tests(target_env, migrated, emitted_paths(report), skips=skips)
    assert skips == {}
    return outcomes


def test_every_migrated_eval_has_a_policy_test_and_they_pass(passing, migrated_tree):
    migrated, report = migrated_tree
    paths = emitted_paths(report)
    assert [p for p in paths if not (migrated / p).is_file()] == []
    assert (migrated / FIXTURES_PATH).is_file()

    counts = Counter(passing.values())
    print(
        f"{len(paths)} emitted policy tests files, {len(passing)} tests: "
        f"{counts['passed']} passed, {counts['skipped']} skipped, "
        f"{counts['failed']} failed"
    )
    assert sorted(t for t, o in passing.items() if o != "passed") == []
    assert {cell[0] for cell in cells(passing)} == set(migrated_evals(report))
    assert counts["passed"] >= 1000


def test_reverting_any_eval_fails_its_policy_test(
    passing, target_env, inspect_evals_tree, migrated_tree, tmp_path
):
    migrated, report = migrated_tree
    tree = copy_of(migrated, tmp_path)
    evals = migrated_evals(report)
    registry = load_registry()
    for name in evals:
        for file in {s.file for s in registry.get(name).scorers}:
            scorer = Path("src/inspect_evals") / file
            shutil.copy(inspect_evals_tree / scorer, tree / scorer)

    outcomes = run_tests(target_env, tree, emitted_paths(report))

    failing = {eval_of(test) for test in failed(outcomes)}
    print(f"reverted: {len(failing & set(evals))} of {len(evals)} evals' tests fail")
    assert sorted(set(evals) - failing) == []


def test_flipping_any_cell_a_test_reaches_fails_it(
    passing, target_env, migrated_tree, tmp_path
):
    """Every flip fails its test, but where the eval's scorer cannot score offline.

    ``score`` and ``score_tagged`` both give the sample to the scorer; the
    routed score names the route it took (``empty_route``), so the flip
    shows even where the score itself does not (a passing score, a reason of
    its own). A scorer that cannot score the offline sample
    (``probe_offline``) raises alike on both routes: its cells are counted,
    not required.
    """
    migrated, report = migrated_tree
    tree = copy_of(migrated, tmp_path)
    with (tree / ROUTER_PATH).open("a", encoding="utf-8") as router:
        router.write(FLIPPED)

    outcomes = run_tests(target_env, tree, emitted_paths(report))

    reached = {cell for cell in cells(passing) if not overridden(cell)}
    caught = cells(failed(outcomes))
    tags = {cell for cell in reached if tag_only(cell, passing)}
    offline = {cell for cell in tags if cannot_score_offline(cell)}
    print(
        f"flipped: {len(reached & caught)} of {len(reached)} cells reached "
        f"(eval, construct, outcome) fail; of the {len(tags)} where only the tag "
        f"changes, {len(tags & caught)}; of the {len(offline)} whose scorer "
        f"cannot score offline, {len(offline & caught)}: "
        f"{sorted({cell[0] for cell in offline})}"
    )
    assert sorted(reached - offline - caught) == []


def test_removing_the_after_trajectory_rule_fails_every_after_tools_test(
    passing, target_env, migrated_tree, tmp_path
):
    migrated, report = migrated_tree
    tree = copy_of(migrated, tmp_path)
    with (tree / ROUTER_PATH).open("a", encoding="utf-8") as router:
        router.write(NO_TRAJECTORY_RULE)

    outcomes = run_tests(target_env, tree, emitted_paths(report), keyword=AFTER_TOOLS)

    reached = {cell for cell in cells(passing) if AFTER_TOOLS in cell[2]}
    caught = cells(failed(outcomes))
    print(f"no trajectory rule: {len(reached & caught)} of {len(reached)} cells fail")
    assert len(reached) >= 100
    assert sorted(reached - caught) == []


def copy_of(migrated: Path, tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(migrated, tree, symlinks=True)
    return tree


def failed(outcomes: dict[str, CaseOutcome]) -> dict[str, CaseOutcome]:
    return {test: o for test, o in outcomes.items() if o == "failed"}


def eval_of(test: str) -> str:
    """``tests.<eval>.test_empty_response_policy::...`` -> ``<eval>``."""
    return test.split("::")[0].split(".")[1]


def overridden(cell: tuple[str, str, str]) -> bool:
    """Whether the eval routes the cell's outcome its own way: no ``POLICY`` cell.

    Its override is in the eval's code, which the revert restores.
    """
    entry = load_registry().get(cell[0])
    outcome = cell[2].partition("-")[0]  # without -after_tools, -in_transcript
    return any(
        override.outcome == outcome
        for scorer in entry.scorers
        for task in [None, *entry.tasks]
        for override in resolve(entry, task, scorer).overrides
    )


def cannot_score_offline(cell: tuple[str, str, str]) -> bool:
    """Whether the eval declares the cell's scorer cannot score the offline sample.

    The cell's construct is the scorer's name in the test (its own, unless
    two share it); a construct no scorer is named for reads every scorer's.
    """
    entry = load_registry().get(cell[0])
    named = [s for s in entry.scorers if s.name == cell[1]] or entry.scorers
    return any(
        resolve(entry, task, scorer).probe_offline is not None
        for scorer in named
        for task in [None, *entry.tasks]
    )


SCORER_ROUTE_TEST = "test_non_answer_reaches_the_scorer"
"""The emitted test of an outcome the route gives to the scorer, tagged or not."""


def tag_only(cell: tuple[str, str, str], outcomes: dict[str, CaseOutcome]) -> bool:
    """Whether the cell's tests are of a scorer route, whose flip changes the tag."""
    return any(
        SCORER_ROUTE_TEST in test and cell in cells({test: outcome})
        for test, outcome in outcomes.items()
        if f"tests.{cell[0]}." in test
    )


def cells(outcomes: dict[str, CaseOutcome]) -> set[tuple[str, str, str]]:
    """(eval, construct, outcome) of each test: the routing cell it reads.

    A test id's parameters are
    ``<construct>-<outcome>[-after_tools|-in_transcript]-<sample>``,
    an answer's ``<construct>-<sample>``.
    """
    found: defaultdict[tuple[str, str, str], int] = defaultdict(int)
    for test in outcomes:
        parts = test.partition("[")[2].rstrip("]").split("-")
        outcome = "-".join(parts[1:-1]) or "answered"
        found[(eval_of(test), parts[0], outcome)] += 1
    return set(found)
