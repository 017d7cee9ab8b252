"""probe.recording_judge: every judge a scorer of the eval asks for is the mock."""

import sys
import textwrap

import pytest
from inspect_ai.model import ModelRole, get_model
from inspect_ai.scorer import CORRECT, Target, model_graded_fact, model_graded_qa

from empty_migrate.runtime.probe import (
    Construct,
    recording_judge,
    task_state,
)
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions

JUDGES = """
from inspect_ai import model as inspect_model
from inspect_ai.model import GenerateConfig, get_model

JUDGES = {
    "named": lambda: get_model("openai/gpt-4o"),
    "named_with_config": lambda: get_model(
        "anthropic/claude-sonnet-4-0", config=GenerateConfig(temperature=0.0)
    ),
    "bare": lambda: get_model(),
    "role": lambda: get_model(role="grader"),
    "role_with_default": lambda: get_model(role="grader", default="openai/gpt-4o"),
    "required_role": lambda: get_model(role="critic", required=True),
    "role_with_config": lambda: get_model(
        role="grader", config=GenerateConfig(max_tokens=5)
    ),
    "role_through_the_module": lambda: inspect_model.get_model(role="grader"),
    # browse_comp's default grader: the active model, through the module
    "bare_through_the_module": lambda: inspect_model.get_model(),
}
"""

SHARED = """
from inspect_ai.model import GenerateConfig, get_model


def shared_role_judge():
    return get_model(role="grader")


def shared_role_judge_with_config():
    return get_model(role="grader", config=GenerateConfig(max_tokens=5))


def shared_bare_model():
    return get_model()


def shared_named_model():
    return get_model("mockllm/elsewhere")
"""

LATE = """
from inspect_ai.scorer import Score, accuracy, scorer


@scorer(metrics=[accuracy()])
def late_judged(role: str) -> object:
    from judge_demo.lazy import judge_for  # first imported when the scorer is built

    async def score(state, target):
        output = await judge_for(role).generate(state.output.completion)
        return Score(value=output.completion)

    return score
"""

LAZY = """
from inspect_ai.model import get_model


def judge_for(role):
    return get_model(role=role)
"""

LATE_TASK = """
from inspect_ai import Task, task

from judge_demo.late import late_judged


@task
def late_task() -> Task:
    return Task(dataset=[], scorer=late_judged("grader"))
"""


@pytest.fixture
def packages(tmp_path, monkeypatch):
    """``judge_demo`` (the eval) and ``judge_shared`` (a helper package it uses)."""
    files = {
        "judge_demo/__init__.py": "",
        "judge_demo/judges.py": JUDGES,
        "judge_demo/late.py": LATE,
        "judge_demo/late_task.py": LATE_TASK,
        "judge_demo/lazy.py": LAZY,
        "judge_shared/__init__.py": "",
        "judge_shared/helpers.py": SHARED,
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("INSPECT_EVAL_MODEL", raising=False)
    yield
    for name in [
        m for m in sys.modules if m.startswith(("judge_demo", "judge_shared"))
    ]:
        del sys.modules[name]


async def _asked(model, prompt="Is it Paris?") -> str:
    return (await model.generate(prompt)).completion


@pytest.mark.parametrize(
    "judge",
    [
        "named",
        "named_with_config",
        "bare",
        "role",
        "role_with_default",
        "required_role",
        "role_with_config",
        "role_through_the_module",
        "bare_through_the_module",
    ],
)
async def test_every_judge_the_eval_asks_for_is_the_recording_mock(packages, judge):
    from judge_demo.judges import JUDGES

    with recording_judge("judge_demo", reply="GRADE: I") as recorder:
        assert await _asked(JUDGES[judge]()) == "GRADE: I"
    assert recorder.prompts == ["Is it Paris?"]


async def test_a_role_asked_for_outside_the_eval_packages_is_the_mock(packages):
    from judge_shared.helpers import (
        shared_bare_model,
        shared_named_model,
        shared_role_judge,
    )

    with recording_judge("judge_demo") as recorder:
        assert await _asked(shared_role_judge()) == "GRADE: C"
        # the active model, asked for by a bare call, is the scorer's judge
        assert shared_bare_model() is recorder.model
        # a model named outright outside the eval's packages is not a judge
        assert shared_named_model() is not recorder.model
    assert recorder.prompts == ["Is it Paris?"]


@pytest.mark.parametrize(
    "graded",
    [
        lambda: model_graded_qa(),
        lambda: model_graded_qa(model_role="critic"),
        lambda: model_graded_qa(model_role=ModelRole("critic", required=True)),
        lambda: model_graded_qa(model="openai/gpt-4o"),
        lambda: model_graded_fact(),
        lambda: model_graded_fact(model_role="judge"),
    ],
    ids=["qa", "qa_role", "qa_required_role", "qa_named", "fact", "fact_role"],
)
async def test_inspect_ais_model_graded_scorers_ask_the_mock(graded):
    with recording_judge() as recorder:
        state = task_state(OUTCOME_EXAMPLES["answered"]())
        score = await graded()(state, Target("Paris"))
    assert score.value == CORRECT
    assert len(recorder.prompts) == 1 and "Paris" in recorder.prompts[0]


async def test_majority_vote_graders_each_ask_the_mock():
    with recording_judge() as recorder:
        graded = model_graded_qa(model=["openai/gpt-4o", "anthropic/claude-3"])
        await graded(task_state(OUTCOME_EXAMPLES["answered"]()), Target("Paris"))
    assert len(recorder.prompts) == 2


def test_everything_is_restored_on_leaving(packages):
    import judge_demo.judges as judges

    holders = _holders()
    with pytest.raises(RuntimeError), recording_judge("judge_demo"):
        assert judges.get_model is not get_model
        raise RuntimeError("a scorer failed")
    assert judges.get_model is get_model
    assert _holders() == holders
    with pytest.raises(ValueError, match="No model specified"):
        get_model(role="grader")


async def test_a_role_asked_for_with_a_config_keeps_it(packages):
    from judge_shared.helpers import shared_role_judge_with_config

    with recording_judge("judge_demo") as recorder:
        model = shared_role_judge_with_config()
        assert model.config.max_tokens == 5
        await _asked(model)
    assert len(recorder.prompts) == 1
    assert recorder.model.config.max_tokens is None


async def test_a_nested_judge_records_until_it_leaves(packages):
    from judge_demo.judges import JUDGES

    with recording_judge("judge_demo") as outer:
        with recording_judge("judge_demo") as inner:
            await _asked(JUDGES["role"]())
            await _asked(JUDGES["named"]())
        await _asked(JUDGES["role"]())
        await _asked(JUDGES["named"]())
    assert (len(inner.prompts), len(outer.prompts)) == (2, 2)


async def test_a_module_the_build_imports_is_covered(packages):
    from judge_demo.late import late_judged

    construct = Construct(late_judged, "factory", "judge_demo")
    assert "judge_demo.lazy" not in sys.modules
    (scored,) = await construct.score(OUTCOME_EXAMPLES["answered"]())
    assert "judge_demo.lazy" in sys.modules
    assert (scored.raised, scored.judge_calls) == (None, 1)


def _holders() -> dict[str, object]:
    return {
        name: module.get_model
        for name, module in list(sys.modules.items())
        if "get_model" in getattr(module, "__dict__", {})
    }
