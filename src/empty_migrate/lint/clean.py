"""Evals a lint found clean, kept under everything that lint read.

The lint of one eval reads its registry entry, the Python files of its package
and the files its entry names (its scorers and helpers, in the package or
shared), and nothing else: the scan reads the package alone, the routing and
the drift checks the package and the entry's files (`empty_migrate.lint.rules`).
An eval found clean (no finding) is kept in the user cache under a key of the
entry's and the package's bytes and of this package's code (`state`), with the
files the entry names and a key of theirs. A later lint of the eval in the same
state finds it there, and reads no entry and parses no file: the pre-commit
hook's usual case, one file changed and the evals it touches clean.

Which evals a lint of some paths covers depends on the files the entries share
(`empty_migrate.lint.checkout.shared_files`), kept the same way under the bytes
of every entry. A value is kept only if its inputs were the same before and
after it was computed, so a file changed during a lint is never taken as read.

Standard library only (and the user cache): a lint that finds its answer here
loads nothing that computes one.
"""

import hashlib
import os
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from empty_migrate import TYPE_CHECKING
from empty_migrate.target.kept import keep, key_of, recall
from empty_migrate.target.layout import PACKAGE_ROOT, package_files

if TYPE_CHECKING:
    from empty_migrate.registry.loader import Registry

_CLEAN = "lint-clean"
"""The kind of kept value an eval found clean is: its entry's files and their key."""
_SHARED = "lint-shared"
"""The kind of kept value the shared files are: each with the evals naming it."""


def state(root: Path, name: str, entry: Path) -> str:
    """The key of what eval `name`'s lint reads before its entry is parsed.

    This package's code, the eval's name, its entry file (`entry`) and the
    Python files of its package, by path and bytes.
    """
    parts = [_code(), name, str(entry), _digest(entry)]
    for file in package_files(root, name):
        parts += [file, _digest(root / PACKAGE_ROOT / file)]
    return key_of(*parts)


def is_clean(root: Path, name: str, entry: Path) -> bool:
    """Whether eval `name` of the checkout at `root` was found clean as it is now.

    `entry` is the file of its registry entry.
    """
    kept = recall(_CLEAN, state(root, name, entry))
    if not (isinstance(kept, tuple) and len(kept) == 2):
        return False
    named, key = kept
    return isinstance(named, tuple) and key == _named_key(root, named)


def snapshot(root: Path, registry: "Registry", names: Iterable[str]) -> dict[str, str]:
    """What the lint of each registered eval of `names` reads, as a key each.

    Taken before a lint and again after it (`keep_clean`). An eval whose
    entry cannot be read has none: the lint reports it.
    """
    from empty_migrate.registry.loader import RegistryError  # with the entries

    found: dict[str, str] = {}
    for name in names:
        if name not in registry.files:
            continue
        try:
            named = _named(registry, name)
        except RegistryError:
            continue
        entry = state(root, name, registry.files[name])
        found[name] = key_of(entry, *named, _named_key(root, named))
    return found


def keep_clean(
    root: Path,
    registry: "Registry",
    before: Mapping[str, str],
    with_findings: Iterable[str],
) -> None:
    """Keep the evals of `before` that had no finding as clean.

    Each only if what its lint read is as it was before the lint (`before`,
    from `snapshot`): a file changed meanwhile may have been read either way.
    """
    after = snapshot(root, registry, before)
    left = set(with_findings)
    for name, key in before.items():
        if name in left or after.get(name) != key:
            continue
        named = _named(registry, name)
        value = (named, _named_key(root, named))
        keep(_CLEAN, state(root, name, registry.files[name]), value)


def recalled_shared(files: Mapping[str, Path]) -> dict[str, list[str]] | None:
    """The shared files of the entries `files` (eval -> entry file), if kept."""
    kept = recall(_SHARED, entries_key(files))
    return kept if isinstance(kept, dict) else None


def keep_shared(
    files: Mapping[str, Path], shared: dict[str, list[str]], before: str
) -> None:
    """Keep `shared`, computed from the entries `files`, if they did not change.

    `before` is their key (`entries_key`) from before they were read.
    """
    key = entries_key(files)
    if key == before:
        keep(_SHARED, key, shared)


def entries_key(files: Mapping[str, Path]) -> str:
    """The key of the entries `files` (eval -> entry file): paths and bytes."""
    parts = [_code()]
    for name, path in files.items():
        parts += [name, str(path), _digest(path)]
    return key_of(*parts)


def _named(registry: "Registry", name: str) -> tuple[str, ...]:
    """The files eval `name`'s entry names, relative to src/inspect_evals."""
    entry = registry.get(name)
    files = [s.file for s in entry.scorers] + [h.file for h in entry.helpers]
    return tuple(sorted(set(files)))


def _named_key(root: Path, named: Iterable[str]) -> str:
    parts = [_code()]
    for file in named:
        parts += [file, _digest(root / PACKAGE_ROOT / file)]
    return key_of(*parts)


def _digest(path: Path) -> str:
    """The sha256 of a file's bytes, or why it has none (missing, a folder)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        return f"<{type(error).__name__}>"


@cache
def _code() -> str:
    """This package's code and data (each file's path, size and time) and Python's.

    Any of it may change what a lint finds, so a change to it makes every
    kept answer stale. A file is known changed as Python knows a module
    changed, for its bytecode: by its size and modification time.
    """
    package = Path(__file__).parents[1]
    found: list[str] = []
    for folder, folders, files in os.walk(package):
        folders[:] = [name for name in folders if name != "__pycache__"]
        for name in files:
            if name.endswith((".py", ".json")):
                info = os.stat(os.path.join(folder, name))
                where = os.path.relpath(os.path.join(folder, name), package)
                found.append(f"{where}\0{info.st_size}\0{info.st_mtime_ns}")
    return key_of(sys.version, *sorted(found))
