"""The git a campaign needs, without touching the work tree or the user's index.

Branches are built the way ``git stash`` builds its commits, in an index of
their own: each one's tree is the base commit's tree with the branch's files
replaced, assembled by git's plumbing (``read-tree``, ``hash-object``,
``update-index --index-info``, ``write-tree``) in a temporary index file
outside the repository, and its ref is set with a compare-and-swap. Nothing is
checked out and ``.git/index`` is never written, so the user's branch, index
and files stay exactly as they were, whatever stops the run, and two runs
never share an index.

A branch only ever stores regular files: a path that is a symlink or a
submodule in the base commit, or lies under one, is refused (`Listing`), so
no tree holds a link where the code should be.
"""

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: GitPython is slow to import
    from git.objects import Tree

ZERO = "0" * 40
_CONVENTIONAL = re.compile(r"^[a-z]+(\([^)]*\))?!?: ")
FILE_MODES = ("100644", "100755")
"""The modes of the regular files a branch may store (its own keep theirs)."""
_KINDS = {"120000": "a symlink", "160000": "a submodule"}
_PRIVATE = ("-c", "core.splitIndex=false")
"""For commands on a private index: its parts all beside it, none in the git folder."""


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
        self._listings: dict[str, Listing] = {}
        self._scratch: Path | None = None
        """A temporary folder for the private indexes, made when first needed."""

    @property
    def git_dir(self) -> Path:
        """The repository's common git folder (shared by its worktrees)."""
        return Path(self.repo.common_dir)

    def current(self) -> str:
        """The checked-out branch's name, or the commit when HEAD is detached."""
        return self.branch() or self.repo.head.commit.hexsha

    def branch(self) -> str | None:
        """The checked-out branch's name, or None when HEAD is detached."""
        if self.repo.head.is_detached:
            return None
        return self.repo.active_branch.name

    def resolve(self, revision: str) -> str:
        """The commit a branch, tag or commit names."""
        from git import BadName

        try:
            return self.repo.commit(revision).hexsha
        except (BadName, ValueError):
            raise GitError(f"--base {revision}: no such branch or commit") from None

    def dirty_files(self, ignore: Sequence[Path] = ()) -> list[str]:
        """Modified, staged and untracked files (ignored ones aside), by path.

        Asked of ``git status`` without its optional locks, so that it does
        not refresh the user's index as a plain ``git status`` would.
        """
        listed = self._run(
            "--no-optional-locks", "status", "--porcelain", "-z",
            "--untracked-files=all", "--ignore-submodules=none",
        ).split("\0")  # fmt: skip
        paths: set[str] = set()
        entries = iter(listed)
        for entry in entries:
            if entry:
                paths.add(entry[3:])
                if entry[0] in "RC":  # a rename names where it came from next
                    paths.add(next(entries, ""))
        skipped = [folder.resolve() for folder in ignore]
        return sorted(
            p
            for p in paths - {""}
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

    def listing(self, commit: str) -> "Listing":
        """The tree of `commit`, flat (read once per commit)."""
        if commit not in self._listings:
            self._listings[commit] = Listing.parse(
                self._run("ls-tree", "-r", "-t", "-z", "--full-tree", commit)
            )
        return self._listings[commit]

    def tree_with(self, base: str, files: Mapping[str, str | bytes]) -> str:
        """The tree of `base` with `files` written in; returns its id.

        `files` maps paths to contents: bytes as they are, text as UTF-8. A
        file keeps its mode in `base` (executable or not); a new one is not
        executable. The tree is built in a private index: the repository's
        own is not touched.

        Raises:
            GitError: If a path is not a regular file in `base` (a symlink, a
                submodule, a folder) or lies under a symlink or a submodule;
                nothing is written.
        """
        listing = self.listing(base)
        for path in sorted(files):
            problem = listing.obstacle(path)
            if problem:
                raise GitError(f"{problem} in {base[:12]}: no branch stores code there")
        blobs = self._store(files)
        lines = "".join(
            f"{listing.file_mode(p)} {blobs[p]}\t{p}\0" for p in sorted(files)
        )
        env = {"GIT_INDEX_FILE": str(self._branch_index(base))}
        self._run(*_PRIVATE, "update-index", "-z", "--index-info", env=env, input=lines)
        return self._run(*_PRIVATE, "write-tree", env=env).strip()

    def blobs(self, treeish: str, paths: Sequence[str]) -> dict[str, str]:
        """``<mode> <blob id>`` of each of `paths` in a commit or tree, if there."""
        if not paths:
            return {}
        listed = self._run("ls-tree", "-z", "--full-tree", treeish, "--", *paths)
        found = {}
        for entry in listed.split("\0"):
            if entry:
                info, _, path = entry.partition("\t")
                mode, _, blob = info.split(" ")
                found[path] = f"{mode} {blob}"
        return found

    def tree_from(self, base: str, source: str, paths: Sequence[str]) -> str:
        """The tree of `base` with `paths` as they are in `source`; returns its id.

        Built in a private index, as `tree_with` builds one.
        """
        lines = "".join(
            f"{entry}\t{path}\0" for path, entry in self.blobs(source, paths).items()
        )
        env = {"GIT_INDEX_FILE": str(self._branch_index(base))}
        self._run(*_PRIVATE, "update-index", "-z", "--index-info", env=env, input=lines)
        return self._run(*_PRIVATE, "write-tree", env=env).strip()

    def message(self, commit: str) -> str:
        """A commit's whole message."""
        message: str = self.repo.git.log("-1", "--format=%B", commit)  # untyped
        return message.strip("\n") + "\n"

    def _store(self, files: Mapping[str, str | bytes]) -> dict[str, str]:
        """Each content stored as a blob, as it is (no filters); path -> blob id."""
        folder = self._scratch_dir() / "blobs"
        folder.mkdir(exist_ok=True)
        names = []
        for number, path in enumerate(sorted(files)):
            content = files[path]
            data = content.encode("utf-8") if isinstance(content, str) else content
            (folder / str(number)).write_bytes(data)
            names.append(f"{folder / str(number)}\n")
        ids = self._run(
            "hash-object", "-w", "--no-filters", "--stdin-paths", input="".join(names)
        ).split()
        return dict(zip(sorted(files), ids, strict=True))

    def _branch_index(self, base: str) -> Path:
        """A private index holding `base`'s tree: a fresh copy of one read once."""
        scratch = self._scratch_dir()
        read = scratch / f"{base}.index"
        if not read.is_file():
            env = {"GIT_INDEX_FILE": str(read)}
            self._run(*_PRIVATE, "read-tree", base, env=env)
        branch = scratch / "branch.index"
        shutil.copyfile(read, branch)  # its cached subtrees too: write-tree is quick
        return branch

    def _scratch_dir(self) -> Path:
        if self._scratch is None:
            self._scratch = Path(tempfile.mkdtemp(prefix="empty-migrate-index-"))
        return self._scratch

    def _run(
        self, *args: str, env: Mapping[str, str] | None = None, input: str = ""
    ) -> str:
        """Run git in the work tree; its output (paths undecodable as UTF-8 kept)."""
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env={**os.environ, **(env or {})},
            input=input.encode("utf-8", "surrogateescape"),
            capture_output=True,
            check=False,
        )
        if done.returncode:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"git {' '.join(args)}: {lines[-1] if lines else 'failed'}")
        return done.stdout.decode("utf-8", "surrogateescape")

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
        """Release GitPython's helper processes and remove the private indexes."""
        self.repo.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None


