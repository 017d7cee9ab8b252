"""The branch planner's rules and the PR text, on texts given here."""

import functools
import re
import sys
from pathlib import Path

import pytest

from empty_migrate.audit import run as audit_run
from empty_migrate.cli.main import main
from empty_migrate.delivery.branches import (
    FOUNDATION,
    PlanError,
    changed_definitions,
    foundation_paths,
    plan_branches,
)
from empty_migrate.delivery.git import uses_conventional_commits
from empty_migrate.delivery.pull_request import DEFAULT_TEMPLATE, Behaviour, render
from empty_migrate.pipeline.migrate import RunResult
from empty_migrate.pipeline.runner import EvalResult, FileResult
from tests.delivery.campaigns import CLOSES, ROUTER, campaign, gamma_branch

SCORERS = "src/inspect_evals/utils/scorers.py"
SCORERS_BEFORE = "def preset(x):\n    return x\n\n\ndef other():\n    return 1\n"
SCORERS_AFTER = (
    "from inspect_evals.utils.empty_response import route\n\n\n"
    "def preset(x):\n    return route(x)\n\n\ndef other():\n    return 1\n"
)


def test_changed_definitions_are_the_functions_whose_source_differs():
    assert changed_definitions(SCORERS_BEFORE, SCORERS_AFTER) == ["preset"]


def _rewrite(path, *codemods, before="old\n"):
    return FileResult(path, "rewritten", before, "new\n", codemods or ("wrap_router",))


def test_the_foundation_holds_declared_shared_files_and_files_of_several_groups():
    run = RunResult(
        [
            EvalResult(
                "alpha",
                [
                    _rewrite("src/inspect_evals/alpha/alpha.py"),
                    _rewrite(ROUTER, "install_router", before=""),
                    _rewrite("src/inspect_evals/utils/common.py"),
                ],
            ),
            EvalResult(
                "beta",
                [
                    _rewrite("src/inspect_evals/beta/beta.py"),
                    _rewrite("src/inspect_evals/utils/common.py"),
                ],
            ),
            EvalResult("gamma", [_rewrite("src/inspect_evals/utils/own.py")]),
            EvalResult("delta", [_rewrite("src/inspect_evals/utils/own.py")]),
        ],
        [["alpha"], ["beta"], ["gamma", "delta"]],
    )
    assert foundation_paths(run, [[e] for e in run.evals[:2]]) == {
        ROUTER,
        "src/inspect_evals/utils/common.py",
    }
    planned = plan_branches(run, Path("."))
    keys = [branch.key for branch in planned]
    assert keys == [FOUNDATION, "alpha", "beta", "own"]
    assert planned[0].is_foundation and planned[0].on is None
    assert all(branch.on == FOUNDATION for branch in planned[1:])
    assert set(planned[1].files) == {"src/inspect_evals/alpha/alpha.py"}
    # a module one group's evals share goes with them, not into the foundation
    assert set(planned[3].files) == {"src/inspect_evals/utils/own.py"}
    assert planned[3].evals == ("gamma", "delta")


def test_without_shared_files_the_branches_are_on_the_base():
    run = RunResult(
        [EvalResult("alpha", [_rewrite("src/inspect_evals/alpha/alpha.py")])],
        [["alpha"]],
    )
    (planned,) = plan_branches(run, Path("."))
    assert planned.key == "alpha" and planned.on is None


def test_two_branches_of_one_name_are_refused():
    def result(name, *paths):
        files = [
            FileResult(p, "rewritten", "old\n", "new\n", ("wrap_router",))
            for p in paths
        ]
        return EvalResult(name, files)

    run = RunResult(
        [
            result("alpha", "src/inspect_evals/utils/shared.py"),
            result("beta", "src/inspect_evals/utils/shared.py"),
            result("shared", "src/inspect_evals/shared/shared.py"),
        ],
        [["alpha", "beta"], ["shared"]],
    )
    with pytest.raises(PlanError, match="empty-policy/shared"):
        plan_branches(run, Path("."))


def test_conventional_history_is_most_subjects_typed():
    assert uses_conventional_commits(["fix(x): a", "feat: b", "Merge pull request #1"])
    assert not uses_conventional_commits(["XSTest: fix the judge", "fix: a"])
    assert not uses_conventional_commits([])


