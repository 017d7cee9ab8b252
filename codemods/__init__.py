"""The codemods: ``CODEMODS`` maps each declared name to its implementation.

Ships inside the installed package as ``empty_migrate.codemods``. Each codemod
is declared once, in `empty_migrate.codemod_declarations.DECLARATIONS`, and
implemented by the one `Codemod` subclass of the module named for it, with its
golden cases in ``golden/<name>/``. The mapping's order is the pipeline order:
a file touched by several codemods gets them in this order.
"""

from importlib import import_module

from empty_migrate.codemod_declarations import DECLARATIONS, Declaration
from empty_migrate.codemods.base import Codemod


def implementation(declaration: Declaration) -> Codemod:
    """The codemod `declaration` declares: its module's `Codemod` subclass.

    Raises:
        TypeError: If ``codemods/<name>.py`` does not define exactly one.
    """
    module = import_module(f"{__name__}.{declaration.name}")
    classes = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Codemod)
        and value.__module__ == module.__name__
    ]
    if len(classes) != 1:
        raise TypeError(f"{module.__name__} defines {len(classes)} Codemod classes")
    return classes[0](declaration)


CODEMODS: dict[str, Codemod] = {d.name: implementation(d) for d in DECLARATIONS}
