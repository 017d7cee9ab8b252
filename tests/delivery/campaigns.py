"""The campaign's repository and the helpers its tests share.

`build_campaign_repo` writes the campaign's evals (``tests/delivery/
conftest.py`` lists them) into a demo tree and commits it; `campaign` runs
``--all --branch-per-eval`` on it; `gamma_branch` is a planned branch given
by hand, on the foundation, for the PR text (used by tests/pipeline too).
"""

import re
from collections.abc import Sequence
from pathlib import Path

from empty_migrate.cli.main import main
from empty_migrate.delivery.branches import FOUNDATION, Branch
from empty_migrate.pipeline.runner import EvalResult
from tests.demo import (
    SHARED_HELPER,
    DemoTree,
    choice_task,
    entry,
    manual_entry,
    shared_task,
    versioned,
)

TODAY = ["--today", "2026-12-01"]
ROUTER = "src/inspect_evals/utils/empty_response.py"
EVAL_YAML = "src/inspect_evals/gamma/eval.yaml"
CLOSES = re.compile(r"Closes: no linked issue as [^<\s]|Closes:? #[0-9]+")
"""What the target's "Check PR template" job accepts (pr-template-check.yml)."""
GOLDEN = Path(__file__).parents[2] / "golden"
SCORERS = (
    GOLDEN
    / "retire_preset/last_caller_migrated/before/src/inspect_evals"
    / "utils/scorers.py"
)
"""inspect_evals' scorer helpers, with the preset the router's shim replaces."""
BUMPED = ["wrap_router", "bump_task_version", "changelog"]

MANUAL_TASK = """\
from inspect_ai import Task, task
from inspect_ai.scorer import match

from inspect_evals.utils.scorers import preset_score_on_no_response


@task
def delta() -> Task:
    return Task(dataset=[], scorer=preset_score_on_no_response(match()))
"""

TEMPLATE = """\
# This PR contains

## Description

<!-- What changed and why. -->

## Related issue

Closes: #<issue_number>

## Notes for reviewers

_Anything a reviewer should look at first._

## Checklist

- [ ] Does this change affect existing eval(s)? If yes:
  - [ ] Have you checked your changes against the evaluation checklist?
  - [ ] Have the affected task version(s) been incremented?
  - [ ] Have the affected task changelog(s) been updated?
- [ ] Is this change consequential to users? If yes:
  - [ ] Has `uv run scriv create` been run and the changelog fragment committed?
"""


def build_campaign_repo(tree: DemoTree, extra: Sequence[str] = ()) -> DemoTree:
    """The campaign's evals in `tree`, committed on ``main``; returns `tree`.

    `extra` names more evals like gamma (each with a scorer of its own).
    """
    tree.write(
        {
            ".gitignore": "__pycache__/\n",
            ".github/PULL_REQUEST_TEMPLATE.md": TEMPLATE,
            "changelog.d/TEMPLATE.md": "<!-- fragments -->\n",
            "src/inspect_evals/utils/__init__.py": "",
            "src/inspect_evals/utils/scorers.py": SCORERS.read_text(),
            "src/inspect_evals/utils/shared.py": SHARED_HELPER,
            "tests/__init__.py": "",
            **versioned("gamma", "Gamma: a choice benchmark"),
            **versioned("alpha", "Alpha"),
            **versioned("beta", "Beta"),
            **versioned("delta", "Delta"),
        }
    )
    for name in ("gamma", *extra):
        if name != "gamma":
            tree.write(versioned(name, name.capitalize()))
        tree.add_eval(
            name,
            {f"{name}.py": choice_task(name)},
            _entry(name, name, f"{name}/{name}.py", "task_scorer"),
        )
    for name in ("alpha", "beta"):
        tree.add_eval(
            name,
            {f"{name}.py": shared_task(name)},
            _entry(name, "shared_scorer", "utils/shared.py", "shared_helper"),
        )
    tree.add_eval(
        "delta",
        {"delta.py": MANUAL_TASK},
        manual_entry(
            "left to a person for this test",
            "empty completion -> preset INCORRECT (delta/delta.py::delta)",
        ),
    )
    tree.commit()
    return tree


def _entry(name: str, scorer: str, file: str, construct: str) -> str:
    return entry(
        name,
        scorer=scorer,
        file=file,
        construct=construct,
        codemods=BUMPED,
        settings="no_answer_verdict: I\n",
        today=f"empty completion -> {scorer} INCORRECT ({file}::{scorer})",
    )


def campaign(repo: Path, registry: Path, *args: str) -> int:
    """Run ``--all --branch-per-eval`` on `repo`; the exit code."""
    return main(
        [
            "--all",
            "--branch-per-eval",
            "--repo",
            str(repo),
            "--registry",
            str(registry),
            *TODAY,
            *args,
        ]
    )


def gamma_branch(**changes: object) -> Branch:
    """A planned branch of eval gamma, its files given here, for PR text tests."""
    result = EvalResult(
        "gamma",
        scoring=["Empty answers now score `NOANSWER` with reason `no_response`."],
        tests_updated=["tests/gamma/test_gamma.py::test_empty"],
    )
    files = {
        "src/inspect_evals/gamma/gamma.py": "x = 1\n",
        EVAL_YAML: 'title: "Gamma: choices"\nversion: "3-B"\n',
        "src/inspect_evals/gamma/README.md": "# Gamma\n",
        "changelog.d/20261201_empty_migrate_gamma.md": "- Gamma (v3-B): ...\n",
    }
    before = {
        **{path: "old\n" for path in files},
        EVAL_YAML: 'title: "Gamma: choices"\nversion: "2-B"\n',
    }
    fields = {
        "key": "gamma",
        "evals": ("gamma",),
        "files": files,
        "results": (result,),
        "before": before,
        "on": FOUNDATION,
    }
    return Branch(**{**fields, **changes})
