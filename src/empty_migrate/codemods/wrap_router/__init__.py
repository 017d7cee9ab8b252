"""wrap_router: wrap each registered scorer construct with the outcome router.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="wrap_router",
    description="Wrap each registered scorer construct with the outcome router.",
    documentation=(
        "Wraps each registered construct: the `return` of a `@scorer` factory "
        "or shared helper, or the `scorer=` of a `Task(...)`. The keyword "
        "arguments are written out explicitly, so nothing is looked up at "
        "runtime"
    ),
    changes_scores=True,
    changelog_clause="{scorers} wrapped in `{router}`",
    routes=True,
    imports_router=True,
    needs=("install_router", "replace_preset"),
)
