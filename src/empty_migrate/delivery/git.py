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

The base is read as the object store holds it (`exported`): no line-end
conversion, filter or encoding that ``core.autocrlf`` or an attribute asks of
a checkout, so a file the migration writes back differs from its blob by the
migration's own changes only, and its blob is stored as it is.
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

from empty_migrate.errors import EmptyMigrateError

if TYPE_CHECKING:  # imported where used: GitPython is slow to import
    from git.objects import Tree

ZERO = "0" * 40
_CONVENTIONAL = re.compile(r"^[a-z]+(\([^)]*\))?!?: ")
FILE_MODES = ("100644", "100755")
"""The modes of the regular files a branch may store (its own keep theirs)."""
_KINDS = {"120000": "a symlink", "160000": "a submodule"}
_PRIVATE = ("-c", "core.splitIndex=false")
"""For commands on a private index: its parts all beside it, none in the git folder."""
_AS_STORED = "* -text !eol -filter -ident !working-tree-encoding\n"
"""Attributes under which a checkout writes each blob as it is stored."""
_PROMISOR = r"^(extensions\.partialclone|remote\..*\.promisor)$"
"""The settings of a partial clone, whose objects are fetched when first read."""
_DAMAGED = (
    "run `git fsck` to see what is damaged, and restore it (from a clone that has "
    "it, say); nothing was changed"
)


MAKE_A_REPOSITORY = (
    "--branch-per-eval makes branches in a git checkout (git init; git add -A; "
    "git commit)"
)
"""What to do when --branch-per-eval is given a folder that is no repository."""


class GitError(EmptyMigrateError):
    """A git operation the campaign needs cannot be done; the message says why."""