def test_default_sections_when_the_target_has_no_template():
    text = render(gamma_branch(), None)
    headings = re.findall(r"^#{1,2} (.+)$", text, re.MULTILINE)
    assert headings == [
        "This PR contains",
        "Description",
        "Related issue",
        "How to reproduce",
        "Checklist",
    ]
    assert "A scoring change to Gamma (`gamma`), task version 2-B → 3-B" in text
    assert "Updated `tests/gamma/test_gamma.py::test_empty`" in text
    assert "- [x] Have the affected task version(s) been incremented?" in text
    assert "- [x] Has the changelog fragment been committed?" in text
    assert CLOSES.search(text)
    assert text == render(gamma_branch(), DEFAULT_TEMPLATE)


BUG_FIX_TEMPLATE = """\
<!--
Thanks!
-->

## 🐛 Bug <!-- markdownlint-disable first-line-h1 -->

_Describe the bug you are fixing._

## Related issue

Closes: #\\<issue_number> <!-- or: Closes: no linked issue as <reason> -->

## ✅ Testing + How to Reproduce

_Describe how to test your fix._

## Checklist

- [ ] Does this change affect existing eval(s)? If yes:
  - [ ] Have you checked your changes against the evaluation checklist?
"""


def test_a_template_of_other_sections_keeps_them_and_fills_what_it_can():
    text = render(gamma_branch(), BUG_FIX_TEMPLATE, issue=7)
    assert text.startswith("<!--\nThanks!\n-->\n\n## 🐛 Bug")
    assert "_Describe the bug you are fixing._" in text  # a section it cannot fill
    assert "Closes: #7" in text and "issue_number" not in text
    testing = text.split("## ✅ Testing + How to Reproduce")[1]
    assert "git checkout empty-policy/gamma" in testing.split("## Checklist")[0]
    assert "- [ ] Have you checked your changes" in text


def test_without_a_testing_section_the_description_says_how_to_test():
    template = "## Description\n\n## Checklist\n\n- [ ] Is this change consequential?\n"
    text = render(gamma_branch(), template)
    assert "### How to test" in text and "git checkout empty-policy/gamma" in text


def test_measured_behaviour_becomes_a_table_of_what_changed():
    behaviour = [
        Behaviour(
            "gamma",
            "choice",
            "gamma",
            [("empty", "judge ('C', reason None, judge x1)", "wrong ('N', reason x)")],
        ),
        Behaviour("other", "s", "t", [("empty", "a", "b")]),
    ]
    text = render(gamma_branch(), None, behaviour=behaviour)
    assert (
        "| empty | judge ('C', reason None, judge x1) | wrong ('N', reason x) |" in text
    )
    assert "`other`" not in text
    unmeasured = render(gamma_branch(), None)
    assert "Not measured for this text" in unmeasured


@pytest.mark.slow  # the audit runs in worker processes, on two trees
def test_audit_measures_each_eval_before_and_after_for_its_pr(
    repo, registry, tmp_path, monkeypatch
):
    # one audit worker process a tree, not two: each pays for importing inspect_ai
    monkeypatch.setattr(
        audit_run, "run_audit", functools.partial(audit_run.run_audit, workers=1)
    )
    code = campaign(
        repo,
        registry,
        "--audit",
        "--audit-python",
        sys.executable,
        "--pr-dir",
        str(tmp_path),
    )
    assert code == 0
    text = (tmp_path / "gamma.md").read_text()
    table = text.split("| outcome | before | after |")[1].split("\n\n")[0]
    assert "| filtered | wrong ('N', reason no_response) | unscored" in table
    assert (
        "| no_output | wrong ('N', reason no_response) | raised EmptyResponseError |"
        in (table)
    )
    # in the policy's outcome order
    outcomes = re.findall(r"^\| (\w+) \|", table, re.MULTILINE)
    assert outcomes.index("empty") < outcomes.index("filtered")


def test_audit_python_without_audit_is_refused(repo, registry, capsys):
    assert campaign(repo, registry, "--audit-python", sys.executable) == 2
    assert "--audit-python goes with --audit" in capsys.readouterr().err
    assert main(["campaign", "status", "--repo", str(repo)]) == 0
