"""install_router: install the outcome router in the target.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="install_router",
    description=(
        "Install the outcome router as inspect_evals.utils.empty_response, the "
        "module every migrated eval imports."
    ),
    documentation=(
        "Installs `src/inspect_evals/utils/empty_response.py`, generated from "
        "this package's own `router.py`, with `policy.py` inlined, so the copy "
        "and the source never drift; a text its maintainers edited is kept "
        "(unsafe: a newer text changes how the evals migrated before score). "
        "Implied by any code codemod, and never listed in the registry"
    ),
    changes_scores=True,
    repo_level=True,
    shared_files=("src/inspect_evals/utils/empty_response.py",),
    implied_by="imports_router",
)
