"""The target's own type check accepts the migrated inspect_evals 0.26.0.

inspect_evals' CI runs mypy at its pin (its ``dev`` dependency group), with its
``pyproject.toml`` configuration and the ``pydantic.mypy`` plugin, from the
repository's root, on Python 3.11 to 3.13. Here the same mypy runs, from a
venv of its own holding the pydantic of the target's environment (mypy loads
its plugins from its own environment) and the stub packages of the target's
``dev`` group, which sees the target environment's packages through a ``.pth``
file, on the Python files the migration changes: in the
migrated tree, and those of them the pristine tree has. Errors are compared
per file and message, line numbers left out, and the migration may add none.
The target's ruff on the same files is checked in test_migration_on_target.py.

Set EMPTY_MIGRATE_MYPY_ENV to a folder to keep mypy's venv between sessions.
"""

import os
import re
import subprocess
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from empty_migrate.target.own_tests import TargetEnvironment
from tests.test_private_api import gained_private_paths

pytestmark = pytest.mark.corpus

TARGET_MYPY = "mypy==2.1.0"
"""The target's pin, in its ``dev`` dependency group."""
VERSIONS = ["3.11", "3.12"]
ERROR = re.compile(r"^(?P<file>[^:\s]+):\d+: error: (?P<message>.*)$")


@pytest.fixture(scope="module")
def mypy_env(target_env, inspect_evals_tree, tmp_path_factory) -> TargetEnvironment:
    """mypy, the target's stub packages, and the target environment on its path.

    The target's CI installs its ``dev`` group, stubs included, beside its
    dependencies; mypy finds stub packages only on the path of the interpreter
    it checks for, so this venv holds the stubs and sees the target
    environment's packages through a ``.pth`` file.
    """
    root = os.environ.get("EMPTY_MIGRATE_MYPY_ENV")
    path = Path(root) if root else tmp_path_factory.mktemp("mypy-env") / "venv"
    pydantic = installed_version(target_env, "pydantic")
    stubs = stub_packages(inspect_evals_tree)
    requirements = [TARGET_MYPY, f"pydantic=={pydantic}", *stubs]
    environment = TargetEnvironment.ensure(path, requirements, plugins=())
    [own] = site_packages(environment)
    (own / "target-environment.pth").write_text(
        "".join(f"{folder}\n" for folder in site_packages(target_env))
    )
    return environment


def stub_packages(tree: Path) -> list[str]:
    """The stub packages (``types-*``) of the target's ``dev`` dependency group."""
    with (tree / "pyproject.toml").open("rb") as config:
        dev = tomllib.load(config)["dependency-groups"]["dev"]
    return [r for r in dev if isinstance(r, str) and r.startswith("types-")]


def site_packages(environment: TargetEnvironment) -> list[Path]:
    script = "import site; print('\\n'.join(site.getsitepackages()))"
    run = subprocess.run(
        [str(environment.python), "-c", script],
        capture_output=True,
        text=True,
        check=True,
    )
    return [Path(line) for line in run.stdout.splitlines() if Path(line).is_dir()]


def installed_version(environment: TargetEnvironment, distribution: str) -> str:
    script = f"import importlib.metadata as m; print(m.version({distribution!r}))"
    run = subprocess.run(
        [str(environment.python), "-c", script],
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.strip()


def changed_python_files(report: dict) -> list[str]:
    """The Python files the migration changes, from the target's root."""
    return sorted(
        {
            f["path"]
            for e in report["evals"]
            for f in e["files"]
            if f["status"] == "rewritten" and f["path"].endswith(".py")
        }
    )


def mypy_errors(
    mypy: TargetEnvironment,
    tree: Path,
    files: list[str],
    version: str,
    cache: Path,
) -> Counter[tuple[str, str]]:
    """mypy's errors on `files` of `tree`, as (file, message), counted."""
    command = [str(mypy.python), "-m", "mypy"]
    command += ["--python-executable", str(mypy.python)]
    command += ["--python-version", version, "--cache-dir", str(cache)]
    run = subprocess.run([*command, *files], cwd=tree, capture_output=True, text=True)
    # 1: errors found; 2: mypy could not check the files at all
    assert run.returncode in (0, 1), run.stdout + run.stderr
    matches = (ERROR.match(line) for line in run.stdout.splitlines())
    return Counter((m["file"], m["message"]) for m in matches if m)


def test_the_targets_mypy_is_the_pinned_one(inspect_evals_tree):
    with (inspect_evals_tree / "pyproject.toml").open("rb") as config:
        groups = tomllib.load(config)["dependency-groups"]
    assert TARGET_MYPY in groups["dev"]


def test_the_error_pattern_reads_a_mypy_error_line():
    line = 'a/b.py:420: error: Item "None" of "str | None" has no attribute "strip"'
    match = ERROR.match(line)
    assert match is not None
    assert (match["file"], match["message"]) == (
        "a/b.py",
        'Item "None" of "str | None" has no attribute "strip"',
    )
    assert ERROR.match("a/b.py:3: note: See https://mypy.readthedocs.io") is None


@pytest.mark.parametrize("version", VERSIONS)
def test_the_migration_adds_no_mypy_error(
    version, mypy_env, inspect_evals_tree, migrated_tree, tmp_path
):
    migrated, report = migrated_tree
    files = changed_python_files(report)
    assert "src/inspect_evals/utils/empty_response.py" in files
    assert "tests/utils/empty_response.py" in files
    existing = [f for f in files if (inspect_evals_tree / f).is_file()]

    # one cache for both trees: the second run rechecks only the modules
    # whose text differs (most of the time goes on inspect_ai and pydantic)
    cache = tmp_path / "mypy-cache"
    before = mypy_errors(mypy_env, inspect_evals_tree, existing, version, cache)
    after = mypy_errors(mypy_env, migrated, files, version, cache)
    new = after - before
    assert sorted(new.elements()) == []


def test_the_migration_adds_no_private_inspect_ai_import(
    inspect_evals_tree, migrated_tree
):
    migrated, report = migrated_tree
    gained = {}
    for path in changed_python_files(report):
        pristine = inspect_evals_tree / path
        before = pristine.read_text() if pristine.is_file() else ""
        found = gained_private_paths(before, (migrated / path).read_text(), path)
        if found:
            gained[path] = sorted(found)
    assert gained == {}
