# ruff: noqa: E501  (the expected texts are whole files, one line each)
"""wrap_router on every return shape: only the returned expression changes.

Its skips with a golden case of their own: ``golden/wrap_router/*.skip``.
"""

import textwrap

import pytest

from tests.codemods.check import CodemodCheck
from tests.demo import entry

REGISTRY = entry(settings="no_answer_verdict: I\n")
TASK_REGISTRY = entry(
    construct="task_scorer",
    today="empty -> INCORRECT (demo/scorer.py::demo_scorer)",
    file="demo/scorer.py",
)

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


@pytest.fixture
def check(tmp_path):
    # the shapes are whole files, some with carriage returns: read as written
    return CodemodCheck.on_scorer("wrap_router", tmp_path, REGISTRY).but(dedent=False)


@pytest.fixture
def check_task(tmp_path):
    return CodemodCheck.on_scorer("wrap_router", tmp_path, TASK_REGISTRY)


@pytest.mark.parametrize("shape", EXPECTED)
def test_each_return_shape_is_wrapped_in_place(shape, check):
    # the second run reads the unformatted output: the alias shape's one
    # import line then binds the router twice, and both names are its
    check.check_transformed(textwrap.dedent(SHAPES[shape]), EXPECTED[shape])


def test_lone_carriage_return_line_ends_are_a_skip(check):
    # no golden case: the harness reads golden files with universal newlines
    check.check_skipped(SHAPES["old_mac_line_ends"], "carriage-return")


def test_a_scorer_parameter_is_wrapped_where_it_is_passed(check_task):
    wrapped = check_task.run(
        "def demo(scorer):\n    return Task(dataset=[], scorer=scorer)\n"
    )
    assert wrapped.splitlines()[-1] == (
        '    return Task(dataset=[], scorer=route_empty_responses(scorer, category="qa"))'
    )


def test_a_scorer_variable_is_wrapped_where_it_is_assigned(check_task):
    source = (
        "def demo(strict):\n"
        "    scorer = match() if strict else includes()\n"
        "    return Task(dataset=[], scorer=scorer)\n"
    )
    wrapped = check_task.run(source)
    assert wrapped.splitlines()[2:] == [
        "    scorer = route_empty_responses(match() if strict else includes(), "
        'category="qa")',
        "    return Task(dataset=[], scorer=scorer)",
    ]
    check_task.check_unchanged(wrapped)
