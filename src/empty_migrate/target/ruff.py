"""Which ruff formats the code empty-migrate writes: the one the target pins.

Generated code must pass the target's own ``ruff check`` and ``ruff format
--check``, and formatting changes between ruff releases, so the formatter
follows the target's pre-commit pin (the ``rev`` of its ``ruff-pre-commit``
hook). The ruff installed with empty-migrate serves when it is that version
or the target pins none; another pinned version is installed once into the
user cache with pip. If that fails, the installed ruff is the fallback and
`Ruff.notice` says so.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

import yaml

from empty_migrate.target.corpus import CorpusError, cache_root, pip_command
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
    pinned = pinned_version(repo)
    if pinned is None or pinned == installed.version:
        return installed
    try:
        return _cached_ruff(pinned)
    except (OSError, CorpusError) as error:
        reason = str(error).strip().splitlines()[-1] if str(error).strip() else ""
        return Ruff(
            installed.command,
            installed.version,
            f"the target pins ruff {pinned}, which could not be installed "
            f"({reason or type(error).__name__}): formatting with ruff "
            f"{installed.version}; check the result with the target's own hooks",
        )


def pinned_version(repo: Path) -> str | None:
    """The ruff version in the target's pre-commit config, if it pins one."""
    path = repo / PRE_COMMIT_CONFIG
    if not path.is_file():
        return None
    try:
        config = read_yaml(path) or {}
    except yaml.YAMLError:  # unreadable or hostile: as if it pinned nothing
        return None
    for hook in config.get("repos", []) if isinstance(config, dict) else []:
        if isinstance(hook, dict) and str(hook.get("repo", "")).endswith(RUFF_HOOKS):
            return str(hook.get("rev", "")).removeprefix("v") or None
    return None


@cache
def installed_ruff() -> Ruff:
    """The ruff installed with empty-migrate (its binary, as ``python -m ruff``)."""
    version = metadata.version("ruff")
    try:
        from ruff.__main__ import find_ruff_bin

        # the binary itself: saves a Python start-up per call
        return Ruff((os.fsdecode(find_ruff_bin()),), version)
    except (ImportError, FileNotFoundError):
        return Ruff((sys.executable, "-m", "ruff"), version)


def _cached_ruff(version: str) -> Ruff:
    """Ruff `version` from the user cache, installed there with pip on first use."""
    folder = cache_root() / f"ruff-{version}"
    binary = folder / "bin" / ("ruff.exe" if os.name == "nt" else "ruff")
    if not binary.is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".ruff-{version}-", dir=folder.parent))
        try:
            install = [*pip_command(), "install", "--quiet", "--no-deps", "--target"]
            subprocess.run(
                [*install, str(scratch), f"ruff=={version}"],
                capture_output=True,
                text=True,
                check=True,
            )
            if folder.exists():
                shutil.rmtree(folder)
            os.replace(scratch, folder)
        except subprocess.CalledProcessError as error:
            raise OSError(error.stderr or f"pip exited {error.returncode}") from None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return Ruff((str(binary),), version)
