"""The do-no-harm gate: the target repository's own tests, before and after.

A migration is judged by the repository it changes. This module runs that
repository's own test suite on two trees, the pristine one and the migrated
one, in one isolated environment, and compares them test by test: a test that
passed before and does not pass after is a regression, whatever the reason.

The environment has the target's released package installed (for its
dependencies and its ``inspect_ai`` entry point) together with the test
plugins its pytest configuration needs. Each tree is tested in a scratch copy
(its tests write logs into the working directory) with the copy's ``src``
first on the path. The copy leaves out ``src/inspect_evals.egg-info``, which
the source distribution ships: on the path, its metadata would shadow the
installed package's and rename every registered scorer. Tests run offline
(``HF_HUB_OFFLINE``): a test that needs a download fails in both trees alike,
and the comparison is per test.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

CaseOutcome = Literal["passed", "failed", "skipped"]

TEST_PLUGINS = (
    "pytest",
    "pytest-asyncio",
    "pytest-mock",
    "pytest-custom-exit-code",
    "pytest-dotenv",
    "pytest-xdist",
    "pytest-inspect-evals[huggingface]==0.1.0",
)
"""What the target's pytest configuration and conftest files import."""

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


class TargetTestError(Exception):
    """The target's tests could not be run at all; the message says why."""


@dataclass(frozen=True)
class TargetEnvironment:
    """A virtual environment holding the target's package and its test plugins."""

    root: Path

    @property
    def python(self) -> Path:
        """The environment's interpreter."""
        return self.root / "bin" / "python"

    @classmethod
    def ensure(
        cls,
        root: Path,
        requirements: Sequence[str],
        plugins: Sequence[str] = TEST_PLUGINS,
    ) -> "TargetEnvironment":
        """The environment at `root`, created and installed unless it already is.

        The requirements and `plugins` (by default, the target's test plugins;
        none for a tool's environment) are recorded in the environment once the
        install succeeds, so an interrupted or different install is redone.
        """
        environment = cls(root)
        wanted = "\n".join([*requirements, *plugins]) + "\n"
        stamp = root / "empty-migrate-requirements.txt"
        if stamp.is_file() and stamp.read_text() == wanted:
            return environment
        shutil.rmtree(root, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(root)], "create the environment")
        pip = [str(environment.python), "-m", "pip", "install", "--quiet"]
        _run([*pip, "--upgrade", "pip"], "upgrade pip")
        _run([*pip, *requirements, *plugins], "install the target and plugins")
        stamp.write_text(wanted)
        return environment


def _run(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        last = next(
            (ln for ln in reversed(result.stderr.splitlines()) if ln.strip()), ""
        )
        raise TargetTestError(f"could not {what}: {last.strip() or 'no output'}")


def folders_for(tree: Path, evals: Iterable[str], shared_changed: bool) -> list[str]:
    """The target's test folders for the changed evals (and ``tests/utils``)."""
    names = sorted(set(evals)) + (["utils"] if shared_changed else [])
    return [f"tests/{name}" for name in names if (tree / "tests" / name).is_dir()]


def run_tests(
    environment: TargetEnvironment,
    tree: Path,
    paths: Sequence[str],
    workers: int = 2,
    skips: dict[str, str] | None = None,
    keyword: str | None = None,
) -> dict[str, CaseOutcome]:
    """Run the target's tests in `paths` on a copy of `tree`; each test id's outcome.

    Args:
        environment: The environment to run them in.
        tree: The target tree.
        paths: Test folders or files, from the tree's root.
        workers: pytest-xdist workers (1: none).
        skips: If given, filled with each skipped test's reason.
        keyword: If given, only the tests it selects (pytest's ``-k``).
    """
    with tempfile.TemporaryDirectory(prefix="empty-migrate-tests-") as scratch:
        copy = Path(scratch) / "tree"
        shutil.copytree(tree, copy, symlinks=True, ignore=_NOT_COPIED)
        report = Path(scratch) / "junit.xml"
        command = [str(environment.python), "-m", "pytest", *paths]
        command += ["-o", "addopts=", "-p", "no:cacheprovider", "-q"]
        command += ["--continue-on-collection-errors", f"--junitxml={report}"]
        if workers > 1:
            command += ["-n", str(workers)]
        if keyword is not None:
            command += ["-k", keyword]
        environ = {**os.environ, **OFFLINE, "PYTHONPATH": str(copy / "src")}
        result = subprocess.run(
            command, cwd=copy, env=environ, capture_output=True, text=True
        )
        if not report.is_file():
            tail = (result.stdout + result.stderr).strip().splitlines()[-3:]
            raise TargetTestError(f"pytest wrote no report: {' / '.join(tail)}")
        if skips is not None:
            skips.update(read_skip_reasons(report))
        return read_junit(report)


_NOT_COPIED = shutil.ignore_patterns(".git", "inspect_evals.egg-info")


def read_junit(report: Path) -> dict[str, CaseOutcome]:
    """Test id -> outcome, from a pytest junit XML report."""
    outcomes: dict[str, CaseOutcome] = {}
    for case in ElementTree.parse(report).iter("testcase"):
        test_id = _test_id(case)
        if case.find("failure") is not None or case.find("error") is not None:
            outcomes[test_id] = "failed"
        elif case.find("skipped") is not None:
            outcomes.setdefault(test_id, "skipped")
        else:
            outcomes.setdefault(test_id, "passed")
    return outcomes


def read_skip_reasons(report: Path) -> dict[str, str]:
    """Test id -> why it was skipped, from a pytest junit XML report."""
    return {
        _test_id(case): skipped.get("message", "")
        for case in ElementTree.parse(report).iter("testcase")
        if (skipped := case.find("skipped")) is not None
    }


def _test_id(case: ElementTree.Element) -> str:
    return f"{case.get('classname', '')}::{case.get('name', '')}"


@dataclass(frozen=True)
class Comparison:
    """The same tests on two trees."""

    before: Mapping[str, CaseOutcome]
    after: Mapping[str, CaseOutcome]

    @property
    def regressions(self) -> dict[str, str]:
        """Tests that passed before and do not pass after, with what they did."""
        return {
            test: self.after.get(test, "missing")
            for test, outcome in sorted(self.before.items())
            if outcome == "passed" and self.after.get(test) != "passed"
        }

    @property
    def newly_passing(self) -> list[str]:
        """Tests that pass after and did not before (new tests included)."""
        return sorted(
            test
            for test, outcome in self.after.items()
            if outcome == "passed" and self.before.get(test) != "passed"
        )

    @property
    def failing_in_both(self) -> list[str]:
        """Tests that fail (or cannot run offline) on both trees alike."""
        return sorted(
            test
            for test, outcome in self.before.items()
            if outcome == "failed" and self.after.get(test) == "failed"
        )

    def summary(self) -> str:
        """One line: how many ran, passed on each side, and regressed."""
        passed = [
            sum(1 for o in side.values() if o == "passed")
            for side in (self.before, self.after)
        ]
        return (
            f"{len(self.before)} tests before, {len(self.after)} after; passed "
            f"{passed[0]} before, {passed[1]} after; "
            f"{len(self.regressions)} regressed, {len(self.newly_passing)} newly pass, "
            f"{len(self.failing_in_both)} fail in both (offline or missing extras)"
        )


def folders_of_tests(test_ids: Iterable[str]) -> list[str]:
    """The test folders (``tests/<eval>``) that hold these junit test ids."""
    # a collection error has no class name: its id is "::tests.<eval>.<module>"
    dotted = (test.replace("::", ".").lstrip(".") for test in test_ids)
    return sorted({"tests/" + test.split(".")[1] for test in dotted})
