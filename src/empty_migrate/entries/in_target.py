"""An eval's registry entry as the file a migrated target keeps beside its eval.

Once migrated, each eval of the target holds its own entry,
``src/inspect_evals/<eval>/empty_response.yaml``, beside its ``eval.yaml``
(whose loader forbids keys it does not know), in this package's registry
format: the migration writes it (the ``write_registry_entry`` codemod), a new
eval's author adds one, and ``empty-migrate lint`` reads them
(`empty_migrate.registry.target`).
"""

from functools import cache

from empty_migrate import TYPE_CHECKING
from empty_migrate.target.layout import PACKAGE_ROOT

if TYPE_CHECKING:  # writing an entry needs them; finding one (ENTRY_NAME) does not
    from empty_migrate.entries.schema import EvalEntry

ENTRY_NAME = "empty_response.yaml"
"""The file name of an eval's entry in the target, beside its ``eval.yaml``."""

HEADER = """\
# The empty-response registry entry of {name}: how its scorers treat a model
# that gives no answer (empty, refused, cut off), in empty-migrate's registry
# format. `empty-migrate lint` reads it and checks the eval's scorers against
# it; change it with the scorers. A new eval adds its own beside its eval.yaml.
"""


def entry_path(name: str) -> str:
    """Where the target keeps the entry of eval `name`, from the repo root."""
    return (PACKAGE_ROOT / name / ENTRY_NAME).as_posix()


def scaffold_command(name: str) -> str:
    """The command that writes a starting entry for eval `name` where it belongs."""
    return f"empty-migrate registry scaffold {name} > {entry_path(name)}"


def render_entry(name: str, entry: "EvalEntry") -> str:
    """The text of eval `name`'s target entry: `HEADER`, then `entry` as YAML.

    Deterministic, and loading it gives `entry` back. Unset fields and empty
    lists and mappings are left out (they are the defaults); no anchors or
    aliases, which the loader refuses.
    """
    import yaml

    from empty_migrate.entries.schema import as_data

    data = {
        key: value
        for key, value in as_data(entry).items()
        if value != [] and value != {}
    }
    body = yaml.dump(
        data, Dumper=_plain_dumper(), sort_keys=False, allow_unicode=True, width=88
    )
    return HEADER.format(name=name) + body


@cache
def _plain_dumper() -> type:
    """Safe YAML that writes a repeated value out again instead of aliasing it."""
    from typing import Any

    import yaml

    class PlainDumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:  # noqa: D102
            return True

    return PlainDumper
