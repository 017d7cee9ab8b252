"""The declarative registry of evals: what each is and how its non-answers score.

Where the entries are is stated here, with the standard library only: a
command finds which file holds each eval's entry without loading what reads
one (`empty_migrate.registry.loader`).
"""

from pathlib import Path

EVALS_DIR = Path(__file__).parent / "evals"
"""This package's registry: one ``<eval>.yaml`` per eval."""


def entry_files(directory: Path) -> dict[str, Path]:
    """Each ``<eval>.yaml`` of a registry folder, by eval name, sorted."""
    return {path.stem: path for path in sorted(directory.glob("*.yaml"))}


def folder_problem(directory: Path) -> str | None:
    """What keeps `directory` from being a registry, if anything does."""
    if not directory.exists():
        return "no such folder"
    if not directory.is_dir():
        return "not a folder"
    if not any(directory.glob("*.yaml")):
        return "holds no <eval>.yaml registry entries"
    return None
