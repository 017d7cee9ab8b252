"""write_registry_entry: write the eval's registry entry into the target.

The file, ``src/inspect_evals/<eval>/empty_response.yaml``, is rendered from
the loaded entry (`empty_migrate.entries.in_target.render_entry`), so it reads
the same however the package's registry file was laid out, and loading it
gives the same entry back. It is inside the eval's own folder, so it goes
with the eval's own branch. Safe: it changes no code and no score; it runs
only when the eval's code was migrated (an eval left ``manual`` or ``none``
is not touched, and lint reads its entry from this package's registry).
"""

from empty_migrate.codemods.kit.base import Codemod, EvalTarget
from empty_migrate.entries.in_target import entry_path, render_entry


class WriteRegistryEntry(Codemod):
    """Write the eval's registry entry beside its eval.yaml."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not any(d.rewrites_code for d in target.changed_by):
            return []
        return [entry_path(target.name)]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        return render_entry(target.name, target.entry)
