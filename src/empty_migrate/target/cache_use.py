"""What the user cache holds, how much disk each part takes, and clearing it.

Each entry at the top of the cache folder (``cache_path()``) is one part, known by
its name: a fetched release, a target environment, a pinned ruff, the locks
of runs on trees outside git, a folder of kept results
(`empty_migrate.target.kept`), or the scratch folder of a fetch or install
that did not finish. Anything else there is not the tool's: it is shown, and
clearing leaves it alone, so a cache setting that names a wrong folder loses
nothing but the tool's own files.

Sizes are what the files take on disk, symbolic links not followed; clearing
removes each part of the tool's whole, and a symbolic link as the link only.
"""

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from empty_migrate.errors import EmptyMigrateError
from empty_migrate.target.cache import (
    LOCKS,
    RELEASE,
    RUFF_INSTALL,
    TARGET_ENV,
    cache_path,
)
from empty_migrate.target.files import STAGING_PREFIX
from empty_migrate.target.kept import SUFFIX
from empty_migrate.target.lock import LockBusy, all_free

NOT_OURS = "not empty-migrate's: left alone"
"""What an entry the tool did not make is, for the listing."""

_VERSIONED = {
    RELEASE: "release download",
    TARGET_ENV: "target environment",
    RUFF_INSTALL: "ruff install",
}
"""The parts named ``<prefix><version>``, by prefix."""

_KEPT_NAMES = (".pickle",)
"""Kept results of earlier versions, which are no longer read (beside `SUFFIX`)."""

_SCRATCH = re.compile(r"\.(fetch|ruff)-.+")
"""A fetch's or an install's scratch folder (`fetch_release`, ruff's install)."""


class CacheClearError(EmptyMigrateError):
    """The cache cannot be cleared (a run holds a lock, a file resists); one line."""


@dataclass(frozen=True)
class CachePart:
    """One entry at the top of the cache folder.

    Attributes:
        name: Its name in the folder.
        kind: What it is (`NOT_OURS` if the tool did not make it).
        size: The bytes its files take on disk.
    """

    name: str
    kind: str
    size: int

    @property
    def ours(self) -> bool:
        """Whether the tool made it (clearing removes only those)."""
        return self.kind != NOT_OURS


def cache_parts(root: Path | None = None) -> list[CachePart]:
    """Each entry of the cache folder (`root`, else the user's), by name."""
    folder = cache_path() if root is None else root
    if not folder.is_dir():
        return []
    return [
        CachePart(entry.name, _kind(entry), _size(entry))
        for entry in sorted(folder.iterdir(), key=lambda path: path.name)
    ]


def _kind(entry: Path) -> str:
    name = entry.name
    if entry.is_symlink():
        return NOT_OURS
    for prefix, kind in _VERSIONED.items():
        if name.startswith(prefix) and name[len(prefix) : len(prefix) + 1].isdigit():
            return kind if entry.is_dir() else NOT_OURS
    if _SCRATCH.fullmatch(name) and entry.is_dir():
        return "unfinished download"
    if name == LOCKS and entry.is_dir():
        return "locks"
    if entry.is_dir() and _holds_kept_results(entry):
        return "lint results" if name.startswith("lint-") else "kept results"
    return NOT_OURS


def _holds_kept_results(folder: Path) -> bool:
    """Whether `folder` holds kept results only (and the files being written)."""
    entries = list(folder.iterdir())
    return bool(entries) and all(
        path.is_file()
        and not path.is_symlink()
        and path.name.endswith(_KEPT_NAMES + (SUFFIX,))
        or path.name.startswith(STAGING_PREFIX)
        for path in entries
    )


def _size(entry: Path) -> int:
    """The bytes `entry` and everything under it take, links not followed."""
    return sum(_on_disk(found) for found in _walk(entry))


def _walk(entry: Path) -> Iterator[os.stat_result]:
    stat = entry.lstat()
    yield stat
    if entry.is_dir() and not entry.is_symlink():
        for child in entry.iterdir():
            yield from _walk(child)


def _on_disk(stat: os.stat_result) -> int:
    blocks = getattr(stat, "st_blocks", None)  # None on Windows
    return stat.st_size if blocks is None else blocks * 512


def clear_cache(root: Path | None = None) -> tuple[list[CachePart], list[CachePart]]:
    """Remove every part of the tool's from the cache folder.

    Returns:
        The parts removed, and the entries left (not the tool's).

    Raises:
        CacheClearError: If a run holds a lock in the cache (nothing is
            removed then), or a part cannot be removed.
    """
    folder = cache_path() if root is None else root
    parts = cache_parts(folder)
    ours = [part for part in parts if part.ours]
    try:
        with all_free(_lock_files(folder)):
            for part in ours:
                _remove(folder / part.name)
    except LockBusy as busy:
        raise CacheClearError(
            f"{busy}: let that run finish, then clear the cache"
        ) from None
    except OSError as error:
        raise CacheClearError(
            f"cannot remove {error.filename}: {error.strerror}"
        ) from None
    return ours, [part for part in parts if not part.ours]


def _lock_files(folder: Path) -> list[Path]:
    locks = folder / LOCKS
    if locks.is_symlink() or not locks.is_dir():
        return []
    return [
        path for path in locks.iterdir() if path.is_file() and not path.is_symlink()
    ]


def _remove(path: Path) -> None:
    """Remove `path` whole; a link is removed as the link, never followed."""
    if path.is_symlink() or not path.is_dir():
        path.unlink()
    else:
        shutil.rmtree(path)


def by_kind(parts: list[CachePart]) -> list[tuple[str, int, list[str]]]:
    """(kind, bytes, names) of each kind of part, the largest first."""
    kinds: dict[str, list[CachePart]] = {}
    for part in parts:
        kinds.setdefault(part.kind, []).append(part)
    totals = [
        (kind, sum(p.size for p in found), [p.name for p in found])
        for kind, found in kinds.items()
    ]
    return sorted(totals, key=lambda total: -total[1])
