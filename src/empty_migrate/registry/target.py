"""The registry a command reads: the target's own entries, seeded by this package's.

A migrated target keeps each eval's entry beside its ``eval.yaml``
(`empty_migrate.entries.in_target`), and a new eval's author adds one there.
`registry_of` is the one place the two registries meet, and every command
reads its entries through it: the target's entry wins where both have one,
and this package's seeds the evals the target has none for (all of them in
a target never migrated; those the migration left ``manual`` or ``none``).
`unknown_evals` names the eval packages of the tree that neither knows.
"""

from pathlib import Path

from empty_migrate import TYPE_CHECKING
from empty_migrate.entries.in_target import ENTRY_NAME
from empty_migrate.registry import EVALS_DIR, entry_files
from empty_migrate.target.layout import PACKAGE_ROOT, eval_package_names

if TYPE_CHECKING:
    from empty_migrate.registry.loader import Registry


def target_entry_files(root: Path) -> dict[str, Path]:
    """Each eval's entry file in the checkout at `root`, by eval name."""
    package = root / PACKAGE_ROOT
    if not package.is_dir():
        return {}
    found = {name: package / name / ENTRY_NAME for name in eval_package_names(root)}
    return {name: path for name, path in found.items() if path.is_file()}


def registered_files(root: Path | None, seed: Path = EVALS_DIR) -> dict[str, Path]:
    """Each eval's entry file, by name: the checkout's own, else `seed`'s.

    The files of `registry_of`'s registry; reading them is left to it.
    """
    files = entry_files(seed)
    if root is not None:
        files = dict(sorted({**files, **target_entry_files(root)}.items()))
    return files


def registry_of(root: Path | None, seed: Path = EVALS_DIR) -> "Registry":
    """The registry of the checkout at `root`: its entries, then `seed`'s.

    An eval with an entry in the target is read from there; every other eval
    from the folder `seed` (this package's registry unless a test says
    otherwise). Without a checkout (`root` None) it is `seed` alone. Entries
    are loaded (and validated) when first asked for.
    """
    # imported here: finding the files (`registered_files`) needs no entry read
    from empty_migrate.registry.loader import Registry

    registry = Registry(seed)
    registry.files = registered_files(root, seed)
    return registry


def unknown_evals(registry: "Registry", root: Path) -> list[str]:
    """The eval packages of the checkout at `root` that have no registry entry."""
    return [name for name in eval_package_names(root) if name not in registry.files]
