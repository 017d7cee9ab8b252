# ruff: noqa: E501  (the expected texts are whole files, one line each)
"""wrap_router on every return shape: only the returned expression changes."""

import textwrap

import pytest

from empty_migrate.codemods import implementation
from empty_migrate.codemods.kit.base import Skip
from tests.codemods.golden import SCORER_PATH, scorer_target

CODEMOD = implementation("wrap_router")

REGISTRY = """\
category: qa
polarity: neutral
no_answer_verdict: I
output: state.output
judge: none
today: "empty completion -> INCORRECT (demo/scorer.py:1)"
codemods: [wrap_router]
tasks:
  demo: {}
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
"""

SHAPES = {
    "plain": """\
        def demo_scorer():
            return match()
        """,
    "parenthesized_multiline_with_comment": """\
        def demo_scorer():
            return (  # the grader
                model_graded_qa(
                    template=TEMPLATE,  # keep
                )
            )
        """,
    "branches_and_nested_function": """\
        def demo_scorer(strict: bool = False):
            async def score(state, target):
                return Score(value=1)

            if strict:
                return score
            try:
                return other()
            except ValueError:
                return fallback()
        """,
    "method_and_unicode": """\
        class Holder:
            def demo_scorer(self):
                x = "héllo"; return match(x)
        """,
    "one_line_suite": """\
        def demo_scorer(): return match()
        """,
    "already_routed_by_alias": """\
        from inspect_evals.utils.empty_response import route_empty_responses as route


        def demo_scorer():
            if flag:
                return route(match(), category="qa")
            return match()
        """,
    "backslash_continuation": """\
        def demo_scorer():
            return \\
                match()
        """,
    "crlf": "def demo_scorer():\r\n    return match(\r\n        1,\r\n    )\r\n",
    "old_mac_line_ends": "def demo_scorer():\r    return match(\r        1,\r    )\r",
}


EXPECTED = {  # the router call: one line a keyword, as ruff leaves it later
    "plain": 'from inspect_evals.utils.empty_response import route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\ndef demo_scorer():\n    return route_empty_responses(match(), category="qa", no_answer_verdict=INCORRECT)\n',
    "parenthesized_multiline_with_comment": 'from inspect_evals.utils.empty_response import route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\ndef demo_scorer():\n    return route_empty_responses((  # the grader\n        model_graded_qa(\n            template=TEMPLATE,  # keep\n        )\n    ), category="qa", no_answer_verdict=INCORRECT)\n',
    "branches_and_nested_function": 'from inspect_evals.utils.empty_response import route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\ndef demo_scorer(strict: bool = False):\n    async def score(state, target):\n        return Score(value=1)\n\n    if strict:\n        return route_empty_responses(score, category="qa", no_answer_verdict=INCORRECT)\n    try:\n        return route_empty_responses(other(), category="qa", no_answer_verdict=INCORRECT)\n    except ValueError:\n        return route_empty_responses(fallback(), category="qa", no_answer_verdict=INCORRECT)\n',
    "method_and_unicode": 'from inspect_evals.utils.empty_response import route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\nclass Holder:\n    def demo_scorer(self):\n        x = "héllo"; return route_empty_responses(match(x), category="qa", no_answer_verdict=INCORRECT)\n',
    "one_line_suite": 'from inspect_evals.utils.empty_response import route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\ndef demo_scorer(): return route_empty_responses(match(), category="qa", no_answer_verdict=INCORRECT)\n',
    "already_routed_by_alias": 'from inspect_evals.utils.empty_response import route_empty_responses as route, route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\n\n\ndef demo_scorer():\n    if flag:\n        return route(match(), category="qa")\n    return route_empty_responses(match(), category="qa", no_answer_verdict=INCORRECT)\n',
    "backslash_continuation": 'from inspect_evals.utils.empty_response import route_empty_responses\nfrom inspect_ai.scorer import INCORRECT\ndef demo_scorer():\n    return \\\n        route_empty_responses(match(), category="qa", no_answer_verdict=INCORRECT)\n',
    "crlf": 'from inspect_evals.utils.empty_response import route_empty_responses\r\nfrom inspect_ai.scorer import INCORRECT\r\ndef demo_scorer():\r\n    return route_empty_responses(match(\r\n        1,\r\n    ), category="qa", no_answer_verdict=INCORRECT)\r\n',
}


def _target(tmp_path, source):
    return scorer_target(tmp_path, source, REGISTRY)


@pytest.mark.parametrize("shape", EXPECTED)
def test_each_return_shape_is_wrapped_in_place(shape, tmp_path):
    source = textwrap.dedent(SHAPES[shape])
    target = _target(tmp_path, source)
    wrapped = CODEMOD.transform(source, SCORER_PATH, target)
    assert wrapped == EXPECTED[shape]
    compile(wrapped, SCORER_PATH, "exec")


def test_lone_carriage_return_line_ends_are_a_skip(tmp_path):
    source = SHAPES["old_mac_line_ends"]
    with pytest.raises(Skip, match="carriage-return"):
        CODEMOD.transform(source, SCORER_PATH, _target(tmp_path, source))


def test_a_bare_return_is_a_skip(tmp_path):
    source = "def demo_scorer():\n    return\n"
    with pytest.raises(Skip, match="bare return"):
        CODEMOD.transform(source, SCORER_PATH, _target(tmp_path, source))


TASK_REGISTRY = """\
category: qa
polarity: neutral
output: state.output
judge: none
today: "empty -> INCORRECT (demo/scorer.py:1)"
codemods: [wrap_router]
tasks:
  demo: {}
scorers:
  - name: demo
    file: demo/scorer.py
    construct: task_scorer
"""


def test_a_scorer_parameter_is_wrapped_where_it_is_passed(tmp_path):
    source = "def demo(scorer):\n    return Task(dataset=[], scorer=scorer)\n"
    target = scorer_target(tmp_path, source, TASK_REGISTRY)
    wrapped = CODEMOD.transform(source, SCORER_PATH, target)
    assert wrapped.splitlines()[-1] == (
        '    return Task(dataset=[], scorer=route_empty_responses(scorer, category="qa"))'
    )


def test_a_scorer_variable_is_wrapped_where_it_is_assigned(tmp_path):
    source = (
        "def demo(strict):\n"
        "    scorer = match() if strict else includes()\n"
        "    return Task(dataset=[], scorer=scorer)\n"
    )
    target = scorer_target(tmp_path, source, TASK_REGISTRY)
    wrapped = CODEMOD.transform(source, SCORER_PATH, target)
    assert wrapped.splitlines()[2:] == [
        "    scorer = route_empty_responses(match() if strict else includes(), "
        'category="qa")',
        "    return Task(dataset=[], scorer=scorer)",
    ]
    assert CODEMOD.transform(wrapped, SCORER_PATH, target) == wrapped


def test_a_scorer_list_built_up_in_place_is_a_skip(tmp_path):
    source = (
        "def demo(strict):\n"
        "    scorers = [match()]\n"
        "    if strict:\n"
        "        scorers.append(includes())\n"
        "    return Task(dataset=[], scorer=scorers)\n"
    )
    target = scorer_target(tmp_path, source, TASK_REGISTRY)
    with pytest.raises(Skip, match="scorer=scorers: scorers is built up in place"):
        CODEMOD.transform(source, SCORER_PATH, target)
