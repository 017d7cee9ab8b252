"""wrap_router's fast path (splicing each returned expression) equals its
transformer (a LibCST pass over the whole function) on every return shape."""

import textwrap

import pytest

from empty_migrate.codemods import CODEMODS, wrap_router
from empty_migrate.codemods.base import Skip

from .golden import SCORER_PATH, scorer_target

CODEMOD = CODEMODS["wrap_router"]

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


def _target(tmp_path, source):
    return scorer_target(tmp_path, source, REGISTRY)


@pytest.mark.parametrize("shape", SHAPES)
def test_fast_path_equals_the_whole_function_transformer(shape, tmp_path, monkeypatch):
    source = textwrap.dedent(SHAPES[shape])
    target = _target(tmp_path, source)
    taken = []
    in_place = wrap_router._wrap_returns_in_place
    monkeypatch.setattr(
        wrap_router,
        "_wrap_returns_in_place",
        lambda *args: taken.append(in_place(*args)) or taken[-1],
    )
    fast = CODEMOD.transform(source, SCORER_PATH, target)
    # only odd line breaks need the whole-function pass
    assert taken == [shape not in ("backslash_continuation", "old_mac_line_ends")]
    monkeypatch.setattr(wrap_router, "_wrap_returns_in_place", lambda *a: False)
    slow = CODEMOD.transform(source, SCORER_PATH, target)
    assert fast == slow
    assert "route_empty_responses(" in fast
    compile(fast, SCORER_PATH, "exec")


def test_a_bare_return_is_a_skip_on_both_paths(tmp_path, monkeypatch):
    source = "def demo_scorer():\n    return\n"
    target = _target(tmp_path, source)
    with pytest.raises(Skip, match="bare return"):
        CODEMOD.transform(source, SCORER_PATH, target)
    monkeypatch.setattr(wrap_router, "_wrap_returns_in_place", lambda *a: False)
    with pytest.raises(Skip, match="bare return"):
        CODEMOD.transform(source, SCORER_PATH, target)
