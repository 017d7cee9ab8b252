"""Results kept in the user cache, keyed by everything that decides them.

What the tool computes from a text that rarely changes (a registry file's
checked entry, the scan of an eval package, a generated module as ruff
formats it) is kept as a pickle under the user cache, keyed by a digest of its
inputs and of the code that computes it, so a change to either makes a new
key. A missing or unwritable cache is no error: the value is computed again.

Each entry starts with the sha256 of its pickle, checked before the pickle is
loaded, so a damaged entry (a truncated write, a flipped bit, an edit) is never
used: it is computed again and kept anew, and a note on stderr names the file
(once in a process: each migration worker may say it once).
"""

import contextlib
import hashlib
import pickle
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

from empty_migrate import TYPE_CHECKING
from empty_migrate.target.cache import cache_note, cache_path

if TYPE_CHECKING:
    from typing import Any

SUFFIX = ".kept"
"""Entries with a digest; the ``.pickle`` files of earlier versions are not read."""


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


def recall(kind: str, key: str) -> "Any":
    """The value kept under `key`, or None (a damaged entry is said once)."""
    path = _path(kind, key)
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        return _damaged(path, f"cannot be read ({error.strerror})")
    digest, _, payload = data.partition(b"\n")
    if digest != _digest(payload):
        return _damaged(path, "does not match its sha256")
    try:
        return pickle.loads(payload)
    except Exception as error:  # e.g. a class renamed since: computed again
        return _damaged(path, f"cannot be loaded ({type(error).__name__})")


def keep(kind: str, key: str, value: "Any") -> None:
    """Keep `value` under `key`, whole or not at all."""
    # imported here: a run that finds everything it needs never writes
    from empty_migrate.target.files import write_files

    path = _path(kind, key)
    with contextlib.suppress(OSError, pickle.PicklingError):
        payload = pickle.dumps(value)
        write_files(path.parent, {path.name: _digest(payload) + b"\n" + payload})


_said: set[Path] = set()
"""The damaged entries this process has named (each is named once)."""


def _damaged(path: Path, problem: str) -> None:
    if path not in _said:
        _said.add(path)
        cache_note(f"the kept entry {path} {problem}: computing it again")


def _digest(payload: bytes) -> bytes:
    return hashlib.sha256(payload).hexdigest().encode()


def _path(kind: str, key: str) -> Path:
    return cache_path(kind, f"{key}{SUFFIX}")
