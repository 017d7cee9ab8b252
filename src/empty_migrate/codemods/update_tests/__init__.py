"""update_tests: update the target's tests that pin the old non-answer behaviour.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="update_tests",
    description="Update target tests that pin the old non-answer behaviour.",
    documentation=(
        "Applies the registry's `test_updates`: the smallest edits that make a "
        "target test which pinned the old non-answer behaviour assert the new "
        "one (an empty answer now `NOANSWER`, a test double with no choices "
        "given a real one). Each edit must match exactly once, or the eval is "
        "skipped. Runs only when the eval's scoring was migrated; the changelog "
        "names each updated test and why. A test is never deleted or skipped"
    ),
    changes_scores=False,
    follows_changes=True,
)
