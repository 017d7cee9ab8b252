"""install_router: install the outcome router in the target and retire the preset.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="install_router",
    description=(
        "Install the outcome router as inspect_evals.utils.empty_response and "
        "turn preset_score_on_no_response into a deprecated shim over it."
    ),
    documentation=(
        "Installs `src/inspect_evals/utils/empty_response.py`, generated from "
        "this package's own `router.py`, with `policy.py` inlined, so the copy "
        "and the source never drift. Turns `preset_score_on_no_response` into a "
        "deprecated shim that delegates to the router. Implied by any code "
        "codemod, and never listed in the registry"
    ),
    changes_scores=True,
    repo_level=True,
    implied_by="imports_router",
)
