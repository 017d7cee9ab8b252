"""What the golden cases cannot show: the skip, and which files are touched."""

import textwrap

import pytest

from empty_migrate.codemods import CODEMODS
from empty_migrate.codemods.base import EvalTarget, Skip

from .golden import GOLDEN, SCORER_PATH, scorer_target

CODEMOD = CODEMODS["replace_dead_check"]


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
