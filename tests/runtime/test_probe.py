"""probe.build_scorer builds a scorer the way the eval's own code does."""

import sys
import textwrap

import pytest
from inspect_ai.util import registry_info

from empty_migrate.runtime.probe import build_scorer

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
"""


@pytest.fixture
def package(tmp_path, monkeypatch):
    root = tmp_path / "probe_demo"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "demo.py").write_text(textwrap.dedent(EVAL))
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
        build_scorer(f"{package}.demo", "template", "task_scorer")
