"""Writing files whole or not at all: into the target, the cache, a PR folder.

Every file is first staged beside its destination (a temporary file named
``.em-<token>-<name>``, flushed to disk), and only when all are staged are
they renamed into place. An error while staging leaves every destination as
it was; an error while renaming puts back the files already renamed.

Nothing is written through a symbolic link: a destination that is one, or
lies under a folder that is one, is refused before anything is staged (a
write there would land outside the tree, or replace the link with a file).
The same rule, `outside_tree`, decides every path the target names before it
is read: inside the tree by its text (`leaves_tree`: not absolute, no ``..``)
and through no link (`linked_part`).

A `Journal` (a file the caller keeps outside the tree) names the staging
files before they are made, and says when the renames begin, so that what a
killed process left can be cleared by the next run (`recover`): staging
files are removed, and renames that had begun are finished.

For tests, `EMPTY_MIGRATE_PAUSE_AT` with `EMPTY_MIGRATE_PAUSE_FILE` makes a
process stop at one point (`pause_for_tests`): ``staged`` (a journaled write,
into the target, has staged its files), ``renaming`` (it has made its first
rename) or ``migrating`` (a migration process is about to compute its evals).
There it creates the pause file, holding its process id, and waits until the
file is removed. Unset, nothing pauses.
"""

import contextlib
import json
import os
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

STAGING_PREFIX = ".em-"
PAUSE_AT = "EMPTY_MIGRATE_PAUSE_AT"
PAUSE_FILE = "EMPTY_MIGRATE_PAUSE_FILE"

Content = str | bytes


class WriteError(OSError):
    """A file cannot be written where it must go; the message says which and why."""


def error_text(error: OSError) -> str:
    """An `OSError` as one line: the system's reason and the file it names.

    A `WriteError` (or any error made from a message alone) has no reason of
    the system's (its ``strerror`` is None): its message is the line.
    """
    if not error.strerror:
        return str(error)
    named = error.filename2 or error.filename
    return f"{named}: {error.strerror}" if named else error.strerror


def write_files(
    root: Path, files: Mapping[str, Content], journal: "Journal | None" = None
) -> None:
    """Write files under `root` all or nothing: stage each, then rename all.

    A text is written as UTF-8 with its line ends as they are; bytes as they are.

    Args:
        root: The folder the paths are relative to (``/``-separated).
        files: The content of each file, by path.
        journal: Where to record the staging files while they exist.

    Raises:
        WriteError: If a destination is a symbolic link or under one, or
            cannot be written (a folder where the file must go, say); nothing
            was written.
        OSError: If staging or renaming failed; every destination is as it was.
    """
    for path in sorted(files):
        if problem := unwritable(root, path):
            raise WriteError(problem)
    token = secrets.token_hex(4)
    pairs = [_staging_pair(root, path, token) for path in sorted(files)]
    if journal:
        journal.record("staging", root, pairs)
    created: list[Path] = []
    try:
        originals = _stage_all(pairs, files, root, created)
        if journal:
            pause_for_tests("staged")
            journal.record("renaming", root, pairs)
        _rename_all(pairs, originals, journal is not None)
    except BaseException:
        for temp, _ in pairs:
            temp.unlink(missing_ok=True)
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    finally:
        if journal:
            journal.clear()


def leaves_tree(path: str) -> str | None:
    """Why `path` names no place inside a tree, if it does not, said after it.

    A path the target names (an entry's file, a template, a test) is taken
    from the tree's root, ``/``-separated: an absolute one, or one with a
    ``..`` part, may name any file, so it is refused before anything is read.
    """
    pure = PurePosixPath(path)
    if not pure.parts:
        return "is empty: name a file inside the repository"
    if pure.is_absolute():
        return "is absolute: name it relative, inside the repository"
    if ".." in pure.parts:
        return "goes up through '..': name it inside the repository, without '..'"
    return None


def outside_tree(root: Path, path: str) -> str | None:
    """Why `path` under `root` is not inside the tree, if it is not: the one rule.

    Every path the target names goes through it before it is read or
    written: it must stay inside the tree (`leaves_tree`) and reach its file
    through no symbolic link (`linked_part`), which could lead anywhere.
    """
    if problem := leaves_tree(path):
        return f"{path} {problem}"
    if linked := linked_part(root, path):
        return f"{linked} is a symbolic link: nothing is read or written through it"
    return None


def linked_part(root: Path, path: str) -> str | None:
    """The first part of `path` under `root` that is a symbolic link, if any.

    A file written at `path` would land where that link points (or, if the
    link is the file itself, replace it), not in the tree under `root`. A
    path that leaves the tree by its own text (`leaves_tree`) is returned
    whole.
    """
    parts = PurePosixPath(path).parts
    if leaves_tree(path):
        return path
    current = root
    for index, part in enumerate(parts):
        current = current / part
        if current.is_symlink():
            return "/".join(parts[: index + 1])
        if not current.exists():
            return None
    return None


def unwritable(root: Path, path: str) -> str | None:
    """Why a file could not be written at `path` under `root`, if it could not."""
    if problem := outside_tree(root, path):
        return problem
    destination = root / path
    if destination.is_dir():
        return f"{path} is a folder where a file must go"
    folder = destination.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        inside = folder.is_relative_to(root) and folder != root
        where = folder.relative_to(root) if inside else folder
        return f"{where} is a file where a folder must go (for {path})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write in {folder} (for {path}): check its permissions"
    return None


