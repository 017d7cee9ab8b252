"""The real inspect_evals 0.26.0 source, fetched once per session through ``pypi:``.

Set EMPTY_MIGRATE_CORPUS to an extracted ``inspect_evals-0.26.0`` tree to reuse
one; otherwise the tool's own fetch downloads the sdist into a session cache
(package registries only), which also exercises the real download path.
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from empty_migrate.target.corpus import resolve_target
from empty_migrate.target.own_tests import TargetEnvironment

PINNED = "pypi:inspect-evals==0.26.0"
TODAY = "2026-11-29"
TARGET_REQUIREMENTS = ["inspect-evals==0.26.0", "inspect-ai==0.3.285"]
"""The target's environment: the release under test, on the framework we pin."""


@pytest.fixture(scope="session")
def corpus_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@contextlib.contextmanager
def cache_at(folder: Path) -> Iterator[None]:
    """The tool's user cache in `folder` while the block runs (a fetch fills it)."""
    previous = os.environ.get("EMPTY_MIGRATE_CACHE")
    os.environ["EMPTY_MIGRATE_CACHE"] = str(folder)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["EMPTY_MIGRATE_CACHE"]
        else:
            os.environ["EMPTY_MIGRATE_CACHE"] = previous


@pytest.fixture(scope="session")
def inspect_evals_tree(corpus_cache) -> Path:
    if os.environ.get("EMPTY_MIGRATE_CORPUS"):
        return Path(os.environ["EMPTY_MIGRATE_CORPUS"])
    with cache_at(corpus_cache):
        return resolve_target(PINNED).path


@pytest.fixture(scope="session")
def migrated_tree(inspect_evals_tree, tmp_path_factory) -> tuple[Path, dict]:
    """A copy of the tree migrated with --all, and the dry run's JSON report."""
    copy = tmp_path_factory.mktemp("target") / "inspect_evals"
    ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
    shutil.copytree(inspect_evals_tree, copy, ignore=ignored)
    report = run_json(copy, "--all", "--dry-run")
    assert main(["--all", "--repo", str(copy), "--today", TODAY]) == 0
    return copy, report


NEXT_RELEASE = "pypi:inspect-evals==0.28.0"
"""A later release (86 Python files changed): the registry still migrates it."""


@pytest.fixture(scope="session")
def next_release_tree(corpus_cache) -> Path:
    """inspect_evals 0.28.0 as released (a fetched release: read it, never write)."""
    with cache_at(corpus_cache):
        return resolve_target(NEXT_RELEASE).path


@pytest.fixture(scope="session")
def next_release_migrated(next_release_tree, corpus_cache, tmp_path_factory) -> Path:
    """A copy of 0.28.0 migrated with --all."""
    copy = tmp_path_factory.mktemp("next-release") / "inspect_evals"
    shutil.copytree(next_release_tree, copy, ignore=shutil.ignore_patterns(".git"))
    with cache_at(corpus_cache):
        assert main(["--all", "--repo", str(copy), "--today", TODAY]) == 0
    return copy


def run_json(repo: Path, *args: str) -> dict:
    """Run the CLI with --format json on `repo`; its parsed report."""
    stream = io.StringIO()
    with contextlib.redirect_stdout(stream):
        code = main([*args, "--repo", str(repo), "--format", "json", "--today", TODAY])
    assert code == 0
    return json.loads(stream.getvalue())


@pytest.fixture(scope="session")
def target_env(tmp_path_factory) -> TargetEnvironment:
    """An isolated environment with inspect-evals 0.26.0 and its test plugins.

    Set EMPTY_MIGRATE_TARGET_ENV to a folder to keep it between sessions.
    """
    root = os.environ.get("EMPTY_MIGRATE_TARGET_ENV")
    path = Path(root) if root else tmp_path_factory.mktemp("target-env") / "venv"
    return TargetEnvironment.ensure(path, TARGET_REQUIREMENTS)


def ruff(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run our pinned ruff (the target's pin) with `args` in `cwd`, uncached."""
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
