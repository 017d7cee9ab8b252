"""replace_dead_check: replace empty checks that never fire or miss cases.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="replace_dead_check",
    description=(
        "Replace empty checks that never fire or miss whitespace with the "
        "router's classification of the model's output."
    ),
    documentation=(
        "Replaces `if not state.output`, `state.output and ...`, `output.empty` "
        'read as "no text", empty checks that miss whitespace, and `text is not '
        "None` with the router's classification"
    ),
    changes_scores=True,
    changelog_clause="a hand-written empty check now uses its classification",
    imports_router=True,
    finds="dead_checks",
    needs=("install_router",),
)
