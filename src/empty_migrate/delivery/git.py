"""The git a campaign needs, through GitPython, without touching the work tree.

Branches are built the way ``git stash`` builds its commits: each one's tree
is the base commit's tree with the branch's files replaced, assembled in an
index held in memory, and its ref is set with a compare-and-swap. Nothing is
checked out, so the user's branch, index and files stay exactly as they were,
whatever stops the run.
"""

import os
import re
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: GitPython is slow to import
    from git import IndexFile
    from git.index.typ import IndexEntry
    from git.objects import Tree
    from git.types import PathLike

ZERO = "0" * 40
_CONVENTIONAL = re.compile(r"^[a-z]+(\([^)]*\))?!?: ")


class GitError(Exception):
    """A git operation the campaign needs cannot be done; the message says why."""


class GitRepo:
    """A git work tree: its state, and new commits and branches beside it."""

    def __init__(self, path: Path) -> None:
        # imported here: only a campaign needs GitPython (slow to import)
        from git import InvalidGitRepositoryError, NoSuchPathError, Repo

        try:
            self.repo = Repo(path)
        except (InvalidGitRepositoryError, NoSuchPathError):
            raise GitError(
                f"{path} is not a git repository: --branch-per-eval makes branches "
                "in a git checkout (git init; git add -A; git commit)"
            ) from None
        if self.repo.bare:
            raise GitError(f"{path} is a bare repository: pass a checkout")
        self.root = Path(self.repo.working_tree_dir or path)
        self._base_indexes: dict[
            str, tuple[IndexFile, dict[tuple[PathLike, int], IndexEntry]]
        ] = {}
        """Base commit -> its index, built once, and the index's entries."""

    @property
    def git_dir(self) -> Path:
        """The repository's common git folder (shared by its worktrees)."""
        return Path(self.repo.common_dir)

    def current(self) -> str:
        """The checked-out branch's name, or the commit when HEAD is detached."""
        if self.repo.head.is_detached:
            return self.repo.head.commit.hexsha
        return self.repo.active_branch.name

    def resolve(self, revision: str) -> str:
        """The commit a branch, tag or commit names."""
        from git import BadName

        try:
            return self.repo.commit(revision).hexsha
        except (BadName, ValueError):
            raise GitError(f"--base {revision}: no such branch or commit") from None

    def dirty_files(self, ignore: Sequence[Path] = ()) -> list[str]:
        """Modified, staged and untracked files (ignored ones aside), by path."""
        index = self.repo.index
        changes = [*index.diff(None), *index.diff("HEAD")]
        paths = {p for d in changes for p in (d.a_path, d.b_path) if p}
        paths.update(self.repo.untracked_files)
        skipped = [folder.resolve() for folder in ignore]
        return sorted(
            p
            for p in paths
            if not any((self.root / p).resolve().is_relative_to(s) for s in skipped)
        )

    def tip(self, branch: str) -> str | None:
        """The commit a local branch points at, or None if there is no such branch."""
        from git import Head

        head = Head(self.repo, f"refs/heads/{branch}")
        return head.commit.hexsha if head.is_valid() else None

    def subjects(self, revision: str, count: int = 50) -> list[str]:
        """The subjects of the last `count` commits up to `revision`."""
        # git commands are looked up by name: untyped
        text: str = self.repo.git.log(f"-{count}", "--format=%s", revision)
        return text.splitlines()

    def identity_problem(self) -> str | None:
        """Why git could not commit as the user, or None when it can."""
        reader = self.repo.config_reader()
        for key, variable in (
            ("name", "GIT_AUTHOR_NAME"),
            ("email", "GIT_AUTHOR_EMAIL"),
        ):
            if not (os.environ.get(variable) or reader.get_value("user", key, "")):
                return (
                    "git does not know who makes the commits: set "
                    '`git config user.name "..."` and `git config user.email ...`'
                )
        return None

    @contextmanager
    def exported(self, commit: str) -> Iterator[Path]:
        """The files of `commit` in a temporary folder, removed afterwards.

        A temporary index outside the repository is used, so the repository's
        own index, work tree and worktree list are not touched.
        """
        with tempfile.TemporaryDirectory(prefix="empty-migrate-base-") as scratch:
            tree = Path(scratch) / "tree"
            tree.mkdir()
            env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
            self.repo.git.read_tree(commit, env=env)
            self.repo.git.execute(
                ["git", f"--work-tree={tree}", "checkout-index", "--all"], env=env
            )
            yield tree

    def tree_with(self, base: str, files: dict[str, str]) -> str:
        """The tree of `base` with `files` (path -> text) written in; returns its id."""
        from git import IndexFile
        from git.index.typ import BaseIndexEntry
        from gitdb.base import IStream

        if base not in self._base_indexes:
            index = IndexFile.from_tree(self.repo, base)
            self._base_indexes[base] = (index, dict(index.entries))
        index, base_entries = self._base_indexes[base]
        index.entries = dict(base_entries)  # without an earlier branch's files
        added = []
        for path, text in sorted(files.items()):
            data = text.encode("utf-8")
            stored = self.repo.odb.store(IStream("blob", len(data), BytesIO(data)))
            existing = index.entries.get((path, 0))
            mode = existing.mode if existing else 0o100644
            added.append(BaseIndexEntry((mode, stored.binsha, 0, path)))
        index.add(added, write=False)
        return index.write_tree().hexsha

    def tree_of(self, commit: str) -> str:
        """The tree a commit holds."""
        tree: Tree = self.repo.commit(commit).tree  # read lazily: untyped
        return tree.hexsha

    def parents(self, commit: str) -> list[str]:
        """The commits a commit was made on."""
        return [parent.hexsha for parent in self.repo.commit(commit).parents]

    def commit(self, tree: str, parent: str, message: str) -> str:
        """A new commit of `tree` on `parent` (not on any branch yet)."""
        from git import Commit

        made = Commit.create_from_tree(
            self.repo, tree, message, parent_commits=[self.repo.commit(parent)]
        )
        return made.hexsha

    def set_branch(self, branch: str, commit: str, expected: str | None) -> None:
        """Point `branch` at `commit` if it is still at `expected` (None: absent).

        Raises:
            GitError: If the branch moved or appeared meanwhile; it is left as is.
        """
        from git import GitCommandError

        ref = f"refs/heads/{branch}"
        try:
            self.repo.git.update_ref(
                "-m", "empty-migrate campaign", ref, commit, expected or ZERO
            )
        except GitCommandError:
            raise GitError(
                f"{branch} changed while the campaign ran; left as is"
            ) from None

    def close(self) -> None:
        """Release GitPython's helper processes."""
        self.repo.close()


def uses_conventional_commits(subjects: Sequence[str]) -> bool:
    """Whether most of a history's subjects read ``type(scope): ...``."""
    matching = sum(1 for subject in subjects if _CONVENTIONAL.match(subject))
    return bool(subjects) and matching * 2 > len(subjects)
