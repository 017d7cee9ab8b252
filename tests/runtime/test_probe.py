"""probe.build_scorer builds a scorer the way the eval's own code does."""

import sys
import textwrap

import pytest
from inspect_ai.util import registry_info

from empty_migrate.runtime.probe import (
    Construct,
    absent_dependencies_deferred,
    build_scorer,
)
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions

EVAL = """
from inspect_ai import Task, task
from inspect_ai.scorer import Scorer, accuracy, match, model_graded_qa, scorer


@scorer(metrics=[accuracy()])
def needs_a_judge(judge: str) -> Scorer:
    return model_graded_qa(model=judge)


@task
def demo(scorer_model: str = "openai/gpt-4o", dataset_name: str = "x") -> Task:
    grader = scorer_model
    dataset = load(dataset_name)  # noqa: F821 (never run: the scorer needs none)
    return Task(dataset=dataset, scorer=model_graded_qa(model=grader))


@task
def judged(judge_model: str = "openai/gpt-4o") -> Task:
    return Task(dataset=[], scorer=needs_a_judge(judge_model))


def template(dataset_name: str) -> Task:
    return Task(dataset=[], scorer=match() if dataset_name else None)


def shared_template(dataset_name: str, dataset: list[str]) -> Task:
    scorer = match(location=dataset_name)
    return Task(dataset=dataset, scorer=scorer)


@task
def cloze() -> Task:
    # the dataset is never built: the scorer does not need it
    return shared_template("end", download())  # noqa: F821


@scorer(metrics=[accuracy()])
def needs_a_judge_nowhere(judge: str) -> Scorer:
    return model_graded_qa(model=judge)


@scorer(metrics=[accuracy()])
def configured_judge(template: str, grader_role: str = "grader") -> Scorer:
    return model_graded_qa(template=template, model_role=grader_role)
"""

RUN_CONFIG = """
task:
  task: probe_demo/cloze
  args:
    scorer:
      scorer: probe_demo/configured_judge
      graders: [grader, grader_2]
      args: {template: "{question} {answer} {criterion} {instructions}"}
"""

ABSENT = """
from inspect_ai.scorer import Score, Scorer, accuracy, scorer


@scorer(metrics=[accuracy()])
def needs_an_extra() -> Scorer:
    import probe_absent_extra.client as extra

    client = extra.Client(device=extra.cuda.current_device())

    async def score(state, target):
        return Score(value=client.grade(state.output.completion))

    return score
"""


@pytest.fixture
def package(tmp_path, monkeypatch):
    root = tmp_path / "probe_demo"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "demo.py").write_text(textwrap.dedent(EVAL))
    (root / "absent.py").write_text(textwrap.dedent(ABSENT))
    (root / "run_configs").mkdir()
    (root / "run_configs" / "default.yaml").write_text(RUN_CONFIG)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "probe_demo"
    for name in [m for m in sys.modules if m.startswith("probe_demo")]:
        del sys.modules[name]


def test_a_task_scorer_gets_its_task_defaults_and_the_lines_it_needs(package):
    built = build_scorer(f"{package}.demo", "demo", "task_scorer")
    assert registry_info(built).name.endswith("model_graded_qa")


def test_a_factory_with_arguments_is_built_by_the_call_its_task_makes(package):
    built = build_scorer(f"{package}.demo", "needs_a_judge", "factory", package=package)
    assert registry_info(built).name.endswith("needs_a_judge")


def test_a_parameter_with_no_default_is_an_error_that_names_it(package):
    with pytest.raises(TypeError, match="dataset_name"):
        build_scorer(f"{package}.demo", "template", "task_scorer", package=package)


def test_a_shared_task_template_gets_the_arguments_its_task_passes(package):
    built = build_scorer(
        f"{package}.demo", "shared_template", "task_scorer", package=package
    )
    assert registry_info(built).name.endswith("match")


def test_a_factory_no_code_calls_is_built_as_its_run_config_says(package):
    built = build_scorer(
        f"{package}.demo", "configured_judge", "factory", package=package
    )
    assert isinstance(built, list) and len(built) == 2
    assert {registry_info(b).name.split("/")[-1] for b in built} == {"configured_judge"}


def test_a_factory_neither_called_nor_configured_is_an_error_that_says_so(package):
    with pytest.raises(ValueError, match="neither a call of it nor a run config"):
        build_scorer(
            f"{package}.demo", "needs_a_judge_nowhere", "factory", package=package
        )


def test_an_absent_dependency_builds_and_fails_where_the_scorer_uses_it(package):
    with absent_dependencies_deferred(package):
        built = build_scorer(
            f"{package}.absent", "needs_an_extra", "factory", package=package
        )
        assert "probe_absent_extra.client" in sys.modules
    assert "probe_absent_extra" not in sys.modules
    assert registry_info(built).name.endswith("needs_an_extra")
    with pytest.raises(ModuleNotFoundError, match="probe_absent_extra"):
        import probe_absent_extra  # noqa: F401


def test_an_absent_dependency_only_stands_in_for_the_importers_code(package):
    with absent_dependencies_deferred(package), pytest.raises(ModuleNotFoundError):
        import probe_absent_extra  # noqa: F401


async def test_an_answer_reaches_the_scorer_that_needs_an_absent_dependency(package):
    from probe_demo.absent import needs_an_extra

    construct = Construct(needs_an_extra, "factory", package)
    (scored,) = await construct.score(OUTCOME_EXAMPLES["answered"]())
    assert isinstance(scored.raised, ModuleNotFoundError)
    assert "probe_absent_extra.client.Client().grade" in str(scored.raised)
