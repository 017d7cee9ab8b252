"""Which ruff formats the code empty-migrate writes: the one the target pins.

Generated code must pass the target's own ``ruff check`` and ``ruff format
--check``, and formatting changes between ruff releases, so the formatter
follows the target's pre-commit pin (the ``rev`` of its ``ruff-pre-commit``
hook). The ruff installed with empty-migrate serves when it is that version
or the target pins none; another pinned version is installed once into the
user cache with pip. If that fails, the installed ruff is the fallback and
`Ruff.notice` says so.

The pin is the target's text, so nothing is named with it until it proves a
PEP 440 version: any other ``rev`` (a branch, a path) is ignored with that
notice. A cached install records its binary's sha256, checked before each
use; a binary that no longer matches is installed again, never run.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from empty_migrate.target.cache import (
    RUFF_INSTALL,
    CacheError,
    cache_note,
    cache_path,
    checked_version,
)
from empty_migrate.target.corpus import CorpusError, pip_command
from empty_migrate.target.files import outside_tree
from empty_migrate.target.kept import keep, key_of, recall
from empty_migrate.target.yaml_files import read_yaml

PRE_COMMIT_CONFIG = ".pre-commit-config.yaml"
RUFF_HOOKS = "astral-sh/ruff-pre-commit"


@dataclass(frozen=True)
class Ruff:
    """A ruff to run: its command, its version, and a notice if it is a fallback."""

    command: tuple[str, ...]
    version: str
    notice: str | None = None


def ruff_for(repo: Path) -> Ruff:
    """The ruff that formats like the target's pre-commit hook does."""
    installed = installed_ruff()
    if problem := outside_tree(repo, PRE_COMMIT_CONFIG):
        return _fallback(f"{problem}, so its ruff pin is not read")
    pin = pinned_version(repo)
    if pin is None or pin == installed.version:
        return installed
    pinned = checked_version(pin)
    if pinned is None:
        why = f"the target's {PRE_COMMIT_CONFIG} pins ruff at {pin!r}, not a version"
        return _fallback(why)
    if pinned == installed.version:
        return installed
    try:
        return _cached_ruff(pinned)
    except (OSError, CorpusError, CacheError) as error:
        reason = str(error).strip().splitlines()[-1] if str(error).strip() else ""
        return _fallback(
            f"the target pins ruff {pinned}, which could not be installed "
            f"({reason or type(error).__name__})"
        )


def _fallback(why: str) -> Ruff:
    """The installed ruff, with a notice saying `why` the pinned one is not used."""
    installed = installed_ruff()
    return Ruff(
        installed.command,
        installed.version,
        f"{why}: formatting with ruff {installed.version}; check the result with "
        "the target's own hooks",
    )


def pinned_version(repo: Path) -> str | None:
    """The ruff version the target's pre-commit config pins, as written, if any.

    It is the target's text: `ruff_for` checks that it is a version before it
    names anything with it. A config of another shape (``repos`` not a list,
    an entry not a mapping, a ``rev`` not a string) pins nothing.
    """
    path = repo / PRE_COMMIT_CONFIG
    if not path.is_file():
        return None
    try:
        config = read_yaml(path) or {}
    except yaml.YAMLError:  # unreadable or hostile: as if it pinned nothing
        return None
    repos = config.get("repos") if isinstance(config, dict) else None
    for hook in repos if isinstance(repos, list) else []:
        # a malformed entry pins nothing, as a config that does not parse
        if not isinstance(hook, dict) or not isinstance(hook.get("repo"), str):
            continue
        if hook["repo"].endswith(RUFF_HOOKS):
            rev = hook.get("rev")
            if not isinstance(rev, str):
                return None
            return rev.removeprefix("v") or None
    return None


@cache
def installed_ruff() -> Ruff:
    """The ruff installed with empty-migrate (its binary, as ``python -m ruff``)."""
    try:
        from ruff.__main__ import find_ruff_bin

        # the binary itself: saves a Python start-up per call
        binary = os.fsdecode(find_ruff_bin())
    except (ImportError, FileNotFoundError):
        return Ruff((sys.executable, "-m", "ruff"), _installed_version())
    return Ruff((binary,), _version_of(binary))


def _version_of(binary: str) -> str:
    """The installed ruff's version, kept under its binary's path, size and time.

    Installing another version replaces the binary; reading a distribution's
    metadata costs more than the rest of a one-eval run's start-up.
    """
    info = os.stat(binary)
    key = key_of(binary, str(info.st_size), str(info.st_mtime_ns))
    kept = recall("ruff-version", key)
    if isinstance(kept, str):
        return kept
    version = _installed_version()
    keep("ruff-version", key, version)
    return version


def _installed_version() -> str:
    """The version of the ruff distribution installed with empty-migrate."""
    from importlib import metadata  # slow to import: see _version_of

    return metadata.version("ruff")


def _cached_ruff(version: str) -> Ruff:
    """Ruff `version` from the user cache, installed there with pip on first use.

    The binary's sha256 is recorded at install and checked before each use:
    a binary that no longer matches (or has no record) is installed again,
    and a note says so.
    """
    folder = cache_path(f"{RUFF_INSTALL}{version}")
    binary = folder / _BINARY
    if binary.exists():
        recorded = _recorded_digest(folder)
        if recorded is not None and _digest_file(binary) == recorded:
            return Ruff((str(binary),), version)
        problem = "does not match" if recorded else "has no record of"
        cache_note(
            f"the cached ruff {version} at {binary} {problem} the sha256 taken "
            "when it was installed: installing it again"
        )
    _install(version, folder)
    return Ruff((str(binary),), version)


_BINARY = Path("bin", "ruff.exe" if os.name == "nt" else "ruff")
"""Where pip puts the binary in an install folder (``--target``)."""
_DIGEST_FILE = "empty-migrate.sha256"
"""Beside ``bin/``: the sha256 of the ruff binary, written at install."""


def _install(version: str, folder: Path) -> None:
    """Install ruff `version` into `folder` with pip, whole or not at all."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".ruff-{version}-", dir=folder.parent))
    try:
        # a wheel only: an sdist of the pin would run its build backend
        install = [
            *pip_command(),
            "install",
            "--quiet",
            "--no-deps",
            "--only-binary",
            ":all:",
            "--target",
        ]
        subprocess.run(
            [*install, str(scratch), f"ruff=={version}"],
            capture_output=True,
            text=True,
            check=True,
        )
        digest = _digest_file(scratch / _BINARY)
        (scratch / _DIGEST_FILE).write_text(f"{digest}\n")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(scratch, folder)
    except subprocess.CalledProcessError as error:
        raise OSError(error.stderr or f"pip exited {error.returncode}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _digest_file(path: Path) -> str:
    """The sha256 of a file (a ruff binary: about 30 MB, 20 ms)."""
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def _recorded_digest(folder: Path) -> str | None:
    try:
        return (folder / _DIGEST_FILE).read_text().strip()
    except OSError:
        return None
