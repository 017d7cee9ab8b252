"""judge_bypass: stop model-graded evals from sending non-answers to their judge.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="judge_bypass",
    description=(
        "Check every judge runs inside a routed scorer; guard solver-side judges "
        "so non-answers never reach them."
    ),
    documentation=(
        "Checks that every judge call runs inside a routed scorer. A judge in a "
        "solver gets a guard (`if classify(state.output) is not "
        "Outcome.ANSWERED: return state`), and the model's output is saved to "
        "the store where the registry says. Any other shape is skipped with the "
        "reason"
    ),
    changes_scores=True,
    changelog_clause="the judge is skipped for non-answers",
    imports_router=True,
    spares_judge=True,
    needs=("install_router",),
)
