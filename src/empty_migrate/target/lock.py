"""One writing run at a time in a repository: a lock held for the whole run.

Every run that writes (a migration in place, ``--branch-per-eval``) holds the
repository's lock from before it reads the tree until it is done, so two runs
never compute from the same tree and write over each other, nor save the
campaign's records over each other. Dry runs, checks and audits take none.

The lock is ``fcntl.flock`` on a file under the repository's git common folder
(``.git/empty-migrate/lock``, shared by its worktrees), or, for a tree that is
not a git repository, in the user cache, keyed by the tree's resolved path.
The operating system releases it when the process ends, however it ends, so a
killed run never leaves a stale lock behind. The file holds the holder's pid,
which a run that finds the lock taken names.

The lock is held once per process: a nested `repository_lock` on the same
repository (a caller that locks around a step that locks again) is a no-op.
Processes forked while it is held close their copy, so a worker outliving a
killed run does not keep the lock.

``fcntl`` is imported where the lock is taken, not when this module loads: the
command line imports this module, and a platform without ``fcntl`` (Windows)
must still start it, run dry runs, checks and audits (which take no lock), and
get a one-line `LockError` from a run that writes.
"""

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from empty_migrate.errors import EmptyMigrateError
from empty_migrate.target.cache import LOCKS, cache_path

LOCK_FILE = "empty-migrate/lock"
"""The lock file, under the repository's git common folder."""

_held: dict[Path, int] = {}
"""Lock file -> its descriptor, for each lock this process holds."""


class LockError(EmptyMigrateError):
    """The repository's lock cannot be had; the message says why, in one line."""


class LockBusy(LockError):
    """Another run holds the repository's lock; the message names it."""


@contextlib.contextmanager
def repository_lock(
    repo: Path, wait: bool = False, on_wait: Callable[[str], None] | None = None
) -> Iterator[Path]:
    """Hold the lock of the repository at `repo` while the block runs.

    Args:
        repo: The target tree (a checkout's root, or any folder).
        wait: Wait for another run to finish instead of raising.
        on_wait: Hears one line when the run is about to wait.

    Yields:
        The lock file.

    Raises:
        LockBusy: If another process holds the lock and `wait` is false.
        LockError: If the lock file cannot be made.
    """
    path = lock_path(repo)
    if path in _held:  # held by an outer block of this process, which lets go
        yield path
        return
    descriptor = _acquire(path, repo, wait, on_wait)
    _held[path] = descriptor
    try:
        yield path
    finally:
        del _held[path]
        os.close(descriptor)  # the last descriptor of the lock: released


def lock_path(repo: Path) -> Path:
    """Where the lock of the repository at `repo` lives.

    Raises:
        LockError: If ``.git`` names no git folder (`git_common_dir`).
    """
    common = git_common_dir(repo)
    if common is not None:
        return common / LOCK_FILE
    key = hashlib.sha256(str(repo.resolve()).encode("utf-8", "surrogateescape"))
    return cache_path(LOCKS, f"{key.hexdigest()[:32]}.lock")


def git_common_dir(repo: Path) -> Path | None:
    """The git folder a checkout's worktrees share, or None for a plain folder.

    Read from ``.git`` as git lays it out (a folder, or a file naming the
    worktree's folder, whose ``commondir`` names the shared one), without
    running git. A worktree's folder lies outside its checkout, so the
    pointer is followed, but only to a git folder as git knows one (its
    ``HEAD``, and the shared ``objects`` and ``refs``), so the lock's folder
    is made in no other folder, and no folder is created on the way to it.

    Raises:
        LockError: If ``.git`` names a folder that is not a git folder (one
            that does not exist, say): git refuses such a checkout too.
    """
    dot_git = repo / ".git"
    if dot_git.is_dir():
        git_dir = dot_git
    elif dot_git.is_file():
        text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
        if not text.startswith("gitdir:"):
            return None
        git_dir = repo / text.removeprefix("gitdir:").strip()
    else:
        return None
    common = git_dir
    if (git_dir / "commondir").is_file():
        pointer = (git_dir / "commondir").read_text("utf-8", errors="replace")
        common = git_dir / pointer.strip()
    if not _is_git_folder(git_dir, common):
        raise LockError(
            f"{dot_git} names {git_dir}, which is not a git folder: repair the "
            "checkout (git worktree repair, or clone it again), then run again"
        )
    return common.resolve()


def _is_git_folder(git_dir: Path, common: Path) -> bool:
    """Whether `git_dir` (sharing `common`) holds what git needs of a git folder."""
    return (
        (git_dir / "HEAD").is_file()
        and (common / "objects").is_dir()
        and (common / "refs").is_dir()
    )


def _posix_locks(doing: str, instead: str = "") -> Any:
    """The ``fcntl`` module, or a one-line error where the platform has none."""
    try:
        import fcntl  # POSIX only: see the module's docstring
    except ImportError:
        raise LockError(
            f"{doing} needs POSIX file locks (fcntl), which this platform lacks: "
            f"run it on Linux, macOS or WSL{instead}"
        ) from None
    return fcntl


def _acquire(
    path: Path, repo: Path, wait: bool, on_wait: Callable[[str], None] | None
) -> int:
    fcntl = _posix_locks(f"writing to {repo}", " (a --dry-run works here)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise LockError(
            f"cannot make the lock file {path} for {repo}: {error.strerror}"
        ) from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(descriptor)
            if not wait:
                raise LockBusy(
                    f"another empty-migrate run ({holder}) is writing to {repo}: "
                    "let it finish, or pass --wait to wait for it"
                ) from None
            if on_wait:
                on_wait(f"waiting for the run ({holder}) writing to {repo}")
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _holder(descriptor: int) -> str:
    """The holder as the lock file names it: ``pid N``."""
    text = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
    return f"pid {text}" if text.isdigit() else "pid unknown"


def _close_in_child() -> None:
    # a forked process shares the lock's open file: closing its copy (never
    # unlocking it) leaves the lock to the parent, released when the parent dies
    for descriptor in _held.values():
        with contextlib.suppress(OSError):
            os.close(descriptor)
    _held.clear()


if hasattr(os, "register_at_fork"):  # POSIX only; without fork, no child to close
    os.register_at_fork(after_in_child=_close_in_child)


@contextlib.contextmanager
def all_free(paths: list[Path]) -> Iterator[None]:
    """Hold every lock of `paths` while the block runs (to remove them, say).

    Raises:
        LockBusy: If a run holds one of them; nothing is held then.
    """
    fcntl = _posix_locks("clearing the cache")
    with contextlib.ExitStack() as stack:
        for path in paths:
            descriptor = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
            stack.callback(os.close, descriptor)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise LockBusy(
                    f"a run ({_holder(descriptor)}) holds the lock {path}"
                ) from None
        yield
