"""emit_policy_tests: write a behavioural test of the policy for each migrated eval.

The declaration: what the codemod is, does and implies. Its rewrite is in
``rewrite.py``, loaded only when it runs.
"""

from empty_migrate.codemods.kit.declaration import Declaration

DECLARATION = Declaration(
    name="emit_policy_tests",
    description=(
        "Write tests/<eval>/test_empty_response_policy.py, asserting the route of "
        "every outcome class for each routed scorer, and its shared fixtures."
    ),
    documentation=(
        "Writes `tests/<eval>/test_empty_response_policy.py`: each routed "
        "scorer, built by the eval's own code, scores a real provider-shaped "
        "output of every outcome class, and the test asserts the route the "
        "registry and the policy give it (verdict, reason, `empty_outcome`, "
        "unscored or raised, judge not called; the scorer's own score, tagged "
        "where the route tags, also after a tool-calling turn), on both "
        "polarities of a per-sample eval, and that an answer reaches the "
        "eval's scorer. Its "
        "helpers, `tests/utils/empty_response.py`, are generated from this "
        "package's `probe.py` and fixture library. Runs only when the eval's "
        "scoring was migrated"
    ),
    changes_scores=False,
    follows_changes=True,
    shared_files=("tests/utils/empty_response.py",),
    implied_by="routes",
)