class GitRepo:
    """A git work tree: its state, and new commits and branches beside it."""

    def __init__(self, path: Path, what_to_do: str = MAKE_A_REPOSITORY) -> None:
        """Open the work tree at `path`; `what_to_do` when it is no repository.

        Raises:
            GitError: If `path` is no folder, or no git repository, or a bare one.
        """
        # imported here: only a campaign needs GitPython (slow to import)
        from git import InvalidGitRepositoryError, NoSuchPathError, Repo

        try:
            self.repo = Repo(path)
        except NoSuchPathError:
            raise GitError(f"{path}: no such folder; {what_to_do}") from None
        except InvalidGitRepositoryError:
            raise GitError(f"{path} is not a git repository: {what_to_do}") from None
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
        """The commit a branch, tag or commit names.

        A branch's name means the branch (``refs/heads/<name>``), as everywhere
        branch mode names a branch: a tag or another ref of the same name,
        which git would prefer, never stands in for it.
        """
        from git import BadName

        for name in (f"refs/heads/{revision}", revision):
            try:
                return self.repo.commit(name).hexsha
            except (BadName, ValueError):
                continue
        ref = f"refs/heads/{revision}"
        lost = self._completed("rev-parse", "--verify", "--quiet", ref).stdout.strip()
        if lost:  # the branch is there, its commit is not
            raise GitError(
                f"the repository is missing commit {lost}, which branch {revision} "
                f"points at: {_DAMAGED}"
            )
        raise GitError(f"--base {revision}: no such branch or commit")

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
        return self._run("log", f"-{count}", "--format=%s", revision).splitlines()

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
    def exported(self, revision: str) -> Iterator[Path]:
        """The files of a commit, as stored, in a temporary folder removed afterwards.

        `revision` names the commit as `resolve` reads it.

        Checked out by git from a scratch git folder that borrows the
        repository's objects, whose attributes turn off every conversion a
        checkout would make (line ends, filters, encodings), and into a
        temporary index: the repository's own index, work tree and worktree
        list are not touched.

        Raises:
            GitError: If the repository lacks (or cannot read) an object of
                the commit; nothing is exported.
        """
        commit = self.resolve(revision)
        self._check_objects(commit)
        with tempfile.TemporaryDirectory(prefix="empty-migrate-base-") as scratch:
            tree = Path(scratch) / "tree"
            tree.mkdir()
            env = {
                **self._as_stored(commit),
                "GIT_INDEX_FILE": str(Path(scratch) / "index"),
            }
            for args in (
                ("read-tree", commit),
                (f"--work-tree={tree}", "checkout-index", "--all"),
            ):
                done = self._completed(*args, env=env)
                if done.returncode:
                    raise GitError(
                        f"cannot read the files of commit {commit[:12]} (git says "
                        f'"{_said(done)}"): {_DAMAGED}'
                    )
            yield tree

    def _check_objects(self, commit: str) -> None:
        """Raise `GitError` naming an object of `commit`'s tree the store lacks.

        A partial clone's are fetched first, as a checkout would fetch them.
        """
        missing = self._missing(commit)
        remote = self._promisor() if missing else None
        said = ""
        while missing and remote:  # a fetched tree can name more objects
            fetch = self._completed(
                "-c", "fetch.negotiationAlgorithm=noop", "fetch", remote,
                "--no-tags", "--no-write-fetch-head", "--recurse-submodules=no",
                "--filter=blob:none", "--stdin", input="\n".join(missing) + "\n",
                env={"GIT_TERMINAL_PROMPT": "0"},  # a failure, not a prompt
            )  # fmt: skip
            fetched, missing = missing, self._missing(commit)
            if fetch.returncode or set(missing) & set(fetched):
                said = f' (git says "{_said(fetch)}")' if fetch.returncode else ""
                break
        if missing and remote:
            raise GitError(
                f"the repository is a partial clone without object {missing[0]}, "
                f"which commit {commit[:12]} needs, and fetching it from {remote} "
                f"failed{said}: fetch it, then run again; nothing was changed"
            )
        if missing:
            raise GitError(
                f"the repository is missing object {missing[0]}, which commit "
                f"{commit[:12]} needs: {_DAMAGED}"
            )

    def _missing(self, commit: str) -> list[str]:
        """The objects of `commit`'s tree the store lacks."""
        listed = self._completed(
            "rev-list", "--objects", "--no-walk", "--missing=print", commit
        )
        if listed.returncode:
            raise GitError(
                f"the repository cannot read commit {commit[:12]} "
                f'(git says "{_said(listed)}"): {_DAMAGED}'
            )
        return [line[1:] for line in listed.stdout.split() if line.startswith("?")]

    def _promisor(self) -> str | None:
        """The remote a partial clone fetches missing objects from, if it is one."""
        listed = self._completed("config", "--get-regexp", _PROMISOR).stdout
        for line in listed.splitlines():
            key, _, value = line.partition(" ")
            if key == "extensions.partialclone":
                return value
            if value == "true":
                return key.removeprefix("remote.").removesuffix(".promisor")
        return None

    def _as_stored(self, commit: str) -> dict[str, str]:
        """The environment for a checkout of the objects as stored, unconverted.

        A scratch git folder (made once), with the repository's objects and
        its own ``info/attributes``, which outrank every other attribute.
        """
        raw = self._scratch_dir() / "as-stored.git"
        if not raw.is_dir():
            object_format = "sha256" if len(commit) == 64 else "sha1"
            self._run(
                "init", "--bare", "--quiet", "--template=",
                f"--object-format={object_format}", str(raw),
            )  # fmt: skip
            (raw / "info").mkdir(exist_ok=True)
            (raw / "info/attributes").write_text(_AS_STORED, encoding="utf-8")
        return {
            "GIT_DIR": str(raw),
            "GIT_OBJECT_DIRECTORY": str(self.git_dir / "objects"),
        }

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
        return self._run("log", "-1", "--format=%B", commit).strip("\n") + "\n"

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
        """Run git in the work tree; its output (paths undecodable as UTF-8 kept).

        Raises:
            GitError: If git fails; with the last line git said.
        """
        done = self._completed(*args, env=env, input=input)
        if done.returncode:
            raise GitError(f"git {' '.join(args)}: {_said(done)}")
        return done.stdout

    def _completed(
        self, *args: str, env: Mapping[str, str] | None = None, input: str = ""
    ) -> subprocess.CompletedProcess[str]:
        """Run git in the work tree, failed or not; its output decoded as `_run`'s."""
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env={**os.environ, **(env or {})},
            input=input.encode("utf-8", "surrogateescape"),
            capture_output=True,
            check=False,
        )
        return subprocess.CompletedProcess(
            done.args,
            done.returncode,
            done.stdout.decode("utf-8", "surrogateescape"),
            done.stderr.decode("utf-8", "replace"),
        )

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
            GitError: If git would not: the branch moved or appeared meanwhile,
                a branch's name holds it (`name_conflicts`), or what git said;
                it is left as is.
        """
        ref = f"refs/heads/{branch}"
        done = self._completed(
            "update-ref", "-m", "empty-migrate campaign", ref, commit, expected or ZERO
        )
        if not done.returncode:
            return
        if self.tip(branch) != expected:
            raise GitError(f"{branch} changed while the campaign ran; left as is")
        taken = self.name_conflicts(branch)
        if taken:
            raise GitError(
                f"cannot make branch {branch}: branch {taken[0]} exists, and git "
                "cannot have a branch inside another's name: rename it "
                f"(`git branch -m {taken[0]} NEW-NAME`) and run again"
            )
        raise GitError(
            f'cannot point {branch} at {commit[:12]}: git says "{_said(done)}"; '
            "left as is"
        )

    def name_conflicts(self, branch: str) -> list[str]:
        """The branches git cannot keep beside one named `branch`, sorted.

        Branch names are paths: ``a`` and ``a/b`` cannot both be branches.
        """
        top = branch.split("/", 1)[0]
        listed = self._run("for-each-ref", "--format=%(refname)", f"refs/heads/{top}")
        names = [ref.removeprefix("refs/heads/") for ref in listed.split()]
        return sorted(
            name
            for name in names
            if branch.startswith(f"{name}/") or name.startswith(f"{branch}/")
        )

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


def _said(done: "subprocess.CompletedProcess[str]") -> str:
    """The last line git wrote to stderr (its reason, as a rule)."""
    lines = done.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"
