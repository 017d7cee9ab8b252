"""Branch mode on a git copy of inspect_evals 0.26.0 whose git converts line
ends (``core.autocrlf=true``, with the release's own ``*.py text``): the base
is read as stored, and each branch holds the same tree as without it (issue 30).
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from empty_migrate.delivery.git import GitRepo
from tests.corpus.conftest import TODAY
from tests.corpus.test_branches_on_target import IDENTITY, branches, git, run

pytestmark = pytest.mark.corpus


def committed_copy(release: Path, repo: Path) -> Path:
    ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
    shutil.copytree(release, repo, ignore=ignored)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "inspect-evals 0.26.0")
    return repo


@pytest.fixture
def identity(monkeypatch):
    for key, value in IDENTITY.items():
        monkeypatch.setenv(key, value)


def test_every_file_of_the_base_is_exported_as_stored(
    inspect_evals_tree, tmp_path, identity
):
    repo = committed_copy(inspect_evals_tree, tmp_path / "inspect_evals")
    git(repo, "config", "core.autocrlf", "true")
    listed = git(repo, "ls-tree", "-r", "--full-tree", "main").splitlines()
    stored = {
        line.split("\t", 1)[1]: line.split()[2]
        for line in listed
        if line.split()[0] in ("100644", "100755")
    }
    opened = GitRepo(repo)
    try:
        with opened.exported(opened.resolve("main")) as tree:
            paths = "".join(f"{tree / path}\n" for path in stored)
            hashed = subprocess.run(
                ["git", "hash-object", "--no-filters", "--stdin-paths"],
                cwd=repo, input=paths, capture_output=True, text=True, check=True,
            ).stdout.split()  # fmt: skip
    finally:
        opened.close()

    assert len(stored) > 1000
    assert dict(zip(stored, hashed, strict=True)) == stored


def test_gpqas_branches_hold_the_same_trees_as_without_autocrlf(
    inspect_evals_tree, tmp_path, identity
):
    trees = []
    for convert in (False, True):
        repo = committed_copy(inspect_evals_tree, tmp_path / f"copy-{convert}")
        if convert:
            git(repo, "config", "core.autocrlf", "true")
        args = ["--eval", "gpqa", "--branch-per-eval", "--repo", str(repo)]
        code, _, err = run(*args, "--today", TODAY)
        assert code == 0, err
        made = branches(repo)
        trees.append(
            {
                name: git(repo, "rev-parse", f"{sha}^{{tree}}")
                for name, sha in made.items()
            }
        )
        assert git(repo, "status", "--porcelain") == ""

    assert "empty-policy/gpqa" in trees[0]
    assert trees[1] == trees[0]
