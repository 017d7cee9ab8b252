"""What the golden cases cannot show: the skip, and which files are touched."""

import textwrap

import pytest

from empty_migrate.codemods import implementation
from empty_migrate.codemods.kit.base import EvalTarget, Skip
from tests.codemods.golden import GOLDEN, SCORER_PATH, scorer_target

CODEMOD = implementation("replace_dead_check")


def _target(tmp_path, source: str) -> EvalTarget:
    registry = (GOLDEN / "replace_dead_check" / "registry.yaml").read_text()
    return scorer_target(tmp_path, textwrap.dedent(source), registry)


def test_skips_when_classify_is_another_function(tmp_path):
    target = _target(
        tmp_path,
        """
        from inspect_ai.scorer import Score, scorer

        from inspect_evals.demo.labels import classify


        @scorer(metrics=[])
        def demo_scorer():
            async def score(state, target):
                if not state.output:
                    return Score(value=0.0)
                return Score(value=float(classify(target.text) == "yes"))

            return score
        """,
    )
    text = (tmp_path / SCORER_PATH).read_text()
    with pytest.raises(Skip, match="`classify` is bound to something else"):
        CODEMOD.transform(text, SCORER_PATH, target)


def test_touches_files_only_for_checks_inside_constructs(tmp_path):
    target = _target(
        tmp_path,
        """
        from inspect_ai.scorer import Score, scorer


        def helper(state):
            return "" if not state.output else state.output.completion


        @scorer(metrics=[])
        def demo_scorer():
            async def score(state, target):
                return Score(value=float(helper(state) == target.text))

            return score
        """,
    )
    assert target.scan.dead_checks
    assert CODEMOD.files(target) == []


def test_each_function_reads_its_own_bindings_found_by_qualified_path(tmp_path):
    # two methods named alike: only the one whose `answer` is the completion
    # holds a whitespace-blind check
    source = """\
        from inspect_ai.scorer import Score, scorer


        @scorer(metrics=[])
        def demo_scorer():
            class Raw:
                def check(self, state):
                    answer = state.output.completion
                    if not answer:
                        return Score(value=0.0)

            class Extracted:
                def check(self, state):
                    answer = extract(state.output.completion)
                    if not answer:
                        return Score(value=0.0)

            return Raw()
        """
    target = _target(tmp_path, source)
    text = (tmp_path / SCORER_PATH).read_text()
    expected = textwrap.dedent(source).replace(
        """\
            answer = state.output.completion
            if not answer:""",
        """\
            if classify(state.output) is not Outcome.ANSWERED:""",
    )
    expected = expected.replace(
        "from inspect_ai.scorer import Score, scorer\n",
        "from inspect_ai.scorer import Score, scorer\n"
        "from inspect_evals.utils.empty_response import classify, Outcome\n",
    )
    assert CODEMOD.transform(text, SCORER_PATH, target) == expected
