"""replace_preset skips, with a reason, every call it cannot rewrite safely.

The golden cases specify the rewrites, and the skips that have a case of
their own (``golden/replace_preset/*.skip``: a construct kept from rewrite,
a dict value, tasks with different settings, the line of the call named);
the shapes below are checked here, several to a test.
"""

import pytest

from empty_migrate.codemods import implementation
from tests.codemods.check import CodemodCheck
from tests.demo import entry, scorer_target

REGISTRY = entry(
    category="model_graded",
    judge="scorer",
    codemods=["replace_preset", "wrap_router"],
    today="empty completion -> preset INCORRECT (demo/scorer.py::demo_scorer)",
)

HEADER = """\
from inspect_ai.scorer import INCORRECT, Scorer, model_graded_fact

from inspect_evals.utils.scorers import preset_score_on_no_response
"""


@pytest.fixture
def check(tmp_path):
    return CodemodCheck.on_scorer("replace_preset", tmp_path, REGISTRY)


@pytest.mark.parametrize(
    "body",
    [
        "\nSCORER = preset_score_on_no_response(model_graded_fact(), INCORRECT)\n",
        """
        def other_scorer() -> Scorer:
            return preset_score_on_no_response(model_graded_fact(), INCORRECT)
        """,
        """
        class Scorers:
            def demo_scorer(self) -> Scorer:
                return preset_score_on_no_response(model_graded_fact(), INCORRECT)
        """,
    ],
    ids=["module_level", "unregistered_function", "method"],
)
def test_call_outside_a_registered_construct_skips(check, body):
    check.check_skipped(
        HEADER + check.dedented(body), "not inside a registered scorer construct"
    )


@pytest.mark.parametrize(
    "call",
    [
        "preset_score_on_no_response(model_graded_fact(), INCORRECT, 1)",
        "preset_score_on_no_response(model_graded_fact(), value=INCORRECT)",
        "preset_score_on_no_response(*args)",
        "preset_score_on_no_response(no_response_value=INCORRECT)",
    ],
    ids=["extra_positional", "unknown_keyword", "starred", "no_grader"],
)
def test_arguments_the_preset_does_not_take_skip(check, call):
    body = f"\ndef demo_scorer(*args) -> Scorer:\n    return {call}\n"
    check.check_skipped(HEADER + body, "preset_score_on_no_response has")


def test_eval_that_does_not_list_it_has_no_files(tmp_path):
    registry = REGISTRY.replace("[replace_preset, wrap_router]", "[wrap_router]")
    source = HEADER + (
        "\n\ndef demo_scorer() -> Scorer:\n    return model_graded_fact()\n"
    )
    target = scorer_target(tmp_path, source, registry)
    assert implementation("replace_preset").files(target) == []


def test_each_call_is_rewritten_where_it_is_nested_ones_first(check):
    body = """
    def demo_scorer() -> Scorer:
        inner = preset_score_on_no_response(
            preset_score_on_no_response(model_graded_fact(), INCORRECT),
            INCORRECT,
        )
        return Task(scorer=(preset_score_on_no_response(inner, INCORRECT)))
    """
    router = 'route_empty_responses({}, category="model_graded")'
    check.check_transformed(
        HEADER + check.dedented(body),
        "from inspect_ai.scorer import Scorer, model_graded_fact\n"
        "from inspect_evals.utils.empty_response import route_empty_responses\n"
        "\n"
        "def demo_scorer() -> Scorer:\n"
        f"    inner = {router.format(router.format('model_graded_fact()'))}\n"
        f"    return Task(scorer=({router.format('inner')}))\n",
    )
