"""fix_reason_tag: give scores on a model's non-answer path Inspect's ``reason``.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="fix_reason_tag",
    description=(
        "Add reason= (and a missing explanation=) to scores returned on a "
        "model's non-answer path."
    ),
    documentation=(
        "Adds `reason=` and a missing `explanation=` to the scores returned on "
        "a non-answer path. It never changes `value=`"
    ),
    changes_scores=False,
    changelog_clause="a hand-written empty or refusal score now sets `reason`",
    imports_router=True,
)