def _staging_pair(root: Path, path: str, token: str) -> tuple[Path, Path]:
    destination = root / path
    return destination.with_name(f"{STAGING_PREFIX}{token}-{destination.name}"), (
        destination
    )


def _stage_all(
    pairs: Sequence[tuple[Path, Path]],
    files: Mapping[str, Content],
    root: Path,
    created: list[Path],
) -> dict[Path, bytes | None]:
    """Stage every file; returns each destination's content before (None: new)."""
    mode = _new_file_mode()
    originals: dict[Path, bytes | None] = {}
    for temp, destination in pairs:
        created += _make_parents(destination.parent)
        exists = destination.is_file()
        originals[destination] = destination.read_bytes() if exists else None
        content = files[destination.relative_to(root).as_posix()]
        data = content.encode("utf-8") if isinstance(content, str) else content
        _stage(temp, data, destination.stat().st_mode if exists else mode)
    return originals


def _stage(temp: Path, data: bytes, mode: int) -> None:
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())
    os.chmod(temp, mode)


def _rename_all(
    pairs: Sequence[tuple[Path, Path]],
    originals: Mapping[Path, bytes | None],
    journaled: bool,
) -> None:
    """Rename every staged file into place; on an error, undo the renames made."""
    renamed: list[Path] = []
    try:
        for temp, destination in pairs:
            os.replace(temp, destination)
            renamed.append(destination)
            if journaled and len(renamed) == 1:
                pause_for_tests("renaming")
    except BaseException:
        for destination in renamed:
            _put_back(destination, originals[destination])
        raise


def _put_back(destination: Path, original: bytes | None) -> None:
    """Restore a destination's content from before the write (remove a new file)."""
    if original is None:
        destination.unlink(missing_ok=True)
        return
    temp = destination.with_name(f"{STAGING_PREFIX}{secrets.token_hex(4)}-undo")
    _stage(temp, original, destination.stat().st_mode)
    os.replace(temp, destination)


def _make_parents(folder: Path) -> list[Path]:
    """Create `folder` and its missing parents; returns them, outermost first."""
    missing = [p for p in [folder, *folder.parents] if not p.exists()][::-1]
    for path in missing:
        path.mkdir()
    return missing


def _new_file_mode() -> int:
    """The mode a new file gets under the current umask (0644 under 022).

    A staging file is created readable by its owner only; a migrated file
    must look as if a person had written it.
    """
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def pause_for_tests(point: str) -> None:
    """Wait at `point` until the pause file is removed, if a test asked (see above).

    Inert unless both environment variables are set, and `point` is the one
    named.
    """
    pause = os.environ.get(PAUSE_FILE)
    if not pause or os.environ.get(PAUSE_AT) != point:
        return
    Path(pause).write_text(str(os.getpid()))
    while Path(pause).exists():
        time.sleep(0.01)


@dataclass(frozen=True)
class Journal:
    """A record of the staging files of the write in progress, kept in `path`.

    It is written (whole, by rename) before the staging files are made and
    again before the renames begin, and removed when the write is over.
    """

    path: Path

    def record(
        self, phase: str, root: Path, pairs: Sequence[tuple[Path, Path]]
    ) -> None:
        """Record that writing `pairs` (staging file, destination) is at `phase`."""
        entry = {
            "pid": os.getpid(),
            "phase": phase,
            "files": [
                [temp.relative_to(root).as_posix(), dest.relative_to(root).as_posix()]
                for temp, dest in pairs
            ],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f"{self.path.name}.{os.getpid()}")
        _stage_replacing(temp, json.dumps(entry).encode())
        os.replace(temp, self.path)

    def clear(self) -> None:
        """The write is over: forget it."""
        self.path.unlink(missing_ok=True)


def _stage_replacing(temp: Path, data: bytes) -> None:
    temp.unlink(missing_ok=True)
    _stage(temp, data, 0o644)


def recover(journal: Journal, root: Path) -> str | None:
    """Clear what a killed write into `root` left, as its journal names it.

    Staging files are removed; if the renames had begun, the remaining
    staged files are renamed into place, so the set is written whole. Only
    files the journal names, under `root` and named as staging files, are
    touched. Returns a one-line account, or None when there was nothing.

    Raises:
        WriteError: If a file could not be removed or renamed; the journal is
            kept.
    """
    try:
        entry = json.loads(journal.path.read_text(encoding="utf-8"))
        phase, pid = entry["phase"], entry["pid"]
        pairs = [(str(temp), str(dest)) for temp, dest in entry["files"]]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        journal.clear()
        return f"ignored an unreadable write journal at {journal.path}"
    pairs = [
        (temp, dest)
        for temp, dest in pairs
        if PurePosixPath(temp).name.startswith(STAGING_PREFIX)
        and PurePosixPath(temp).parent == PurePosixPath(dest).parent
        and not linked_part(root, temp)
        and not linked_part(root, dest)
        and (root / temp).is_file()
    ]
    try:
        for temp, dest in pairs:
            if phase == "renaming":
                os.replace(root / temp, root / dest)
            else:
                (root / temp).unlink()
    except OSError as error:
        raise WriteError(
            f"could not clear what a stopped run left ({error}): finish by hand "
            f"what {journal.path} names, then remove it"
        ) from None
    journal.clear()
    if not pairs:
        return None
    if phase == "renaming":
        names = ", ".join(dest for _, dest in pairs)
        return (
            f"finished writing {len(pairs)} file(s) a stopped run (pid {pid}) "
            f"was renaming into place: {names}"
        )
    return f"removed {len(pairs)} staging file(s) a stopped run (pid {pid}) left"
