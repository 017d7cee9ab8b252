"""Scorer helpers shared by several evals."""

import warnings
from typing import Any

from inspect_ai._util.registry import REGISTRY_PARAMS, is_registry_object, registry_info
from inspect_ai.scorer import INCORRECT, Scorer, Value

from inspect_evals.utils.empty_response import route_empty_responses


def scorer_name(grader: Scorer) -> str:
    """The registry name of a scorer, or its function name when unregistered."""
    if is_registry_object(grader):
        return registry_info(grader).name
    return getattr(grader, "__name__", "scorer")


def scorer_params(grader: Scorer) -> dict[str, Any]:
    """The registry params a scorer was built with."""
    return dict(getattr(grader, REGISTRY_PARAMS, None) or {})


def preset_score_on_no_response(
    grader: Scorer, no_response_value: Value = INCORRECT
) -> Scorer:
    """Wrap a scorer so empty responses output a predefined score.

    Deprecated: use ``route_empty_responses`` from
    ``inspect_evals.utils.empty_response``, which routes every kind of
    non-answer (silence, truncation, refusal, platform filter, context
    overflow) by the empty-response policy. This shim routes ``grader`` as a
    ``qa`` scorer whose non-answer verdict is ``no_response_value``, and keeps
    its registry name, metrics and params so it can be passed directly to a
    ``Task``.
    """
    warnings.warn(
        "preset_score_on_no_response is deprecated: use route_empty_responses "
        "from inspect_evals.utils.empty_response",
        DeprecationWarning,
        stacklevel=2,
    )
    return route_empty_responses(
        grader, category="qa", no_answer_verdict=no_response_value
    )
