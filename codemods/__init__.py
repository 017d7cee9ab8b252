"""The codemods, discovered in one place: ``CODEMODS`` maps name to codemod.

Ships inside the installed package as ``empty_migrate.codemods``. Each codemod
lives in its own module named for what it does, with its golden cases in
``golden/<name>/``. The mapping's order is the pipeline order: a file touched
by several codemods gets them in this order.
"""

from empty_migrate.codemods.base import Codemod
from empty_migrate.codemods.wrap_router import WrapRouter

CODEMODS: dict[str, Codemod] = {
    codemod.name: codemod
    for codemod in [
        WrapRouter(),
    ]
}
