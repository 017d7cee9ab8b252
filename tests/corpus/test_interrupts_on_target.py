"""Ctrl-C at many points of a real ``--all`` run leaves no eval half-written."""

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.corpus.conftest import TODAY

pytestmark = pytest.mark.corpus

ROUTER = "src/inspect_evals/utils/empty_response.py"
COMMAND = [sys.executable, "-m", "empty_migrate", "--all", "--today", TODAY]


def git(tree: Path, *args: str) -> str:
    run = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout


@pytest.fixture(scope="module")
def scratch(inspect_evals_tree, tmp_path_factory) -> Path:
    """A copy of the pristine tree under git, reset before each attempt."""
    tree = tmp_path_factory.mktemp("interrupts") / "inspect_evals"
    ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
    shutil.copytree(inspect_evals_tree, tree, ignore=ignored)
    git(tree, "init", "-q")
    git(tree, "add", "-A")
    git(tree, "commit", "-qm", "pristine")
    return tree


def interrupted_run(tree: Path, when) -> int:
    """Run ``--all`` on `tree`; send SIGINT once `when(elapsed)` says so."""
    git(tree, "checkout", "-q", "--", ".")
    git(tree, "clean", "-fdq")
    started = time.monotonic()
    process = subprocess.Popen(
        [*COMMAND, "--repo", str(tree)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    while process.poll() is None:
        if when(tree, time.monotonic() - started):
            process.send_signal(signal.SIGINT)
            break
        time.sleep(0.001)
    _, err = process.communicate(timeout=120)
    assert "Traceback" not in err, err
    return process.returncode


def after_seconds(delay: float):
    return lambda tree, elapsed: elapsed >= delay


def once_writing(extra: float):
    """When the first file is in place (the writes have begun), plus `extra` s."""
    seen: list[float] = []

    def when(tree: Path, elapsed: float) -> bool:
        if not seen and (tree / ROUTER).exists():
            seen.append(elapsed)
        return bool(seen) and elapsed >= seen[0] + extra

    return when


POINTS = {
    **{f"{d}s": after_seconds(d) for d in (0.3, 1.0, 2.0)},
    **{f"writing+{int(e * 1000)}ms": once_writing(e) for e in (0, 0.005, 0.02, 0.06)},
}


@pytest.mark.parametrize("point", POINTS)
def test_every_eval_is_whole_after_ctrl_c(scratch, migrated_tree, point):
    migrated, report = migrated_tree
    code = interrupted_run(scratch, POINTS[point])
    # -SIGINT: the signal came before Python had installed its own handler,
    # during interpreter start-up, when the OS's default action ends the process
    assert code in (0, 130, -signal.SIGINT)
    changed = set(git(scratch, "status", "--porcelain", "-uall").split("\n"))
    changed = {line[3:] for line in changed if line}
    whole, untouched = [], []
    for entry in report["evals"]:
        own = [
            f["path"]
            for f in entry["files"]
            if f["status"] == "rewritten" and f["codemods"] != ["install_router"]
        ]
        written = [path for path in own if path in changed]
        assert written in ([], own), f"{entry['eval']} is half-written: {written}"
        for path in written:
            assert (scratch / path).read_bytes() == (migrated / path).read_bytes()
        (whole if written else untouched).append(entry["eval"])
    if whole:
        assert (scratch / ROUTER).read_bytes() == (migrated / ROUTER).read_bytes()
    if code == 0:
        rewritten = {e["eval"] for e in report["evals"] if e["status"] == "rewritten"}
        assert rewritten <= set(whole)
    # running the same command again completes the migration
    rerun = subprocess.run(
        [*COMMAND, "--repo", str(scratch)], capture_output=True, text=True
    )
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    for path in _all_rewritten(report):
        assert (scratch / path).read_bytes() == (migrated / path).read_bytes(), path


def _all_rewritten(report: dict) -> set[str]:
    return {
        f["path"]
        for entry in report["evals"]
        for f in entry["files"]
        if f["status"] == "rewritten"
    }
