"""changelog: record a migrated eval's change where inspect_evals asks for it.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="changelog",
    description="Add a changelog.d fragment and a README changelog entry.",
    documentation=(
        "Writes a scriv fragment in `changelog.d/` and a `### [N-X] - date` "
        "entry in the eval's README, each saying in one or two sentences what "
        "changes for that eval's numbers"
    ),
    changes_scores=False,
    follows_changes=True,
)
