"""The policy tests the migration writes into inspect_evals 0.26.0, run there.

Every migrated eval gets ``tests/<eval>/test_empty_response_policy.py``; all of
them pass in the target's environment on the migrated tree, and every routed
scorer construct is built but at most two (what cannot be built offline is
skipped with its reason, printed here). And they test the migration:
restoring one eval's scorer files from the pristine tree, the shared router
kept, makes its test fail.
"""

import shutil
from collections import Counter
from pathlib import Path

import pytest

from empty_migrate.codemods.emit_policy_tests.rewrite import (
    FIXTURES_PATH,
    policy_test_path,
)
from empty_migrate.registry.loader import load_registry
from empty_migrate.target.own_tests import run_tests

pytestmark = pytest.mark.corpus

REVERTED = [
    "xstest",
    "gpqa",
    "strong_reject",
    "bfcl",
    "hle",
    "browse_comp",
    "kernelbench",
]
"""A judge safety eval, two QA evals, an agentic one with overrides, and three
built the hard way: hle's judges from its run configs, browse_comp's grader a
bare ``get_model()``, kernelbench's scorer importing a dependency not installed.
"""

MOST_SKIPPED_CONSTRUCTS = 2
"""anima and moru on 0.26.0: their factories load a dataset from the Hub."""


def migrated_evals(report: dict) -> list[str]:
    return [e["eval"] for e in report["evals"] if e["status"] == "rewritten"]


def test_every_migrated_eval_has_a_policy_test_and_they_pass(target_env, migrated_tree):
    migrated, report = migrated_tree
    evals = migrated_evals(report)
    paths = [policy_test_path(name) for name in evals]
    assert [p for p in paths if not (migrated / p).is_file()] == []
    assert (migrated / FIXTURES_PATH).is_file()

    skips: dict[str, str] = {}
    outcomes = run_tests(target_env, migrated, paths, skips=skips)

    counts = Counter(outcomes.values())
    print(
        f"{len(paths)} emitted policy tests files, {len(outcomes)} tests: "
        f"{counts['passed']} passed, {counts['skipped']} skipped, "
        f"{counts['failed']} failed"
    )
    for reason, count in Counter(skips.values()).most_common():
        print(f"  skipped {count}: {reason}")
    failed = sorted(t for t, o in outcomes.items() if o == "failed")
    assert failed == []
    assert counts["passed"] >= 1000
    # one reason per construct: "<construct> cannot be built offline: ..."
    assert len(set(skips.values())) <= MOST_SKIPPED_CONSTRUCTS, sorted(
        set(skips.values())
    )


@pytest.mark.parametrize("name", REVERTED)
def test_reverting_an_evals_scorer_fails_its_policy_test(
    name, target_env, inspect_evals_tree, migrated_tree, tmp_path
):
    migrated, _ = migrated_tree
    tree = tmp_path / "tree"
    shutil.copytree(migrated, tree, symlinks=True)
    for file in {s.file for s in load_registry().get(name).scorers}:
        scorer = Path("src/inspect_evals") / file
        shutil.copy(inspect_evals_tree / scorer, tree / scorer)

    outcomes = run_tests(target_env, tree, [policy_test_path(name)], workers=1)

    failed = [test for test, outcome in outcomes.items() if outcome == "failed"]
    print(f"{name} with its scorer reverted: {len(failed)} of {len(outcomes)} fail")
    assert failed
