"""The command line starts where ``fcntl`` cannot be imported (Windows, say).

Each test runs ``python -m empty_migrate`` in a process whose import system
refuses ``fcntl``, as on a platform that has none: the command starts, a dry
run answers, and only a run that writes (and so takes the repository's lock)
stops, with one line that says where it can run.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.delivery.campaigns import TODAY
from tests.demo import choice_entry, choice_task

REFUSE_FCNTL = """\
import runpy, sys

class _NoFcntl:
    def find_spec(self, name, path=None, target=None):
        if name == "fcntl":
            raise ModuleNotFoundError("No module named 'fcntl'", name="fcntl")
        return None

sys.modules.pop("fcntl", None)
sys.meta_path.insert(0, _NoFcntl())
sys.argv[0] = "empty-migrate"
runpy.run_module("empty_migrate", run_name="__main__", alter_sys=True)
"""
"""``python -m empty_migrate ARGS`` on a Python with no ``fcntl`` module."""

EVERY_MODULE = """\
import importlib, pkgutil, empty_migrate
for module in pkgutil.walk_packages(empty_migrate.__path__, "empty_migrate."):
    importlib.import_module(module.name)
"""

GAMMA = "src/inspect_evals/gamma/gamma.py"


def without_fcntl(
    *args: str, then: str = "runpy.run_module"
) -> subprocess.CompletedProcess[str]:
    """Run `args` on the command line, or the code `then`, with no ``fcntl``."""
    code = REFUSE_FCNTL
    if then != "runpy.run_module":
        code = REFUSE_FCNTL.split("sys.argv")[0] + then
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_the_harness_refuses_fcntl():
    result = without_fcntl(then="import fcntl")
    assert result.returncode == 1
    assert "No module named 'fcntl'" in result.stderr


def test_help_starts_without_fcntl():
    result = without_fcntl("--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: empty-migrate")


def test_the_lock_module_loads_without_fcntl():
    # the migrating and campaign commands import it when they start
    result = without_fcntl(then="import empty_migrate.target.lock")
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # imports everything: about 5 s of CPU
def test_every_module_loads_without_fcntl():
    result = without_fcntl(then=EVERY_MODULE)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # the migrating command's imports: about 1 s
def test_a_dry_run_starts_without_fcntl(tmp_path: Path):
    result = without_fcntl("--repo", str(tmp_path), "--all", "--dry-run")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("empty-migrate: ")
    assert "not an inspect_evals tree" in result.stderr


@pytest.mark.slow  # a whole migrating run in a process of its own (about 2 s)
def test_a_write_without_fcntl_stops_with_one_line(demo):
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    demo.commit()
    before = (demo.repo / GAMMA).read_text()
    result = without_fcntl(
        "--eval",
        "gamma",
        "--repo",
        str(demo.repo),
        "--registry",
        str(demo.registry),
        *TODAY,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "needs POSIX file locks (fcntl), which this platform lacks" in result.stderr
    assert (demo.repo / GAMMA).read_text() == before
    # the same run where fcntl is there migrates: the refusal above was the lock's
    done = subprocess.run(
        [sys.executable, "-m", "empty_migrate", "--eval", "gamma"]
        + ["--repo", str(demo.repo), "--registry", str(demo.registry), *TODAY],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "route_empty_responses" in (demo.repo / GAMMA).read_text()
