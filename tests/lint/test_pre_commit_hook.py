"""The hook of .pre-commit-hooks.yaml, installed by pre-commit into a target's git
copy, blocks a commit that stages a scorer bypassing the policy.

pre-commit builds the hook's environment from this repository at its HEAD
commit (pip install, as a target's contributor would get it): slow.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.demo import DEMO_SCORER, EVAL, GIT_IDENTITY, PACKAGE, SCORER_PATH, git
from tests.lint.test_lint import DEMO_TASK, WRAPPED

pytestmark = pytest.mark.slow

THIS_REPOSITORY = Path(__file__).resolve().parents[2]


def pre_commit() -> list[str]:
    found = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    return [found]


def test_the_hook_blocks_a_commit_that_reverts_a_wrap(demo, tmp_path, monkeypatch):
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    for name, value in GIT_IDENTITY.items():
        monkeypatch.setenv(name, value)
    demo.add_demo_eval(scorer=WRAPPED)
    demo.write({f"{PACKAGE}/{EVAL}/{EVAL}.py": DEMO_TASK})
    head = git(THIS_REPOSITORY, "rev-parse", "HEAD").strip()
    demo.write(
        {
            ".pre-commit-config.yaml": (
                "repos:\n"
                f"  - repo: {THIS_REPOSITORY}\n"
                f"    rev: {head}\n"
                "    hooks:\n"
                "      - id: empty-migrate-lint\n"
                f"        args: [--registry, {demo.registry}]\n"
            )
        }
    )
    repo = demo.commit()
    subprocess.run([*pre_commit(), "install"], cwd=repo, check=True)
    (repo / SCORER_PATH).write_text(DEMO_SCORER)
    git(repo, "add", SCORER_PATH)
    commit = subprocess.run(
        ["git", "commit", "-m", "revert the wrap"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert commit.returncode != 0
    assert (
        f"{SCORER_PATH}:6:1: EM002 scorer demo_scorer is registered with "
        "wrap_router but not wrapped in route_empty_responses" in commit.stderr
    ), commit.stdout + commit.stderr
    assert git(repo, "log", "--format=%s").splitlines() == ["Initial commit"]