@dataclass(frozen=True)
class Listing:
    """A commit's tree, flat: the mode of each entry, by path (folders too)."""

    modes: dict[str, str]

    @classmethod
    def parse(cls, text: str) -> "Listing":
        """From ``git ls-tree -r -t -z`` output: ``<mode> <type> <id>``, tab, path."""
        modes = {}
        for entry in text.split("\0"):
            if entry:
                info, _, path = entry.partition("\t")
                modes[path] = info.split(" ", 1)[0]
        return cls(modes)

    def obstacle(self, path: str) -> str | None:
        """Why a regular file cannot be stored at `path`, if it cannot.

        It cannot where the path is a symlink, a submodule or a folder, or
        lies under anything but a folder (a symlinked folder, say).
        """
        parts = PurePosixPath(path).parts
        for depth in range(1, len(parts)):
            above = "/".join(parts[:depth])
            mode = self.modes.get(above)
            if mode is not None and mode != "040000":
                return f"{above} is {_KINDS.get(mode, 'a file')}"
        mode = self.modes.get(path)
        if mode == "040000":
            return f"{path} is a folder"
        if mode is not None and mode not in FILE_MODES:
            return f"{path} is {_KINDS.get(mode, f'of mode {mode}')}"
        return None

    def file_mode(self, path: str) -> str:
        """The mode to store `path` with: its own, or a plain file's if it is new."""
        mode = self.modes.get(path, FILE_MODES[0])
        if mode not in FILE_MODES:  # `obstacle` said so first: a last guard
            raise GitError(f"{path} is not a regular file (mode {mode})")
        return mode


def uses_conventional_commits(subjects: Sequence[str]) -> bool:
    """Whether most of a history's subjects read ``type(scope): ...``."""
    matching = sum(1 for subject in subjects if _CONVENTIONAL.match(subject))
    return bool(subjects) and matching * 2 > len(subjects)
