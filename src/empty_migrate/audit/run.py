"""Running the audit's worker in the target's environment, offline.

The scorers must be imported from the audited tree with that tree's
dependencies, so the worker (``python -m empty_migrate.audit.worker``) runs with
the target environment's interpreter. Its path holds only two entries, both in
a scratch folder: ``inspect_evals``, linked to the tree's package, and
``empty_migrate``, linked to this package. Linking rather than putting
``<tree>/src`` on the path leaves out ``src/inspect_evals.egg-info``, which a
source distribution ships and whose metadata would shadow the installed
package's (and rename every registered scorer); linking this package alone
keeps the tool's own environment (another inspect_ai) off the path.
"""

import json
import os
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import empty_migrate
from empty_migrate.audit.matrix import Audit, build_audit, plan
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.registry.loader import Registry
from empty_migrate.target.cache import TARGET_ENV, cache_path, checked_version
from empty_migrate.target.corpus import DEFAULT_SPEC
from empty_migrate.target.own_tests import OFFLINE, TargetEnvironment, TargetTestError

FRAMEWORK = "inspect-ai==0.3.285"
"""The inspect-ai the fixture library mirrors, installed next to the target."""

Notify = Callable[[str], None]


class AuditError(EmptyMigrateError):
    """The audit could not run at all; the message says why."""


def run_audit(
    registry: Registry, tree: Path, evals: Sequence[str], python: Path, workers: int = 2
) -> Audit:
    """Audit `evals` of `tree` with the target environment's `python`."""
    planned = plan(registry, evals)
    jobs = list({item.job_key: item.job() for item in planned}.values())
    return build_audit(tree, planned, run_worker(python, tree, jobs, workers))


def choose_python(python: str | None, tree: Path, notify: Notify) -> Path:
    """``--python``, else ``$EMPTY_MIGRATE_TARGET_ENV``, else a cached environment.

    The cached environment holds the tree's released inspect-evals version; it
    is created on first use (about a minute), and `notify` hears that once.
    """
    if python:
        chosen = Path(python)
        if not chosen.is_file():
            raise AuditError(f"--python {python}: no such interpreter")
        return chosen
    if os.environ.get("EMPTY_MIGRATE_TARGET_ENV"):
        chosen = TargetEnvironment(Path(os.environ["EMPTY_MIGRATE_TARGET_ENV"])).python
        if not chosen.is_file():
            raise AuditError(
                f"$EMPTY_MIGRATE_TARGET_ENV has no interpreter at {chosen}"
            )
        return chosen
    version = tree_version(tree)
    root = cache_path(f"{TARGET_ENV}{version}")
    if not TargetEnvironment(root).python.is_file():
        notify(f"creating the environment for inspect-evals {version} in {root} (once)")
    requirements = [f"inspect-evals=={version}", FRAMEWORK]
    try:
        return TargetEnvironment.ensure(root, requirements).python
    except TargetTestError as error:
        raise AuditError(f"{error}; or pass --python PATH") from None


def tree_version(tree: Path) -> str:
    """The inspect-evals version of a tree: its PKG-INFO's, else the pinned one.

    Raises:
        AuditError: If PKG-INFO names something that is not a version (it
            would name the cached environment and what pip installs there).
    """
    info = tree / "PKG-INFO"
    if info.is_file():
        for line in info.read_text("utf-8", errors="replace").splitlines():
            if line.startswith("Version:"):
                text = line.split(":", 1)[1].strip()
                version = checked_version(text)
                if version is None:
                    raise AuditError(
                        f"{info} gives the version {text!r}, which is not one: "
                        "pass --python PATH to an environment with it installed"
                    )
                return version
    return DEFAULT_SPEC.split("==")[1]


def run_worker(
    python: Path, tree: Path, jobs: Sequence[dict[str, Any]], workers: int = 2
) -> dict[str, dict[str, Any]]:
    """Every job's result line (job key -> line), from `workers` parallel workers.

    A worker that dies part-way is restarted on the jobs it had not finished;
    the job it died on is reported as not run, with its last words.
    """
    with tempfile.TemporaryDirectory(prefix="empty-migrate-audit-") as scratch:
        path = _linked_path(Path(scratch), tree)
        shares = [list(jobs[i::workers]) for i in range(workers)]
        results: dict[str, dict[str, Any]] = {}
        while any(shares):
            running = [
                _start(python, path, share, Path(scratch) / f"w{i}")
                for i, share in enumerate(shares)
                if share
            ]
            shares = [_finish(run, results, python) for run in running]
        return results


def _linked_path(scratch: Path, tree: Path) -> Path:
    path = scratch / "path"
    path.mkdir()
    (path / "inspect_evals").symlink_to(tree.resolve() / "src" / "inspect_evals")
    (path / "empty_migrate").symlink_to(Path(empty_migrate.__file__).parent)
    return path


def _start(
    python: Path, path: Path, jobs: list[dict[str, Any]], stem: Path
) -> tuple[subprocess.Popen[bytes], list[dict[str, Any]], Path]:
    stem.mkdir(exist_ok=True)
    job_file, out = stem / "jobs.json", stem / "out.jsonl"
    job_file.write_text(json.dumps(jobs), encoding="utf-8")
    out.write_text("", encoding="utf-8")
    environ = {
        **os.environ,
        **OFFLINE,
        "PYTHONPATH": str(path),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    command = [str(python), "-m", "empty_migrate.audit.worker", str(job_file), str(out)]
    # the worker holds its own copy of the descriptor: ours can close at once
    with (stem / "stderr").open("wb") as stderr:
        try:
            process = subprocess.Popen(
                command, cwd=stem, env=environ, stdout=subprocess.DEVNULL, stderr=stderr
            )
        except OSError as error:  # not a program (not executable, not a binary)
            raise AuditError(
                f"the audit worker cannot start with {python}: {error.strerror}; "
                "pass the target environment's Python interpreter"
            ) from None
    return process, jobs, out


def _finish(
    run: tuple[subprocess.Popen[bytes], list[dict[str, Any]], Path],
    results: dict[str, dict[str, Any]],
    python: Path,
) -> list[dict[str, Any]]:
    """Collect one worker's lines; the jobs left to rerun if it died part-way."""
    process, jobs, out = run
    code = process.wait()
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.strip():
            result = json.loads(line)
            results[result["key"]] = result
    left = [job for job in jobs if job["key"] not in results]
    if not left:
        return []
    last = _last_words(out.parent / "stderr")
    if code == 0:
        results.update({job["key"]: {"not_run": f"no result: {last}"} for job in left})
        return []
    if len(left) == len(jobs) and "No module named" in last:
        # the worker's own imports failed: the environment is wrong, not a scorer
        raise AuditError(f"the audit worker cannot start with {python}: {last}")
    results[left[0]["key"]] = {"not_run": f"the worker died (exit {code}): {last}"}
    return left[1:]


def _last_words(stderr: Path) -> str:
    lines = [ln.strip() for ln in stderr.read_text(errors="replace").splitlines()]
    return next((ln for ln in reversed(lines) if ln), "no output")[:200]
