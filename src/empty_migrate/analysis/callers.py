"""Which eval packages of a tree use a shared helper: its callers.

A helper outside the eval packages (``utils/scorers.py``'s
``preset_score_on_no_response``, ``utils/aime_common.py``'s ``aime_scorer``)
changes the scoring of every package that calls it. The migration changes
one only together with all of its callers (`empty_migrate.pipeline.plan`),
so who calls it is read from the tree itself, registered or not.

The test is the name's text in a package's Python files, read as bytes: a
file that merely mentions the name counts too, and so does one that cannot be
read, so a helper is never taken for unused while some code may still call it.
"""

import os
from collections.abc import Iterable
from pathlib import Path

from empty_migrate.analysis.scan import PACKAGE_ROOT


def callers(repo: Path, names: Iterable[str], defined_in: str) -> frozenset[str]:
    """The packages under ``src/inspect_evals`` whose code names any of `names`.

    Args:
        repo: The root of the tree.
        names: The helper's names (a function, or the scorers of a module).
        defined_in: Its file, relative to ``src/inspect_evals``: not a caller.

    Returns:
        Folder names under ``src/inspect_evals`` (``utils`` included: shared
        code that calls it, which no migration of an eval changes).
    """
    return frozenset(
        package
        for name in names
        for package, files in _naming(repo.resolve(), name).items()
        if any(file != defined_in for file in files)
    )


_READ: dict[tuple[Path, str], dict[str, tuple[str, ...]]] = {}
"""What `_naming` read, by tree and name, until `forget` (a run's start)."""


def forget() -> None:
    """Read the tree again at the next question: a new run starts.

    A run asks before it computes anything (the planner) and its worker
    processes, forked after, ask again: they get what the planner read.
    """
    _READ.clear()


def _naming(root: Path, name: str) -> dict[str, tuple[str, ...]]:
    """The files naming `name` in each package, read once a run."""
    if (root, name) not in _READ:
        _READ[root, name] = _read_naming(root, name)
    return _READ[root, name]


def _read_naming(root: Path, name: str) -> dict[str, tuple[str, ...]]:
    wanted = name.encode()
    found: dict[str, list[str]] = {}
    for path, shown in _python_files(root / PACKAGE_ROOT):
        if _may_name(path, wanted):
            found.setdefault(shown.split("/")[0], []).append(shown)
    return {package: tuple(files) for package, files in found.items()}


def _python_files(package_root: Path) -> list[tuple[str, str]]:
    """Each Python file of the packages, with its path as the tree shows it.

    Links are followed, as the scan follows them (a package kept elsewhere
    and linked in is still code the helper may be called from); a folder
    reached twice, through a link, is walked once.
    """
    listed: list[tuple[str, str]] = []
    seen = {os.path.realpath(package_root)}
    stack = [(str(package_root), "")]
    while stack:
        folder, shown = stack.pop()
        for entry in os.scandir(folder):
            name = f"{shown}{entry.name}"
            if entry.is_dir():
                real = os.path.realpath(entry.path) if entry.is_symlink() else None
                if real is None or real not in seen:
                    seen.add(real or entry.path)
                    stack.append((entry.path, f"{name}/"))
            elif entry.name.endswith(".py"):
                listed.append((entry.path, name))
    return listed


def _may_name(path: str, wanted: bytes) -> bool:
    """Whether a file names `wanted`, or cannot be read to tell."""
    try:
        with open(path, "rb") as file:
            return wanted in file.read()
    except OSError:
        return True
