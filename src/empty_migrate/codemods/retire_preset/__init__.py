"""retire_preset: shim ``preset_score_on_no_response`` along with its last callers.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

PRESET = "preset_score_on_no_response"
"""The helper it retires."""
PRESET_FILE = "utils/scorers.py"
"""Where the helper is defined, relative to ``src/inspect_evals``."""

DECLARATION = Declaration(
    name="retire_preset",
    description=(
        "Turn preset_score_on_no_response into a deprecated shim over the router, "
        "in the run that migrates its last callers."
    ),
    documentation=(
        "In `utils/scorers.py`, `preset_score_on_no_response` becomes a "
        "deprecated shim that routes its grader as a `qa` scorer with the preset "
        "value as its non-answer verdict, keeping its signature, registry name, "
        "metrics and params. Only in a run whose unit holds every eval that "
        "calls it (the planner migrates them together); while any other eval "
        "calls it, it keeps its behaviour. Implied by `replace_preset`"
    ),
    changes_scores=True,
    repo_level=True,
    implied_by="replaces_preset",
)
