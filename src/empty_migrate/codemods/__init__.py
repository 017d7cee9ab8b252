"""The codemods, in pipeline order.

Each codemod is a folder named for what it does. Its ``__init__.py`` declares it
(`DECLARATION`: its name, descriptions, safety and what it implies, standard
library only, so the registry and the command line read it without loading
LibCST); its ``rewrite.py`` implements it, as one `Codemod` subclass, loaded
only when a run needs it. Its golden cases are in ``golden/<name>/``. The
building blocks the codemods share are in ``kit/``.

`DECLARATIONS` is the pipeline order, stated once: a file touched by several
codemods gets them in this order. Adding a codemod is a new folder here, one
line below, and its golden cases.
"""

from collections.abc import Iterable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from empty_migrate.codemods import (
    bump_task_version,
    changelog,
    emit_policy_tests,
    fix_reason_tag,
    install_router,
    judge_bypass,
    replace_dead_check,
    replace_preset,
    retire_preset,
    update_tests,
    wrap_router,
    write_registry_entry,
)
from empty_migrate.codemods.kit.declaration import Declaration

if TYPE_CHECKING:  # the rewrites and their base load only when a run needs them
    from pathlib import Path

    from empty_migrate.analysis.scan import EvalScan
    from empty_migrate.analysis.workspace import Workspace
    from empty_migrate.codemods.kit.base import Codemod, EvalTarget
    from empty_migrate.entries.schema import EvalEntry

__all__ = [
    "DECLARATIONS",
    "declaration",
    "declared",
    "eval_target",
    "implementation",
    "listed_by",
    "names",
    "readme_table",
]

DECLARATIONS: tuple[Declaration, ...] = (
    install_router.DECLARATION,
    replace_preset.DECLARATION,
    retire_preset.DECLARATION,
    wrap_router.DECLARATION,
    judge_bypass.DECLARATION,
    replace_dead_check.DECLARATION,
    fix_reason_tag.DECLARATION,
    update_tests.DECLARATION,
    emit_policy_tests.DECLARATION,
    bump_task_version.DECLARATION,
    changelog.DECLARATION,
    write_registry_entry.DECLARATION,
)


def names() -> list[str]:
    """Every codemod's name, in pipeline order."""
    return [d.name for d in DECLARATIONS]


def declared(names: Iterable[str]) -> tuple[Declaration, ...]:
    """The declarations of the codemods `names` names, in pipeline order.

    Names no codemod declares are left out.
    """
    wanted = set(names)
    return tuple(d for d in DECLARATIONS if d.name in wanted)


def declaration(name: str) -> Declaration:
    """The declaration of the codemod named `name`.

    Raises:
        KeyError: If no codemod has that name.
    """
    for declared_codemod in DECLARATIONS:
        if declared_codemod.name == name:
            return declared_codemod
    raise KeyError(f"no codemod is named {name!r}")


@cache
def implementation(name: str) -> "Codemod":
    """The codemod named `name`: its ``rewrite.py``'s `Codemod` subclass, built once.

    Raises:
        KeyError: If no codemod has that name.
        TypeError: If its ``rewrite.py`` does not define exactly one subclass.
    """
    declared_codemod = declaration(name)
    from empty_migrate.codemods.kit.base import Codemod  # not for a declaration

    module = import_module(f"{__name__}.{name}.rewrite")
    classes = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Codemod)
        and value.__module__ == module.__name__
    ]
    if len(classes) != 1:
        raise TypeError(f"{module.__name__} defines {len(classes)} Codemod classes")
    return classes[0](declared_codemod)


def listed_by(entry: "EvalEntry") -> tuple[Declaration, ...]:
    """The declarations of the codemods an entry lists (none for none or manual)."""
    return declared(entry.codemods) if isinstance(entry.codemods, list) else ()


def eval_target(
    name: str,
    entry: "EvalEntry",
    scan: "EvalScan",
    repo: "Path",
    today: str = "",
    changed_by: Iterable[str] = (),
    workspace: "Workspace | None" = None,
    unit: Iterable[str] = (),
) -> "EvalTarget":
    """One eval to migrate, its entry's codemods and `changed_by` as declarations.

    It reads the tree at `repo` through `workspace`, or a workspace of its own;
    `unit` is the evals migrated together with it (itself alone by default).
    """
    from empty_migrate.analysis.workspace import Workspace
    from empty_migrate.codemods.kit.base import EvalTarget

    listed = listed_by(entry)
    if workspace is None:
        workspace = Workspace(repo)
    return EvalTarget(
        name,
        entry,
        scan,
        today,
        listed,
        declared(changed_by),
        workspace,
        tuple(unit) or (name,),
    )


def readme_table() -> str:
    """The README's codemod table: name, safety and what each one does."""
    rows = [f"| `{d.name}` | {d.safety} | {d.documentation} |" for d in DECLARATIONS]
    return "\n".join(["| codemod | safety | what it does |", "|---|---|---|", *rows])
