"""A small inspect_evals-shaped tree to scan: two evals, a docs-only one, utils."""

from pathlib import Path

import pytest

from tests.demo import write_files

ALPHA_TASK = """
from inspect_ai import Task, task
from inspect_ai.scorer import choice, model_graded_qa

from inspect_evals.utils.scorers import preset_score_on_no_response


@task
def alpha():
    return Task(dataset=[], scorer=preset_score_on_no_response(model_graded_qa(), 0.0))


@task
def alpha_mcq():
    return Task(dataset=[], scorer=choice())
"""

ALPHA_SCORER = """
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, scorer, accuracy


@scorer(metrics=[accuracy()])
def alpha_scorer():
    async def score(state, target):
        if not state.output:
            return Score(value=0)
        if not state.output.completion:
            return Score(value=0)
        grader = get_model("openai/gpt-4o")
        return Score(value=1)

    return score
"""

ALPHA_YAML = """\
category: model_graded
polarity: neutral
output: state.output
judge: scorer
today: "empty -> preset 0.0 (alpha/alpha.py::alpha)"
codemods:
  [replace_preset, wrap_router, replace_dead_check, bump_task_version, changelog]
tasks:
  alpha: {}
  alpha_mcq: {}
scorers:
  - name: alpha
    file: alpha/alpha.py
    construct: task_scorer
    tasks: [alpha]
  - name: alpha_scorer
    file: alpha/scorer.py
    construct: factory
"""

DOCS_YAML = """\
category: qa
polarity: neutral
output: none
judge: none
today: "documentation only; see utils/scorers.py::preset_score_on_no_response"
codemods: none
codemods_reason: the package holds only documentation
"""


@pytest.fixture
def synthetic_repo(demo) -> Path:
    """A small inspect_evals-shaped tree: two evals, a docs-only one, utils."""
    write_files(
        demo.repo / "src/inspect_evals",
        {
            "utils/scorers.py": "def preset_score_on_no_response(g, v): ...\n",
            "alpha/__init__.py": "",
            "alpha/alpha.py": ALPHA_TASK,
            "alpha/scorer.py": ALPHA_SCORER,
            "docs/README.md": "no code\n",
        },
        dedent=True,
    )
    return demo.repo


@pytest.fixture
def synthetic_registry(demo) -> Path:
    return write_files(
        demo.registry, {"alpha.yaml": ALPHA_YAML, "docs.yaml": DOCS_YAML}
    )
