"""The repository lock: one writing run at a time, released however a run ends.

"Another run" is `held_by`, a real ``flock`` on the real lock file;
tests/delivery/test_concurrent_runs.py runs real processes against each other.
"""

import fcntl
import os
from pathlib import Path

import pytest

from empty_migrate.target.lock import (
    LockBusy,
    LockError,
    git_common_dir,
    lock_path,
    repository_lock,
)
from tests.demo import git
from tests.target.locks import held_by


@pytest.fixture
def checkout(tmp_path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


def is_free(path: Path) -> bool:
    descriptor = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)
    return True


def test_the_lock_of_a_checkout_lives_in_its_git_folder(checkout):
    assert lock_path(checkout) == checkout.resolve() / ".git/empty-migrate/lock"
    with repository_lock(checkout) as path:
        assert path == lock_path(checkout)
        assert path.read_text() == f"{os.getpid()}\n"
        assert not is_free(path)
    assert is_free(path)
    assert git(checkout, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_second_run_is_refused_with_the_holders_pid_and_wait(checkout):
    with held_by(lock_path(checkout)), pytest.raises(LockBusy) as refused:
        with repository_lock(checkout):
            pytest.fail("the lock was held by another")
    message = str(refused.value)
    assert "(pid 4242)" in message and str(checkout) in message
    assert "--wait" in message and "\n" not in message


def test_wait_waits_for_the_holder_to_let_go(checkout):
    heard = []
    with held_by(lock_path(checkout)) as other:

        def on_wait(line: str) -> None:
            heard.append(line)
            fcntl.flock(other, fcntl.LOCK_UN)  # the other run ends

        with repository_lock(checkout, wait=True, on_wait=on_wait) as path:
            assert path.read_text() == f"{os.getpid()}\n"
    assert heard == [f"waiting for the run (pid 4242) writing to {checkout}"]


def test_nested_use_in_one_process_holds_it_once(checkout):
    with repository_lock(checkout) as outer:
        with repository_lock(checkout) as inner:
            assert inner == outer
        assert not is_free(outer)  # still held by the outer block
    assert is_free(outer)


def test_a_worktree_shares_its_repositorys_lock(checkout, tmp_path):
    (checkout / "f").write_text("x\n")
    git(checkout, "add", "f")
    git(checkout, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-qm", "f")
    git(checkout, "worktree", "add", "-q", str(tmp_path / "other"), "-b", "other")

    assert git_common_dir(tmp_path / "other") == (checkout / ".git").resolve()
    assert lock_path(tmp_path / "other") == lock_path(checkout)


def test_a_folder_outside_git_is_locked_in_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    tree = tmp_path / "tree"
    tree.mkdir()
    (tmp_path / "link").symlink_to(tree)

    assert lock_path(tree).parent == tmp_path / "cache/locks"
    assert lock_path(tmp_path / "link") == lock_path(tree)  # the resolved path
    with repository_lock(tree) as path:
        assert not is_free(path)
    assert list(tree.iterdir()) == []  # nothing written into the tree


def test_a_forked_process_does_not_keep_the_lock(checkout):
    ready, said_ready = os.pipe()
    go, say_go = os.pipe()
    with repository_lock(checkout) as path:
        child = os.fork()
        if child == 0:  # the child lives on, its copy of the lock closed at the fork
            os.write(said_ready, b".")
            os.read(go, 1)
            os._exit(0)
        os.read(ready, 1)
    try:
        assert is_free(path)  # the parent let go; the living child holds nothing
    finally:
        os.write(say_go, b".")
        os.waitpid(child, 0)
        for descriptor in (ready, said_ready, go, say_go):
            os.close(descriptor)


def test_a_lock_file_that_cannot_be_made_is_one_line(checkout):
    (checkout / ".git/empty-migrate").write_text("not a folder\n")
    with pytest.raises(LockError) as refused:
        with repository_lock(checkout):
            pytest.fail("locked without a lock file")
    assert "cannot make the lock file" in str(refused.value)
    assert "\n" not in str(refused.value)
