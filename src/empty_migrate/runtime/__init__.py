"""What is copied into a target: the policy, the outcome router and the probe.

These modules depend on inspect_ai (public API) and the standard library only:
``install_router`` installs `router` (with `policy` inlined) as
``inspect_evals/utils/empty_response.py``, and ``emit_policy_tests`` writes
`probe` into the target as ``tests/utils/empty_response.py``.
"""
