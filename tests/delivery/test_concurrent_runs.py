"""Real campaign processes against each other, and one killed mid-way (slow).

A ``reference-transaction`` hook, which git runs as each ref is committed,
holds a run at its first branch (until the test says go) or SIGKILLs it
there, so each run is caught at the same point every time.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.delivery.campaigns import TODAY
from tests.delivery.test_branch_per_eval import BRANCHES, branches, untouched
from tests.delivery.test_git_safety import STATE, fsck_clean
from tests.demo import git

pytestmark = pytest.mark.slow

HOLD = """\
#!/bin/sh
# the first run to commit a branch's ref says so, then waits for the test
[ "$1" = committed ] || exit 0
grep -q " refs/heads/empty-policy/" || exit 0
mkdir {mark} 2>/dev/null || exit 0
while [ ! -e {go} ]; do sleep 0.05; done
"""

KILL = """\
#!/bin/sh
# SIGKILL for the run, the moment its first branch's ref is committed
[ "$1" = committed ] || exit 0
grep -q " refs/heads/empty-policy/" || exit 0
mkdir {mark} 2>/dev/null || exit 0
kill -KILL "$(cat {pidfile})"
"""


def command(repo: Path, registry: Path, *args: str) -> list[str]:
    return [
        sys.executable, "-m", "empty_migrate", "--branch-per-eval",
        "--repo", str(repo), "--registry", str(registry), *TODAY, *args,
    ]  # fmt: skip


def install_hook(repo: Path, text: str) -> None:
    hook = repo / ".git/hooks/reference-transaction"
    hook.write_text(text)
    hook.chmod(0o755)


def wait_for(path: Path, process: subprocess.Popen) -> None:
    """Until `path` exists (the process is where the test wants it)."""
    while not path.exists():
        assert process.poll() is None, "the run ended before it got there"
        time.sleep(0.05)


def test_a_second_run_exits_2_at_once_and_one_that_waits_completes(
    repo, registry, tmp_path
):
    mark, go, waiting = tmp_path / "holding", tmp_path / "go", tmp_path / "err"
    install_hook(repo, HOLD.format(mark=mark, go=go))
    index = (repo / ".git/index").read_bytes()
    first = subprocess.Popen(
        command(repo, registry, "--all"), stderr=subprocess.PIPE, text=True
    )
    wait_for(mark, first)  # the first run holds the lock, at its first branch

    second = subprocess.run(
        command(repo, registry, "--eval", "gamma"), capture_output=True, text=True
    )
    with waiting.open("w") as err:
        third = subprocess.Popen(
            command(repo, registry, "--eval", "gamma", "--wait"), stderr=err
        )
        while "waiting for the run" not in waiting.read_text():
            assert third.poll() is None, waiting.read_text()
            time.sleep(0.05)
        go.touch()
        _, first_err = first.communicate(timeout=120)
        third.wait(timeout=120)

    assert second.returncode == 2
    assert second.stderr == (
        f"empty-migrate: another empty-migrate run (pid {first.pid}) is writing "
        f"to {repo}: let it finish, or pass --wait to wait for it\n"
    )
    assert first.returncode == 0, first_err
    assert third.returncode == 0, waiting.read_text()
    assert "empty-policy/gamma: unchanged" in waiting.read_text()
    assert branches(repo) == BRANCHES
    assert (repo / ".git/index").read_bytes() == index
    untouched(repo)
    fsck_clean(repo)


def test_runs_that_wait_for_each_other_keep_each_others_records(repo, registry):
    runs = [
        subprocess.Popen(
            command(repo, registry, *evals, "--wait"),
            stderr=subprocess.PIPE,
            text=True,
        )
        for evals in (["--eval", "gamma"], ["--eval", "alpha", "--eval", "beta"])
    ]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err

    recorded = json.loads((repo / STATE).read_text())["branches"]
    assert {"empty-policy/gamma", "empty-policy/shared"} <= set(recorded)
    assert branches(repo) <= set(recorded)
    untouched(repo)


def test_a_run_killed_after_a_ref_leaves_git_sound_and_the_branch_its_own(
    repo, registry, tmp_path
):
    mark, pidfile = tmp_path / "killed", tmp_path / "pid"
    install_hook(repo, KILL.format(mark=mark, pidfile=pidfile))
    index = (repo / ".git/index").read_bytes()
    killed = subprocess.Popen(
        command(repo, registry, "--all"), stderr=subprocess.PIPE, text=True
    )
    pidfile.write_text(str(killed.pid))
    killed.communicate(timeout=120)

    assert killed.returncode == -9
    made = branches(repo)
    assert made == {"empty-policy/foundation"}
    assert (repo / ".git/index").read_bytes() == index
    untouched(repo)
    fsck_clean(repo)
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1

    again = subprocess.run(
        command(repo, registry, "--all"), capture_output=True, text=True
    )

    # the lock went with the killed run, and its branch is still the tool's
    assert again.returncode == 0, again.stderr
    assert "empty-policy/foundation: unchanged" in again.stderr
    assert branches(repo) == BRANCHES
    assert (repo / ".git/index").read_bytes() == index
    untouched(repo)
    fsck_clean(repo)


def test_the_lock_goes_with_a_killed_run_even_if_its_workers_live_on(repo):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(repo)],
        stdout=subprocess.PIPE,
        text=True,
    )
    child = int(holder.stdout.readline())  # a forked process, still running
    holder.kill()
    holder.wait()
    try:
        done = subprocess.run(
            [sys.executable, "-c", TAKER, str(repo)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    finally:
        os.kill(child, 9)


HOLDER = """\
import os, sys, time
from pathlib import Path
from empty_migrate.target.lock import repository_lock
with repository_lock(Path(sys.argv[1])):
    child = os.fork()
    if child == 0:
        time.sleep(120)
        os._exit(0)
    print(child, flush=True)
    time.sleep(120)
"""

TAKER = """\
import sys
from pathlib import Path
from empty_migrate.target.lock import repository_lock
with repository_lock(Path(sys.argv[1])):
    pass
"""
