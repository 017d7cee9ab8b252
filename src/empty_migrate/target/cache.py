"""The user cache: where it is, and the one way to name a path inside it.

Everything empty-migrate keeps between runs lives under one folder: fetched
releases, pinned ruff installs, target environments, kept results
(`empty_migrate.target.kept`). Some names in it carry a version that comes
from outside the tool (the target's pre-commit pin, ``--repo
pypi:inspect-evals==V``, a tree's ``PKG-INFO``), so each such version is
checked first (`checked_version`), and every path is built by `cache_path`,
which takes plain names only and refuses anything that would leave the
folder. The folder itself is the user's and trusted; what is kept in it
carries a digest only as a guard against damage, and a note on stderr
(`cache_note`) says when an entry was found damaged and built again.
"""

import os
import re
import sys
from pathlib import Path

_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+!-]*")
"""A file or folder name that is one path part: no separator, not ``.`` or ``..``.

Every character a normalized PEP 440 version may hold is allowed (``+`` of a
local version, ``!`` of an epoch), so `checked_version` output always fits.
"""


class CacheError(Exception):
    """A path was to be built outside the cache; the message names it."""


def cache_root() -> Path:
    """The cache folder: ``$EMPTY_MIGRATE_CACHE``, else the user cache.

    The user cache is platformdirs' (``$XDG_CACHE_HOME/empty-migrate`` or
    ``~/.cache/empty-migrate`` on Linux, ``~/Library/Caches`` on macOS). Build
    paths inside it with `cache_path`, never by joining onto this.

    Raises:
        CacheError: If ``$EMPTY_MIGRATE_CACHE`` is a relative path, which would
            put the cache wherever a command runs (inside a repository).
    """
    refused = refused_cache_setting()
    if refused is not None:
        raise CacheError(refused)
    if os.environ.get("EMPTY_MIGRATE_CACHE"):
        return Path(os.environ["EMPTY_MIGRATE_CACHE"])
    xdg = _xdg_cache()
    if xdg is not None:
        return xdg / _NAME
    # imported here: it costs more than a one-file lint's answer, on Linux
    import platformdirs

    return Path(platformdirs.user_cache_dir(_NAME, appauthor=False))


def refused_cache_setting() -> str | None:
    """Why ``$EMPTY_MIGRATE_CACHE`` cannot name the cache, in one line; else None.

    A relative path is refused: it would put the cache wherever a command
    runs, inside the repository it works on.
    """
    given = os.environ.get("EMPTY_MIGRATE_CACHE")
    if given and not os.path.isabs(given):
        return (
            f"EMPTY_MIGRATE_CACHE={given!r} is a relative path; give an absolute "
            "one (or unset it to use the user cache)"
        )
    return None


_NAME = "empty-migrate"
"""The cache folder's name, in the user cache."""

RELEASE = "inspect-evals-"
"""A fetched release's tree is ``inspect-evals-<version>`` in the cache."""
TARGET_ENV = "target-env-"
"""The target environment of a release is ``target-env-<version>``."""
RUFF_INSTALL = "ruff-"
"""A pinned ruff is installed in ``ruff-<version>``."""
LOCKS = "locks"
"""The locks of writing runs on trees outside git (`empty_migrate.target.lock`)."""


def _xdg_cache() -> Path | None:
    """The user cache on Linux, as platformdirs finds it there (XDG).

    An absolute ``$XDG_CACHE_HOME``, else ``~/.cache`` under an absolute
    ``$HOME``. None elsewhere (another system, Android, a home found some
    other way), where platformdirs itself answers.
    """
    if sys.platform != "linux" or "ANDROID_DATA" in os.environ:
        return None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg)
    home = os.environ.get("HOME", "")
    return Path(os.path.expanduser("~/.cache")) if os.path.isabs(home) else None


def cache_path(*names: str) -> Path:
    """The path of `names` (folder, then file) inside the cache.

    Raises:
        CacheError: If a name is not one plain path part (a separator, ``..``,
            a leading dot, an empty name), so the path could leave the cache.
    """
    root = cache_root()
    for name in names:
        if not _PLAIN_NAME.fullmatch(name):
            raise CacheError(
                f"refusing the cache path {name!r} under {root}: not a plain name"
            )
    return root.joinpath(*names)


def checked_version(text: str) -> str | None:
    """`text` as a normalized PEP 440 version, or None if it is not one."""
    from packaging.version import InvalidVersion, Version

    try:
        return str(Version(text))
    except InvalidVersion:
        return None


def cache_note(message: str) -> None:
    """Say on stderr, in one line, what was found in the cache and done about it."""
    line = " ".join(message.split())
    print(f"empty-migrate: note: {line}", file=sys.stderr, flush=True)
