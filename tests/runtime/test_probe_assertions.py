"""The emitted tests' assertions tell every route apart, and fail on a crash.

``assert_scored`` compares a routed score with what the scorer it wraps
makes of the same sample: the tagged and the plain route differ on a failing
score, a scorer's own crash fails unless its construct declares it, and an
agent's state holds a tool-calling turn. Real scorers, the real router.
"""

import sys
import textwrap

import pytest
from inspect_ai.model import ChatMessageTool

from empty_migrate.runtime.probe import Construct, assert_scored, task_state
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions

SCORERS = """
from inspect_ai.scorer import CORRECT, INCORRECT, Score, accuracy, scorer

from empty_migrate.runtime.router import route_empty_responses


def fails(state, target):
    return Score(value=INCORRECT)


def passes(state, target):
    return Score(value=CORRECT)


def crashes(state, target):
    raise KeyError("rubric")


def wrapped(verdict, route):
    async def score(state, target):
        return verdict(state, target)

    return route_empty_responses(
        score, category="agentic", overrides={"tool_calls_only": route}
    )


@scorer(metrics=[accuracy()])
def tagged_failing():
    return wrapped(fails, "score_tagged")


@scorer(metrics=[accuracy()])
def plain_failing():
    return wrapped(fails, "score")


@scorer(metrics=[accuracy()])
def tagged_passing():
    return wrapped(passes, "score_tagged")


@scorer(metrics=[accuracy()])
def plain_passing():
    return wrapped(passes, "score")


@scorer(metrics=[accuracy()])
def tagged_crashing():
    return wrapped(crashes, "score_tagged")


@scorer(metrics=[accuracy()])
def unscored_crashing():
    return wrapped(crashes, "unscored")
"""


@pytest.fixture(scope="module")
def scorers(tmp_path_factory):
    root = tmp_path_factory.mktemp("probe_routes") / "probe_routes"
    root.mkdir()
    (root / "__init__.py").write_text(textwrap.dedent(SCORERS))
    sys.path.insert(0, str(root.parent))
    import probe_routes

    yield probe_routes
    sys.path.remove(str(root.parent))
    del sys.modules["probe_routes"]


async def scored(scorers, name: str, offline: str | None = None):
    construct = Construct(
        getattr(scorers, name), "factory", "probe_routes", offline=offline
    )
    return await construct.score(OUTCOME_EXAMPLES["tool_calls_only"]())


async def test_a_failing_score_shows_the_route_tagged_or_plain(scorers):
    tagged = await scored(scorers, "tagged_failing")
    assert_scored(tagged, "tool_calls_only", "score_tagged", "no_response")
    with pytest.raises(AssertionError):
        assert_scored(tagged, "tool_calls_only", "score", "no_response")

    plain = await scored(scorers, "plain_failing")
    assert_scored(plain, "tool_calls_only", "score", "no_response")
    with pytest.raises(AssertionError):
        assert_scored(plain, "tool_calls_only", "score_tagged", "no_response")


async def test_a_passing_score_shows_its_route_only_in_the_metadata(scorers):
    for name, route, other in [
        ("tagged_passing", "score_tagged", "score"),
        ("plain_passing", "score", "score_tagged"),
    ]:
        found = await scored(scorers, name)
        assert_scored(found, "tool_calls_only", route, "x")
        with pytest.raises(AssertionError, match="tool_calls_only"):
            assert_scored(found, "tool_calls_only", other, "x")


async def test_a_scorers_crash_fails_unless_declared(scorers):
    crashed = await scored(scorers, "tagged_crashing")
    with pytest.raises(AssertionError, match="raised KeyError"):
        assert_scored(crashed, "tool_calls_only", "score_tagged", "no_response")

    declared = await scored(scorers, "tagged_crashing", "KeyError: needs a rubric")
    assert_scored(declared, "tool_calls_only", "score_tagged", "no_response")

    # a route away from the scorer shows, though the scorer cannot score
    moved = await scored(scorers, "unscored_crashing", "KeyError: needs a rubric")
    with pytest.raises(AssertionError):
        assert_scored(moved, "tool_calls_only", "score_tagged", "no_response")


async def test_an_unrouted_scorer_fails(scorers):
    routed = await scored(scorers, "plain_failing")
    routed[0].own = None
    with pytest.raises(AssertionError, match="not routed"):
        assert_scored(routed, "tool_calls_only", "score")


def test_after_tools_the_state_holds_a_tool_calling_turn():
    output = OUTCOME_EXAMPLES["overflow"]()
    state = task_state(output, after_tools=True)
    assert any(isinstance(m, ChatMessageTool) for m in state.messages)
    assert state.output is output
    assert state.messages[-1] == output.message
