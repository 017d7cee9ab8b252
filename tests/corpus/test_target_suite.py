"""Do no harm: the migrated inspect_evals 0.26.0 passes its own tests.

The target's own tests for every eval the migration changes (and its shared
``tests/utils``) run on the pristine tree and on the migrated one, in one
isolated environment, offline. A test that passed before and does not pass
after fails this check, unless a rerun of its folder shows it passing after
all (a flaky test). Tests the migration updates on purpose are listed in the
registry (``test_updates``); they must pass after, like every other. Then this
repository's in-target checks (``tests/in_target``) run in the same
environment against the migrated tree.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from empty_migrate.registry.loader import load_registry
from empty_migrate.target.own_tests import (
    OFFLINE,
    Comparison,
    folders_for,
    folders_of_tests,
    run_tests,
)

pytestmark = pytest.mark.corpus

REPO = Path(__file__).parents[2]


def changed_evals(report: dict) -> tuple[list[str], bool]:
    """The evals the migration rewrote, and whether shared utils changed."""
    evals = [e["eval"] for e in report["evals"] if e["status"] == "rewritten"]
    shared = any(
        f["path"].startswith("src/inspect_evals/utils/")
        for e in report["evals"]
        for f in e["files"]
        if f["status"] == "rewritten"
    )
    return evals, shared


def test_no_test_of_the_target_that_passed_fails_after(
    target_env, inspect_evals_tree, migrated_tree
):
    migrated, report = migrated_tree
    evals, shared = changed_evals(report)
    paths = folders_for(inspect_evals_tree, evals, shared)
    assert len(paths) > 100

    comparison = Comparison(
        run_tests(target_env, inspect_evals_tree, paths),
        run_tests(target_env, migrated, paths),
    )
    print(comparison.summary())
    emitted = [t for t in comparison.after if "test_empty_response_policy" in t]
    passing = sum(1 for t in emitted if comparison.after[t] == "passed")
    print(
        f"of which new, written by the migration (emit_policy_tests): "
        f"{len(emitted)} tests, {passing} pass"
    )
    regressions = comparison.regressions
    if regressions:  # confirm on a second run, test folder by test folder
        again = folders_of_tests(regressions)
        rerun = Comparison(
            run_tests(target_env, inspect_evals_tree, again, workers=1),
            run_tests(target_env, migrated, again, workers=1),
        )
        regressions = {t: o for t, o in regressions.items() if t in rerun.regressions}
    assert not regressions, "\n".join(f"{o}: {t}" for t, o in regressions.items())
    assert comparison.before.keys() <= comparison.after.keys(), "a test vanished"
    updated = [
        update.test
        for name in evals
        for update in load_registry().get(name).test_updates
    ]
    print(f"tests updated by the migration ({len(updated)}): {', '.join(updated)}")


def in_target(target_env, tree: Path, *module_args: str):
    """Run ``python -m ...`` of this repository in the target's environment.

    The tree's inspect_evals and this repository's package come first on the
    path; the network-bound libraries run offline.
    """
    path = os.pathsep.join([str(tree / "src"), str(REPO / "src")])
    return subprocess.run(
        [str(target_env.python), "-m", *module_args],
        cwd=REPO,
        env={**os.environ, **OFFLINE, "PYTHONPATH": path},
        capture_output=True,
        text=True,
    )


def test_in_target_checks_pass_on_the_migrated_tree(target_env, migrated_tree):
    migrated, _ = migrated_tree
    run = in_target(
        target_env,
        migrated,
        *["pytest", "tests/in_target", "-p", "no:cacheprovider", "-q", "-rfs"],
        *["-o", "addopts="],
    )
    print(run.stdout[-20000:])
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


ROUTER_METADATA = {
    "empty_outcome",
    "empty_signal",
    "empty_route",
    "truncated_partial",
    "filtered_partial",
}
"""What the router adds to an answered score cut short: metadata, never a value."""


def score_answers(target_env, tree: Path, out: Path) -> dict:
    run = in_target(target_env, tree, "tests.in_target.score_answers", str(out))
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(out.read_text())


def test_answered_outputs_score_exactly_as_before(
    target_env, inspect_evals_tree, migrated_tree, tmp_path
):
    migrated, _ = migrated_tree
    before = score_answers(target_env, inspect_evals_tree, tmp_path / "before.json")
    after = score_answers(target_env, migrated, tmp_path / "after.json")

    assert before.keys() == after.keys()
    compared = [key for key in before if "scores" in before[key]]
    scored = 0
    for key in compared:
        assert "scores" in after[key], (key, after[key])
        for fixture, scores in before[key]["scores"].items():
            assert same_scores(scores, after[key]["scores"][fixture]), (key, fixture)
            scored += "error" not in scores
    not_run = {
        key: value["not_run"] for key, value in before.items() if key not in compared
    }
    print(
        f"{len(compared)} routed scorers scored the answered outputs offline "
        f"({scored} scores identical before and after); {len(not_run)} not run:"
    )
    for key, reason in not_run.items():
        print(f"  {key}: {reason}")
    assert scored >= 1000


def same_scores(before: dict, after: dict) -> bool:
    """Equal, but for the metadata the router adds to an answer cut short."""
    if "error" in before or before.keys() != after.keys():
        return before == after
    for name, old in before.items():
        new = after[name]
        fields = ("value", "answer", "explanation", "reason")
        if any(old[field] != new[field] for field in fields):
            return False
        added = set(new["metadata"]) - set(old["metadata"])
        kept = all(new["metadata"].get(k) == v for k, v in old["metadata"].items())
        if added - ROUTER_METADATA or not kept:
            return False
    return True
