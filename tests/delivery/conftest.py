"""A small eval repository under real git, and its registry, for campaign tests.

Evals: ``gamma`` (its own scorer), ``alpha`` and ``beta`` (one shared helper),
``delta`` (manual; it still calls the preset helper, so the helper's shim gets
a branch of its own). The repository has a pull-request template of its own.
"""

import subprocess
from pathlib import Path

import pytest

from tests.cli.test_migrate import RUFF, SHARED_HELPER, SHARED_TASK, TASK

GOLDEN = Path(__file__).parents[2] / "golden"
SCORERS = (
    GOLDEN
    / "install_router/preset_helper_sole_registry_user/before/src/inspect_evals"
    / "utils/scorers.py"
)


MANUAL_TASK = """\
from inspect_ai import Task, task
from inspect_ai.scorer import match

from inspect_evals.utils.scorers import preset_score_on_no_response


@task
def delta() -> Task:
    return Task(dataset=[], scorer=preset_score_on_no_response(match()))
"""

ENTRY = """\
category: qa
polarity: neutral
no_answer_verdict: I
output: state.output
judge: none
today: "empty completion -> {scorer} INCORRECT ({file}:5)"
codemods: [wrap_router, bump_task_version, changelog]
tasks:
  {name}: {{}}
scorers:
  - name: {scorer}
    file: {file}
    construct: {construct}
"""

MANUAL = """\
category: qa
polarity: neutral
output: state.output
judge: none
today: "empty completion -> preset INCORRECT (delta/delta.py:9)"
codemods: manual
codemods_reason: left to a person for this test
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

IDENTITY = {
    "GIT_AUTHOR_NAME": "Campaign Test",
    "GIT_AUTHOR_EMAIL": "campaign@example.com",
    "GIT_COMMITTER_NAME": "Campaign Test",
    "GIT_COMMITTER_EMAIL": "campaign@example.com",
}


def git(repo: Path, *args: str) -> str:
    """Run git in `repo`; its stdout."""
    done = subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    )
    return done.stdout


def _eval_files(name: str, title: str, code: str) -> dict[str, str]:
    package = f"src/inspect_evals/{name}"
    return {
        f"{package}/__init__.py": "",
        f"{package}/{name}.py": code,
        f"{package}/eval.yaml": f'title: "{title}"\nversion: "2-A"\n',
        f"{package}/README.md": (
            f"# {title}\n\n## Changelog\n\n### [2-A] - 2026-01-01\n\n- First.\n"
        ),
    }


@pytest.fixture(autouse=True)
def identity(monkeypatch):
    """Commits by a fixed person, whatever the machine's git config says."""
    for key, value in IDENTITY.items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def repo(tmp_path):
    """The repository, committed on ``main``, with a clean work tree."""
    root = tmp_path / "repo"
    files = {
        "pyproject.toml": RUFF,
        ".gitignore": "__pycache__/\n",
        ".github/PULL_REQUEST_TEMPLATE.md": TEMPLATE,
        "changelog.d/TEMPLATE.md": "<!-- fragments -->\n",
        "src/inspect_evals/__init__.py": "",
        "src/inspect_evals/utils/__init__.py": "",
        "src/inspect_evals/utils/scorers.py": SCORERS.read_text(),
        "src/inspect_evals/utils/shared.py": SHARED_HELPER,
        **_eval_files("gamma", "Gamma: a choice benchmark", TASK),
        **_eval_files("alpha", "Alpha", SHARED_TASK.format(name="alpha")),
        **_eval_files("beta", "Beta", SHARED_TASK.format(name="beta")),
        **_eval_files("delta", "Delta", MANUAL_TASK),
        "tests/__init__.py": "",
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "Initial commit")
    return root


@pytest.fixture
def registry(tmp_path):
    """Registry entries for gamma, alpha, beta and delta."""
    folder = tmp_path / "registry"
    folder.mkdir()
    (folder / "gamma.yaml").write_text(
        ENTRY.format(
            name="gamma", scorer="gamma", file="gamma/gamma.py", construct="task_scorer"
        )
    )
    for name in ("alpha", "beta"):
        (folder / f"{name}.yaml").write_text(
            ENTRY.format(
                name=name,
                scorer="shared_scorer",
                file="utils/shared.py",
                construct="shared_helper",
            )
        )
    (folder / "delta.yaml").write_text(MANUAL)
    return folder
