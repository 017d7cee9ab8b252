"""What the golden cases cannot show: which files are touched, and a rewrite
inside one of two methods of the same name.

The skip (``classify`` bound to something else) is a golden case:
``golden/replace_dead_check/classify_bound_to_another_function.skip``.
"""

import pytest

from empty_migrate.codemods import implementation
from tests.codemods.check import CodemodCheck
from tests.codemods.golden import GOLDEN
from tests.demo import scorer_target

REGISTRY = (GOLDEN / "replace_dead_check" / "registry.yaml").read_text()


@pytest.fixture
def check(tmp_path):
    return CodemodCheck.on_scorer("replace_dead_check", tmp_path, REGISTRY)


def test_touches_files_only_for_checks_inside_constructs(tmp_path, check):
    source = check.dedented(
        """
        from inspect_ai.scorer import Score, scorer


        def helper(state):
            return "" if not state.output else state.output.completion


        @scorer(metrics=[])
        def demo_scorer():
            async def score(state, target):
                return Score(value=float(helper(state) == target.text))

            return score
        """
    )
    target = scorer_target(tmp_path, source, REGISTRY)
    assert target.scan.dead_checks
    assert implementation("replace_dead_check").files(target) == []


def test_each_function_reads_its_own_bindings_found_by_qualified_path(check):
    # two methods named alike: only the one whose `answer` is the completion
    # holds a whitespace-blind check
    check.check_transformed(
        """\
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
        """,
        """\
        from inspect_ai.scorer import Score, scorer
        from inspect_evals.utils.empty_response import classify, Outcome


        @scorer(metrics=[])
        def demo_scorer():
            class Raw:
                def check(self, state):
                    if classify(state.output) is not Outcome.ANSWERED:
                        return Score(value=0.0)

            class Extracted:
                def check(self, state):
                    answer = extract(state.output.completion)
                    if not answer:
                        return Score(value=0.0)

            return Raw()
        """,
    )
