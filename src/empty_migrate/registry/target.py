"""The registry entries of a target checkout, in front of this package's.

A migrated target keeps each eval's entry beside its ``eval.yaml``
(`empty_migrate.entries.in_target`); `with_target_entries` is the one place
the two registries meet: the target's entry wins where both have one, and
this package's fills in the evals the target has none for (those the
migration left ``manual`` or ``none``, say).
"""

from pathlib import Path

from empty_migrate.entries.in_target import ENTRY_NAME
from empty_migrate.registry.loader import Registry
from empty_migrate.source.scan import NOT_EVALS, PACKAGE_ROOT


def target_entry_files(root: Path) -> dict[str, Path]:
    """Each eval's entry file in the checkout at `root`, by eval name."""
    return {
        path.parent.name: path
        for path in sorted((root / PACKAGE_ROOT).glob(f"*/{ENTRY_NAME}"))
        if path.parent.name not in NOT_EVALS and path.parent.name[0] not in "_."
    }


def with_target_entries(registry: Registry, root: Path) -> Registry:
    """`registry` with the entries of the checkout at `root` in front.

    An eval with an entry in the target is read from there; every other eval
    from `registry`. Entries are loaded (and validated) when first asked for.
    """
    merged = Registry(registry.directory)
    merged.files = dict(sorted({**registry.files, **target_entry_files(root)}.items()))
    return merged
