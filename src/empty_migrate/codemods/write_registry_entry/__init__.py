"""write_registry_entry: keep the eval's registry entry beside its eval.yaml.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="write_registry_entry",
    description=(
        "Write src/inspect_evals/<eval>/empty_response.yaml, the eval's registry "
        "entry, for `empty-migrate lint` to read in the target."
    ),
    documentation=(
        "Writes `src/inspect_evals/<eval>/empty_response.yaml` beside `eval.yaml`: "
        "the eval's registry entry as the migration used it, under a comment "
        "saying what it is, so that `empty-migrate lint` reads it from the "
        "target and a new eval's author adds one there. Runs only when the "
        "eval's code was migrated"
    ),
    changes_scores=False,
    follows_changes=True,
    implied_by="rewrites_code",
)
