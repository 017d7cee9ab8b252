"""bump_task_version: bump ``N`` of the eval's task version when its scores change.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="bump_task_version",
    description="Bump N of the eval's task version N-X when its scores changed.",
    documentation=(
        '`N` of `version: "N-X"` in `eval.yaml` goes up by one when the eval\'s '
        "scores changed (the target's TASK_VERSIONING.md)"
    ),
    changes_scores=False,
    follows_changes=True,
)
