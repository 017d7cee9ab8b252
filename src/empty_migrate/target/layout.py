"""Where things are in an inspect_evals checkout: its package, its evals, its marker.

Standard library only: finding the checkout and the eval packages a command
covers must not load what reads them.
"""

import os
from pathlib import Path

PACKAGE_ROOT = Path("src/inspect_evals")
"""The package of evals, from the checkout's root."""

PACKAGE_MARKER = PACKAGE_ROOT / "__init__.py"
"""The file whose presence makes a folder an inspect_evals checkout."""

NOT_EVALS = {"utils"}
"""Folders of the package that hold no eval."""


def missing_folder(path: Path) -> str | None:
    """``no such folder`` or ``a file, not a folder``, when `path` is not a folder.

    Said before anything is looked for in it: a path with a slip in it is not
    "not an inspect_evals tree".
    """
    if not path.exists():
        return "no such folder"
    if not path.is_dir():
        return "a file, not a folder"
    return None


def enclosing_checkout(cwd: Path) -> Path | None:
    """The inspect_evals checkout holding the folder `cwd`, if there is one."""
    for folder in [cwd, *cwd.parents]:
        if (folder / PACKAGE_MARKER).is_file():
            return folder
    return None


def eval_package_names(repo: Path) -> list[str]:
    """The eval packages of a tree: the folders directly under src/inspect_evals."""
    with os.scandir(repo / PACKAGE_ROOT) as entries:  # no stat for a plain folder
        return sorted(
            entry.name
            for entry in entries
            if entry.is_dir()
            and entry.name not in NOT_EVALS
            and entry.name[0] not in "_."
        )


def package_files(repo: Path, name: str) -> list[str]:
    """The Python files of eval package `name`, relative to src/inspect_evals."""
    root = repo / PACKAGE_ROOT
    return sorted(
        path.relative_to(root).as_posix()
        for path in (root / name).rglob("*.py")
        if path.is_file()
    )
