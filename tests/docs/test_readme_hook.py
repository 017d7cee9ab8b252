"""The README's pre-commit hook for a user's repository works as written.

The hook is `repo: local`, calling the installed `empty-migrate lint`; the test
installs it with pre-commit into a git copy of a small target, as the README's
reader would, and a staged reverted wrap blocks the commit. Slow: pre-commit.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.demo import DEMO_SCORER, EVAL, GIT_IDENTITY, PACKAGE, SCORER_PATH, git
from tests.lint.test_lint import DEMO_TASK, WRAPPED
from tests.lint.test_pre_commit_hook import pre_commit

pytestmark = pytest.mark.slow

README = Path(__file__).parents[2] / "README.md"


def readme_hook() -> list[dict]:
    """The README's `repo: local` snippet, parsed."""
    found = re.search(r"```yaml\n(- repo: local\n.*?)```", README.read_text(), re.S)
    assert found, "README.md lost its repo: local hook"
    return yaml.safe_load(found.group(1))


def test_the_readme_s_local_hook_blocks_a_reverted_wrap(demo, tmp_path, monkeypatch):
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    # `empty-migrate` as installed beside this interpreter, on the PATH
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    monkeypatch.setenv("PATH", path)
    for name, value in GIT_IDENTITY.items():
        monkeypatch.setenv(name, value)
    demo.add_demo_eval(scorer=WRAPPED)
    demo.write({f"{PACKAGE}/{EVAL}/{EVAL}.py": DEMO_TASK})
    [repo_entry] = readme_hook()
    # the test's registry, not the package's (the option only tests use)
    repo_entry["hooks"][0]["args"] = ["--registry", str(demo.registry)]
    demo.write({".pre-commit-config.yaml": yaml.safe_dump({"repos": [repo_entry]})})
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
    assert f"{SCORER_PATH}:6:1: EM002" in commit.stderr + commit.stdout
    assert git(repo, "log", "--format=%s").splitlines() == ["Initial commit"]
