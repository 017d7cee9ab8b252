"""replace_preset skips, with a reason, every call it cannot rewrite safely.

The golden cases specify the rewrites; a skip leaves the whole eval alone,
so these shapes are checked here instead.
"""

import textwrap

import pytest

from empty_migrate.codemods import implementation
from empty_migrate.codemods.kit.base import Skip
from tests.codemods.golden import SCORER_PATH, scorer_target

CODEMOD = implementation("replace_preset")

REGISTRY = """\
category: model_graded
polarity: neutral
output: state.output
judge: scorer
today: "empty completion -> preset INCORRECT (demo/scorer.py:9)"
codemods: [replace_preset, wrap_router]
tasks:
  demo: {}
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
"""

HEADER = """\
from inspect_ai.scorer import INCORRECT, Scorer, model_graded_fact

from inspect_evals.utils.scorers import preset_score_on_no_response
"""


def target(tmp_path, source, registry=REGISTRY):
    return scorer_target(tmp_path, source, registry)


def run(tmp_path, body, registry=REGISTRY):
    source = HEADER + textwrap.dedent(body)
    return CODEMOD.transform(source, SCORER_PATH, target(tmp_path, source, registry))


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
def test_call_outside_a_registered_construct_skips(tmp_path, body):
    with pytest.raises(Skip, match="not inside a registered scorer construct"):
        run(tmp_path, body)


def test_construct_kept_out_of_codemods_skips(tmp_path):
    registry = REGISTRY.replace(
        "construct: factory",
        "construct: factory\n    rewrite: false\n    note: a metric helper",
    )
    body = """
    def demo_scorer() -> Scorer:
        return preset_score_on_no_response(model_graded_fact(), INCORRECT)
    """
    with pytest.raises(Skip, match="rewrite: false"):
        run(tmp_path, body, registry)


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
def test_arguments_the_preset_does_not_take_skip(tmp_path, call):
    body = f"""
    def demo_scorer(*args) -> Scorer:
        return {call}
    """
    with pytest.raises(Skip, match="preset_score_on_no_response has"):
        run(tmp_path, body)


@pytest.mark.parametrize(
    "value",
    ["{'score': INCORRECT, 'confidence': 100}", "NO_RESPONSE_VALUE"],
    ids=["dict_literal", "dict_constant"],
)
def test_dict_value_without_dict_verdict_skips(tmp_path, value):
    body = f"""
    NO_RESPONSE_VALUE = {{"score": INCORRECT, "confidence": 100}}


    def demo_scorer() -> Scorer:
        return preset_score_on_no_response(model_graded_fact(), {value})
    """
    with pytest.raises(Skip, match="preset value is a dict"):
        run(tmp_path, body)


def test_scorer_shared_by_tasks_with_different_settings_skips(tmp_path):
    registry = REGISTRY.replace(
        "  demo: {}", "  demo: {}\n  demo_strict:\n    category: qa"
    ).replace("factory", "factory\n    tasks: [demo, demo_strict]")
    body = """
    def demo_scorer() -> Scorer:
        return preset_score_on_no_response(model_graded_fact(), INCORRECT)
    """
    with pytest.raises(Skip, match="settings differ between tasks"):
        run(tmp_path, body, registry)


def test_eval_that_does_not_list_it_has_no_files(tmp_path):
    registry = REGISTRY.replace("[replace_preset, wrap_router]", "[wrap_router]")
    source = HEADER + (
        "\n\ndef demo_scorer() -> Scorer:\n    return model_graded_fact()\n"
    )
    assert CODEMOD.files(target(tmp_path, source, registry)) == []


def test_each_call_is_rewritten_where_it_is_nested_ones_first(tmp_path):
    body = """
    def demo_scorer() -> Scorer:
        inner = preset_score_on_no_response(
            preset_score_on_no_response(model_graded_fact(), INCORRECT),
            INCORRECT,
        )
        return Task(scorer=(preset_score_on_no_response(inner, INCORRECT)))
    """
    router = 'route_empty_responses({}, category="model_graded")'
    assert run(tmp_path, body) == (
        "from inspect_ai.scorer import Scorer, model_graded_fact\n"
        "from inspect_evals.utils.empty_response import route_empty_responses\n"
        "\n"
        "def demo_scorer() -> Scorer:\n"
        f"    inner = {router.format(router.format('model_graded_fact()'))}\n"
        f"    return Task(scorer=({router.format('inner')}))\n"
    )


def test_a_skip_names_the_line_of_its_own_call(tmp_path):
    body = """
    def demo_scorer() -> Scorer:
        fine = preset_score_on_no_response(model_graded_fact(), INCORRECT)
        return preset_score_on_no_response(fine, INCORRECT, 1)
    """
    with pytest.raises(Skip, match=r"demo/scorer\.py:7: .* unexpected arguments"):
        run(tmp_path, body)
