"""Results kept in the user cache, keyed by everything that decides them.

What the tool computes from a text that rarely changes (a registry file's
checked entry, the scan of an eval package, a generated module as ruff
formats it) is kept as a pickle under the user cache, keyed by a digest of its
inputs and of the code that computes it, so a change to either makes a new
key. A missing, unreadable or unwritable cache is no error: the value is
computed again.
"""

import contextlib
import hashlib
import pickle
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from empty_migrate.target.cache import cache_path
from empty_migrate.target.files import write_files


def code_digest(modules: Iterable[ModuleType], *extra: str) -> str:
    """A digest of the modules' source files (and `extra` strings)."""
    digest = hashlib.sha256("\0".join(extra).encode())
    for module in modules:
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()


def key_of(*parts: str) -> str:
    """The key of a value computed from `parts` (texts, digests, names)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()[:32]


def recall(kind: str, key: str) -> Any:
    """The value kept under `key`, or None."""
    try:
        return pickle.loads(_path(kind, key).read_bytes())
    except Exception:  # missing, or left by a broken write: computed again
        return None


def keep(kind: str, key: str, value: Any) -> None:
    """Keep `value` under `key`, whole or not at all."""
    path = _path(kind, key)
    with contextlib.suppress(OSError, pickle.PicklingError):
        write_files(path.parent, {path.name: pickle.dumps(value)})


def _path(kind: str, key: str) -> Path:
    return cache_path(kind, f"{key}.pickle")
