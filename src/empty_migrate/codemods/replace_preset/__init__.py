"""replace_preset: replace ``preset_score_on_no_response`` with the outcome router.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="replace_preset",
    description=(
        "Replace each preset_score_on_no_response(grader, value) call with "
        "route_empty_responses(grader, ...) and the enclosing scorer's settings."
    ),
    documentation=(
        "`preset_score_on_no_response(grader, value)` calls (positional, "
        "keyword, aliased or module-qualified) become "
        "`route_empty_responses(grader, ...)` with the enclosing scorer's "
        "registry values. The import is removed once it is unused"
    ),
    changes_scores=True,
    changelog_clause="`preset_score_on_no_response` is replaced",
    routes=True,
    imports_router=True,
    finds="preset_calls",
    needs=("install_router",),
)
